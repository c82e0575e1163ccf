/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Package files (.deb, .rpm, whatever a backend reads) on arbitrary bytes:
 * every backend's reader is offered the file, and the members it yields
 * are scanned in memory with the file, ELF and script checks.
 */
#include <unistd.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ds_scan *s = fuzz_scan("elf-pie,elf-relro,elf-execstack,elf-tmp-name,elf-rpath,"
	                              "script-sh-tmp,script-py-chroot-chdir,file-hidden-exec,"
	                              "file-stig,scan-unreadable");
	char path[64];
	int fd = fuzz_memfd(data, size, path, sizeof path);
	ds_scan_package_file(s, path);
	fuzz_reset(s);
	close(fd);
	return 0;
}
