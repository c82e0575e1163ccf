/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-not-judged: not a check of its own but the id under which the core
 * says (as a pass, shown with -v) why an ELF file got no hardening verdict:
 * another machine's code, bytecode, an object, a separate debug file
 * (src/arch.c).  The JSON summary counts them.
 */
#include "distsec/check.h"

const struct ds_check ds_check_elf_not_judged = {
	.id = "elf-not-judged",
	.severity = DS_SEV_PASS,
	.applies = 0,
	.summary = "an ELF file the scanned system would not run, so not judged (passes, with -v)",
};
