/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The dpkg database loader on arbitrary bytes.  The input is split into the
 * files of a temporary root's var/lib/dpkg: its text up to the first line
 * "@@ NAME" is `status`, and each "@@ NAME" line starts the file NAME
 * (diversions, arch, info/PKG.list, updates/0001, ...; names with "..",
 * or outside those places, are dropped).  The backend then probes, starts
 * and opens the root exactly as a scan does, and every package's
 * information, contents and owners are read back.
 *
 * The loader forks: the copy of the database (dpkg-copy.c) and libdpkg's
 * load run in a child, which sends the index back through a pipe.  That
 * is kept here, not replaced by an in-process load: libdpkg calls exit(2)
 * on a malformed file (the fuzzer would call that a crash of the target,
 * and the scan's whole point is to survive it) and keeps its package and
 * file hashes in globals no call resets.  So what runs in-process, and is
 * what coverage guides, is distsec's side: the status probe
 * (dpkg-status.c), the record parser and the package table; the child's
 * outcome is checked instead: a child killed by a signal (a crash in the
 * copy or in libdpkg, ASan's abort included) makes this target abort, so
 * the input is kept as a crash.  A hang of the child is a hang of the
 * target (libFuzzer's -timeout).  fork() is safe here: libFuzzer's only
 * other thread (the -rss_limit_mb watcher) sleeps and calls getrusage(),
 * holding no lock the child could need, and setitimer's alarm is not
 * inherited.  Each input gets a new root.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

extern const struct ds_backend *const ds_builtin_backends[];

static const struct ds_backend *dpkg_backend(void)
{
	static const struct ds_backend *b;
	for (size_t i = 0; !b && ds_builtin_backends[i]; i++)
		if (strcmp(ds_builtin_backends[i]->name, "dpkg") == 0)
			b = ds_builtin_backends[i];
	if (!b) {
		fprintf(stderr, "fuzz-dpkgdb: this build has no dpkg backend\n");
		abort();
	}
	return b;
}

/* A name the input may give a file: top-level, or in info/ or updates/. */
static bool good_name(const char *n)
{
	if (!n[0] || strstr(n, "..") || n[0] == '/' || strspn(n, "abcdefghijklmnopqrstuvwxyz"
	                                                      "0123456789+-._:/") != strlen(n))
		return false;
	const char *slash = strchr(n, '/');
	if (!slash)
		return true;
	return !strchr(slash + 1, '/') && slash[1] &&
	       (!strncmp(n, "info/", 5) || !strncmp(n, "updates/", 8));
}

static void put_file(const char *admin, const char *name, const uint8_t *p, size_t n)
{
	if (!good_name(name))
		return;
	char *path = ds_xasprintf("%s/%s", admin, name);
	FILE *fp = fopen(path, "ab");   /* a name given twice: the parts in turn */
	if (fp) {
		if (n)
			fwrite(p, 1, n, fp);
		fclose(fp);
	}
	free(path);
}

/* Removes the root the input made: files only in var/lib/dpkg, info and
 * updates (good_name() allows no deeper ones), then the directories. */
static void remove_tree(const char *root)
{
	static const char *const dirs[] = { "var/lib/dpkg/info", "var/lib/dpkg/updates",
	                                    "var/lib/dpkg", "var/lib", "var", "" };
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		char *d = ds_xasprintf("%s/%s", root, dirs[i]);
		DIR *h = i < 3 ? opendir(d) : NULL;
		struct dirent *e;
		while (h && (e = readdir(h)) != NULL)
			if (e->d_type != DT_DIR)
				unlinkat(dirfd(h), e->d_name, 0);
		if (h)
			closedir(h);
		rmdir(d);
		free(d);
	}
}

static int count_path(const char *path, void *ctx)
{
	(void)path;
	(*(size_t *)ctx)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ds_backend *b = dpkg_backend();
	ds_warn_silent = true;
	const char *tmp = getenv("TMPDIR");
	char *root = ds_xasprintf("%s/distsec-fuzz-dpkgdb-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		perror("fuzz-dpkgdb: root");
		abort();
	}
	char *admin = ds_xasprintf("%s/var/lib/dpkg", root);
	char *sub[] = { ds_xasprintf("%s/var", root), ds_xasprintf("%s/var/lib", root), admin,
	                ds_xasprintf("%s/info", admin), ds_xasprintf("%s/updates", admin) };
	for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++)
		mkdir(sub[i], 0755);
	/* split the input into its files */
	const uint8_t *p = data, *end = data + size;
	char name[128] = "status";
	const uint8_t *start = p;
	while (p < end) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		const uint8_t *next = nl ? nl + 1 : end;
		if (end - p >= 3 && !memcmp(p, "@@ ", 3)) {
			put_file(admin, name, start, (size_t)(p - start));
			size_t n = (size_t)((nl ? nl : end) - (p + 3));
			snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1),
			         (const char *)p + 3);
			start = next;
		}
		p = next;
	}
	put_file(admin, name, start, (size_t)(end - start));

	struct ds_probe probe = { 0 };
	b->probe(root, &probe);
	free(probe.detail);
	void *started = b->start(root, 0);
	struct ds_error e = DS_ERROR_INIT;
	void *h = b->open(root, 0, started, &e);
	const char *err = ds_error_msg(&e);
	if (!h && strstr(err, "crashed (signal")) {
		fprintf(stderr, "fuzz-dpkgdb: the loader child crashed: %s\n", err);
		abort();
	}
	static int verbose = -1;
	if (verbose < 0)
		verbose = getenv("FUZZ_DPKGDB_VERBOSE") != NULL;   /* to look at a seed */
	if (verbose && !h)
		fprintf(stderr, "fuzz-dpkgdb: not loaded: %s\n", err);
	if (h) {
		size_t n = b->count(h), paths = 0;
		for (ds_pkgid id = 0; id < n; id++) {
			const struct ds_pkg *pkg = b->info(h, id);
			ds_pkgid found = 0;
			if (pkg && pkg->name)
				b->find(h, pkg->name, &found);
			b->contents(h, id, count_path, &paths);
		}
		static const char *const probes[] = { "/bin/sh", "/usr/bin/tool", "/etc/passwd", "/" };
		for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
			const ds_pkgid *ids;
			size_t nids;
			b->owner_of(h, probes[i], &ids, &nids);
		}
		if (b->arches) {
			const char *const *names;
			size_t na;
			b->arches(h, &names, &na);
		}
		if (verbose)
			fprintf(stderr, "fuzz-dpkgdb: %zu packages, %zu paths%s%s\n", n, paths,
			        err[0] ? "; notes: " : "", err);
		b->close(h);
	}
	ds_error_clear(&e);
	remove_tree(root);
	for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++)
		if (sub[i] != admin)
			free(sub[i]);
	free(admin);
	free(root);
	return 0;
}
