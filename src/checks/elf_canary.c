/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-canary: code built with -fstack-protector* calls __stack_chk_fail
 * (or reads __stack_chk_guard) from libc.  Only dynamically linked files
 * are judged, and only those importing a call that works on buffers
 * (memcpy, read, fgets, sprintf, ...): a tiny program with no buffers gets
 * no canary even with -fstack-protector-strong, and a static binary has no
 * imports to tell.  Neither can be judged from symbols, so neither is reported.
 */
#include "distsec/check.h"
#include "distsec/elfview.h"

static const char *const canary_syms[] = {
	"__stack_chk_fail", "__stack_chk_guard", "__stack_chk_fail_local", NULL,
};

static const char *const buffer_calls[] = {
	"memcpy", "memmove", "strcpy", "strncpy", "strcat", "strncat", "sprintf",
	"snprintf", "vsprintf", "vsnprintf", "read", "pread", "recv", "recvfrom",
	"fgets", "gets", "fread", "scanf", "sscanf", "fscanf", "getcwd", "realpath",
	"__memcpy_chk", "__snprintf_chk", "__sprintf_chk", "__fgets_chk", "__read_chk", NULL,
};

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || !v->has_dynamic || !ds_elf_imports_any(v, buffer_calls))
		return;
	const char *sym = ds_elf_imports_any(v, canary_syms);
	struct ds_finding *d = sym
		? ds_report(f, DS_SEV_PASS, "stack protector present (%s)", sym)
		: ds_report(f, DS_SEV_INFO,
		            "no stack protector: built without -fstack-protector-strong");
	ds_detail_bool(d, "canary", sym != NULL);
}

const struct ds_check ds_check_elf_canary = {
	.id = "elf-canary",
	.severity = DS_SEV_INFO,
	.applies = DS_ON_ELF,
	.summary = "uses buffer functions but no stack protector (__stack_chk_fail)",
	.run = run,
};
