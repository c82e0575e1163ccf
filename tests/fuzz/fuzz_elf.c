/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ELF view and every ELF check on arbitrary bytes: once from memory
 * (as a package member, through elf_memory) as a setuid program and as a
 * library, and once through a file descriptor, the way installed files
 * are read (elf_begin, the pread string reader and the disassembly layer).
 */
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include "distsec/disasm.h"
#include "distsec/elfview.h"
#include "fuzz.h"

#define ELF_CHECKS "elf-pie,elf-relro,elf-execstack,elf-nodrop-groups,elf-chroot-chdir," \
                   "elf-tmp-name,elf-canary,elf-fortify,elf-rpath,elf-textrel,elf-cet,"  \
                   "scan-unreadable"

static int count_string(const char *s, size_t len, void *ctx)
{
	(void)s;
	*(size_t *)ctx += len;
	return 0;
}

static int on_store(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	(void)c;
	*(size_t *)ctx += (size_t)ds_site_stored(site).kind;
	return 0;
}

static bool any_caller(const struct ds_site *caller, void *ctx)
{
	static const char *const cd[] = { "chdir", "fchdir", "setgroups", NULL };
	(void)ctx;
	return ds_site_calls_before_deep(caller, cd, 1, NULL) ||
	       ds_site_calls_after_deep(caller, cd, 3, NULL);
}

/* Every query of the disassembly layer on each call site it finds. */
static int on_site(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	static const char *const cd[] = { "chdir", "fchdir", "setgroups", NULL };
	size_t *n = ctx;
	uint64_t via = 0;
	*n += ds_site_calls_after(site, cd) != NULL;
	*n += ds_site_calls_before(site, cd) != NULL;
	*n += ds_site_calls_after_deep(site, cd, 3, &via) != NULL;
	*n += ds_site_calls_before_deep(site, cd, 3, &via) != NULL;
	*n += ds_site_callers_all(site, any_caller, NULL);
	for (unsigned i = 0; i < 6; i++) {
		struct ds_argsrc a = ds_site_arg(site, i);
		*n += (size_t)a.kind;
		if (a.kind == DS_SRC_LOAD && a.value && i == 0)
			ds_code_each_store(c, (uint64_t)a.value, 4, on_store, ctx);
	}
	return 0;
}

static void decode_all(const struct ds_elfview *v)
{
	static const char *const calls[] = { "chroot", "setgid", "setresgid", "open", "fopen",
	                                     "snprintf", "chdir", NULL };
	const char *why = NULL;
	struct ds_code *c = ds_code_open(v, &why);
	if (!c)
		return;
	size_t n = 0;
	struct ds_range r = { 0, UINT64_MAX };
	ds_code_each_call(c, calls, on_site, &n);
	ds_code_each_call_ref(c, calls, &r, 1, on_site, &n);
	ds_code_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ds_scan *s = fuzz_scan(ELF_CHECKS);
	fuzz_member(s, "/usr/bin/fuzz", S_IFREG | 04755, data, size);
	fuzz_member(s, "/usr/lib/libfuzz.so.1", S_IFREG | 0644, data, size);
	fuzz_reset(s);

	char path[64];
	int fd = fuzz_memfd(data, size, path, sizeof path);
	const char *why = NULL;
	Elf *e = ds_elf_headers_check(fd, NULL, size) ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	struct ds_elfview *v = e ? ds_elfview_new(e, fd, size, &why) : NULL;
	if (v) {
		size_t total = 0;
		ds_elf_strings(v, 1, '/', count_string, &total);
		decode_all(v);   /* the pread path; members above use memory */
		ds_elfview_free(v);
	}
	close(fd);
	return 0;
}
