/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file-stig's rules parser on arbitrary bytes, then the accepted rules
 * applied to a few files of every kind (the root has a passwd and group,
 * so owner and group rules are judged too).
 */
#include <stdio.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "stig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0; /* fmemopen refuses an empty buffer */
	struct ds_scan *s = fuzz_scan("file-stig,scan-unreadable");
	FILE *fp = fmemopen((void *)data, size, "r");
	if (!fp)
		return 0;
	ds_stig_rules_parse(ds_scan_check_state(s, &ds_check_file_stig), fp, "fuzz", NULL);
	fclose(fp);
	static const uint8_t text[] = "x\n";
	fuzz_member(s, "/etc/shadow", S_IFREG | 0644, text, sizeof text - 1);
	fuzz_member(s, "/usr/bin/su", S_IFREG | 04755, text, sizeof text - 1);
	fuzz_member(s, "/tmp", S_IFDIR | 0777, NULL, 0);
	fuzz_member(s, "/var/log/syslog", S_IFREG | 0666, text, sizeof text - 1);
	fuzz_member(s, "/root/dev/sda", S_IFBLK | 0660, NULL, 0);
	fuzz_reset(s);
	return 0;
}
