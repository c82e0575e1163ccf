/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Programs' debug files on arbitrary bytes (DESIGN.md, The build's own
 * flags): the DWARF reader (libdw's compile units, each DW_AT_producer and
 * DW_AT_name, strings in a dwz supplementary file), the producer parser
 * and the pairing by build-id.  The input is a debug file (a program built
 * with -g, or one split off it), optionally followed by a line "@@ dwz"
 * and the dwz supplementary file its .gnu_debugaltlink names.  Each is
 * read three ways:
 *   - as members of a debug package (the context pass: .build-id/ and
 *     .dwz/ paths, read from memory), then paired by its build-id note;
 *   - from --debug-dir, and then from the root's /usr/lib/debug (both laid
 *     out as roots, the dwz file at /usr/lib/debug/.dwz/fuzz.debug), by
 *     the checks that read the build's flags scanning the input as the
 *     program, through a file descriptor.
 */
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "distsec/elfview.h"
#include "fuzz.h"

#define CHECKS "elf-canary,elf-optimization,elf-stack-clash,elf-cf-protection,scan-unreadable"
#define ALT_MARK "\n@@ dwz\n"
#define ALT_PATH "usr/lib/debug/.dwz/fuzz.debug"

static void hex(const unsigned char *id, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", id[i]);
}

static void put(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd) != 0) {
		perror(path);
		abort();
	}
}

/* The input's build-id note, as libelf reads it: its length, 0 for none. */
static size_t build_id(const uint8_t *data, size_t size, unsigned char *id)
{
	Elf *e = ds_elf_headers_check(-1, data, size) ? NULL : elf_memory((char *)data, size);
	const void *note;
	ssize_t n = e ? dwelf_elf_gnu_build_id(e, &note) : -1;
	if (n > 0 && n <= DS_BUILD_ID_MAX)
		memcpy(id, note, (size_t)n);
	if (e)
		elf_end(e);
	return n > 0 && n <= DS_BUILD_ID_MAX ? (size_t)n : 0;
}

/* The files of a debug package, read from memory. */
static void as_package(const uint8_t *dbg, size_t ndbg, const uint8_t *alt, size_t nalt,
                       const unsigned char *id, size_t nid)
{
	static const unsigned char path_id[] = { 0xab, 0xcd, 0xef };
	struct ds_debugset *d = ds_debugset_new();
	if (alt)
		ds_debugset_add_member(d, "fuzz-dbgsym", &(struct ds_member){
			.path = "/" ALT_PATH, .mode = S_IFREG | 0644, .data = alt, .size = nalt });
	ds_debugset_add_member(d, "fuzz-dbgsym", &(struct ds_member){
		.path = "/usr/lib/debug/.build-id/ab/cdef.debug", .mode = S_IFREG | 0644,
		.data = dbg, .size = ndbg });
	ds_debugset_resolve(d);
	struct ds_buildflags bf;
	struct ds_error err = DS_ERROR_INIT;
	ds_debugset_find(d, path_id, sizeof path_id, &bf, &err);
	ds_error_clear(&err);
	ds_debugset_find(d, id, nid, &bf, &err);
	ds_error_clear(&err);
	ds_debugset_free(d);
}

/* The input in dir's /usr/lib/debug, found by the scan of the program. */
static void in_dir(struct ds_scan *s, const char *dir, const uint8_t *dbg, size_t ndbg,
                   const uint8_t *alt, size_t nalt, const char *key)
{
	char sub[256], file[320], altfile[320];
	snprintf(sub, sizeof sub, "%s/usr/lib/debug/.build-id/%.2s", dir, key);
	snprintf(file, sizeof file, "%s/%s.debug", sub, key + 2);
	snprintf(altfile, sizeof altfile, "%s/" ALT_PATH, dir);
	if (mkdir(sub, 0755) != 0) {
		perror(sub);
		abort();
	}
	put(file, dbg, ndbg);
	if (alt)
		put(altfile, alt, nalt);
	fuzz_member(s, "/usr/bin/fuzz", S_IFREG | 0755, dbg, ndbg);
	fuzz_reset(s);
	unlink(file);
	unlink(altfile);
	rmdir(sub);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *dirs[2];
	struct ds_scan *s = fuzz_scan_debug(CHECKS, dirs);
	const uint8_t *mark = memmem(data, size, ALT_MARK, strlen(ALT_MARK));
	size_t ndbg = mark ? (size_t)(mark - data) : size;
	const uint8_t *alt = mark ? mark + strlen(ALT_MARK) : NULL;
	size_t nalt = mark ? size - ndbg - strlen(ALT_MARK) : 0;

	unsigned char id[DS_BUILD_ID_MAX];
	size_t nid = build_id(data, ndbg, id);
	as_package(data, ndbg, alt, nalt, id, nid);
	if (nid < 2)   /* no program to pair: nothing looks in a directory */
		return 0;
	char key[2 * DS_BUILD_ID_MAX + 1];
	hex(id, nid, key);
	in_dir(s, dirs[1], data, ndbg, alt, nalt, key);
	in_dir(s, dirs[0], data, ndbg, alt, nalt, key);
	return 0;
}
