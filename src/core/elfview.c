/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ELF view: one pass over what the ELF checks need (see elfview.h). */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "distsec/elfview.h"
#include "distsec/util.h"

#ifndef DF_1_PIE
#define DF_1_PIE 0x08000000
#endif
#ifndef NT_GNU_PROPERTY_TYPE_0
#define NT_GNU_PROPERTY_TYPE_0 5
#endif
#define DS_GNU_PROPERTY_X86_FEATURE_1_AND 0xc0000002u

/* libelf reads a whole section into memory on elf_getdata/elf_strptr: a
 * 16 KB sparse file whose .dynstr claims 4 GiB cost 4.2 GB and a minute.
 * What the checks read is capped (the largest on this machine: libLLVM's
 * .dynstr, 6 MiB; notes and .dynamic are a few KiB); a larger section is
 * not read and the view says so in `skipped`. */
#define SYMS_MAX (64u << 20)
#define SMALL_SECTION_MAX (1u << 20)

static bool over_cap(struct ds_elfview *v, const char *what, GElf_Xword size, GElf_Xword cap)
{
	if (size <= cap)
		return false;
	if (!v->skipped)
		v->skipped = what;
	return true;
}

/* libelf's elf_begin allocates ~280 bytes per section the header claims
 * before anything else is read: a sparse file claiming 16M headers through
 * extended numbering (the count in section 0's sh_size) took 4.5 GB, and
 * its size check cannot help when the hole makes the claim fit.  The
 * largest real tables are relocatable objects built with
 * -ffunction-sections (tens of thousands); a program or library has tens.
 * The kernel reads at most 64 KiB of program headers (~1,170 entries);
 * only core dumps use PN_XNUM for more. */
#define SHNUM_MAX ((uint64_t)1 << 18)
#define PHNUM_MAX ((uint64_t)1 << 16)

/* The integer of `len` bytes at p in the file's byte order. */
static uint64_t uint_at(const unsigned char *p, size_t len, bool msb)
{
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++)
		v |= (uint64_t)p[msb ? i : len - 1 - i] << (8 * (len - 1 - i));
	return v;
}

static bool read_exact(int fd, const unsigned char *mem, size_t size, uint64_t off,
                       unsigned char *buf, size_t len)
{
	if (off > size || size - off < len)
		return false;
	if (mem) {
		memcpy(buf, mem + off, len);
		return true;
	}
	for (size_t got = 0; got < len; ) {
		ssize_t r = pread(fd, buf + got, len - got, (off_t)(off + got));
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

static bool table_fits(uint64_t off, uint64_t n, size_t entsize, size_t size)
{
	return off <= size && n <= (size - off) / entsize;
}

const char *ds_elf_headers_check(int fd, const unsigned char *mem, size_t size)
{
	unsigned char eh[64], sh0[64];
	if (!read_exact(fd, mem, size, 0, eh, EI_NIDENT) || memcmp(eh, ELFMAG, SELFMAG) != 0 ||
	    (eh[EI_CLASS] != ELFCLASS32 && eh[EI_CLASS] != ELFCLASS64))
		return NULL;
	bool is64 = eh[EI_CLASS] == ELFCLASS64, msb = eh[EI_DATA] == ELFDATA2MSB;
	size_t ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if (!read_exact(fd, mem, size, 0, eh, ehsize))
		return NULL;
	size_t word = is64 ? 8 : 4, half = is64 ? 0x36 : 0x2a;
	uint64_t phoff = uint_at(eh + 0x1c + (is64 ? 4 : 0), word, msb);
	uint64_t shoff = uint_at(eh + 0x20 + (is64 ? 8 : 0), word, msb);
	uint64_t phnum = uint_at(eh + half + 2, 2, msb);
	uint64_t shnum = uint_at(eh + half + 6, 2, msb);
	size_t shsize = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	size_t phsize = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	if (shoff && (shnum == 0 || phnum == PN_XNUM)) {
		/* extended numbering: the counts are in section 0 */
		if (!read_exact(fd, mem, size, shoff, sh0, shsize))
			return "the section header table runs past the end of the file";
		if (shnum == 0)
			shnum = uint_at(sh0 + (is64 ? 0x20 : 0x14), word, msb);
		if (phnum == PN_XNUM)
			phnum = uint_at(sh0 + (is64 ? 0x2c : 0x1c), 4, msb);
	}
	if (phnum > PHNUM_MAX)
		return "the program header table is over 65536 entries";
	if (phnum && !table_fits(phoff, phnum, phsize, size))
		return "program headers are truncated or out of bounds";
	if (shoff && shnum > SHNUM_MAX)
		return "the section header table is over 262144 entries";
	if (shoff && !table_fits(shoff, shnum, shsize, size))
		return "the section header table runs past the end of the file";
	return NULL;
}


/* The size libelf would read for the string table strndx. */
static GElf_Xword section_size(Elf *elf, size_t ndx)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_getscn(elf, ndx);
	return scn && gelf_getshdr(scn, &sh) ? sh.sh_size : 0;
}

/* -1 when the program headers cannot be read: judging a truncated file
 * by what is missing would report "no RELRO" for a broken download. */
static int scan_phdrs(struct ds_elfview *v, const GElf_Ehdr *eh, size_t file_size,
                      GElf_Phdr *dyn)
{
	size_t n = 0;
	if (elf_getphdrnum(v->elf, &n) != 0)
		return -1;
	/* libelf may answer 0 headers, or headers it never read, for a table
	 * that runs past the end of the file: check the bounds ourselves. */
	if (eh->e_phnum != PN_XNUM && n < eh->e_phnum)
		n = eh->e_phnum;
	if (n && (eh->e_phoff > file_size ||
	          (file_size - eh->e_phoff) / (eh->e_phentsize ? eh->e_phentsize : 1) < n))
		return -1;
	v->has_phdrs = n > 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr p;
		if (!gelf_getphdr(v->elf, (int)i, &p))
			return -1;
		switch (p.p_type) {
		case PT_INTERP: v->has_interp = true; break;
		case PT_DYNAMIC: v->has_dynamic = true; *dyn = p; break;
		case PT_GNU_RELRO: v->has_gnu_relro = true; break;
		case PT_GNU_STACK:
			v->has_gnu_stack = true;
			if (p.p_flags & PF_X)
				v->stack_exec = true;
			break;
		case PT_LOAD:
			if ((p.p_flags & PF_W) && (p.p_flags & PF_X) && p.p_memsz)
				v->rwx_load = true;
			if ((p.p_flags & PF_X) && p.p_memsz)
				v->exec_load = true;
			break;
		}
	}
	return 0;
}

/* Finds the section whose sh_type is `type`; NULL if none. */
static Elf_Scn *find_section(Elf *elf, Elf64_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

static char *dyn_string(Elf *elf, size_t strndx, GElf_Xword off)
{
	const char *s = strndx ? elf_strptr(elf, strndx, off) : NULL;
	return s ? ds_xstrdup(s) : ds_xstrdup("?");
}

static void dyn_entry(struct ds_elfview *v, const GElf_Dyn *dyn, size_t strndx)
{
	switch (dyn->d_tag) {
	case DT_BIND_NOW: v->bind_now = true; break;
	case DT_FLAGS:
		if (dyn->d_un.d_val & DF_BIND_NOW) v->bind_now = true;
		if (dyn->d_un.d_val & DF_TEXTREL) v->textrel = true;
		break;
	case DT_FLAGS_1:
		if (dyn->d_un.d_val & DF_1_NOW) v->bind_now = true;
		if (dyn->d_un.d_val & DF_1_PIE) v->df1_pie = true;
		break;
	case DT_TEXTREL: v->textrel = true; break;
	case DT_SONAME: v->has_soname = true; break;
	case DT_DEBUG: v->has_debug = true; break;
	case DT_NEEDED: v->needed++; break;
	case DT_RPATH:
		if (!v->rpath) v->rpath = dyn_string(v->elf, strndx, dyn->d_un.d_val);
		break;
	case DT_RUNPATH:
		if (!v->runpath) v->runpath = dyn_string(v->elf, strndx, dyn->d_un.d_val);
		break;
	}
}

/* From the SHT_DYNAMIC section, or, in a file stripped of section
 * headers, from PT_DYNAMIC itself (flags only: no string table then). */
static void scan_dynamic(struct ds_elfview *v, const GElf_Phdr *ph)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(v->elf, SHT_DYNAMIC, &sh);
	Elf_Data *d = NULL;
	size_t n = 0, strndx = 0;
	if (scn && sh.sh_entsize) {
		if (over_cap(v, ".dynamic is over 1 MiB", sh.sh_size, SMALL_SECTION_MAX))
			return;
		d = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		strndx = sh.sh_link;
		if (over_cap(v, "the .dynamic string table is over 64 MiB",
		             section_size(v->elf, strndx), SYMS_MAX))
			strndx = 0;
	} else if (v->has_dynamic) {
		if (over_cap(v, "PT_DYNAMIC is over 1 MiB", ph->p_filesz, SMALL_SECTION_MAX))
			return;
		d = elf_getdata_rawchunk(v->elf, (int64_t)ph->p_offset, ph->p_filesz, ELF_T_DYN);
		n = ph->p_filesz / gelf_fsize(v->elf, ELF_T_DYN, 1, EV_CURRENT);
	}
	if (!d)
		return;
	for (size_t i = 0; i < n; i++) {
		GElf_Dyn dyn;
		if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag == DT_NULL)
			break;
		dyn_entry(v, &dyn, strndx);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void scan_dynsym(struct ds_elfview *v)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(v->elf, SHT_DYNSYM, &sh);
	if (!scn || !sh.sh_entsize ||
	    over_cap(v, ".dynsym is over 64 MiB", sh.sh_size, SYMS_MAX) ||
	    over_cap(v, ".dynstr is over 64 MiB", section_size(v->elf, sh.sh_link), SYMS_MAX))
		return;
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d)
		return;
	size_t n = sh.sh_size / sh.sh_entsize, cap = 0;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		if (sym.st_shndx != SHN_UNDEF) {
			if (GELF_ST_TYPE(sym.st_info) == STT_FUNC)
				v->defined_funcs++;
			continue;
		}
		const char *name = elf_strptr(v->elf, sh.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		ds_push(v->imports, v->nimports, cap, ds_xstrdup(name));
	}
	if (!v->nimports)
		return;
	qsort(v->imports, v->nimports, sizeof *v->imports, cmp_str);
	size_t w = 1;
	for (size_t i = 1; i < v->nimports; i++) {
		if (strcmp(v->imports[i], v->imports[w - 1]) == 0)
			free(v->imports[i]);
		else
			v->imports[w++] = v->imports[i];
	}
	v->nimports = w;
}

/* Reads the x86 feature word of a NT_GNU_PROPERTY_TYPE_0 descriptor. */
static void parse_property(struct ds_elfview *v, const unsigned char *p, size_t len)
{
	size_t align = v->elfclass == ELFCLASS64 ? 8 : 4;
	while (len >= 8) {
		uint32_t type, sz;
		memcpy(&type, p, 4);
		memcpy(&sz, p + 4, 4);
		if (sz > len - 8)
			return;
		if (type == DS_GNU_PROPERTY_X86_FEATURE_1_AND && sz >= 4) {
			memcpy(&v->x86_features, p + 8, 4);
			v->has_property_note = true;
		}
		size_t step = 8 + ((sz + align - 1) & ~(align - 1));
		if (step > len)
			return;
		p += step;
		len -= step;
	}
}

/* objcopy --only-keep-debug keeps the headers and empties the sections:
 * code and .dynamic become NOBITS, which no file the loader runs has. */
static bool debug_only_section(Elf *elf, size_t shstrndx, const GElf_Shdr *sh)
{
	if (sh->sh_type != SHT_NOBITS)
		return false;
	if (sh->sh_flags & SHF_EXECINSTR)
		return true;
	const char *name = shstrndx ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;
	return name && strcmp(name, ".dynamic") == 0;
}

static void scan_sections(struct ds_elfview *v)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx = 0;
	if (elf_getshdrstrndx(v->elf, &shstrndx) != 0 ||
	    over_cap(v, "the section name table is over 64 MiB", section_size(v->elf, shstrndx), SYMS_MAX))
		shstrndx = 0;
	while ((scn = elf_nextscn(v->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (debug_only_section(v->elf, shstrndx, &sh))
			v->debug_only = true;
		if (sh.sh_type != SHT_NOTE ||
		    over_cap(v, "a note section is over 1 MiB", sh.sh_size, SMALL_SECTION_MAX))
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		size_t off = 0, name_off, desc_off;
		GElf_Nhdr nh;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_PROPERTY_TYPE_0 && nh.n_namesz == 4 &&
			    memcmp((const char *)d->d_buf + name_off, "GNU", 4) == 0)
				parse_property(v, (const unsigned char *)d->d_buf + desc_off,
				               nh.n_descsz);
			else if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			         memcmp((const char *)d->d_buf + name_off, "GNU", 4) == 0 &&
			         nh.n_descsz && nh.n_descsz <= sizeof v->build_id && !v->build_id_len) {
				memcpy(v->build_id, (const char *)d->d_buf + desc_off, nh.n_descsz);
				v->build_id_len = nh.n_descsz;
			}
		}
	}
}

struct ds_elfview *ds_elfview_new(Elf *elf, int fd, size_t file_size, const char **why)
{
	GElf_Ehdr eh;
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		int err = elf_errno();
		*why = err ? elf_errmsg(err) : "too short for an ELF header";
		elf_end(elf);
		return NULL;
	}
	struct ds_elfview *v = ds_xcalloc(1, sizeof *v);
	v->elf = elf;
	v->fd = fd;
	v->file_size = file_size;
	v->elfclass = gelf_getclass(elf);
	v->type = eh.e_type;
	v->machine = eh.e_machine;
	v->data = eh.e_ident[EI_DATA];
	GElf_Phdr dyn = { 0 };
	if (scan_phdrs(v, &eh, file_size, &dyn) != 0) {
		*why = "program headers are truncated or out of bounds";
		ds_elfview_free(v);
		return NULL;
	}
	scan_dynamic(v, &dyn);
	scan_dynsym(v);
	scan_sections(v);
	return v;
}

void ds_elfview_free(struct ds_elfview *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->nimports; i++)
		free(v->imports[i]);
	free(v->imports);
	free(v->rpath);
	free(v->runpath);
	elf_end(v->elf);
	free(v);
}

bool ds_elf_imports(const struct ds_elfview *v, const char *sym)
{
	return v->nimports &&
	       bsearch(&sym, v->imports, v->nimports, sizeof *v->imports, cmp_str);
}

const char *ds_elf_imports_any(const struct ds_elfview *v, const char *const *syms)
{
	for (; *syms; syms++)
		if (ds_elf_imports(v, *syms))
			return *syms;
	return NULL;
}

enum ds_elf_pie ds_elf_pie(const struct ds_elfview *v)
{
	if (v->type == ET_EXEC)
		return DS_ELF_NOT_PIE;
	if (v->type != ET_DYN)
		return DS_ELF_OTHER;
	/* DF_1_PIE is what the linker says; PT_INTERP is what only programs
	 * carry (a static-pie has no interpreter but has DF_1_PIE). */
	if (v->df1_pie || v->has_interp)
		return DS_ELF_PIE;
	return DS_ELF_SHLIB;
}

/* A program exporting this many functions hosts a language or plugin API. */
#define API_EXPORTS 200

bool ds_elf_offers_api(const struct ds_elfview *v)
{
	return ds_elf_pie(v) == DS_ELF_SHLIB || v->defined_funcs >= API_EXPORTS;
}

enum ds_elf_relro ds_elf_relro(const struct ds_elfview *v)
{
	/* BIND_NOW without PT_GNU_RELRO is not full RELRO: nothing is made
	 * read-only (checksec #161 got this wrong). */
	if (!v->has_gnu_relro)
		return DS_RELRO_NONE;
	/* a static-pie relocates itself wholly at start-up, nothing is lazy */
	return v->bind_now || ds_elf_link(v) == DS_LINK_STATIC_PIE ? DS_RELRO_FULL
	                                                         : DS_RELRO_PARTIAL;
}

enum ds_elf_link ds_elf_link(const struct ds_elfview *v)
{
	if (v->has_interp)
		return DS_LINK_DYNAMIC;
	if (v->type == ET_EXEC)
		return DS_LINK_STATIC;
	return v->type == ET_DYN && v->df1_pie ? DS_LINK_STATIC_PIE : DS_LINK_DYNAMIC;
}

const char *ds_elf_relro_name(enum ds_elf_relro r)
{
	static const char *const names[] = { "none", "partial", "full" };
	return names[r];
}

static bool is_rodata(const GElf_Shdr *sh)
{
	return sh->sh_type == SHT_PROGBITS && (sh->sh_flags & SHF_ALLOC) &&
	       !(sh->sh_flags & (SHF_WRITE | SHF_EXECINSTR));
}

/* Read-only data is read in chunks with pread, not with elf_getdata: libelf
 * would keep every section it read (libLLVM has ~50 MiB of .rodata) until
 * the file is done.  Only strings holding the `must` byte are wanted, so
 * memchr finds those and everything else is never looked at byte by byte.
 * A string cut by a chunk end is carried to the next chunk; one longer
 * than STR_CARRY is no path and is dropped. */
#define STR_CHUNK (64 * 1024)
#define STR_CARRY 4096
/* Read-only data scanned per file: more than libLLVM's 50 MiB; a sparse
 * file claiming 4 GiB of .rodata took 8 s each before this cap. */
#define STR_TOTAL_MAX ((GElf_Xword)64 << 20)

/* Ends a string: NUL, or a byte no C-locale string has (locale-free). */
static bool str_boundary(unsigned char c)
{
	return c != '\t' && (c < 0x20 || c > 0x7e);
}

struct strscan {
	size_t minlen;
	int must;
	ds_elf_string_cb cb;
	void *ctx;
	uint64_t base;    /* the address buf[0] is loaded at */
	bool skip_first;  /* the region does not begin at a string start */
};

/* Calls back for the strings complete in buf[0, len) and returns where the
 * unfinished tail begins (len when none).  buf[0] begins a string unless
 * skip_first.  Returns (size_t)-1 when the callback asked to stop. */
static size_t strscan_region(struct strscan *st, const char *buf, size_t len)
{
	size_t cut = len;
	while (cut > 0 && !str_boundary((unsigned char)buf[cut - 1]))
		cut--;
	size_t pos = 0;
	if (st->skip_first) {
		while (pos < cut && !str_boundary((unsigned char)buf[pos]))
			pos++;
		if (pos < cut)
			pos++;
	}
	const char *hit;
	while (pos < cut && (hit = memchr(buf + pos, st->must, cut - pos)) != NULL) {
		size_t b = (size_t)(hit - buf), e = b;
		while (b > pos && !str_boundary((unsigned char)buf[b - 1]))
			b--;
		while (!str_boundary((unsigned char)buf[e]))   /* buf[cut - 1] is one */
			e++;
		if (buf[e] == '\0' && e - b >= st->minlen &&
		    st->cb(buf + b, e - b, st->base + b, st->ctx))
			return (size_t)-1;
		pos = e + 1;
	}
	return cut;
}

/* Scans section bytes [off, off + size) of the file behind fd. */
static int strscan_file(struct strscan *st, int fd, char *buf, GElf_Off off, GElf_Xword size,
                        GElf_Addr addr)
{
	size_t have = 0;   /* carried bytes at buf[0] */
	for (GElf_Xword done = 0; done < size; ) {
		st->base = addr + done - have;
		size_t want = size - done < STR_CHUNK ? (size_t)(size - done) : STR_CHUNK;
		ssize_t got = pread(fd, buf + have, want, (off_t)(off + done));
		if (got <= 0)
			return -1;
		done += (GElf_Xword)got;
		size_t len = have + (size_t)got;
		size_t tail = strscan_region(st, buf, len);
		if (tail == (size_t)-1)
			return 1;
		st->skip_first = len - tail >= STR_CARRY;
		have = st->skip_first ? 0 : len - tail;
		memmove(buf, buf + tail, have);
	}
	return 0;
}

int ds_elf_strings_at(const struct ds_elfview *v, size_t minlen, int must,
                      ds_elf_string_cb cb, void *ctx)
{
	size_t raw_size = 0;
	const char *raw = v->fd < 0 ? elf_rawfile(v->elf, &raw_size) : NULL;
	if (v->fd < 0 && !raw)
		return -1;
	char *buf = raw ? NULL : ds_xmalloc(STR_CARRY + STR_CHUNK);
	struct strscan st = { .minlen = minlen, .must = must, .cb = cb, .ctx = ctx };
	GElf_Xword budget = STR_TOTAL_MAX;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int rc = 0;
	while (rc == 0 && budget && (scn = elf_nextscn(v->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || !is_rodata(&sh) ||
		    sh.sh_offset > v->file_size || sh.sh_size > v->file_size - sh.sh_offset)
			continue;
		st.skip_first = false;   /* strings do not run across sections */
		if (sh.sh_size > budget)
			sh.sh_size = budget;
		budget -= sh.sh_size;
		st.base = sh.sh_addr;
		if (raw)
			rc = strscan_region(&st, raw + sh.sh_offset, sh.sh_size) == (size_t)-1;
		else
			rc = strscan_file(&st, v->fd, buf, sh.sh_offset, sh.sh_size, sh.sh_addr);
	}
	free(buf);
	return rc < 0 ? -1 : 0;
}

struct plain_cb {
	int (*cb)(const char *s, size_t len, void *ctx);
	void *ctx;
};

static int without_addr(const char *s, size_t len, uint64_t addr, void *ctx)
{
	(void)addr;
	const struct plain_cb *p = ctx;
	return p->cb(s, len, p->ctx);
}

int ds_elf_strings(const struct ds_elfview *v, size_t minlen, int must,
                   int (*cb)(const char *s, size_t len, void *ctx), void *ctx)
{
	struct plain_cb p = { cb, ctx };
	return ds_elf_strings_at(v, minlen, must, without_addr, &p);
}
