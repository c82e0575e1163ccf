/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The --waivers parser on arbitrary bytes, and matching what it accepted. */
#include <stdio.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0; /* fmemopen refuses an empty buffer */
	fuzz_scan("scan-unreadable");
	FILE *fp = fmemopen((void *)data, size, "r");
	if (!fp)
		return 0;
	struct ds_waivers *ws = ds_waivers_parse(fp, "fuzz", NULL);
	fclose(fp);
	if (!ws)
		return 0;
	static const struct ds_pkg pkg = { .name = "fuzz", .version = "1.0" };
	struct ds_finding owned = {
		.check = ds_check_find("elf-pie"), .path = (char *)"/usr/bin/fuzz", .severity = DS_SEV_ERROR,
		.owner = { .status = DS_OWNER_PACKAGE, .npkgs = 1, .pkgs = { &pkg } },
	};
	struct ds_finding loose = {
		.check = ds_check_find("file-stig"), .path = (char *)"/etc/[x]/*?", .severity = DS_SEV_WARNING,
		.owner = { .status = DS_OWNER_NOT_OWNED },
	};
	ds_waiver_for(ws, &owned);
	ds_waiver_for(ws, &loose);
	ds_waivers_free(ws);
	return 0;
}
