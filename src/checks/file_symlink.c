/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file-symlink (rpminspect's symlinks inspection): a symlink whose target
 * climbs above / with "..", or (in a scanned tree) names nothing.  The
 * first points wherever the system is installed from (a chroot, an image
 * being built) and out of it; the second is a file the package forgot or
 * another package was meant to bring.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "distsec/check.h"
#include "distsec/util.h"

/* The target resolved by its spelling against the link's directory into
 * out; false when ".." climbs above /. */
static bool resolve(const char *path, const char *target, char *out, size_t outlen)
{
	size_t used = 0;
	out[0] = '\0';
	if (target[0] != '/') {
		const char *slash = strrchr(path, '/');
		used = slash ? (size_t)(slash - path) : 0;
		if (used >= outlen)
			used = outlen - 1;
		memcpy(out, path, used);
		out[used] = '\0';
	}
	for (const char *p = target; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (!used)
				return false;
			while (used && out[used - 1] != '/')
				used--;
			if (used)
				used--;
			out[used] = '\0';
		} else if (n && !(n == 1 && p[0] == '.') && used + 1 + n < outlen) {
			out[used++] = '/';
			memcpy(out + used, p, n);
			used += n;
			out[used] = '\0';
		}
		p += n;
		if (*p)
			p++;
	}
	if (!used)
		snprintf(out, outlen, "/");
	return true;
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	char buf[4096], where[4096];
	const char *target = ds_file_symlink(f, buf, sizeof buf);
	if (!target)
		return;
	struct ds_finding *d;
	struct stat st;
	if (!resolve(f->path, target, where, sizeof where)) {
		d = ds_report(f, DS_SEV_WARNING, "symlink to %s climbs above /: it leads out of the "
		              "root it is installed in", target);
	} else if (!f->mem && !f->input && ds_file_stat_in_root(f, where, &st) != 0 &&
	           (errno == ENOENT || errno == ENOTDIR)) {
		d = ds_report(f, DS_SEV_WARNING, "dangling symlink: %s does not exist", where);
		ds_detail_str(d, "resolved", where);
	} else {
		return;
	}
	ds_detail_str(d, "target", target);
}

const struct ds_check ds_check_file_symlink = {
	.id = "file-symlink",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_SPECIAL,
	.summary = "symlink climbing above / with \"..\", or dangling in the scanned tree",
	.help = {
		.what = "A symlink whose \"..\" components climb above / leads out of the root it is "
		  "installed in (a chroot, a container or an image being built) to whatever is "
		  "there; a dangling one names a file nothing installed.",
		.detect = "The target resolved by its spelling against the link's directory: climbing "
		  "above / is reported for package members and tree files alike; in a scanned tree a "
		  "target that does not exist inside the root is reported dangling.",
		.limits = "A package file's dangling symlinks are not judged (the target may come from "
		  "another package). Targets created at run time (/run, /proc) are reported dangling in "
		  "a tree that lacks them.",
		.fix = "Make the target relative without climbing above / (or absolute inside the "
		  "system); ship or depend on what a dangling link names.",
	},
	.cwe = 59,
	.precision = "medium",
	.run = run,
};
