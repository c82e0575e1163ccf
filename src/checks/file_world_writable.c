/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file-world-writable (rpminspect's permissions inspection): a regular
 * file any user can write, or a directory any user can write without the
 * sticky bit (anyone can then delete or replace the files of others).
 * Symlinks are left out: their own mode means nothing to the kernel.
 */
#include <stdio.h>
#include <sys/stat.h>

#include "distsec/check.h"

static void run(struct ds_file *f, void *state)
{
	(void)state;
	if (!(f->mode & S_IWOTH))
		return;
	unsigned mode = (unsigned)f->mode & 07777;
	struct ds_finding *d;
	if (S_ISDIR(f->mode) && !(f->mode & S_ISVTX))
		d = ds_report(f, DS_SEV_ERROR, "world-writable directory without the sticky bit "
		              "(mode %04o): any user can delete or replace the files in it", mode);
	else if (S_ISREG(f->mode))
		d = ds_report(f, DS_SEV_ERROR, "world-writable file (mode %04o): any user can "
		              "change it", mode);
	else
		return;
	char buf[8];
	snprintf(buf, sizeof buf, "%04o", mode);
	ds_detail_str(d, "mode", buf);
}

const struct ds_check ds_check_file_world_writable = {
	.id = "file-world-writable",
	.severity = DS_SEV_ERROR,
	.applies = DS_ON_REGULAR | DS_ON_DIR,
	.summary = "world-writable file, or world-writable directory without the sticky bit",
	.help = {
		.what = "Any user can change a world-writable file: a program, library, script or "
		  "configuration file root reads becomes theirs. In a world-writable directory "
		  "without the sticky bit any user can delete or rename the files of others and put "
		  "their own in place.",
		.detect = "The mode of each regular file (o+w) and directory (o+w without +t), in the "
		  "scanned tree or as a package file's payload gives it. Symlinks are not judged.",
		.limits = "A mode changed at install time (a maintainer script's chmod, "
		  "systemd-tmpfiles) is not seen in a package file. file-stig reports some of the same modes under "
		  "the STIG rule that governs the path.",
		.fix = "Drop o+w (chmod o-w); a shared directory gets the sticky bit (chmod +t) as "
		  "/tmp has.",
	},
	.cwe = 732,
	.precision = "very-high",
	.facts = (const struct ds_fact[]){
		{ .what = "mode", .key = "mode", .type = DS_FACT_TEXT,
		  .privilege = DS_PRIV_WORLD_WRITABLE },
		{ 0 },
	},
	.run = run,
};
