/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-nodrop-groups (find-nodrop-groups, rpm-drop-groups): a program that
 * changes both its gid and its uid but never calls initgroups() or
 * setgroups() keeps root's supplementary groups after "dropping" to a user.
 * Judged from imports, as the original did.  A program that is itself
 * setuid/setgid usually switches between its real and effective ids, not
 * from root to a user; a shared library only offers the calls to its
 * programs: both weaker signals, so a warning instead of an error.
 * Known noise: programs that only drop back to their real ids
 * (setgid(getgid()); setuid(getuid())) cannot be told apart by imports.
 */
#include <sys/stat.h>

#include "distsec/check.h"
#include "distsec/elfview.h"

static const char *const gid_calls[] = { "setgid", "setegid", "setresgid", "setregid", NULL };
static const char *const uid_calls[] = { "setuid", "seteuid", "setresuid", "setreuid", NULL };
static const char *const group_calls[] = { "initgroups", "setgroups", NULL };

static void list_imported(struct ds_finding *d, const struct ds_elfview *v,
                          const char *const *calls)
{
	for (; *calls; calls++)
		if (ds_elf_imports(v, *calls))
			ds_detail_append(d, "calls", *calls);
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || !ds_elf_imports_any(v, gid_calls) || !ds_elf_imports_any(v, uid_calls))
		return;
	if (ds_elf_imports_any(v, group_calls)) {
		ds_report(f, DS_SEV_PASS, "drops supplementary groups before changing ids");
		return;
	}
	bool setid = (f->mode & (S_ISUID | S_ISGID)) != 0;
	bool library = ds_elf_pie(v) == DS_ELF_SHLIB;
	struct ds_finding *d = ds_report(f, setid || library ? DS_SEV_WARNING : DS_SEV_ERROR,
		"changes gid and uid without initgroups() or setgroups(): root's supplementary groups are kept");
	list_imported(d, v, gid_calls);
	list_imported(d, v, uid_calls);
	ds_detail_bool(d, "setid_file", setid);
	ds_detail_bool(d, "library", library);
}

const struct ds_check ds_check_elf_nodrop_groups = {
	.id = "elf-nodrop-groups",
	.severity = DS_SEV_ERROR,
	.applies = DS_ON_ELF,
	.summary = "calls setgid-family and setuid-family without initgroups/setgroups",
	.run = run,
};
