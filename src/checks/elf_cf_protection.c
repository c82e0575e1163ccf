/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-cf-protection: x86-64 compile units built without
 * -fcf-protection=full, from the options GCC recorded in the program's
 * debug file (buildflags.h).  elf-cet reads the linked result (the
 * property note, which one unit without the flag clears); this one names
 * the units.
 */
#include <elf.h>

#include "distsec/buildflags.h"
#include "distsec/check.h"
#include "distsec/elfview.h"

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || v->machine != EM_X86_64)
		return;
	const struct ds_buildflags *bf = ds_file_buildflags(f);
	if (bf && bf->judged)
		ds_report_build_gap(f, bf, &bf->no_cf, DS_SEV_WARNING,
		                    "built without -fcf-protection=full",
		                    "every compile unit built with -fcf-protection=full");
}

const struct ds_check ds_check_elf_cf_protection = {
	.id = "elf-cf-protection",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_ELF,
	.summary = "x86-64 compile units built without -fcf-protection (from the debug file's DWARF)",
	.help = {
		.what = "-fcf-protection=full marks indirect branch targets (IBT, endbr64) and "
		  "keeps return addresses on the CET shadow stack, so a hijacked pointer or a "
		  "ROP chain stops on a CPU and kernel that enforce it. One unit without it "
		  "turns the protection off for the whole program.",
		.detect = "On x86-64, the program's separate debug file, paired by build-id (a "
		  "-dbgsym, -debuginfo or -dbg package of the run, --debug-dir, or the root's "
		  "/usr/lib/debug/.build-id): each GCC compile unit whose recorded options "
		  "(DW_AT_producer, the last -fcf-protection=... winning) do not end at full "
		  "(branch, return or none).",
		.limits = "No debug file, no verdict (elf-cet judges the linked program). Clang, "
		  "Rust, Go and assembler units are counted, not judged; a compiler that enables "
		  "the flag by default without recording it (Ubuntu's GCC) is not seen.",
		.fix = "Build with -fcf-protection (Fedora's redhat-rpm-config default on x86-64; "
		  "dpkg-buildflags: hardening=+branch, the default on amd64 from dpkg 1.22.0).",
	},
	.cwe = 693,
	.precision = "high",
	.run = run,
};
