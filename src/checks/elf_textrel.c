/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-textrel: DT_TEXTREL (or DF_TEXTREL in DT_FLAGS) means the loader must
 * write into the code segment: text pages become writable at start-up and
 * are not shared between processes.  Usually non-PIC code in a library.
 */
#include "distsec/check.h"
#include "distsec/elfview.h"

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || !v->has_dynamic || !v->textrel)
		return;
	ds_report(f, DS_SEV_WARNING,
	          "has text relocations (DT_TEXTREL): code pages are written at load time; build with -fPIC");
}

const struct ds_check ds_check_elf_textrel = {
	.id = "elf-textrel",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_ELF,
	.summary = "ELF with text relocations (DT_TEXTREL / DF_TEXTREL)",
	.help = {
		.what = "Text relocations make the loader write into the code segment: code pages "
		  "become writable at start-up (defeating W^X) and are not shared between "
		  "processes.",
		.detect = "DT_TEXTREL, or DF_TEXTREL in DT_FLAGS.",
		.limits = "None known; the cause is usually non-PIC code in a shared library.",
		.fix = "Build every object of the library with -fPIC; for hand-written assembly use "
		  "PC-relative addressing.",
	},
	.cwe = 693,
	.precision = "very-high",
	.facts = (const struct ds_fact[]){
		{ .what = "TEXTREL", .type = DS_FACT_FINDING, .regression = "new-textrel",
		  .why = "the file now has text relocations: the loader makes its code writable while "
		         "relocating it, and the pages cannot be shared" },
		{ 0 },
	},
	.run = run,
};
