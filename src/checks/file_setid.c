/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file-setid (rpminspect's setuid listing): a set-user-ID or set-group-ID
 * file of any kind.  An ELF program classed setuid or setgid is left to
 * the ELF checks, whose records name that class; every other one is
 * reported here with its mode and owner, so that a report (and diff)
 * says what runs with whose privileges: a script or data file with the
 * bit (Linux ignores it on a #! script, so it is a packaging mistake or
 * meant for an interpreter that honours it: a warning), an ELF file the
 * class does not say it of (a daemon that is also setuid, a file not
 * judged: info).
 */
#include <stdio.h>
#include <sys/stat.h>

#include "distsec/check.h"

static void run(struct ds_file *f, void *state)
{
	(void)state;
	if (!S_ISREG(f->mode) || !(f->mode & (S_ISUID | S_ISGID)))
		return;
	bool elf = f->kind == DS_KIND_ELF;
	if (elf) {
		enum ds_class c = ds_file_class(f);
		if (c == DS_CLASS_SETUID || c == DS_CLASS_SETGID)
			return;
	}
	const char *what = f->mode & S_ISUID ? (f->mode & S_ISGID ? "setuid and setgid" : "setuid")
	                                     : "setgid";
	unsigned mode = (unsigned)f->mode & 07777;
	char owner[32], group[32];
	snprintf(owner, sizeof owner, "%u", (unsigned)f->uid);
	snprintf(group, sizeof group, "%u", (unsigned)f->gid);
	const char *user = f->user ? f->user : owner, *grp = f->group ? f->group : group;
	struct ds_finding *d = elf
		? ds_report(f, DS_SEV_INFO, "%s program (mode %04o, owner %s:%s)", what, mode, user, grp)
		: ds_report(f, DS_SEV_WARNING, "%s file that is not an ELF program (mode %04o, owner "
		            "%s:%s): Linux ignores the bit on a script; an interpreter that honours it "
		            "runs it with its owner's privileges", what, mode, user, grp);
	char buf[8];
	snprintf(buf, sizeof buf, "%04o", mode);
	ds_detail_str(d, "mode", buf);
	ds_detail_bool(d, "setuid", (f->mode & S_ISUID) != 0);
	ds_detail_bool(d, "setgid", (f->mode & S_ISGID) != 0);
	ds_detail_str(d, "owner", user);
	ds_detail_str(d, "group", grp);
}

const struct ds_check ds_check_file_setid = {
	.id = "file-setid",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_REGULAR,
	.summary = "setuid or setgid file that is not an ELF program classed so (a script, data)",
	.help = {
		.what = "A set-user-ID or set-group-ID file runs with its owner's or group's "
		  "privileges whoever starts it. On a script or data file the bit is a packaging "
		  "mistake (Linux ignores it on a #! script) or meant for an interpreter that honours "
		  "it, which then runs the file's code as its owner.",
		.detect = "The mode of each regular file (u+s or g+s), in the scanned tree or as a "
		  "package file's payload gives it, with the owner and group (names from a package "
		  "file, numbers in a tree) in the message and details. An ELF program whose program "
		  "class is setuid or setgid is not reported here: the ELF checks judge it and their "
		  "records name the class; an ELF file whose class is another (a setuid daemon) or "
		  "that is not judged is an info.",
		.limits = "A mode set at install time (a maintainer script's chmod, dpkg-statoverride) "
		  "is not seen in a package file.",
		.fix = "Drop the bit (chmod u-s,g-s); a script that needs privileges is run through "
		  "sudo, pkexec or a service instead.",
	},
	.least = DS_SEV_INFO,
	.severity_policy = "warning for a script or data file; info for an ELF file whose class is "
	  "not setuid or setgid",
	.cwe = 250,
	.precision = "very-high",
	.facts = (const struct ds_fact[]){
		{ .what = "set-user-ID", .key = "setuid", .type = DS_FACT_BOOL,
		  .privilege = DS_PRIV_SETID },
		{ 0 },
	},
	.run = run,
};
