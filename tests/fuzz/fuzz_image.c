/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Container image archives on arbitrary bytes, the way `distsec scan
 * image.tar` reads one: the input, a file named alone, is taken as an
 * image by its contents (an OCI archive or a docker-save tarball), its
 * index, manifest and config JSON read, every layer (gzip, zstd or plain
 * tar) flattened with its whiteouts and hard links, the package database
 * paths copied out, the layers' members scanned by every default check,
 * and the result rendered as JSON.  A scan per input: the image becomes
 * the scan's root.  Inputs that are no image are not scanned (they would
 * be a host file of the root "/").
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "distsec/output.h"
#include "fuzz.h"
#include "inputs/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	if (!devnull && !(devnull = fopen("/dev/null", "w"))) {
		perror("fuzz: /dev/null");
		abort();
	}
	/* the setup the scans need (profiles, backends), checked once: a
	 * scan failing for want of it would look like a refused image */
	fuzz_scan("scan-unreadable");
	char path[64];
	int fd = fuzz_memfd(data, size, path, sizeof path);
	if (ds_image_named(path)) {
		const char *paths[] = { path };
		struct ds_options opt = { .root = "/", .backend = "none", .format = "json",
		                          .paths = paths, .npaths = 1, .jobs = 1, .quiet = true,
		                          .fail_on = DS_SEV_ERROR };
		struct ds_scan *s = ds_scan_new(&opt, NULL);
		if (!s)
			abort();
		struct ds_error err = DS_ERROR_INIT;
		if (ds_scan_run(s, &err) == 0)
			ds_output_find("json")->render(s, devnull);
		ds_error_clear(&err);
		ds_scan_free(s);
	}
	close(fd);
	return 0;
}
