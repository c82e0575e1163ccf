/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The dpkg backend: the root's dpkg database read with libdpkg, once.
 *
 * open() loads the status file, every installed package's file list and
 * the diversions, then copies what distsec needs into its own index
 * (path → packages) and package table, so look-ups never call libdpkg and
 * are safe from any thread.  libdpkg keeps global state, so it runs only in
 * a loader child (below); each handle is its own copy of what the child
 * sent, freed by close().  probe() does not load it (dpkg-status.c).
 *
 * Diversions: a package listing P whose P is diverted (by another package,
 * or locally) has its file on disk at the diverted-to name; the diverting
 * package owns P itself.  So the index holds each file under the name it
 * really has on disk.
 */
#define LIBDPKG_VOLATILE_API 1
#include <dpkg/dpkg.h>
#include <dpkg/arch.h>
#include <dpkg/dpkg-db.h>
#include <dpkg/db-ctrl.h>
#include <dpkg/db-fsys.h>
#include <dpkg/ehandle.h>
#include <dpkg/fsys.h>
#include <dpkg/pkg-list.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "apt-shim.h"
#include "archive-members.h"
#include "dpkg-copy.h"
#include "dpkg-status.h"
#include "distsec/backend.h"
#include "distsec/pkgtable.h"
#include "distsec/rootfile.h"
#include "distsec/util.h"

struct dpkg_db_state {
	struct ds_pkgtable t;   /* first: the handle is the table's (pkgtable.h); each
	                         * file under its on-disk name */
	char *root;
};

static char *dup_or_null(const char *s)
{
	return ds_field_dup(s);   /* capped: a 10 MB Maintainer would repeat in every finding */
}

/* "glibc (2.36-9)" → "glibc"; absent → the binary package's own name. */
static char *source_name(const struct pkginfo *pkg)
{
	const char *src = pkg->installed.source;
	if (!src || !*src)
		return ds_xstrdup(pkg->set->name);
	size_t n = strcspn(src, " (");
	return ds_xstrndup(src, n);
}

static const char *on_disk_name(const struct pkginfo *pkg, const struct fsys_namenode *fnn)
{
	const struct fsys_diversion *d = fnn->divert;
	if (d && d->useinstead && d->pkgset != pkg->set)
		return d->useinstead->name;
	return fnn->name;
}

static void add_package(struct dpkg_db_state *st, struct pkginfo *pkg)
{
	struct ds_pkg p = {
		.name = ds_xstrdup(pkg->set->name),
		.version = ds_xstrdup(versiondescribe(&pkg->installed.version, vdew_nonambig)),
		.arch = pkg->installed.arch ? dup_or_null(pkg->installed.arch->name) : NULL,
		.source = source_name(pkg),
		.maintainer = dup_or_null(pkg->installed.maintainer),
		.origin = dup_or_null(pkg->installed.origin),
	};
	ds_pkgtable_add(&st->t, &p);
	/* the files stay in libdpkg's lists: child_load sends them from there
	 * (an index here would be built only to be thrown away) */
	ensure_packagefiles_available(pkg);
}

static void free_state(struct dpkg_db_state *st)
{
	if (!st)
		return;
	ds_pkgtable_free(&st->t);
	free(st->root);
	free(st);
}

static int cmp_pkg(const void *a, const void *b)
{
	struct pkginfo *const *x = a, *const *y = b;
	int c = strcmp((*x)->set->name, (*y)->set->name);
	if (c)
		return c;
	const char *ax = (*x)->installed.arch ? (*x)->installed.arch->name : "";
	const char *ay = (*y)->installed.arch ? (*y)->installed.arch->name : "";
	return strcmp(ax, ay);
}

static const struct ds_apt_shim *find_shim(void)
{
	const char *dirs[DS_SEARCH_DIRS];
	size_t n = ds_module_dirs(dirs);
	for (size_t i = 0; i < n; i++) {
		char *path = ds_xasprintf("%s/%s", dirs[i], DS_APT_SHIM_FILE);
		ds_apt_shim_entry_fn entry = NULL;
		/* no reason wanted: without the shim, origins stay unknown */
		void *h = ds_module_load(path, DS_APT_SHIM_ENTRY, (void **)&entry, NULL);
		free(path);
		const struct ds_apt_shim *shim = h ? entry() : NULL;
		if (shim && shim->abi == DS_APT_SHIM_ABI)
			return shim; /* stays loaded for the process */
		if (h)
			dlclose(h);
	}
	return NULL;
}

/* Origin and candidate version from apt, when the shim is there; without
 * it (or without apt lists) those fields stay unknown.  libapt-pkg reads
 * the private copy of the status file, and the root's lists and etc/apt
 * only when nothing in them is a symlink, FIFO or device. */
static void add_apt_facts(struct dpkg_db_state *st, const char *admindir)
{
	const struct ds_apt_shim *shim = find_shim();
	struct ds_error err = DS_ERROR_INIT;
	char *lists = NULL, *etc = NULL;
	char *status = ds_xasprintf("%s/status", admindir);
	struct ds_apt *apt = NULL;
	char *absent = ds_xasprintf("%s/absent", admindir);
	if (shim && ds_apt_dirs(st->root, absent, &lists, &etc, &err) == 0)
		apt = shim->open(st->root, status, lists, etc, NULL);   /* without apt: origins unknown */
	else if (shim)   /* in the loader child: its stderr comes back as notes */
		fprintf(stderr, "distsec: apt origins not read: %s\n", ds_error_msg(&err));
	ds_error_clear(&err);
	free(absent);
	free(status);
	free(lists);
	free(etc);
	if (!apt)
		return;
	for (size_t i = 0; i < st->t.npkgs; i++) {
		struct ds_pkg *p = &st->t.pkgs[i];
		char *origin, *candidate;
		if (shim->lookup(apt, p->name, p->arch, &origin, &candidate) != 0)
			continue;
		free((char *)p->origin);
		p->origin = origin;
		p->candidate = candidate;
	}
	shim->close(apt);
}

/* The root's native architecture is that of its installed dpkg (libdpkg's
 * own native one is the host's); the foreign ones are var/lib/dpkg/arch. */
static void load_arches(struct dpkg_db_state *st)
{
	const char *native = NULL;
	for (size_t i = 0; i < st->t.npkgs && !native; i++)
		if (strcmp(st->t.pkgs[i].name, "dpkg") == 0)
			native = st->t.pkgs[i].arch;
	if (!native)   /* a root without dpkg installed (a chroot made by hand) */
		native = ds_pkgtable_common_arch(&st->t, "all");
	ds_pkgtable_add_arch(&st->t, native);
	dpkg_arch_reset_list();
	dpkg_arch_load_list();
	for (struct dpkg_arch *a = dpkg_arch_get_list(); a; a = a->next)
		if (a->type == DPKG_ARCH_FOREIGN)
			ds_pkgtable_add_arch(&st->t, a->name);
}

/* ---- loading, in a child process ------------------------------------
 *
 * libdpkg calls exit(2) on some malformed files (an empty line in a .list,
 * a garbled diversions file: "unrecoverable fatal error") and opens files
 * by name.  So a child process copies the database (dpkg-copy.c) and
 * loads the copy, and sends the index back through a pipe: records of a
 * type byte and NUL-terminated strings.  The child is forked by start(),
 * on the scan's main thread before any other thread exists; open(), on
 * the loader thread, reads what it sends.  The parent names the file being
 * read when the child failed, and a child that takes over LOAD_TIMEOUT is
 * killed.  Measured on this machine's 863-package database: see README. */
#define LOAD_TIMEOUT_MS (300 * 1000)
#define INDEX_MAX ((size_t)512 << 20)

/* In the loader child: where it writes, and the copy it loads. */
struct child {
	FILE *to_parent;       /* the child's end of the pipe */
	const char *copy_dir;
};

static void put_record(struct child *c, char type, const char *const *v, size_t n)
{
	fputc(type, c->to_parent);
	for (size_t i = 0; i < n; i++) {
		fputs(v[i] ? v[i] : "", c->to_parent);
		fputc('\0', c->to_parent);
	}
}

/* Which file the child reads now, named as in the root. */
static void progress(struct child *c, const char *path)
{
	size_t n = strlen(c->copy_dir);
	char *rel = !strncmp(path, c->copy_dir, n) ? ds_xasprintf("var/lib/dpkg%s", path + n)
	                                            : ds_xstrdup(path);
	put_record(c, 'M', (const char *[]){ rel }, 1);
	fflush(c->to_parent);
	free(rel);
}

static void child_error(const char *msg, const void *data)
{
	(void)data;
	fprintf(stderr, "%s\n", msg);
}

/* In the child: libdpkg loads the copy; the table is sent whole. */
static int child_load(struct child *c, const char *root, unsigned flags)
{
	const char *admindir = c->copy_dir;
	dpkg_set_progname("distsec");
	struct dpkg_db_state *st = ds_xcalloc(1, sizeof *st);
	st->root = ds_xstrdup(root);
	ds_pkgtable_init(&st->t);
	jmp_buf jump;
	if (setjmp(jump))
		return 1;
	push_error_context_jump(&jump, child_error, "loading the dpkg database");
	dpkg_fsys_set_dir(root);
	dpkg_db_set_dir(admindir);
	progress(c, ds_xasprintf("%s/status", admindir));
	modstatdb_open(msdbrw_readonly);
	progress(c, ds_xasprintf("%s/diversions", admindir));
	ensure_diversions();
	/* Sorted so package ids, and with them every report, are stable. */
	size_t n = 0, cap = 0;
	struct pkginfo **all = NULL;
	struct pkg_hash_iter *it = pkg_hash_iter_new();
	struct pkginfo *pkg;
	while ((pkg = pkg_hash_iter_next_pkg(it)) != NULL)
		if (pkg->status >= PKG_STAT_HALFINSTALLED)
			ds_push(all, n, cap, pkg);
	pkg_hash_iter_free(it);
	if (n)
		qsort(all, n, sizeof *all, cmp_pkg);
	for (size_t i = 0; i < n; i++) {
		progress(c, pkg_infodb_get_file(all[i], &all[i]->installed, LISTFILE));
		add_package(st, all[i]);
	}
	progress(c, ds_xasprintf("%s/arch", admindir));
	load_arches(st);
	pop_error_context(ehflag_normaltidy);
	if (flags & DS_OPEN_ORIGINS) {
		progress(c, "var/lib/apt");
		add_apt_facts(st, admindir);
	}
	for (size_t i = 0; i < st->t.npkgs; i++) {   /* package i is all[i] */
		const struct ds_pkg *p = &st->t.pkgs[i];
		put_record(c, 'P', (const char *[]){ p->name, p->version, p->arch, p->source,
		                                  p->maintainer, p->origin, p->candidate }, 7);
		for (struct fsys_namenode_list *f = all[i]->files; f; f = f->next)
			put_record(c, 'F', (const char *[]){ on_disk_name(all[i], f->namenode) }, 1);
	}
	for (size_t i = 0; i < st->t.narches; i++)
		put_record(c, 'A', &st->t.arches[i], 1);
	put_record(c, 'Z', NULL, 0);
	return fflush(c->to_parent) == 0 ? 0 : 1;
}

/* Everything the child wrote, until it closes the pipe or the deadline. */
static char *read_all(int fd, size_t *len, bool *timed_out)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = ds_xmalloc(cap);
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		long left = LOAD_TIMEOUT_MS - ((t.tv_sec - t0.tv_sec) * 1000 +
		                               (t.tv_nsec - t0.tv_nsec) / 1000000);
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = left > 0 ? poll(&p, 1, (int)left) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			*timed_out = r == 0;
			break;
		}
		if (n == cap) {
			if (cap >= INDEX_MAX)
				break;
			cap *= 2;
			buf = ds_xrealloc(buf, cap);
		}
		ssize_t got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	*len = n;
	return buf;
}

static const char *next_str(const char **p, const char *end)
{
	const char *s = *p;
	const char *z = memchr(s, '\0', (size_t)(end - s));
	if (!z)
		return NULL;
	*p = z + 1;
	return s;
}

/* The child's records into st; the last file it named in *marker, the
 * reason it could not copy the database in *failed.  0 when the stream
 * ended with 'Z'. */
static int parse_records(struct dpkg_db_state *st, const char *buf, size_t len,
                         const char **marker, const char **failed)
{
	const char *p = buf, *end = buf + len;
	ds_pkgid id = 0;
	bool have_pkg = false;
	while (p < end) {
		char type = *p++;
		const char *v[7] = { 0 };
		size_t nv = type == 'P' ? 7 : type == 'Z' ? 0 : 1;
		for (size_t i = 0; i < nv; i++)
			if (!(v[i] = next_str(&p, end)))
				return -1;
		if (type == 'Z')
			return 0;
		if (type == 'E') {
			*failed = v[0];
			return -1;
		} else if (type == 'M') {
			*marker = v[0];
		} else if (type == 'P') {
			struct ds_pkg pkg = {
				ds_xstrdup(v[0]), ds_xstrdup(v[1]), ds_field_dup(v[2]), ds_field_dup(v[3]),
				ds_field_dup(v[4]), ds_field_dup(v[5]), ds_field_dup(v[6]), NULL,
			};
			id = ds_pkgtable_add(&st->t, &pkg);
			have_pkg = true;
		} else if (type == 'F' && have_pkg) {
			ds_pkgtable_add_file(&st->t, id, v[0]);
		} else if (type == 'A') {
			ds_pkgtable_add_arch(&st->t, v[0]);
		}
	}
	return -1;
}

/* The last non-empty line the child wrote to stderr (libdpkg's reason):
 * where it starts, its length in *len (0: none). */
static const char *last_line(const char *text, int *len)
{
	const char *best = NULL;
	size_t bestn = 0;
	for (const char *l = text; *l; ) {
		size_t n = strcspn(l, "\n");
		size_t skip = strspn(l, " ");
		if (n > skip) {
			best = l + skip;
			bestn = n - skip;
		}
		l += n + (l[n] == '\n');
	}
	*len = best ? (int)bestn : 0;
	return best ? best : "";
}

/* libdpkg names the files of the copy: name them as in the root. */
static char *unprivate(char *text, const char *copy)
{
	size_t n = strlen(copy), hits = 0;
	for (const char *p = text; (p = strstr(p, copy)) != NULL; p += n)
		hits++;
	if (!hits)
		return text;
	char *out = ds_xmalloc(strlen(text) + hits * 16 + 1), *o = out;
	const char *p = text, *q;
	while ((q = strstr(p, copy)) != NULL) {
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		o = stpcpy(o, "var/lib/dpkg");
		p = q + n;
	}
	strcpy(o, p);
	free(text);
	return out;
}

static char *read_memfd(int fd)
{
	off_t size = lseek(fd, 0, SEEK_END);
	size_t n = size > 0 ? (size_t)size : 0;
	if (n > 65536)
		n = 65536;
	char *text = ds_xmalloc(n + 1);
	ssize_t got = pread(fd, text, n, 0);
	text[got > 0 ? got : 0] = '\0';
	return text;
}

static void child_exit_now(void)
{
	_exit(2);
}

/* A loader child: started, not yet collected; what start() returns. */
struct loader {
	char *root;
	unsigned flags;
	pid_t pid;
	int rfd, errfd;   /* the pipe's read end; the child's stderr (a memfd) */
	char *copy;       /* the private copy the child fills */
	struct ds_error err;   /* why it could not start */
};
#define LOADER_NONE { .rfd = -1, .errfd = -1 }

/* In the child: copy the database below the root, then load the copy. */
static int child_main(struct child *c, const char *root, unsigned flags)
{
	struct ds_error err = DS_ERROR_INIT;
	if (ds_dpkg_private_fill(root, c->copy_dir, &err) != 0) {
		put_record(c, 'E', (const char *[]){ ds_error_msg(&err) }, 1);
		return fflush(c->to_parent) == 0 ? 0 : 1;
	}
	return child_load(c, root, flags);
}

/* Ends the child if it runs, removes its copy, frees l. */
static void loader_free(struct loader *l)
{
	if (!l)
		return;
	if (l->pid > 0) {
		kill(l->pid, SIGKILL);
		while (waitpid(l->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (l->rfd >= 0)
		close(l->rfd);
	if (l->errfd >= 0)
		close(l->errfd);
	ds_dpkg_private_remove(l->copy);
	ds_error_clear(&l->err);
	free(l->root);
	free(l);
}

/* Forks the child that copies and loads root's database: its loader,
 * with the reason in err when it could not be started (pid <= 0). */
static struct loader *loader_start(const char *root, unsigned flags)
{
	struct loader *l = ds_xmalloc(sizeof *l);
	*l = (struct loader)LOADER_NONE;
	l->root = ds_xstrdup(root);
	l->flags = flags;
	int pipefd[2] = { -1, -1 };
	if (!(l->copy = ds_dpkg_private_dir(&l->err)))
		return l;
	l->errfd = memfd_create("distsec-dpkg-stderr", MFD_CLOEXEC);
	fflush(NULL);   /* nothing buffered is written twice by the child's exit() */
	pid_t pid = l->errfd >= 0 && pipe2(pipefd, O_CLOEXEC) == 0 ? fork() : -1;
	if (pid == 0) {
		/* libdpkg's fatal errors call exit(2): end at once, running none of
		 * the parent's atexit handlers (nor LeakSanitizer's, which would turn
		 * libdpkg's unfreed memory into an abort) in this child. */
		atexit(child_exit_now);
		close(pipefd[0]);
		dup2(l->errfd, STDERR_FILENO);
		struct child c = { fdopen(pipefd[1], "w"), l->copy };
		_exit(c.to_parent ? child_main(&c, root, flags) : 1);
	}
	if (pid < 0) {
		ds_error_errno(&l->err, errno, "cannot start the loader");
		if (pipefd[0] >= 0) {
			close(pipefd[0]);
			close(pipefd[1]);
		}
		return l;
	}
	close(pipefd[1]);
	l->pid = pid;
	l->rfd = pipefd[0];
	return l;
}

/* Starts the loader child: on the scan's main thread, before any other
 * thread exists (a fork() while other threads allocate can leave the
 * child's allocator locked -- seen under ASan), so the probe stays cheap
 * and the load overlaps the walk.  Everything that reads the database,
 * the copy included, runs in the child; open() collects the result.  Each
 * start() has its own child: two roots may load at once. */
static void *dpkg_start(const char *root, unsigned flags)
{
	return loader_start(root, flags);
}

/* Collects the child started (starting one now when start() began none
 * for this root and flags): NULL with the reason in err, else err holds
 * libdpkg's warnings (notes, possibly empty).  started is freed. */
static struct dpkg_db_state *load(const char *root, unsigned flags, struct loader *started,
                                  struct ds_error *err)
{
	struct loader *l = started;
	if (!l || strcmp(l->root, root) != 0 || l->flags != flags) {
		loader_free(l);
		l = loader_start(root, flags);
	}
	if (l->pid <= 0) {
		ds_error_set(err, l->err.kind, "%s", ds_error_msg(&l->err));
		loader_free(l);
		return NULL;
	}
	size_t len;
	bool timed_out = false;
	char *buf = read_all(l->rfd, &len, &timed_out);
	if (timed_out)
		kill(l->pid, SIGKILL);
	int status = 0;
	while (waitpid(l->pid, &status, 0) < 0 && errno == EINTR)
		;
	l->pid = 0;
	char *messages = unprivate(read_memfd(l->errfd), l->copy);
	struct dpkg_db_state *st = ds_xcalloc(1, sizeof *st);
	st->root = ds_xstrdup(root);
	ds_pkgtable_init(&st->t);
	const char *marker = NULL, *failed = NULL;
	int rc = parse_records(st, buf, len, &marker, &failed);
	/* The closing 'Z' record is the proof of a whole load: the child's exit
	 * status after it says nothing about the data (under valgrind it is the
	 * tool's own --error-exitcode for the child's unfreed memory). */
	if (rc != 0) {
		int n;
		const char *line = last_line(messages, &n);
		const char *where = marker ? marker : "var/lib/dpkg";
		if (failed)
			ds_error_set(err, DS_ERR_IO, "%s", failed);   /* the copy: names the file */
		else if (timed_out)
			ds_error_set(err, DS_ERR_IO, "%s: no answer in %d s", where, LOAD_TIMEOUT_MS / 1000);
		else if (WIFSIGNALED(status))
			ds_error_set(err, DS_ERR_PARSE, "%s: libdpkg crashed (signal %d)", where,
			             WTERMSIG(status));
		else if (n)
			ds_error_set(err, DS_ERR_PARSE, "%s: %.*s", where, n, line);
		else
			ds_error_set(err, DS_ERR_PARSE, "%s: libdpkg failed", where);
		free_state(st);
		st = NULL;
	} else if (messages[0]) {
		ds_error_append(err, "%s", messages);   /* libdpkg's warnings: notes */
	}
	free(messages);
	free(buf);
	loader_free(l);
	return st;
}

/* Cheap: stats and the status file only (dpkg-status.c); open() loads
 * the database, on the scan's loader thread. */
static int dpkg_probe(const char *root, struct ds_probe *out)
{
	memset(out, 0, sizeof *out);
	char *status = ds_root_resolve(root, "var/lib/dpkg/status");   /* as the walk sees it */
	int present = status != NULL;
	free(status);
	if (!present) {
		out->detail = ds_xstrdup("no var/lib/dpkg/status");
		return 0;
	}
	struct ds_dpkg_status st;
	struct ds_error err = DS_ERROR_INIT;
	if (ds_dpkg_status_probe(root, &st, &err) != 0) {
		/* said, rather than the scan silently going on without owners */
		out->detail = ds_xasprintf("var/lib/dpkg unreadable: %s", ds_error_msg(&err));
		out->unreadable = 1;
		ds_error_clear(&err);
		return 0;
	}
	out->packages = st.installed;
	out->usable = st.installed > 0;
	out->owns_bin_sh = st.owns_bin_sh;
	char *marker = ds_path_join(root, "etc/debian_version");
	out->native = access(marker, F_OK) == 0;
	free(marker);
	out->detail = ds_xasprintf("dpkg database var/lib/dpkg: %zu installed packages", st.installed);
	return 0;
}

static void *dpkg_open(const char *root, unsigned flags, void *started, struct ds_error *err)
{
	return load(root, flags, started, err);
}

/* "name" or "name:arch" (Multi-Arch: same packages are installed once
 * per architecture). */
static bool dpkg_names(const struct ds_pkg *p, const char *name)
{
	const char *colon = strchr(name, ':');
	size_t len = colon ? (size_t)(colon - name) : strlen(name);
	return strlen(p->name) == len && strncmp(p->name, name, len) == 0 &&
	       (!colon || (p->arch && strcmp(p->arch, colon + 1) == 0));
}

/* The first from *id on. */
static int dpkg_find(void *h, const char *name, ds_pkgid *id)
{
	return ds_pkgtable_find(&((struct dpkg_db_state *)h)->t, name, id, dpkg_names);
}


static void dpkg_close(void *h)
{
	free_state(h);
}

/* ---- .deb package files ------------------------------------------- */

/* A .deb is an ar archive: debian-binary, control.tar.*, data.tar.*.  The
 * control member is small and read whole; data.tar.* is read as a stream
 * straight from the ar member, so nothing of the payload is held twice. */
/* The maintainer scripts dpkg runs, as the control member names them. */
static const char *const maint_scripts[] = { "preinst", "postinst", "prerm", "postrm", "config" };
#define NSCRIPTS (sizeof maint_scripts / sizeof maint_scripts[0])

struct deb_file {
	struct archive *ar;
	struct ds_payload payload;
	struct ds_pkg pkg;
	struct {
		char *path;            /* "DEBIAN/postinst", NULL: not in the package */
		unsigned char *text;
		size_t len;
		struct ds_error why;   /* not read: why */
	} scripts[NSCRIPTS];
	size_t next_script;        /* the next to hand out */
	bool payload_only;         /* pkgfile_want: no scripts */
	char *path;                /* the .deb, for reading the data member again */
	char buf[65536];
};

#define CONTROL_MAX (1 << 20)

/* A maintainer script of the control member; one too large or unreadable
 * is handed out unread, with the reason. */
static void read_script(struct deb_file *df, struct archive *t, struct archive_entry *e,
                        size_t i)
{
	if (df->scripts[i].path)
		return;   /* named twice: the first one counts, as for dpkg-deb's extraction */
	df->scripts[i].path = ds_xasprintf("DEBIAN/%s", maint_scripts[i]);
	df->scripts[i].text = ds_member_text(t, e, DS_MEMBER_IN_MEMORY, &df->scripts[i].len,
	                                     &df->scripts[i].why);
}

/* The member's name in the control tar, "./" and "/" prefixes dropped. */
static const char *control_name(struct archive_entry *e)
{
	const char *name = archive_entry_pathname(e);
	while (name && name[0] == '.' && name[1] == '/')
		name += 2;
	return name;
}

/* Value of "Field:" in a control paragraph (first line only, capped like
 * every owner string), or NULL. */
static char *control_field(const char *text, const char *field)
{
	size_t flen = strlen(field);
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncasecmp(line, field, flen) != 0 || line[flen] != ':')
			continue;
		const char *v = line + flen + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		return ds_field_dupn(v, strcspn(v, "\n"));
	}
	return NULL;
}

static la_ssize_t from_member(struct archive *a, void *ctx, const void **buf)
{
	(void)a;
	struct deb_file *df = ctx;
	*buf = df->buf;
	return archive_read_data(df->ar, df->buf, sizeof df->buf);
}

/* A tar archive streamed from the current ar member. */
static struct archive *inner_tar(struct deb_file *df)
{
	struct archive *t = archive_read_new();
	archive_read_support_filter_all(t);
	archive_read_support_format_tar(t);
	if (archive_read_open(t, df, NULL, from_member, NULL) != ARCHIVE_OK) {
		archive_read_free(t);
		return NULL;
	}
	return t;
}

static int parse_control(struct deb_file *df, struct ds_error *err)
{
	struct archive *t = inner_tar(df);
	struct archive_entry *e;
	int rc = -1;
	const char *why = "control member has no control file";
	bool have_control = false;
	while (t && archive_read_next_header(t, &e) == ARCHIVE_OK) {
		const char *name = control_name(e);
		if (name && S_ISREG(archive_entry_mode(e)))
			for (size_t i = 0; i < NSCRIPTS; i++)
				if (!strcmp(name, maint_scripts[i]))
					read_script(df, t, e, i);
		if (!name || strcmp(name, "control") || have_control)
			continue;
		have_control = true;
		/* The fields come first: a control file over the cap is read up
		 * to it, never sized by its header. */
		int64_t size = archive_entry_size(e);
		if (size <= 0)
			break;
		size_t want = size > CONTROL_MAX ? CONTROL_MAX : (size_t)size, got = 0;
		char *text = ds_xmalloc(want + 1);
		la_ssize_t n = 1;
		while (got < want && (n = archive_read_data(t, text + got, want - got)) > 0)
			got += (size_t)n;
		text[got] = '\0';
		char *src = control_field(text, "Source");
		df->pkg.name = control_field(text, "Package");
		df->pkg.version = control_field(text, "Version");
		df->pkg.arch = control_field(text, "Architecture");
		df->pkg.maintainer = control_field(text, "Maintainer");
		df->pkg.source = src ? ds_xstrndup(src, strcspn(src, " (")) : dup_or_null(df->pkg.name);
		free(src);
		free(text);
		rc = df->pkg.name ? 0 : -1;
		if (rc) {
			why = "control file has no Package field";
			break;
		}
	}
	if (t)
		archive_read_free(t);
	return rc ? ds_error_set(err, DS_ERR_PARSE, "%s", why) : 0;
}

static void free_deb(struct deb_file *df)
{
	ds_payload_free(&df->payload);
	if (df->ar)
		archive_read_free(df->ar);
	ds_pkg_free(&df->pkg);
	free(df->path);
	for (size_t i = 0; i < NSCRIPTS; i++) {
		free(df->scripts[i].path);
		free(df->scripts[i].text);
		ds_error_clear(&df->scripts[i].why);
	}
	free(df);
}

/* The .deb's ar archive opened (again) up to its data member: the data
 * tar, or NULL with err set.  The control member is parsed the first time
 * only. */
static struct archive *open_ar(struct deb_file *df, struct ds_error *err, bool control)
{
	if (df->ar)
		archive_read_free(df->ar);
	df->ar = archive_read_new();
	archive_read_support_format_ar(df->ar);
	if (archive_read_open_filename(df->ar, df->path, 65536) != ARCHIVE_OK) {
		ds_error_set(err, DS_ERR_IO, "%s", ds_archive_why(df->ar));
		return NULL;
	}
	struct archive_entry *e;
	int have_control = 0, r;
	while ((r = archive_read_next_header(df->ar, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		if (name && !strncmp(name, "control.tar", 11)) {
			if (have_control) {   /* dpkg-deb refuses this too */
				ds_error_set(err, DS_ERR_PARSE, "more than one control member");
				return NULL;
			}
			if (control && parse_control(df, err) != 0)
				return NULL;
			have_control = 1;
		} else if (name && !strncmp(name, "data.tar", 8) && have_control) {
			struct archive *t = inner_tar(df);
			if (!t)
				ds_error_set(err, DS_ERR_PARSE, "data member is not a readable tar archive");
			return t;
		}
	}
	ds_error_set(err, DS_ERR_PARSE, "%s", r == ARCHIVE_EOF ? "no control or data member (truncated?)"
	                                                       : ds_archive_why(df->ar));
	return NULL;
}

/* The payload again from its start, for the data of its tar hard links
 * (archive-members.h). */
static struct archive *reopen_data(void *ctx)
{
	return open_ar(ctx, NULL, false);   /* the first reading said what is wrong */
}

/* An ar archive whose first member is debian-binary. */
static int dpkg_pkgfile_sniff(const unsigned char *head, size_t len)
{
	return len >= 21 && !memcmp(head, "!<arch>\n", 8) && !memcmp(head + 8, "debian-binary", 13);
}

static void *dpkg_pkgfile_open(const char *path, const struct ds_pkg **pkg, struct ds_error *err)
{
	unsigned char magic[21];
	FILE *fp = fopen(path, "rbe");
	size_t n = fp ? fread(magic, 1, sizeof magic, fp) : 0;
	if (fp)
		fclose(fp);
	if (!dpkg_pkgfile_sniff(magic, n))
		return NULL;
	struct deb_file *df = ds_xcalloc(1, sizeof *df);
	df->path = ds_xstrdup(path);
	df->payload.reopen = reopen_data;
	df->payload.reopen_ctx = df;
	df->payload.a = open_ar(df, err, true);
	if (!df->payload.a) {
		free_deb(df);
		return NULL;
	}
	*pkg = &df->pkg;
	return df;
}

/* The maintainer scripts first, then the payload. */
static int dpkg_pkgfile_next(void *h, struct ds_member *m, struct ds_error *err)
{
	struct deb_file *df = h;
	while (!df->payload_only && df->next_script < NSCRIPTS) {
		size_t i = df->next_script++;
		if (!df->scripts[i].path)
			continue;
		ds_member_script(m, df->scripts[i].path, df->scripts[i].text, df->scripts[i].len,
		                 ds_error_msg(&df->scripts[i].why), NULL);
		return 1;
	}
	return ds_payload_next(&df->payload, m, err);
}

/* The whole payload is read: only the archive says what dpkg installs
 * (dpkg never checks md5sums against it), so a package's own file lists
 * never decide what is read. */
static void dpkg_pkgfile_want(void *h, int (*want)(const char *path, void *ctx), void *ctx)
{
	struct deb_file *df = h;
	df->payload_only = true;
	df->payload.want = want;
	df->payload.want_ctx = ctx;
}

static void dpkg_pkgfile_close(void *h)
{
	free_deb(h);
}

static void dpkg_pkgfile_limit(void *h, uint64_t max_bytes)
{
	struct deb_file *df = h;
	df->payload.max_bytes = max_bytes;
}

const struct ds_backend ds_backend_dpkg = {
	.abi = DS_BACKEND_ABI,
	.name = "dpkg",
	.summary = "Debian/Ubuntu dpkg database (libdpkg)",
	.order = 20,
	.profile = "debian",
	.probe = dpkg_probe,
	.start = dpkg_start,
	.open = dpkg_open,
	.owner_of = ds_pkgtable_owner_of,
	.count = ds_pkgtable_count,
	.find = dpkg_find,
	.info = ds_pkgtable_info,
	.contents = ds_pkgtable_contents,
	.close = dpkg_close,
	.pkgfile_open = dpkg_pkgfile_open,
	.pkgfile_next = dpkg_pkgfile_next,
	.pkgfile_close = dpkg_pkgfile_close,
	.arches = ds_pkgtable_arches,   /* native (dpkg's own package), then var/lib/dpkg/arch */
	.pkgfile_sniff = dpkg_pkgfile_sniff,
	.pkgfile_suffixes = (const char *const[]){ ".deb", ".udeb", ".ddeb", NULL },
	.root_files = (const char *const[]){ "var/lib/dpkg/", "etc/debian_version", NULL },
	.pkgfile_want = dpkg_pkgfile_want,
	.pkgfile_limit = dpkg_pkgfile_limit,
};
