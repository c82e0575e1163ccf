/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file-stig's rules parser, the seam its fuzz target uses. */
#ifndef DISTSEC_CHECKS_STIG_H
#define DISTSEC_CHECKS_STIG_H

#include <stdio.h>

/* Replaces the loaded rules with those read from fp (name for messages):
 * 0, or -1 after a warning naming the bad line (the rules read before it
 * stay loaded). */
int ds_stig_rules_parse(FILE *fp, const char *name);

#endif
