/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scan-unreadable: not a check of its own but the id under which the core
 * reports a file it could not open, read or parse.  The scan goes on.
 * Its findings are info, except for a package file whose header or payload
 * cannot be read, a script in it too large to read, or an ELF file of an
 * important class (set[ug]id, capabilities, a daemon) that cannot be
 * parsed: error, so that the run's exit status says so.
 */
#include "distsec/check.h"

const struct ds_check ds_check_scan_unreadable = {
	.id = "scan-unreadable",
	.severity = DS_SEV_ERROR,
	.applies = 0,
	.summary = "a file that could not be read or parsed (the scan continues)",
	.help = {
		.what = "A file that could not be opened, read or parsed was not judged by any check: "
		  "the result is incomplete for it.",
		.detect = "Reported by the core when opening, reading or parsing a file fails "
		  "(permissions, a corrupt ELF or package member, a size over the caps). "
		  "An ELF file whose headers cannot be read (a section or program header table "
		  "past the end of the file or over its cap: 262,144 sections, 65,536 program "
		  "headers) is an error when it is set[ug]id, has capabilities or is a daemon: "
		  "the kernel still runs it.",
		.limits = "Not a weakness of the file itself.",
		.fix = "Re-run with the permissions to read it, or look at why the file is corrupt.",
	},
	.precision = "very-high",
};
