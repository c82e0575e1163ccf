/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the output formats (src/output/) share, and all they see of the
 * program: the public scan, finding and check headers plus these helpers
 * (output/common.c).  Outputs never include the core's internal.h.
 */
#ifndef DISTSEC_OUTPUT_PRIVATE_H
#define DISTSEC_OUTPUT_PRIVATE_H

#include <json-c/json.h>
#include <stdio.h>

#include "distsec/check.h"
#include "distsec/output.h"
#include "distsec/scan.h"
#include "distsec/util.h"

/* "name:arch" of every owner, "not-owned" or "unknown". */
const char *ds_owner_label(const struct ds_owner *o, char *buf, size_t len);
/* A json string of s with invalid UTF-8 escaped; NULL for NULL. */
json_object *ds_json_string(const char *s);
json_object *ds_owner_json(const struct ds_owner *o);
json_object *ds_finding_json(const struct ds_finding *d);

/* Findings grouped by package (name, version and architecture) or by
 * maintainer; files without a package last. */
struct ds_group {
	char *key;                      /* "name version arch", maintainer, "(not-owned)" */
	const struct ds_finding *first; /* for the package's own fields */
	struct ds_finding **f;          /* in ds_finding_cmp order */
	size_t n;
};
/* Groups of s's findings (passes too when with_passes); *out freed with
 * ds_groups_free.  Returns the number of groups. */
size_t ds_groups_make(const struct ds_scan *s, enum ds_group_by by, bool with_passes,
                      struct ds_group **out);
void ds_groups_free(struct ds_group *g, size_t n);

/* --report-dir: the file name of the report of group key (only
 * [A-Za-z0-9.+-_], no leading dot, at most 80 bytes, unique in used:
 * "-2" and so on appended).  Called in ds_groups_make order with the same
 * map from "index.json" on, it gives the names reports.c wrote. */
struct ds_strmap;
char *ds_report_name(const char *key, const char *ext, struct ds_strmap *used);

/* Did check i (index in ds_checks) run in this scan: enabled and not skipped? */
bool ds_check_ran(const struct ds_scan *s, size_t i);
/* Why check c was skipped, or NULL. */
const char *ds_check_skipped(const struct ds_scan *s, const struct ds_check *c);

#endif
