/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The script checks on arbitrary bytes: classification by the first line,
 * the shell's -n parse (run with a clean environment and a timeout, never
 * the script itself), the /tmp and chroot pattern scans, and the hidden
 * file check on a dotted path.
 */
#include <sys/stat.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ds_scan *s = fuzz_scan("script-sh-syntax,script-sh-tmp,script-py-chroot-chdir,"
	                              "file-hidden-exec,scan-unreadable");
	fuzz_member(s, "/usr/bin/fuzz-script", S_IFREG | 0755, data, size);
	fuzz_member(s, "/usr/share/fuzz/.hidden/run.sh", S_IFREG | 0644, data, size);
	fuzz_reset(s);
	return 0;
}
