/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A check: one file under src/checks/ defining one descriptor, listed in
 * the registry table (src/core/registry.c).  A check sees only the files its
 * `applies` mask selects and reads them through include/distsec/file.h.
 */
#ifndef DISTSEC_CHECK_H
#define DISTSEC_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "finding.h"
#include "file.h"

struct ds_scan;

enum ds_applies {
	DS_ON_ELF     = 1u << 0,
	DS_ON_SHELL   = 1u << 1,
	DS_ON_PYTHON  = 1u << 2,
	DS_ON_REGULAR = 1u << 3,  /* every regular file, whatever its kind */
	DS_ON_DIR     = 1u << 4,
	DS_ON_DEVICE  = 1u << 5,
	DS_ON_SPECIAL = 1u << 6,  /* FIFOs, sockets, symlinks */
};

struct ds_check {
	const char *id;
	enum ds_severity severity;   /* default (highest) severity, for listing */
	unsigned applies;            /* enum ds_applies bits; 0 = whole-scan only */
	const char *summary;         /* one line for `distsec checks` */
	bool opt_in;                 /* runs only when named by --check */
	bool by_path;                /* its verdict depends on the file's path, not only on
	                              * its contents, mode and class: it runs for every name
	                              * of a hard-linked file, the others once per inode */

	/* What the check means: one source for `distsec explain`, `distsec
	 * checks --format json` and the SARIF rules (the man page's CHECKS
	 * section is tested against it). */
	struct ds_check_help {
		const char *what;        /* the weakness and why it matters */
		const char *detect;      /* how the check decides */
		const char *limits;      /* what it cannot see, known noise */
		const char *fix;         /* what a maintainer does about it */
	} help;
	enum ds_severity least;      /* lowest severity it reports when that varies
	                              * (by program class, ...); 0: always .severity */
	const char *severity_policy; /* when it is which severity, one line */
	unsigned cwe;                /* MITRE CWE id, 0 when none fits */
	const char *precision;       /* very-high|high|medium|low: how often a finding is real */
	/* The column of the per-package table (rpm-chksec's, --summary and the
	 * JSON summary) its findings decide, e.g. "pie"; NULL for none. */
	const char *package_column;

	/* Optional, once per scan, single-threaded, before any run(): loads what
	 * the check needs for this scan and returns it as the check's state,
	 * which run() and scan_end() receive (libarchive's format_data).  NULL
	 * means a fatal error, message printed.  A check without scan_begin has
	 * the state NULL.  Checks keep no file-level mutable data: two scans in
	 * one process (tests, fuzzers) must not share anything. */
	void *(*scan_begin)(struct ds_scan *s);
	/* Per file.  May be called from several threads at once with the same
	 * state: whatever run() changes in it must be atomic or locked. */
	void (*run)(struct ds_file *f, void *state);
	/* Optional, once per scan whose scan_begin succeeded, single-threaded,
	 * after the last run() (or when the scan is abandoned): reports
	 * whole-system findings and frees the state. */
	void (*scan_end)(struct ds_scan *s, void *state);
};

extern const struct ds_check *const ds_checks[];
extern const size_t ds_nchecks;
const struct ds_check *ds_check_find(const char *id);
/* checkdoc.c: a check's documentation from its descriptor (malloc()ed).
 * ds_check_help: the text `distsec explain` prints, or Markdown (SARIF). */
char *ds_check_help(const struct ds_check *c, bool markdown);
/* "always error", or the descriptor's severity_policy. */
char *ds_check_severity_policy(const struct ds_check *c);
/* The record `distsec checks --format json` lists. */
json_object *ds_check_json(const struct ds_check *c);
/* `distsec checks --format markdown` (docs/checks.md) and `--format man`
 * (the man page's CHECKS list): every check, from its descriptor. */
void ds_checks_markdown(FILE *out);
void ds_checks_man(FILE *out);

/* The pseudo-check for files that could not be read or parsed. */
extern const struct ds_check ds_check_scan_unreadable;

#endif
