/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-stack-clash: compile units built without -fstack-clash-protection,
 * from the options GCC recorded in the program's debug file
 * (buildflags.h).  Nothing in the program itself says whether its stack
 * allocations were probed, so without the debug file there is no verdict.
 */
#include "distsec/buildflags.h"
#include "distsec/check.h"

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_buildflags *bf = ds_file_buildflags(f);
	if (bf && bf->judged)
		ds_report_build_gap(f, bf, &bf->no_stack_clash, DS_SEV_WARNING,
		                    "built without -fstack-clash-protection",
		                    "every compile unit built with -fstack-clash-protection");
}

const struct ds_check ds_check_elf_stack_clash = {
	.id = "elf-stack-clash",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_ELF,
	.summary = "compile units built without -fstack-clash-protection (from the debug file's DWARF)",
	.help = {
		.what = "A function that allocates a large or variable stack frame (alloca, a "
		  "variable-length array) without probing it can move the stack pointer past the "
		  "guard page into another mapping (the heap, a thread's stack): the Stack Clash "
		  "attacks of 2017. -fstack-clash-protection probes every page of such a frame.",
		.detect = "The program's separate debug file, paired by build-id (a -dbgsym, "
		  "-debuginfo or -dbg package of the run, --debug-dir, or the root's "
		  "/usr/lib/debug/.build-id): each GCC compile unit's recorded options "
		  "(DW_AT_producer, the last of -fstack-clash-protection and "
		  "-fno-stack-clash-protection winning).",
		.limits = "No debug file, no verdict: nothing in the program tells. Clang, Rust, Go "
		  "and assembler units are counted, not judged; a compiler that enables the flag "
		  "by default without recording it (Ubuntu's GCC) is not seen.",
		.fix = "Build with -fstack-clash-protection (Fedora's redhat-rpm-config default; "
		  "dpkg-buildflags: hardening=+stackclash, the default from dpkg 1.22.0).",
	},
	.cwe = 787,
	.precision = "high",
	.run = run,
};
