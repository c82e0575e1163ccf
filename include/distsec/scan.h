/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One scan: the options it was asked for, the root it reads, the backend
 * it asks for owners, and the findings it collected.  Checks see it in
 * scan_begin/scan_end; output formats render it.
 */
#ifndef DISTSEC_SCAN_H
#define DISTSEC_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "backend.h"
#include "finding.h"
#include "util.h"   /* ds_warn, ds_note */

enum ds_group_by { DS_GROUP_NONE = 0, DS_GROUP_PACKAGE, DS_GROUP_MAINTAINER };

struct ds_options {
	const char *root;            /* host path of the root, default "/" */
	const char *backend;         /* "auto" or a backend name */
	const char *const *paths;    /* paths inside the root (and package files) */
	size_t npaths;
	const char *const *package_files; /* --package-file: host package files */
	size_t npackage_files;
	bool installed_state;        /* --installed-state: read the root's database
	                              * even when only package files are scanned */
	const char *const *packages; /* --package names */
	size_t npackages;
	bool all_packages;
	const char *checks;          /* --check list, or NULL */
	const char *skip;            /* --skip list, or NULL */
	const char *format;          /* text|json|sarif|junit */
	const char *output;          /* -o FILE, or NULL for stdout */
	enum ds_group_by group_by;
	int fail_on;                 /* enum ds_severity, or -1 for never */
	int jobs;
	const char *waivers;         /* --waivers FILE */
	const char *report_dir;      /* --report-dir DIR */
	const char *rules;           /* --rules FILE: the STIG rules */
	const char *debug_dir;       /* --debug-dir DIR: programs' debug files by build-id */
	const char *sarif_category;  /* --sarif-category: runAutomationDetails.id */
	const char *baseline;        /* --baseline OLD.json: only new findings gate */
	const char *const *history;  /* --history OLD.json...: earlier reports, oldest first */
	size_t nhistory;
	const char *profile;         /* --profile NAME|FILE, or NULL: chosen from what is scanned */
	int color;                   /* 0 never, 1 always, -1 auto */
	bool quiet, verbose, cross_mounts;
	bool summary;                /* --summary: text prints the per-package verdicts */
	unsigned shard_k, shard_n;   /* --shard K/N: only the paths and package files
	                              * whose name falls in share K of N (n 0: all) */
	uint64_t max_decompressed;   /* --max-decompressed: payload bytes decompressed
	                              * per package file (an image: per layer);
	                              * 0: DS_DECOMPRESSED_MAX */
	const char *platform;        /* --platform os/arch[/variant] of an image's
	                              * index, NULL: the host's */
};

/* A package file's payload decompressed past this is an error: a 646 KB
 * .deb holding a 20 GB zstd stream took 9 s, a larger one without end. */
#define DS_DECOMPRESSED_MAX ((uint64_t)64 << 30)

struct ds_stats {
	size_t files, elf, scripts, packages, dirs;
	size_t elf_not_judged;          /* ELF files the system would not run: not judged */
	size_t by_severity[DS_SEV_ERROR + 1];
	size_t waived;
	size_t new_findings, unchanged, absent; /* against --baseline */
	double seconds;
};

struct ds_check;

/* A package file read by the scan (provenance): what findings from its
 * members name as their input.  Lives until the scan is freed. */
struct ds_input {
	char *path;                  /* as named on the command line or in a list */
	const char *format;          /* the backend that read it ("dpkg", "rpm") */
	long long size;
	char sha256[65];             /* lowercase hex */
	char *via;                   /* the .changes / .buildinfo naming it, or NULL */
	struct ds_pkg pkg;           /* the package's own metadata */
};

/* The container image a scan read (src/image.c), NULL for a root. */
struct ds_image_info {
	const char *name;            /* as named on the command line */
	const char *format;          /* "oci-layout", "oci-archive", "docker-archive" */
	const char *digest;          /* "sha256:HEX": the manifest's (a Docker
	                              * archive: the config's, its image id) */
	const char *const *tags;     /* repository tags or reference names */
	size_t ntags;
	const char *platform;        /* os/arch[/variant] of the manifest read */
	const char *user;            /* the config's User, NULL when unset */
	const char *const *command;  /* Entrypoint then Cmd, as the config gives them */
	size_t ncommand;
	const char *program;         /* the path command[0] names in the image, or NULL */
};

struct ds_scan {
	const struct ds_options *opt;
	char *root;                  /* canonical host path of the root; an image's
	                              * name as given once the scan is over */
	const struct ds_image_info *image; /* the image scanned, or NULL */
	bool root_unread;            /* only package files were scanned: nothing of
	                              * the root (database, units) was read, and
	                              * the paths are the packages' members */
	int rootfd;                  /* O_PATH|O_DIRECTORY fd of the root */
	dev_t rootdev;
	const struct ds_backend *backend;
	void *bh;                    /* backend handle */
	char *backend_why;           /* why this backend was chosen (malloc()ed) */
	char **warnings;             /* about the run as a whole (a package database
	                              * present but unreadable): on stderr and in the
	                              * JSON summary */
	size_t nwarnings;
	const char *profile;         /* name of the profile the findings were judged by */
	const char *profile_why;     /* why that one (a static string) */
	bool *enabled;               /* per ds_checks[] index */

	struct ds_skip {             /* checks that could not run here, and why */
		const struct ds_check *check;
		char *why;
	} *skipped;
	size_t nskipped;

	struct ds_input **inputs;    /* package files scanned, sorted by path */
	size_t ninputs;

	struct ds_absent *absent;    /* with --baseline: the old report's findings
	                              * this scan no longer has (ds_scan_absent),
	                              * NULL without one */

	struct ds_history {          /* --history: one earlier report each, in order */
		const char *label;   /* the report's file as named */
		size_t (*n)[2];      /* per ds_checks index: [0] warnings, [1] errors,
		                      * waived ones left out */
	} *history;
	size_t nhistory;

	struct ds_finding **findings;/* sorted by path, then check id */
	size_t nfindings;
	struct ds_stats stats;
	bool use_color;

	struct ds_scan_private *priv;
};

/* Owner of a path inside the root (tries every merged-/usr spelling). */
void ds_scan_owner(const struct ds_scan *s, const char *path, struct ds_owner *out);

/* A finding not tied to a scanned file (whole-system checks, scan_end). */
struct ds_finding *ds_scan_report(struct ds_scan *s, const struct ds_check *c,
                                  const char *path, enum ds_severity sev,
                                  const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* A check that cannot run on this root says so once (stderr note, and in
 * the JSON summary); it is not counted as a pass. */
void ds_scan_skip(struct ds_scan *s, const struct ds_check *c, const char *why);

/* Does d count against --fail-on: at or above it, not waived, and (with
 * --baseline) new?  The exit status and every report's notion of failure. */
bool ds_finding_gates(const struct ds_scan *s, const struct ds_finding *d);

/* Waivers that matched no finding, each "FILE:LINE: check glob [package]". */
size_t ds_scan_unused_waivers(const struct ds_scan *s, const char *const **out);

/* With --baseline: how many findings of the old report this scan no
 * longer has, and the i-th as its JSON record ("baseline": "absent"; a new
 * reference), made when asked: an output holds one at a time. */
size_t ds_scan_absent_count(const struct ds_scan *s);
json_object *ds_scan_absent(const struct ds_scan *s, size_t i);

/* Is the check enabled for this scan? */
bool ds_scan_enabled(const struct ds_scan *s, const struct ds_check *c);

#endif
