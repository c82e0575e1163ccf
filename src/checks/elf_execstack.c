/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-execstack (find-execstack): a PT_GNU_STACK with PF_X asks for an
 * executable stack; a missing PT_GNU_STACK is a build defect too (an object
 * without .note.GNU-stack), which find-execstack missed.  What the kernel
 * then does depends on the machine (docs/EXECSTACK.md, from each
 * architecture's elf_read_implies_exec and VM_STACK_DEFAULT_FLAGS): on
 * ia32, x32, 32-bit ARM and 32-bit PowerPC every readable mapping becomes
 * executable (READ_IMPLIES_EXEC), worse than an executable stack; x86-64
 * and AArch64 did the same before Linux 5.8 and map nothing executable
 * since; 64-bit PowerPC and s390x give a non-executable stack; mips does
 * as ia32 but on a CPU with no-execute pages (RI/XI) under Linux 5.18 and
 * later, which maps nothing executable.  The error
 * stays either way; the message and details.effect say which.  A writable
 * and executable PT_LOAD is noted too.
 */
#include <elf.h>
#include <string.h>

#include "distsec/check.h"
#include "distsec/elfview.h"

/* The kernel's mappings for a program without PT_GNU_STACK. */
struct no_gnu_stack {
	const char *effect;        /* current kernels; NULL: not known here */
	const char *before_5_8;    /* where Linux 5.8 changed it, else NULL */
	const char *nx_cpu;        /* where a CPU with no-execute pages changes it
	                              (mips since 5.18: RI/XI), else NULL */
};

static struct no_gnu_stack missing_rule(const struct ds_elfview *v)
{
	bool c64 = v->elfclass == ELFCLASS64;
	switch (v->machine) {
	case EM_X86_64:   /* x32 is an ia32 address space (mmap_is_ia32) */
		return c64 ? (struct no_gnu_stack){ "exec-none", "exec-all", NULL }
		           : (struct no_gnu_stack){ "exec-all", NULL, NULL };
	case EM_AARCH64:
		return (struct no_gnu_stack){ "exec-none", "exec-all", NULL };
	case EM_386: case EM_ARM: case EM_PPC:
		return (struct no_gnu_stack){ "exec-all", NULL, NULL };
	case EM_PPC64:    /* the 64-bit ELF ABI's stack is not executable */
		return (struct no_gnu_stack){ c64 ? "exec-none" : "exec-all", NULL, NULL };
	case EM_S390:     /* no READ_IMPLIES_EXEC; data and stack non-executable */
		return (struct no_gnu_stack){ "exec-none", NULL, NULL };
	case EM_MIPS:     /* mips_elf_read_implies_exec: !cpu_has_rixi since 5.18 */
		return (struct no_gnu_stack){ "exec-all", NULL, "exec-none" };
	default:
		return (struct no_gnu_stack){ NULL, NULL, NULL };
	}
}

static struct ds_finding *report_missing(struct ds_file *f, const struct ds_elfview *v)
{
	struct no_gnu_stack r = missing_rule(v);
	struct ds_finding *d;
	if (!r.effect)
		d = ds_report(f, DS_SEV_ERROR, "has no PT_GNU_STACK header (a build defect); whether "
		              "the kernel then makes its stack executable depends on the architecture");
	else if (r.nx_cpu)
		d = ds_report(f, DS_SEV_ERROR, "has no PT_GNU_STACK header, so the kernel makes every "
		              "readable mapping executable (READ_IMPLIES_EXEC), the stack included, "
		              "except on a CPU with no-execute pages (RI/XI) under Linux 5.18 and later");
	else if (strcmp(r.effect, "exec-all") == 0)
		d = ds_report(f, DS_SEV_ERROR, "has no PT_GNU_STACK header, so the kernel makes every "
		              "readable mapping executable (READ_IMPLIES_EXEC), the stack included");
	else if (r.before_5_8)
		d = ds_report(f, DS_SEV_ERROR, "has no PT_GNU_STACK header (a build defect): Linux 5.8 "
		              "and later give it a non-executable stack, older kernels make every "
		              "readable mapping executable (READ_IMPLIES_EXEC)");
	else
		d = ds_report(f, DS_SEV_ERROR, "has no PT_GNU_STACK header (a build defect); on this "
		              "architecture the kernel still gives it a non-executable stack");
	ds_detail_str(d, "effect", r.effect ? r.effect : "unknown");
	if (r.before_5_8)
		ds_detail_str(d, "effect_before_5_8", r.before_5_8);
	if (r.nx_cpu)
		ds_detail_str(d, "effect_nx_cpu", r.nx_cpu);
	return d;
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || !v->has_phdrs || (v->type != ET_EXEC && v->type != ET_DYN))
		return;
	struct ds_finding *d;
	if (v->stack_exec) {
		d = ds_report(f, DS_SEV_ERROR, "requests an executable stack (PT_GNU_STACK has PF_X)");
		ds_detail_str(d, "effect", "exec-stack");
	} else if (!v->has_gnu_stack) {
		d = report_missing(f, v);
	} else {
		d = ds_report(f, DS_SEV_PASS, "non-executable stack");
		ds_detail_str(d, "effect", "exec-none");
	}
	ds_detail_bool(d, "gnu_stack", v->has_gnu_stack);
	/* PF_X or no header: the build asked for it or left it to the kernel */
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
		.detect = "PT_GNU_STACK with PF_X (details.effect exec-stack), or no PT_GNU_STACK at all, "
		  "a build defect whose effect is the kernel's rule for the machine (details.effect): "
		  "exec-all (every readable mapping executable) on i386, x32, 32-bit ARM and PowerPC; "
		  "exec-none on x86-64 and AArch64 since Linux 5.8 (details.effect_before_5_8: "
		  "exec-all), on ppc64 and s390x always; exec-all on mips but on a CPU with RI/XI "
		  "no-execute pages under Linux 5.18 and later (details.effect_nx_cpu: exec-none). "
		  "A writable and executable PT_LOAD is noted in the details.",
		.limits = "Some JITs and nested-function trampolines need it; those need a waiver, not a "
		  "rebuild.",
		.fix = "Find the object that lacks a .note.GNU-stack section (often hand-written "
		  "assembly) and add one, or link with -Wl,-z,noexecstack.",
	},
	.cwe = 693,
	.precision = "very-high",
	.facts = (const struct ds_fact[]){
		{ .what = "executable stack", .key = "stack_exec", .type = DS_FACT_BOOL,
		  .regression = "new-execstack",
		  .why = "the file now asks for an executable stack (PT_GNU_STACK with PF_X, or "
		         "none): code injected on the stack runs" },
		{ 0 },
	},
	.run = run,
};
