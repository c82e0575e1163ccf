/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fuzz targets' shared scan (see fuzz.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static char root[] = "/tmp/distsec-fuzz-XXXXXX";

/* The root's own accounts, so that file-stig judges owner and group rules. */
static const struct { const char *name, *text; } accounts[] = {
	{ "etc/passwd", "root:x:0:0:root:/root:/bin/sh\nbin:x:2:2:bin:/bin:/usr/sbin/nologin\n" },
	{ "etc/group", "root:x:0:\nbin:x:2:\nshadow:x:42:\n" },
};

static void remove_root(void)
{
	char path[64];
	for (size_t i = 0; i < sizeof accounts / sizeof accounts[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", root, accounts[i].name);
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/etc", root);
	rmdir(path);
	rmdir(root);
}

static void make_root(void)
{
	char path[64];
	if (!mkdtemp(root) || (snprintf(path, sizeof path, "%s/etc", root), mkdir(path, 0755)) != 0) {
		perror("fuzz: root");
		abort();
	}
	atexit(remove_root);
	for (size_t i = 0; i < sizeof accounts / sizeof accounts[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", root, accounts[i].name);
		FILE *fp = fopen(path, "w");
		if (!fp || fputs(accounts[i].text, fp) < 0 || fclose(fp) != 0) {
			perror(path);
			abort();
		}
	}
}

struct ds_scan *fuzz_scan(const char *checks)
{
	static struct ds_scan *scan;
	static struct ds_options opt;
	if (scan)
		return scan;
	make_root();
	ds_warn_silent = true;
	opt = (struct ds_options){ .root = root, .backend = "none", .format = "text",
	                           .checks = checks, .jobs = 1, .quiet = true,
	                           .fail_on = DS_SEV_ERROR };
	scan = ds_scan_new(&opt, NULL);
	if (!scan || ds_scan_open(scan, NULL) != 0 || ds_scan_backend_wait(scan) != 0) {
		fprintf(stderr, "fuzz: cannot set up the scan\n");
		abort();
	}
	return scan;
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
