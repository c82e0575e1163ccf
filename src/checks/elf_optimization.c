/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-optimization: compile units built at -O0, from the options GCC
 * recorded in the program's debug file (buildflags.h).  A distribution
 * builds at -O2; a unit at -O0 is a build system that dropped CFLAGS,
 * and with them _FORTIFY_SOURCE, which does nothing without optimisation.
 */
#include "distsec/buildflags.h"
#include "distsec/check.h"

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_buildflags *bf = ds_file_buildflags(f);
	if (bf && bf->judged)
		ds_report_build_gap(f, bf, &bf->o0, DS_SEV_WARNING,
		                    "built at -O0 (no optimisation, so no _FORTIFY_SOURCE)",
		                    "no compile unit built at -O0");
}

const struct ds_check ds_check_elf_optimization = {
	.id = "elf-optimization",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_ELF,
	.summary = "compile units built at -O0 (from the debug file's DWARF)",
	.help = {
		.what = "Code built without optimisation gets no _FORTIFY_SOURCE checks (glibc "
		  "enables them only with -O1 and above) and is what a build system produces when "
		  "it drops the distribution's CFLAGS, hardening flags included.",
		.detect = "The program's separate debug file, paired by build-id (a -dbgsym, "
		  "-debuginfo or -dbg package of the run, --debug-dir, or the root's "
		  "/usr/lib/debug/.build-id): each GCC compile unit whose recorded options "
		  "(DW_AT_producer) set no -O level, or end at -O0.",
		.limits = "No debug file, no verdict. A unit meant to be unoptimised (a test "
		  "helper, code timed against the optimiser) is reported too: waive it. Clang, "
		  "Rust, Go and assembler units are counted, not judged.",
		.fix = "Build with the distribution's CFLAGS (-O2: dpkg-buildflags, "
		  "redhat-rpm-config's %optflags).",
	},
	.cwe = 693,
	.precision = "high",
	.run = run,
};
