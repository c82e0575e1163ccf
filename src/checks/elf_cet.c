/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-cet: on x86-64 the GNU property note of a file built with
 * -fcf-protection carries IBT (indirect branch tracking) and SHSTK (shadow
 * stack) bits; the linker sets them only if every input object has them.
 * Opt-in: Debian 12 builds nothing with CET, so by default this would flag
 * every file of the system.
 */
#include <elf.h>

#include "distsec/check.h"
#include "distsec/elfview.h"

#define X86_IBT 1u
#define X86_SHSTK 2u

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || v->machine != EM_X86_64 || (v->type != ET_EXEC && v->type != ET_DYN))
		return;
	bool ibt = v->x86_features & X86_IBT, shstk = v->x86_features & X86_SHSTK;
	struct ds_finding *d = ibt && shstk
		? ds_report(f, DS_SEV_PASS, "CET: IBT and SHSTK")
		: ds_report(f, DS_SEV_INFO, "not built for CET (%s%s%s missing); build with -fcf-protection",
		            ibt ? "" : "IBT", !ibt && !shstk ? " and " : "", shstk ? "" : "SHSTK");
	ds_detail_bool(d, "ibt", ibt);
	ds_detail_bool(d, "shstk", shstk);
	ds_detail_bool(d, "property_note", v->has_property_note);
}

const struct ds_check ds_check_elf_cet = {
	.id = "elf-cet",
	.severity = DS_SEV_INFO,
	.applies = DS_ON_ELF,
	.summary = "x86-64 ELF without CET (IBT/SHSTK) property bits",
	.help = {
		.what = "Intel CET (indirect branch tracking and shadow stacks) stops return- and "
		  "jump-oriented programming on hardware that has it; a file built without it "
		  "turns it off for the whole process.",
		.detect = "The IBT and SHSTK bits of the GNU property note of x86-64 ELF files.",
		.limits = "Opt-in: Debian 12 builds nothing with CET, so by default it would flag every "
		  "file. Only x86-64 is judged.",
		.fix = "Build with -fcf-protection=full (every object, including assembly, must carry "
		  "the property).",
	},
	.cwe = 693,
	.precision = "high",
	.opt_in = true,
	.run = run,
};
