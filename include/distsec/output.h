/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output formats: one file each under src/output/, one descriptor each,
 * listed in src/output/formats.c.  A renderer writes the whole result of
 * a scan (findings already sorted by path then check id) to one stream.
 */
#ifndef DISTSEC_OUTPUT_H
#define DISTSEC_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "scan.h"

struct ds_output {
	const char *name;
	const char *summary;
	const char *ext;             /* file name extension for --report-dir */
	bool wants_origins;          /* shows the archive a package came from */
	const char *reports_as;      /* --report-dir writes this format instead, or NULL */
	/* 0 ok, -1 on a write error (errno set). */
	int (*render)(const struct ds_scan *s, FILE *out);
	/* --report-dir, optional: writes the group reports into the directory
	 * dfd itself (pages linked to each other and to an index), named as
	 * ds_report_name names them, instead of one render() per group; the
	 * core still writes index.json.  0 ok, -1 on a write error (errno set). */
	int (*write_dir)(const struct ds_scan *s, int dfd);
};

const struct ds_output *ds_output_find(const char *name);
extern const struct ds_output *const ds_outputs[];

#endif
