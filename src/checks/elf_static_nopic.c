/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-static-nopic (rpminspect's annocheck -fPIC test for static
 * libraries): a static archive (.a) whose x86-64 objects were compiled
 * without -fPIC/-fPIE cannot go into a PIE or a shared library: a program
 * linking it is built non-PIE (no ASLR) or the link fails.
 *
 * The rule: an ELF relocatable member (ET_REL, ELFCLASS64, EM_X86_64) is
 * not PIC when a relocation section (SHT_RELA) applying to an executable
 * section (SHF_EXECINSTR: .text and its kin) holds an R_X86_64_32 or
 * R_X86_64_32S, a 32-bit absolute address in code, which position-
 * independent code never has (it uses R_X86_64_PC32, PLT32, GOTPCREL).
 * The archive is parsed here (System V/GNU ar with its long-name table,
 * BSD #1/ names), every offset and size checked against the file; only
 * files named *.a are read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distsec/check.h"

#define ARCHIVE_MAX (256u << 20)   /* the most of an archive this check reads */
#define ELF_EM_X86_64 62
#define ELF_SHT_RELA 4
#define ELF_SHF_EXECINSTR 4u
#define R_X86_64_32 10u
#define R_X86_64_32S 11u

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* A decimal field of an ar header, or -1. */
static long long ar_num(const unsigned char *p, size_t n)
{
	long long v = -1;
	for (size_t i = 0; i < n && p[i] != ' '; i++) {
		if (p[i] < '0' || p[i] > '9' || v > (1ll << 40))
			return -1;
		v = (v < 0 ? 0 : v * 10) + (p[i] - '0');
	}
	return v;
}

struct verdict {
	size_t objects, nopic;     /* x86-64 relocatable members; those not PIC */
	char first[64];            /* the first one not PIC */
	const char *type;          /* its relocation type's name */
	char section[32];          /* the section it applies to */
};

/* Whether an x86-64 ET_REL object (size n, whole) is not PIC; v gets the
 * first such object's evidence.  Returns -1 when it is no such object. */
static int judge_object(const unsigned char *o, size_t n, const char *name, struct verdict *v)
{
	if (n < 64 || memcmp(o, "\177ELF", 4) || o[4] != 2 || o[5] != 1 ||
	    le(o + 16, 2) != 1 || le(o + 18, 2) != ELF_EM_X86_64)
		return -1;
	uint64_t shoff = le(o + 0x28, 8), shentsize = le(o + 0x3a, 2), shnum = le(o + 0x3c, 2);
	uint64_t shstrndx = le(o + 0x3e, 2);
	if (shentsize != 64 || shoff > n || shoff % 8)
		return -1;
	if (shnum == 0 && n - shoff >= 64)   /* extended numbering: in section 0 */
		shnum = le(o + shoff + 32, 8);
	if (shstrndx == 0xffff && n - shoff >= 64)
		shstrndx = le(o + shoff + 40, 4);
	if (shnum > (n - shoff) / 64)
		return -1;
	v->objects++;
	const unsigned char *sh = o + shoff;
	for (uint64_t i = 0; i < shnum; i++) {
		const unsigned char *s = sh + i * 64;
		uint64_t info = le(s + 44, 4), off = le(s + 24, 8), size = le(s + 32, 8);
		if (le(s + 4, 4) != ELF_SHT_RELA || info >= shnum || off > n || size > n - off ||
		    !(le(sh + info * 64 + 8, 8) & ELF_SHF_EXECINSTR))
			continue;
		for (uint64_t r = 0; r + 24 <= size; r += 24) {
			uint64_t type = le(o + off + r + 8, 4);
			if (type != R_X86_64_32 && type != R_X86_64_32S)
				continue;
			if (v->nopic++ == 0) {
				snprintf(v->first, sizeof v->first, "%s", name);
				v->type = type == R_X86_64_32 ? "R_X86_64_32" : "R_X86_64_32S";
				uint64_t sname = le(sh + info * 64, 4);
				const unsigned char *str = shstrndx < shnum ? sh + shstrndx * 64 : NULL;
				uint64_t soff = str ? le(str + 24, 8) : 0, ssize = str ? le(str + 32, 8) : 0;
				if (str && soff <= n && ssize <= n - soff && sname < ssize &&
				    memchr(o + soff + sname, '\0', ssize - sname))
					snprintf(v->section, sizeof v->section, "%s", o + soff + sname);
				else
					snprintf(v->section, sizeof v->section, "section %llu",
					         (unsigned long long)info);
			}
			return 1;
		}
	}
	return 0;
}

/* A member's name: short ("name/"), from the GNU long-name table ("/123"),
 * or BSD's "#1/LEN" (the name heads the data, *skip its length). */
static void member_name(const unsigned char *h, const unsigned char *longs, size_t nlongs,
                        const unsigned char *data, size_t size, char *out, size_t outlen,
                        size_t *skip)
{
	*skip = 0;
	long long at = h[0] == '/' ? ar_num(h + 1, 15) : -1;
	if (at >= 0 && longs && (size_t)at < nlongs) {
		size_t len = strcspn((const char *)longs + at, "/\n");
		len = len < nlongs - (size_t)at ? len : nlongs - (size_t)at;
		snprintf(out, outlen, "%.*s", (int)len, longs + at);
		return;
	}
	if (!memcmp(h, "#1/", 3)) {
		long long len = ar_num(h + 3, 13);
		if (len >= 0 && (size_t)len <= size) {
			*skip = (size_t)len;
			snprintf(out, outlen, "%.*s", (int)strnlen((const char *)data, (size_t)len), data);
			return;
		}
	}
	size_t len = 0;
	while (len < 16 && h[len] != '/' && h[len] != ' ')
		len++;
	snprintf(out, outlen, "%.*s", (int)len, h);
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	/* a static library by name (lib*.a, as the linker's -l finds it, and
	 * any .a), then by its ar magic: other files are never read */
	size_t n = strlen(f->path);
	if (n < 3 || strcmp(f->path + n - 2, ".a") || f->size < 8)
		return;
	if ((uint64_t)f->size > ARCHIVE_MAX) {
		ds_report(f, DS_SEV_INFO, "static archive of %lld bytes, over the %u MiB this check "
		          "reads: not judged", (long long)f->size, ARCHIVE_MAX >> 20);
		return;
	}
	size_t len;
	const unsigned char *a = ds_file_data(f, ARCHIVE_MAX, &len);
	if (!a || len < 8 || memcmp(a, "!<arch>\n", 8))
		return;
	struct verdict v = { 0 };
	const unsigned char *longs = NULL;
	size_t nlongs = 0;
	for (size_t off = 8; off <= len && len - off >= 60;) {
		const unsigned char *h = a + off;
		long long size = ar_num(h + 48, 10);
		if (memcmp(h + 58, "`\n", 2) || size < 0 || (uint64_t)size > len - off - 60)
			break;   /* a damaged archive: what came before is judged */
		const unsigned char *data = h + 60;
		if (!memcmp(h, "//              ", 16)) {
			longs = data;
			nlongs = (size_t)size;
		} else if (h[0] != '/' || (h[1] >= '0' && h[1] <= '9')) {
			char name[64];
			size_t skip;
			member_name(h, longs, nlongs, data, (size_t)size, name, sizeof name, &skip);
			judge_object(data + skip, (size_t)size - skip, name, &v);
		}
		off += 60 + (size_t)size + ((size_t)size & 1);
	}
	if (!v.objects)
		return;
	struct ds_finding *d = v.nopic
		? ds_report(f, DS_SEV_WARNING, "static archive with %zu of %zu x86-64 objects not built "
		            "as PIC (%s: %s in %s): a PIE or shared library cannot take them, so a program "
		            "linking it loses ASLR or fails to link", v.nopic, v.objects, v.first, v.type,
		            v.section)
		: ds_report(f, DS_SEV_PASS, "static archive of %zu x86-64 objects, all PIC", v.objects);
	ds_detail_int(d, "objects", (long long)v.objects);
	ds_detail_int(d, "not_pic", (long long)v.nopic);
	if (v.nopic) {
		ds_detail_str(d, "first", v.first);
		ds_detail_str(d, "relocation", v.type);
		ds_detail_str(d, "section", v.section);
	}
}

const struct ds_check ds_check_elf_static_nopic = {
	.id = "elf-static-nopic",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_REGULAR,
	.summary = "static archive (.a) with x86-64 objects not built as PIC",
	.help = {
		.what = "Objects compiled without -fPIC or -fPIE hold absolute addresses in their code. "
		  "Linked from a static archive into a program, they make it non-PIE (no ASLR) or "
		  "the link fails ('relocation R_X86_64_32 against ... can not be used when making "
		  "a PIE object'); distributions build every archive as PIC so that PIE by default "
		  "holds.",
		.detect = "Each member of an ar archive named *.a (System V/GNU or BSD names) that is an x86-64 "
		  "ELF relocatable object (ET_REL) is not PIC when a relocation section applying to "
		  "an executable section (.text and its kin) holds an R_X86_64_32 or R_X86_64_32S: "
		  "a 32-bit absolute address in code, which position-independent code never has. "
		  "The message names the first such member, relocation and section; details count "
		  "the objects and those not PIC.",
		.limits = "Only x86-64 objects are judged (another machine's members are not "
		  "counted); a thin archive (!<thin>) holds no members to read; an archive over 256 "
		  "MiB gets an info saying it was not judged. An object whose code takes no absolute "
		  "address (no string or global address in an instruction) passes even when built "
		  "without -fPIC.",
		.fix = "Compile the archive's objects with -fPIC (or -fPIE), as dpkg-buildflags and "
		  "Fedora's redhat-rpm-config do by default; check that the build does not drop "
		  "CFLAGS for the static library.",
	},
	.cwe = 693,
	.precision = "high",
	.run = run,
};
