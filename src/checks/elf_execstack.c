/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-execstack (find-execstack): a PT_GNU_STACK with PF_X asks for an
 * executable stack; so does its absence (the kernel's default for such
 * binaries is an executable stack on most architectures).  find-execstack
 * missed the second case.  A writable-and-executable PT_LOAD is noted too.
 */
#include <elf.h>

#include "distsec/check.h"
#include "distsec/elfview.h"

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || !v->has_phdrs || (v->type != ET_EXEC && v->type != ET_DYN))
		return;
	struct ds_finding *d;
	if (v->stack_exec)
		d = ds_report(f, DS_SEV_ERROR, "requests an executable stack (PT_GNU_STACK has PF_X)");
	else if (!v->has_gnu_stack)
		d = ds_report(f, DS_SEV_ERROR,
		              "has no PT_GNU_STACK header, so the kernel gives it an executable stack");
	else
		d = ds_report(f, DS_SEV_PASS, "non-executable stack");
	ds_detail_bool(d, "gnu_stack", v->has_gnu_stack);
	ds_detail_bool(d, "stack_exec", v->stack_exec || !v->has_gnu_stack);
	ds_detail_bool(d, "rwx_load", v->rwx_load);
}

const struct ds_check ds_check_elf_execstack = {
	.id = "elf-execstack",
	.severity = DS_SEV_ERROR,
	.applies = DS_ON_ELF,
	.summary = "ELF with an executable stack (PF_X on PT_GNU_STACK, or no PT_GNU_STACK)",
	.help = {
		.what = "An executable stack lets injected shellcode run directly from the stack; one "
		  "object file asking for it makes the whole process (and every library it loads) "
		  "run with an executable stack.",
		.detect = "PT_GNU_STACK with PF_X, or no PT_GNU_STACK at all (the kernel then defaults to "
		  "an executable stack on most architectures). A writable and executable PT_LOAD "
		  "is noted in the details.",
		.limits = "Some JITs and nested-function trampolines need it; those need a waiver, not a "
		  "rebuild.",
		.fix = "Find the object that lacks a .note.GNU-stack section (often hand-written "
		  "assembly) and add one, or link with -Wl,-z,noexecstack.",
	},
	.cwe = 693,
	.precision = "very-high",
	.run = run,
};
