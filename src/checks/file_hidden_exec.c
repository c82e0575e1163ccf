/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file-hidden-exec (find-hidden-exec): a regular file with an execute bit
 * whose name, or the name of any directory above it inside the root,
 * starts with '.'.  Rootkits hide there; so do stray photos (.IMG_0001 with
 * an x bit): the libmagic type in the details tells which at a glance.
 */
#include <string.h>

#include "distsec/check.h"

static bool hidden_component(const char *path)
{
	for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/'))
		if (p[1] == '.' && p[2] && p[2] != '/' && !(p[2] == '.' && (!p[3] || p[3] == '/')))
			return true;
	return false;
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	if (!(f->mode & 0111) || !hidden_component(f->path))
		return;
	const char *base = strrchr(f->path, '/');
	bool name_hidden = base && base[1] == '.';
	struct ds_finding *d = ds_report(f, DS_SEV_WARNING, "executable file %s: %s",
	                                 name_hidden ? "with a hidden name" : "in a hidden directory",
	                                 ds_file_magic(f));
	ds_detail_str(d, "type", ds_file_magic(f));
	ds_detail_bool(d, "hidden_name", name_hidden);
}

const struct ds_check ds_check_file_hidden_exec = {
	.id = "file-hidden-exec",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_REGULAR,
	.summary = "executable file whose name or a parent directory starts with '.'",
	.run = run,
};
