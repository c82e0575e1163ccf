/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A separate debug file's compile units, read with libdw: the unit
 * headers, and of each unit's DIE only DW_AT_producer and DW_AT_name
 * (include/distsec/buildflags.h).  libdw decompresses every debug
 * section when it opens a file, so the sections' sizes (decompressed
 * where compressed) are capped before it does, and so is the number of
 * units read.
 */
#include <elf.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

const bool ds_have_dwarf = true;

/* The debug sections libdw may load, decompressed: Chromium's
 * .debug_info alone is over 1 GiB, a typical program's a few MiB. */
#define DEBUG_SECTIONS_MAX ((uint64_t)1 << 30)
/* Compile units read per file (Chromium: about 50,000). */
#define UNITS_MAX 200000u

/* The bytes the debug sections hold once decompressed; -1 with why when
 * a header cannot be read. */
static int debug_size(Elf *elf, uint64_t *total, char *why, size_t len)
{
	size_t shstrndx;
	*total = 0;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0) {
		snprintf(why, len, "no section names: %s", elf_errmsg(-1));
		return -1;
	}
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || (strncmp(name, ".debug_", 7) != 0 && strncmp(name, ".zdebug_", 8) != 0))
			continue;
		uint64_t size = sh.sh_size;
		if (sh.sh_flags & SHF_COMPRESSED) {
			GElf_Chdr ch;
			if (!gelf_getchdr(scn, &ch)) {
				snprintf(why, len, "section %s: bad compression header: %s", name,
				         elf_errmsg(-1));
				return -1;
			}
			size = ch.ch_size;
		} else if (name[1] == 'z') {
			/* "ZLIB" then the size, big-endian, 8 bytes */
			Elf_Data *d = sh.sh_size >= 12 ? elf_rawdata(scn, NULL) : NULL;
			const unsigned char *p = d && d->d_size >= 12 ? d->d_buf : NULL;
			if (!p || memcmp(p, "ZLIB", 4) != 0) {
				snprintf(why, len, "section %s: bad compression header", name);
				return -1;
			}
			size = 0;
			for (int i = 4; i < 12; i++)
				size = size << 8 | p[i];
		}
		if (size > DEBUG_SECTIONS_MAX - *total) {
			snprintf(why, len, "debug sections over the %llu MiB read",
			         (unsigned long long)(DEBUG_SECTIONS_MAX >> 20));
			return -1;
		}
		*total += size;
	}
	return 0;
}

int ds_dwarf_read(Elf *elf, struct ds_buildflags *bf, unsigned char *id, size_t *idlen,
                  char *why, size_t len)
{
	GElf_Ehdr eh;
	uint64_t total;
	if (!gelf_getehdr(elf, &eh)) {
		snprintf(why, len, "not an ELF file: %s", elf_errmsg(-1));
		return -1;
	}
	if (debug_size(elf, &total, why, len) != 0)
		return -1;
	const void *note;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &note);
	if (n <= 0 || (size_t)n > DS_BUILD_ID_MAX) {
		snprintf(why, len, "no build-id note");
		return -1;
	}
	memcpy(id, note, (size_t)n);
	*idlen = (size_t)n;
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (!dw) {
		snprintf(why, len, "no DWARF: %s", dwarf_errmsg(-1));
		return -1;
	}
	memset(bf, 0, sizeof *bf);
	bool x86 = eh.e_machine == EM_X86_64;
	Dwarf_CU *cu = NULL;
	Dwarf_Die die;
	uint8_t unit_type;
	int r;
	while ((r = dwarf_get_units(dw, cu, &cu, NULL, &unit_type, &die, NULL)) == 0) {
		/* type units and dwz's partial units name no compilation */
		if (unit_type != DW_UT_compile && unit_type != DW_UT_skeleton)
			continue;
		if (bf->units == UNITS_MAX) {
			bf->capped = true;
			break;
		}
		Dwarf_Attribute a;
		const char *producer = dwarf_formstring(dwarf_attr(&die, DW_AT_producer, &a));
		ds_buildflags_add(bf, producer, dwarf_diename(&die), x86);
	}
	if (r < 0) {
		snprintf(why, len, "malformed .debug_info after %u compile units: %s", bf->units,
		         dwarf_errmsg(-1));
		dwarf_end(dw);
		return -1;
	}
	dwarf_end(dw);
	if (!bf->units) {
		snprintf(why, len, "no compile unit in .debug_info");
		return -1;
	}
	return 0;
}
