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
 * "-2" and so on appended).  Called in ds_groups_make order with a map
 * from ds_report_names(ext) (index.json and index.EXT taken), it gives
 * the names reports.c wrote. */
struct ds_strmap;
struct ds_strmap *ds_report_names(const char *ext);
char *ds_report_name(const char *key, const char *ext, struct ds_strmap *used);
/* Creates (truncates) name in the report directory dfd for writing,
 * refusing a symlink there; NULL with errno set. */
FILE *ds_report_create(int dfd, const char *name);
/* A view of s holding only findings f[0, n) (one group's) with their counts. */
struct ds_scan ds_group_view(const struct ds_scan *s, struct ds_finding **f, size_t n);

/* s as XML and HTML character data or an attribute value: markup and
 * quotes as references, invalid UTF-8 bytes and control characters as
 * visible \xNN, U+FFFE and U+FFFF as \uNNNN; tab, newline and backslash
 * kept unless flags say otherwise. */
enum {
	DS_MARKUP_REFS = 1,  /* tab and newline as &#9; and &#10; (attribute values) */
	DS_MARKUP_SHOWN = 2, /* tab, newline and backslash as \t, \n and \\ (one line) */
	DS_MARKUP_HIDE = 4,  /* also DEL as \x7f, C1 controls, bidi overrides and
	                      * noncharacters as \uNNNN */
};
void ds_markup_put(FILE *out, const char *s, unsigned flags);

/* html.c: s written for HTML text and attribute values alike: markup and
 * quotes as references; invalid UTF-8 bytes and control characters as
 * visible \xNN, C1 controls, bidi overrides and noncharacters as \uNNNN,
 * a backslash doubled, newline and tab as \n and \t unless lines (text
 * of our own, kept as written: check documentation). */
void ds_html_put(FILE *out, const char *s, bool lines);

/* Did check i (index in ds_checks) run in this scan: enabled and not skipped? */
bool ds_check_ran(const struct ds_scan *s, size_t i);
/* Why check c was skipped, or NULL. */
const char *ds_check_skipped(const struct ds_scan *s, const struct ds_check *c);

#endif
