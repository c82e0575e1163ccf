/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-chroot-chdir (find-chroot): chroot() without chdir()/fchdir() leaves
 * the working directory outside the jail, so "../" walks straight out.
 * Judged from imports (details.method = "imports").
 */
#include "distsec/check.h"
#include "distsec/elfview.h"

static const char *const chdir_calls[] = { "chdir", "fchdir", NULL };

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || !ds_elf_imports(v, "chroot"))
		return;
	const char *cd = ds_elf_imports_any(v, chdir_calls);
	struct ds_finding *d = cd
		? ds_report(f, DS_SEV_PASS, "calls chroot() and %s()", cd)
		: ds_report(f, DS_SEV_ERROR,
		            "calls chroot() but never chdir() or fchdir(): the working directory can stay outside the jail");
	ds_detail_str(d, "method", "imports");
}

const struct ds_check ds_check_elf_chroot_chdir = {
	.id = "elf-chroot-chdir",
	.severity = DS_SEV_ERROR,
	.applies = DS_ON_ELF,
	.summary = "imports chroot but not chdir/fchdir",
	.run = run,
};
