/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Built without libdw: no debug file is read, and elf-canary judges by
 * imports alone. */
#include "internal.h"

const bool ds_have_dwarf = false;

int ds_dwarf_read(Elf *elf, struct ds_buildflags *bf, unsigned char *id, size_t *idlen,
                  char *why, size_t len)
{
	(void)elf;
	(void)bf;
	(void)id;
	(void)idlen;
	snprintf(why, len, "built without libdw");
	return -1;
}
