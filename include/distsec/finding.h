/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Findings: what a check reports about one path.
 *
 * Checks call ds_report() on the file they were given; the finding is
 * attributed to the running check and to the file's owner automatically.
 * Check-specific facts go into details (a json-c object, so every output
 * format renders the same record).
 */
#ifndef DISTSEC_FINDING_H
#define DISTSEC_FINDING_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

#include "backend.h"

struct ds_file;
struct ds_check;
struct ds_input;

enum ds_severity {
	DS_SEV_PASS = 0,   /* kept only with --verbose */
	DS_SEV_INFO,
	DS_SEV_WARNING,
	DS_SEV_ERROR,
};

#define DS_OWNER_MAX 4

/* With --baseline: is the finding in the old report too? */
enum ds_baseline_state { DS_BASELINE_NONE = 0, DS_BASELINE_NEW, DS_BASELINE_UNCHANGED };

struct ds_owner {
	enum ds_owner_status status;
	size_t npkgs;                          /* how many own it (may exceed DS_OWNER_MAX) */
	const struct ds_pkg *pkgs[DS_OWNER_MAX];
};

struct ds_finding {
	const struct ds_check *check;
	enum ds_severity severity;
	char *path;                            /* the one spelling: merged /usr where the root
	                                        * (package files: the profile's distribution) is */
	char *pkg_path;                        /* the package's own spelling when it differs
	                                        * (details.package_path), else NULL */
	struct ds_owner owner;
	char *message;
	json_object *details;                  /* never NULL */
	char *rule;                            /* STIG id, or NULL */
	const char *waiver;                    /* justification when waived, else NULL */
	bool owner_pending;                    /* core-private: the owner is looked up
	                                        * when the scan ends (database still loading) */
	bool details_shared;                   /* core-private: details is another finding's
	                                        * too (hard links): copied before a change */
	const struct ds_input *input;          /* the package file it is in, or NULL */
	const char *layer;                     /* an image's file: the digest of the layer
	                                        * that last wrote it (the scan's), or NULL */
	enum ds_baseline_state baseline;       /* with --baseline (passes stay NONE) */
};

/* Report on f for the running check.  Returns the finding so the caller can
 * add details; never NULL (allocation failure aborts). */
struct ds_finding *ds_report(struct ds_file *f, enum ds_severity sev,
                             const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void ds_detail_str(struct ds_finding *d, const char *key, const char *val);
void ds_detail_int(struct ds_finding *d, const char *key, long long val);
void ds_detail_bool(struct ds_finding *d, const char *key, bool val);
/* Appends val to the array under key (created on first use). */
void ds_detail_append(struct ds_finding *d, const char *key, const char *val);
void ds_finding_set_rule(struct ds_finding *d, const char *rule);

/* qsort order of findings: path, check id, rule, message, then severity,
 * input and owner (a total order: the same across -j and shards). */
int ds_finding_cmp(const void *a, const void *b);

const char *ds_severity_name(enum ds_severity s);
/* Parses "error|warning|info" (and "pass"); -1 if unknown. */
int ds_severity_parse(const char *s);

#endif
