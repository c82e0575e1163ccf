/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-pie (rpm-chksec): executables should be position independent so
 * ASLR can move them.  ET_EXEC is not PIE; ET_DYN with PT_INTERP or
 * DF_1_PIE is; ET_DYN with neither is a shared library (not judged here).
 * rpm-chksec's "ET_DYN with DT_DEBUG" misread libraries with DT_DEBUG.
 */
#include <elf.h>
#include <stdio.h>

#include "distsec/check.h"
#include "distsec/elfview.h"

/* docs/DESIGN.md, "Severity policy": not PIE is an error for important classes, a warning
 * for network-local programs, info for the rest. */
static enum ds_severity severity_for(enum ds_class c)
{
	if (ds_class_important(c))
		return DS_SEV_ERROR;
	return c == DS_CLASS_NETWORK_LOCAL ? DS_SEV_WARNING : DS_SEV_INFO;
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v)
		return;
	enum ds_elf_pie pie = ds_elf_pie(v);
	if (pie != DS_ELF_PIE && pie != DS_ELF_NOT_PIE)
		return;
	enum ds_class cls = ds_file_class(f);
	/* a plain static program's one finding is elf-static's, which says
	 * "no ASLR" too; a static daemon or setuid program stays judged here */
	if (pie == DS_ELF_NOT_PIE && ds_elf_link(v) == DS_LINK_STATIC && !ds_class_important(cls))
		return;
	struct ds_finding *d = pie == DS_ELF_PIE
		? ds_report(f, DS_SEV_PASS, "built as a position-independent executable")
		: ds_report(f, severity_for(cls),
		            "not built as a position-independent executable (PIE): ASLR cannot move its code");
	ds_detail_bool(d, "pie", pie == DS_ELF_PIE);
	ds_detail_str(d, "class", ds_class_name(cls));
	ds_detail_str(d, "type", v->type == ET_EXEC ? "ET_EXEC" : "ET_DYN");
	/* who can replace a program root runs: diff compares it across builds */
	if (cls == DS_CLASS_DAEMON) {
		char uid[24];
		snprintf(uid, sizeof uid, "%u", (unsigned)f->uid);
		ds_detail_str(d, "owner", f->user ? f->user : uid);
	}
}

const struct ds_check ds_check_elf_pie = {
	.id = "elf-pie",
	.severity = DS_SEV_ERROR,
	.applies = DS_ON_ELF,
	.summary = "executable not built as PIE (severity by program class)",
	.help = {
		.what = "An executable not built as a position-independent executable (PIE) is loaded "
		  "at a fixed address, so address space layout randomisation (ASLR) cannot move "
		  "its code and an attacker knows where every gadget is.",
		.detect = "Read from the ELF header and dynamic section: ET_EXEC is not PIE; ET_DYN with "
		  "PT_INTERP or DF_1_PIE is; ET_DYN with neither is a shared library and not "
		  "judged. The severity follows the program class (daemon, setuid, network, ...). A "
		  "daemon's record names its owner (details.owner: the package's user name, else the "
		  "uid), which distsec diff compares.",
		.limits = "A static non-PIE program of an unimportant class gets only elf-static's info "
		  "(which says it has no ASLR); a static daemon, setuid or network program is judged "
		  "here like a dynamic one; the class of a program "
		  "comes from the package set and the file system and can miss a daemon started "
		  "in an unusual way.",
		.fix = "Build with -fPIE and link with -pie (dpkg-buildflags: hardening=+pie, the "
		  "default on Debian and Fedora); check that the package does not override "
		  "CFLAGS/LDFLAGS.",
	},
	.least = DS_SEV_INFO,
	.severity_policy = "error for daemons, setuid/setgid/setcap and network programs; warning for "
	  "network-local ones; info for the rest",
	.cwe = 693,
	.precision = "very-high",
	.facts = (const struct ds_fact[]){
		{ .what = "PIE", .key = "pie", .type = DS_FACT_BOOL, .regression = "lost-pie",
		  .lost = true,
		  .why = "a program built as a position-independent executable before is not now: ASLR "
		         "no longer moves its code, so an exploit knows where its gadgets are" },
		{ .what = "ELF type", .key = "type", .type = DS_FACT_LEVEL,
		  .levels = (const char *const[]){ "ET_EXEC", "ET_DYN", NULL },
		  .verdict = DS_VERDICT_ELF_TYPE },
		{ .what = "program class", .key = "class", .type = DS_FACT_CLASS },
		{ .what = "owner", .key = "owner", .type = DS_FACT_TEXT, .privilege = DS_PRIV_OWNER },
		{ 0 },
	},
	.run = run,
};
