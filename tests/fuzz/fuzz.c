/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fuzz targets' shared scan (see fuzz.h). */
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static char root[] = "/tmp/distsec-fuzz-XXXXXX";
static char debug_dir[] = "/tmp/distsec-fuzz-debug-XXXXXX";
static bool have_debug_dir;

/* The root's own accounts, so that file-stig judges owner and group rules. */
static const struct { const char *name, *text; } accounts[] = {
	{ "etc/passwd", "root:x:0:0:root:/root:/bin/sh\nbin:x:2:2:bin:/bin:/usr/sbin/nologin\n" },
	{ "etc/group", "root:x:0:\nbin:x:2:\nshadow:x:42:\n" },
};

/* Where a root keeps debug files, made for fuzz_scan_debug. */
static const char *const debug_dirs[] = { "usr", "usr/lib", "usr/lib/debug",
                                          "usr/lib/debug/.build-id", "usr/lib/debug/.dwz" };

static void remove_roots(void)
{
	ds_remove_dir(root);
	if (have_debug_dir)
		ds_remove_dir(debug_dir);
}

static void make_dirs(const char *top, const char *const *dirs, size_t n)
{
	char path[128];
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", top, dirs[i]);
		if (mkdir(path, 0755) != 0) {
			perror(path);
			abort();
		}
	}
}

static void make_root(bool debug)
{
	char path[64];
	if (!mkdtemp(root) || (debug && !mkdtemp(debug_dir))) {
		perror("fuzz: root");
		abort();
	}
	have_debug_dir = debug;
	atexit(remove_roots);
	make_dirs(root, (const char *const[]){ "etc" }, 1);
	for (size_t i = 0; i < sizeof accounts / sizeof accounts[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", root, accounts[i].name);
		FILE *fp = fopen(path, "w");
		if (!fp || fputs(accounts[i].text, fp) < 0 || fclose(fp) != 0) {
			perror(path);
			abort();
		}
	}
	if (debug) {
		make_dirs(root, debug_dirs, sizeof debug_dirs / sizeof debug_dirs[0]);
		make_dirs(debug_dir, debug_dirs, sizeof debug_dirs / sizeof debug_dirs[0]);
	}
}

static struct ds_scan *shared_scan(const char *checks, bool debug)
{
	static struct ds_scan *scan;
	static struct ds_options opt;
	if (scan)
		return scan;
	/* as main() does: without it libelf opens no file descriptor
	 * (elf_begin fails; only elf_memory works) */
	if (elf_version(EV_CURRENT) == EV_NONE) {
		fprintf(stderr, "fuzz: libelf: %s\n", elf_errmsg(-1));
		abort();
	}
	make_root(debug);
	ds_warn_silent = true;
	opt = (struct ds_options){ .root = root, .backend = "none", .format = "text",
	                           .checks = checks, .jobs = 1, .quiet = true,
	                           .fail_on = DS_SEV_ERROR, .debug_dir = debug ? debug_dir : NULL };
	scan = ds_scan_new(&opt, NULL);
	if (!scan || ds_scan_open(scan, NULL) != 0 || ds_scan_backend_wait(scan) != 0) {
		fprintf(stderr, "fuzz: cannot set up the scan\n");
		abort();
	}
	return scan;
}

struct ds_scan *fuzz_scan(const char *checks)
{
	return shared_scan(checks, false);
}

struct ds_scan *fuzz_scan_debug(const char *checks, const char *dirs[2])
{
	struct ds_scan *s = shared_scan(checks, true);
	dirs[0] = root;
	dirs[1] = debug_dir;
	return s;
}

void fuzz_member(struct ds_scan *s, const char *path, unsigned mode, const uint8_t *data,
                 size_t size)
{
	struct ds_member m = { .path = path, .mode = mode, .data = data, .size = size };
	ds_scan_member(s, &m, NULL);
}

void fuzz_reset(struct ds_scan *s)
{
	struct ds_worker *w = &s->priv->main;
	for (size_t i = 0; i < w->nfindings; i++)
		ds_finding_free(w->findings[i]);
	w->nfindings = 0;
	ds_inputs_free(s);
}

int fuzz_memfd(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("distsec-fuzz", MFD_CLOEXEC);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size)) {
		perror("fuzz: memfd");
		abort();
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}
