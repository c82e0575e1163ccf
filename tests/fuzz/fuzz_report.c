/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report reader of merge, diff and --baseline (report.c) on arbitrary
 * bytes; what it accepts is turned back into records and details, and
 * merged and rendered as text and JSON, as `distsec merge` does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "distsec/output.h"
#include "fuzz.h"
#include "report.h"

static void render(const struct ds_scan *s, const char *format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		return;
	ds_output_find(format)->render(s, mem);
	fclose(mem);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_scan("scan-unreadable");   /* silences ds_warn */
	struct ds_report *r = ds_report_parse((const char *)data, size, NULL);
	if (!r)
		return 0;
	for (size_t i = 0; i < r->nfindings; i++)
		json_object_put(ds_report_record(&r->findings[i]));
	for (size_t i = 0; i < r->nabsent; i++)
		json_object_put(ds_report_record(&r->absent[i]));
	ds_report_free(r);

	char path[64];
	int fd = fuzz_memfd(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	const char *files[] = { path, path };
	for (int group = DS_GROUP_NONE; group <= DS_GROUP_MAINTAINER; group++) {
		struct ds_options opt = { .format = "text", .fail_on = DS_SEV_ERROR, .quiet = true,
		                          .verbose = true, .group_by = (enum ds_group_by)group };
		/* one report, or twice: a package file in two is an error */
		struct ds_scan *s = ds_merge_reports(&opt, files, group == DS_GROUP_NONE ? 1 : 2, NULL);
		if (s) {
			render(s, "text");
			render(s, "json");
			render(s, "junit");
			ds_scan_free(s);
		}
	}
	close(fd);
	return 0;
}
