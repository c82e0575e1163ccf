/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file-stig's state and rules parser, the seam its fuzz target uses. */
#ifndef DISTSEC_CHECKS_STIG_H
#define DISTSEC_CHECKS_STIG_H

#include <stdio.h>

#include "distsec/check.h"

/* The check's per-scan state: its rules and the root's accounts. */
struct ds_stig;
extern const struct ds_check ds_check_file_stig;

/* Replaces st's rules with those read from fp (name for messages): 0, or
 * -1 with err naming the bad line (the rules read before it stay
 * loaded). */
int ds_stig_rules_parse(struct ds_stig *st, FILE *fp, const char *name, struct ds_error *err);

#endif
