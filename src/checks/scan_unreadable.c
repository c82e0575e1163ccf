/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scan-unreadable: not a check of its own but the id under which the core
 * reports a file it could not open, read or parse.  The scan goes on.
 * Its findings are info, except for a package file whose header or payload
 * cannot be read: error, so that the run's exit status says so.
 */
#include "distsec/check.h"

const struct ds_check ds_check_scan_unreadable = {
	.id = "scan-unreadable",
	.severity = DS_SEV_ERROR,
	.applies = 0,
	.summary = "a file that could not be read or parsed (the scan continues)",
};
