/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c: the one reader of distsec JSON reports (--baseline, diff,
 * merge).  A report is checked field by field against what the json
 * output writes (a wrong type is an error naming the field) and kept as
 * the C records below, never as a json-c tree: the arrays are read one
 * element at a time, each element's strings interned in the report.
 */
#ifndef DISTSEC_REPORT_H
#define DISTSEC_REPORT_H

#include "internal.h"

struct ds_report_finding {
	const char *check_id;             /* as the report spells it */
	const struct ds_check *check;     /* NULL: no check of this distsec */
	enum ds_severity severity;
	const char *path, *message;
	const char *rule, *waiver, *input;/* NULL when the record has none */
	bool waived;
	enum ds_baseline_state baseline;  /* "absent" records: NONE */
	struct ds_owner owner;            /* packages owned by the report */
	const char *details;              /* a JSON object, compact text */
};

struct ds_report_input {
	const char *path, *format, *via, *sha256;
	long long size;
	const struct ds_pkg *pkg;
};

struct ds_report_skip {
	const char *check, *reason;
};

struct ds_report {
	bool has_root;                    /* "root" present; root NULL when null */
	const char *root, *backend, *profile;
	unsigned shard_k, shard_n;        /* 0: no "shard" record */
	struct ds_report_finding *findings, *absent;
	size_t nfindings, findcap, nabsent, absentcap;
	struct ds_report_input *inputs;
	size_t ninputs, inputcap;
	bool has_summary;
	struct {
		size_t files, elf_files, elf_not_judged, scripts, waived;
		size_t by_severity[DS_SEV_ERROR + 1];
		double seconds;
		bool baseline;            /* a "baseline" record */
		const char *baseline_file;
		size_t new_findings, unchanged, absent;
		const char **checks_run, **warnings, **unused_waivers;
		size_t nchecks_run, ranc, nwarnings, warnc, nunused, unusedc;
		struct ds_report_skip *skipped;
		size_t nskipped, skipc;
	} sum;
	struct ds_strmap *strings;        /* every string above, interned */
	struct ds_strmap *pkgmap;         /* owner fields -> struct ds_pkg * */
	struct ds_pkg **pkgs;
	size_t npkgs, pkgcap;
};

/* A scan's --baseline leftovers (struct ds_scan.absent): findings of
 * reports the scan keeps, made into JSON records one at a time. */
struct ds_absent {
	const struct ds_report_finding **f;
	size_t n, cap;
};
void ds_absent_add(struct ds_absent **a, const struct ds_report_finding *f);
void ds_absent_free(struct ds_absent *a);

/* The report at path (a regular file of at most 1 GiB), or NULL with
 * "PATH: reason" in err. */
struct ds_report *ds_report_read(const char *path, struct ds_error *err);
/* The same from len bytes at buf (the reason alone in err). */
struct ds_report *ds_report_parse(const char *buf, size_t len, struct ds_error *err);
void ds_report_free(struct ds_report *r);
/* f's details as a new json-c object (never NULL). */
json_object *ds_report_details(const struct ds_report_finding *f);
/* f as the json output writes a finding record. */
json_object *ds_report_record(const struct ds_report_finding *f);

/* diff.c: the privilege regressions `distsec diff` reports (new-setuid,
 * wider-caps ...), of the records of report new against those of old,
 * each handed to fn; --baseline gates on them as diff does.  ws: the
 * waivers a regression's check has on its file (NULL: none). */
struct ds_regression {
	const char *kind;               /* the diff id: new-setuid ... */
	const char *path, *old_path;    /* old_path: the old build's name when it differs */
	const char *text;
	const struct ds_check *check;   /* the check whose records state it (its waivers) */
	const struct ds_owner *owner;   /* the new record's, or NULL */
	enum ds_severity severity;
	bool waived;
};
typedef void ds_regression_fn(void *arg, const struct ds_regression *g);
void ds_diff_privileges(struct ds_report *old, struct ds_report *new, struct ds_waivers *ws,
                        ds_regression_fn *fn, void *arg);

#endif
