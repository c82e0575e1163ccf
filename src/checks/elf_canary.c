/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-canary: code built with -fstack-protector* calls __stack_chk_fail
 * (or reads __stack_chk_guard) from libc.  A function gets a canary only
 * when it has a buffer on its stack, so the import's absence means "no
 * protector" only where something shows there is one to protect: a call
 * that works on buffers (memcpy, read, fgets, sprintf, ...) is imported,
 * or, on x86-64, i386 and aarch64, the code reserves a stack frame of 64
 * bytes or more (sub $N,%rsp; sub sp,sp,#N), room for a buffer the
 * program fills itself.  Without either (a tiny program with no buffers
 * gets no canary even with -fstack-protector-strong) it is not judged; nor
 * is a static binary, whose libc defines the symbol instead of importing it.
 * When the program's debug file is found (buildflags.h), the compile
 * units' recorded options decide instead, and a unit without
 * -fstack-protector-strong is a warning: the record is no guess.
 */
#include <elf.h>
#include <gelf.h>
#include <string.h>

#include "distsec/buildflags.h"
#include "distsec/check.h"
#include "distsec/elfview.h"

#define FRAME_MIN 64
#define CODE_MAX (64u << 20)   /* whole files read only below this */
static const char *const canary_syms[] = {
	"__stack_chk_fail", "__stack_chk_guard", "__stack_chk_fail_local", NULL,
};

static const char *const buffer_calls[] = {
	"memcpy", "memmove", "strcpy", "strncpy", "strcat", "strncat", "sprintf",
	"snprintf", "vsprintf", "vsnprintf", "read", "pread", "recv", "recvfrom",
	"fgets", "gets", "fread", "scanf", "sscanf", "fscanf", "getcwd", "realpath",
	"__memcpy_chk", "__snprintf_chk", "__sprintf_chk", "__fgets_chk", "__read_chk", NULL,
};

/* The largest "sub $N, sp" frame in bytes [p, p + n) of one machine's code. */
static unsigned long frame_in(unsigned machine, const unsigned char *p, size_t n)
{
	unsigned long best = 0, v;
	if (machine == EM_X86_64 || machine == EM_386) {
		/* both forms' second byte is 0xec, a rare byte: memchr finds the
		 * candidates instead of a test at every byte */
		const unsigned char *q = n >= 4 ? memchr(p + 1, 0xec, n - 1) : NULL;
		for (; q; q = memchr(q + 1, 0xec, (size_t)(p + n - (q + 1)))) {
			size_t i = (size_t)(q - p) - 1;
			if (i + 4 > n)
				break;
			v = 0;
			if (p[i] == 0x83 && p[i + 2] < 0x80)
				v = p[i + 2];                          /* sub $imm8, %rsp/%esp */
			else if (p[i] == 0x81 && i + 6 <= n)
				v = p[i + 2] | p[i + 3] << 8 | (unsigned long)p[i + 4] << 16 |
				    (unsigned long)p[i + 5] << 24;     /* sub $imm32, %rsp/%esp */
			if (v < (1ul << 20) && v > best)
				best = v;
		}
		return best;
	}
	for (size_t i = 0; i + 4 <= n; i += 4) {
		v = 0;
		if (machine == EM_AARCH64) {
			uint32_t insn = (uint32_t)(p[i] | p[i + 1] << 8 | p[i + 2] << 16) |
			                (uint32_t)p[i + 3] << 24;
			if ((insn & 0xffc003ffu) == 0xd10003ffu)   /* sub sp, sp, #imm12 */
				v = (insn >> 10) & 0xfff;
		}
		if (v < (1ul << 20) && v > best)
			best = v;
	}
	return best;
}

/* The largest stack frame the executable sections reserve, 0 if none or
 * when the machine has no pattern here. */
static unsigned long largest_frame(struct ds_file *f, const struct ds_elfview *v)
{
	if (v->machine != EM_X86_64 && v->machine != EM_386 && v->machine != EM_AARCH64)
		return 0;
	size_t len;
	const unsigned char *data = ds_file_data(f, CODE_MAX, &len);
	if (!data)
		return 0;
	unsigned long best = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(v->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_offset > len || sh.sh_size > len - sh.sh_offset)
			continue;
		unsigned long fr = frame_in(v->machine, data + sh.sh_offset, (size_t)sh.sh_size);
		if (fr > best)
			best = fr;
	}
	return best;
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	/* the compiler's own record, when the debug file is there, rather
	 * than a guess from what the program imports */
	const struct ds_buildflags *bf = ds_file_buildflags(f);
	if (bf && bf->judged) {
		struct ds_finding *d = ds_report_build_gap(f, bf, &bf->no_canary, DS_SEV_WARNING,
		                    "built without -fstack-protector-strong",
		                    "every compile unit built with -fstack-protector-strong or -all");
		/* the fact distsec diff compares, as the import guess gives it */
		ds_detail_bool(d, "canary", bf->no_canary.count == 0);
		return;
	}
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || !v->has_dynamic || !v->nimports)
		return;
	const char *sym = ds_elf_imports_any(v, canary_syms);
	const char *buf = sym ? NULL : ds_elf_imports_any(v, buffer_calls);
	unsigned long frame = sym || buf ? 0 : largest_frame(f, v);
	if (!sym && !buf && frame < FRAME_MIN)
		return;
	struct ds_finding *d;
	if (sym)
		d = ds_report(f, DS_SEV_PASS, "stack protector present (%s)", sym);
	else if (buf)
		d = ds_report(f, DS_SEV_INFO,
		              "no stack protector: built without -fstack-protector-strong (it imports %s)", buf);
	else
		d = ds_report(f, DS_SEV_INFO,
		              "no stack protector: built without -fstack-protector-strong "
		              "(a %lu-byte stack frame, no __stack_chk_fail)", frame);
	ds_detail_str(d, "source", "imports");
	ds_detail_bool(d, "canary", sym != NULL);
	if (buf)
		ds_detail_str(d, "buffer_call", buf);
	if (frame)
		ds_detail_int(d, "stack_frame", (long long)frame);
}

const struct ds_check ds_check_elf_canary = {
	.id = "elf-canary",
	.severity = DS_SEV_WARNING,
	.least = DS_SEV_INFO,
	.severity_policy = "warning when the debug file's compile units record no "
	  "-fstack-protector-strong (details.source dwarf); info when guessed from imports",
	.applies = DS_ON_ELF,
	.summary = "no stack protector (compile units' recorded flags, else buffer functions "
	  "or a large stack frame without __stack_chk_fail)",
	.help = {
		.what = "Code built without a stack protector has no canary between local buffers and "
		  "the return address, so a stack buffer overflow goes undetected.",
		.detect = "With the program's separate debug file (paired by build-id: a -dbgsym, "
		  "-debuginfo or -dbg package of the run, --debug-dir, or the root's "
		  "/usr/lib/debug/.build-id): every GCC compile unit whose recorded options "
		  "(DW_AT_producer, the last one winning) leave out -fstack-protector-strong "
		  "and -all. Without it: a dynamically linked file that imports buffer functions "
		  "(memcpy, read, fgets, sprintf, ...), or has a function with a stack buffer it "
		  "fills itself, but neither __stack_chk_fail nor __stack_chk_guard.",
		.limits = "Clang, Rust, Go and assembler units are counted, not judged; a "
		  "compiler that enables the protector by default without recording it (Ubuntu's "
		  "GCC) is not seen. From imports: a program whose functions have no arrays gets "
		  "no canary even with -fstack-protector-strong; static binaries cannot be judged "
		  "from symbols and are not reported.",
		.fix = "Build with -fstack-protector-strong (dpkg-buildflags: "
		  "hardening=+stackprotectorstrong, the default).",
	},
	.cwe = 121,
	.precision = "medium",
	.facts = (const struct ds_fact[]){
		{ .what = "stack protector", .key = "canary", .type = DS_FACT_BOOL,
		  .regression = "lost-canary", .lost = true,
		  .why = "the file had stack-protector canaries and has none: a stack buffer overflow "
		         "reaches the return address undetected" },
		{ 0 },
	},
	.run = run,
};
