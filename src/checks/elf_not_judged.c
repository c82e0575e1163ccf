/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-not-judged: not a check of its own but the id under which the core
 * says (as a pass, shown with -v) why an ELF file got no hardening verdict:
 * another machine's code, bytecode, an object, a separate debug file
 * (src/core/arch.c).  The JSON summary counts them.
 */
#include "distsec/check.h"

const struct ds_check ds_check_elf_not_judged = {
	.id = "elf-not-judged",
	.severity = DS_SEV_PASS,
	.applies = 0,
	.summary = "an ELF file the scanned system would not run, so not judged (passes, with -v)",
	.help = {
		.what = "An ELF file the scanned system would not run (another architecture's code, "
		  "bytecode, an object file, a separate debug file, data under /usr/share) gets no "
		  "hardening verdict: its flags say nothing about what runs. A set-id file under "
		  "/usr/share, or an executable one a unit, an init script or a PATH link runs, "
		  "is judged.",
		.detect = "The core compares the file's machine and type with the architectures of "
		  "the scanned system (the package database's, else the root's /bin/sh; a "
		  "package file's own), each with what its kernel runs beside it: i386 and x32 "
		  "on x86-64, x86-64 and i386 on x32, 32-bit ARM on aarch64, ppc32 on "
		  "big-endian ppc64, 31-bit s390 on s390x.",
		.limits = "A pass, shown with -v; the JSON summary counts them.",
		.fix = "Nothing to fix; scan the system that runs the file to judge it.",
	},
	.precision = "very-high",
};
