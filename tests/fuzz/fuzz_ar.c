/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Static archives (.a) on arbitrary bytes: elf-static-nopic's ar reader
 * (System V/GNU long-name table, BSD #1/ names) and its x86-64 relocatable
 * object reader, the input scanned in memory as a library under two names
 * (the check reads only files named *.a).
 */
#include <sys/stat.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ds_scan *s = fuzz_scan("elf-static-nopic,scan-unreadable");
	fuzz_member(s, "/usr/lib/x86_64-linux-gnu/libfuzz.a", S_IFREG | 0644, data, size);
	fuzz_reset(s);
	return 0;
}
