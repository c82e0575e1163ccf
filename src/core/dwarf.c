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

/* The bytes the debug sections hold once decompressed; -1 with the
 * reason in err when a header cannot be read. */
static int debug_size(Elf *elf, uint64_t *total, struct ds_error *err)
{
	size_t shstrndx;
	*total = 0;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0) {
		ds_error_set(err, DS_ERR_PARSE, "no section names: %s", elf_errmsg(-1));
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
				ds_error_set(err, DS_ERR_PARSE, "section %s: bad compression header: %s", name,
				             elf_errmsg(-1));
				return -1;
			}
			size = ch.ch_size;
		} else if (name[1] == 'z') {
			/* "ZLIB" then the size, big-endian, 8 bytes */
			Elf_Data *d = sh.sh_size >= 12 ? elf_rawdata(scn, NULL) : NULL;
			const unsigned char *p = d && d->d_size >= 12 ? d->d_buf : NULL;
			if (!p || memcmp(p, "ZLIB", 4) != 0) {
				ds_error_set(err, DS_ERR_PARSE, "section %s: bad compression header", name);
				return -1;
			}
			size = 0;
			for (int i = 4; i < 12; i++)
				size = size << 8 | p[i];
		}
		if (size > DEBUG_SECTIONS_MAX - *total) {
			ds_error_set(err, DS_ERR_PARSE, "debug sections over the %llu MiB read",
			             (unsigned long long)(DEBUG_SECTIONS_MAX >> 20));
			return -1;
		}
		*total += size;
	}
	return 0;
}

/* The sections libdw's strings of a unit's DIE are in: .debug_str and
 * .debug_line_str (DW_FORM_strp, line_strp, strx) and .debug_info
 * (DW_FORM_string), as libdw holds them (decompressed). */
#define STRING_SECTIONS 3
static void string_sections(Elf *elf, size_t shstrndx, Elf_Data *out[STRING_SECTIONS])
{
	static const char *const names[STRING_SECTIONS] = { ".debug_str", ".debug_line_str",
	                                                    ".debug_info" };
	memset(out, 0, STRING_SECTIONS * sizeof *out);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *sn = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
		for (int i = 0; sn && sh.sh_type != SHT_NOBITS && i < STRING_SECTIONS; i++)
			if (!out[i] && strcmp(sn, names[i]) == 0)
				out[i] = elf_getdata(scn, NULL);
	}
}

/* s, when it ends inside the section it is in: libdw checks a string's
 * offset against its section, not that a NUL follows it there (a
 * .debug_str cut in the middle of its last string). */
static const char *bounded(const char *s, Elf_Data *const secs[STRING_SECTIONS])
{
	uintptr_t p = (uintptr_t)s;
	for (int i = 0; s && i < STRING_SECTIONS; i++) {
		uintptr_t b = secs[i] ? (uintptr_t)secs[i]->d_buf : 0;
		if (b && p >= b && p - b < secs[i]->d_size)
			return memchr(s, '\0', secs[i]->d_size - (p - b)) ? s : NULL;
	}
	return NULL;
}

/* An attribute's string: one of the file's (libdw reads it), or one in
 * the dwz supplementary file (DW_FORM_GNU_strp_alt, DW_FORM_strp_sup),
 * which is never handed to libdw: it would look for the file itself, on
 * the host.  Such a string comes from alt when given, else its offset is
 * left in *alt_off (and NULL returned). */
static const char *attr_string(Dwarf_Die *die, unsigned name, const struct ds_dwarf_alt *alt,
                               unsigned offset_size, bool msb, Elf_Data *const secs[STRING_SECTIONS],
                               uint64_t *alt_off)
{
	Dwarf_Attribute a;
	if (!dwarf_attr(die, name, &a))
		return NULL;
	unsigned form = dwarf_whatform(&a);
	if (form != DW_FORM_GNU_strp_alt && form != DW_FORM_strp_sup)
		return bounded(dwarf_formstring(&a), secs);
	uint64_t off = 0;
	for (unsigned i = 0; i < offset_size; i++)
		off |= (uint64_t)a.valp[msb ? i : offset_size - 1 - i] << (8 * (offset_size - 1 - i));
	if (alt && alt->strs) {
		if (off >= alt->len || !memchr(alt->strs + off, '\0', alt->len - off))
			return NULL;
		return alt->strs + off;
	}
	*alt_off = off;
	return NULL;
}

int ds_dwarf_altlink(Elf *elf, char *name, size_t namelen, unsigned char *id, size_t *idlen)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return -1;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *sn = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
		if (!sn || strcmp(sn, ".gnu_debugaltlink") != 0 || sh.sh_type == SHT_NOBITS ||
		    sh.sh_size > 4096)
			continue;
		Elf_Data *d = elf_rawdata(scn, NULL);
		const char *p = d ? d->d_buf : NULL;
		const char *nul = p ? memchr(p, '\0', d->d_size) : NULL;
		size_t n = nul ? d->d_size - (size_t)(nul + 1 - p) : 0;
		if (!nul || !n || n > DS_BUILD_ID_MAX || (size_t)(nul - p) >= namelen)
			return -1;
		memcpy(name, p, (size_t)(nul - p) + 1);
		memcpy(id, nul + 1, n);
		*idlen = n;
		return 0;
	}
	return -1;
}

int ds_dwarf_strings(Elf *elf, char **strs, size_t *len, struct ds_error *err)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0) {
		ds_error_set(err, DS_ERR_PARSE, "no section names: %s", elf_errmsg(-1));
		return -1;
	}
	uint64_t total;
	if (debug_size(elf, &total, err) != 0)
		return -1;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *sn = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
		if (!sn || strcmp(sn, ".debug_str") != 0 || sh.sh_type == SHT_NOBITS)
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0) {
			ds_error_set(err, DS_ERR_PARSE, ".debug_str: %s", elf_errmsg(-1));
			return -1;
		}
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf) {
			ds_error_set(err, DS_ERR_PARSE, ".debug_str: %s", elf_errmsg(-1));
			return -1;
		}
		*strs = ds_xmalloc(d->d_size + 1);
		memcpy(*strs, d->d_buf, d->d_size);
		*len = d->d_size;
		return 0;
	}
	ds_error_set(err, DS_ERR_PARSE, "no .debug_str");
	return -1;
}

int ds_dwarf_read(Elf *elf, const struct ds_dwarf_alt *alt, struct ds_buildflags *bf,
                  unsigned char *id, size_t *idlen, struct ds_error *err)
{
	GElf_Ehdr eh;
	uint64_t total;
	if (!gelf_getehdr(elf, &eh)) {
		ds_error_set(err, DS_ERR_PARSE, "not an ELF file: %s", elf_errmsg(-1));
		return -1;
	}
	if (debug_size(elf, &total, err) != 0)
		return -1;
	const void *note;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &note);
	if (n <= 0 || (size_t)n > DS_BUILD_ID_MAX) {
		ds_error_set(err, DS_ERR_PARSE, "no build-id note");
		return -1;
	}
	memcpy(id, note, (size_t)n);
	*idlen = (size_t)n;
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (!dw) {
		ds_error_set(err, DS_ERR_PARSE, "no DWARF: %s", dwarf_errmsg(-1));
		return -1;
	}
	memset(bf, 0, sizeof *bf);
	size_t shstrndx;
	Elf_Data *secs[STRING_SECTIONS];
	if (elf_getshdrstrndx(elf, &shstrndx) != 0) {   /* debug_size read them */
		ds_error_set(err, DS_ERR_PARSE, "no section names: %s", elf_errmsg(-1));
		dwarf_end(dw);
		return -1;
	}
	string_sections(elf, shstrndx, secs);
	bool x86 = eh.e_machine == EM_X86_64, msb = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	Dwarf_CU *cu = NULL;
	Dwarf_Die die;
	uint8_t unit_type, offset_size;
	int r;
	while ((r = dwarf_get_units(dw, cu, &cu, NULL, &unit_type, &die, NULL)) == 0) {
		/* type units and dwz's partial units name no compilation */
		if (unit_type != DW_UT_compile && unit_type != DW_UT_skeleton)
			continue;
		if (bf->units == UNITS_MAX) {
			bf->capped = true;
			break;
		}
		if (dwarf_cu_info(cu, NULL, NULL, NULL, NULL, NULL, NULL, &offset_size) != 0 ||
		    (offset_size != 4 && offset_size != 8)) {
			r = -1;
			break;
		}
		uint64_t prod_off = UINT64_MAX, name_off = UINT64_MAX;
		const char *producer = attr_string(&die, DW_AT_producer, alt, offset_size, msb, secs,
		                                   &prod_off);
		const char *name = attr_string(&die, DW_AT_name, alt, offset_size, msb, secs, &name_off);
		if (prod_off != UINT64_MAX && alt && alt->pend)
			alt->pend(alt->ctx, prod_off, name, name_off);
		else
			ds_buildflags_add(bf, producer, name, x86);
	}
	if (r < 0) {
		ds_error_set(err, DS_ERR_PARSE, "malformed .debug_info after %u compile units: %s", bf->units,
		             dwarf_errmsg(-1));
		dwarf_end(dw);
		return -1;
	}
	dwarf_end(dw);
	return 0;
}
