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

#include "error.h"
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

/* How a fact reads from a record's details (json). */
enum ds_fact_type {
	DS_FACT_BOOL,      /* a boolean at key: true when the file has it */
	DS_FACT_COUNT,     /* a number at key: above 0 when the file has it */
	DS_FACT_LEVEL,     /* a string at key among levels, the worst first: its index
	                    * (any other string: -2) */
	DS_FACT_FINDING,   /* no key: the record is a finding (above pass) when it has it */
	DS_FACT_CLASS,     /* the file's program class at key (daemon, setuid ...) */
	DS_FACT_TEXT,      /* a string at key, shown as it is */
};

/* Which privilege of a file a fact tells, for `distsec diff`'s privileges
 * gained (new-setuid, wider-caps, new-world-writable, new-owner). */
enum ds_privilege {
	DS_PRIV_NONE,
	DS_PRIV_SETID,            /* a finding: the file is set-user-ID (the BOOL at key) or
	                           * set-group-ID; the check's absence of a finding is
	                           * evidence when the side ran it */
	DS_PRIV_CAPS,             /* the TEXT of its file capabilities (cap_net_raw=ep) */
	DS_PRIV_WORLD_WRITABLE,   /* a finding: anyone can write it, its mode the TEXT at key */
	DS_PRIV_OWNER,            /* the TEXT of its owner (a user name, else the uid) */
};

/* Which input of the per-package verdict (rpm-chksec's RELRO and PIE
 * columns, verdict.c) a fact is. */
enum ds_verdict_input {
	DS_VERDICT_NONE,
	DS_VERDICT_RELRO,         /* a DS_FACT_LEVEL of none, partial, full */
	DS_VERDICT_RELRO_SEGMENT, /* PT_GNU_RELRO present: decides RELRO when the level is not one */
	DS_VERDICT_BIND_NOW,      /* BIND_NOW, beside the segment */
	DS_VERDICT_ELF_TYPE,      /* a DS_FACT_LEVEL whose level 0 is a program not built as PIE */
};

/* A property of a file that a check's records (passes included) state, read
 * by the core without knowing the check: `distsec diff` reports a file
 * that lost it (or gained it) between two builds, the package verdict
 * judges packages by it.  A check lists its facts in its descriptor. */
struct ds_fact {
	const char *what;              /* "PIE", "RELRO", "executable stack" */
	const char *key;               /* the details key that holds it; NULL: DS_FACT_FINDING */
	enum ds_fact_type type;
	const char *const *levels;     /* DS_FACT_LEVEL: NULL-terminated, the worst first */
	/* distsec diff: the regression's id ("lost-pie") when losing it (lost)
	 * or gaining it (!lost) is one, and why it matters (distsec explain
	 * ID); NULL: diff does not compare it.  A DS_FACT_CLASS fact's check
	 * is the one whose waivers waive a file's new setuid, setgid or setcap. */
	const char *regression;
	bool lost;
	const char *why;
	enum ds_verdict_input verdict;
	enum ds_privilege privilege;
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
	/* The facts its records state (above), ended by one without `what`;
	 * NULL for none. */
	const struct ds_fact *facts;

	/* Optional, once per scan, single-threaded, before any run(): loads what
	 * the check needs for this scan and returns it as the check's state,
	 * which run() and scan_end() receive (libarchive's format_data).  NULL
	 * means a fatal error, its reason in err (the scan's caller prints it).
	 * A check without scan_begin has the state NULL.  Checks keep no
	 * file-level mutable data: two scans in one process (tests, fuzzers)
	 * must not share anything. */
	void *(*scan_begin)(struct ds_scan *s, struct ds_error *err);
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
/* A fact's value in a record of its check (details, severity): 0/1 for
 * DS_FACT_BOOL, _COUNT and _FINDING, the level's index for DS_FACT_LEVEL
 * (-2: a string that is none of them); -1 when the record does not say. */
int ds_fact_value(const struct ds_fact *fa, json_object *details, int severity);
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
