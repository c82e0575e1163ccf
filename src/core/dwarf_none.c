/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Built without libdw: no debug file is read, and the checks that would
 * read the build's own flags judge by imports alone. */
#include "internal.h"

const bool ds_have_dwarf = false;

int ds_dwarf_read(Elf *elf, const struct ds_dwarf_alt *alt, struct ds_buildflags *bf,
                  unsigned char *id, size_t *idlen, struct ds_error *err)
{
	(void)elf;
	(void)alt;
	(void)bf;
	(void)id;
	(void)idlen;
	ds_error_set(err, DS_ERR_UNSUPPORTED, "built without libdw");
	return -1;
}

int ds_dwarf_altlink(Elf *elf, char *name, size_t namelen, unsigned char *id, size_t *idlen)
{
	(void)elf;
	(void)name;
	(void)namelen;
	(void)id;
	(void)idlen;
	return -1;
}

int ds_dwarf_strings(Elf *elf, char **strs, size_t *len, struct ds_error *err)
{
	(void)elf;
	(void)strs;
	(void)len;
	ds_error_set(err, DS_ERR_UNSUPPORTED, "built without libdw");
	return -1;
}
