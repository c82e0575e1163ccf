/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The disassembly layer's file-level work (see include/distsec/disasm.h):
 * executable sections, GOT slots named by the dynamic relocations, PLT
 * stubs, function starts, and finding the functions that call given
 * imports without decoding the whole text: a byte-pattern pass over the
 * code picks candidate call sites (x86 `e8/e9 rel32`, `ff 15/25/93/a3
 * disp32`; aarch64 `bl`/`b`, `adrp` + `ldr`), then only the functions
 * holding one are decoded with capstone, and a candidate counts only if
 * the decoder finds a call there.
 */
#include <gelf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "disasm_int.h"
#include "distsec/elfview.h"
#include "distsec/util.h"

#define SCAN_MAX     (256u << 20)  /* code bytes pattern-scanned per file */
#define DECODE_MAX   (8u << 20)    /* code bytes decoded per file */
#define FUNC_MAX     (256u << 10)  /* bytes of one function */
#define FUNC_INSNS   65536u        /* instructions of one function */
#define SLOTS_MAX    (1u << 20)    /* named relocations */
#define STARTS_MAX   (4u << 20)    /* function starts */
#define CANDS_MAX    4096u         /* candidate functions per query */
#define CHUNK        (64u << 10)   /* code bytes read at a time by dis_each_chunk */
#define CHUNK_OVERLAP 96u          /* and read again with the next chunk */
/* a pattern starting in a chunk's last byte ends in its overlap: a paired
 * address (DIS_PAIR_SPAN and one instruction), an x86 instruction (15) */
_Static_assert(CHUNK_OVERLAP >= DIS_PAIR_SPAN + 4 + 15, "a pattern cut at a chunk's end");
#define TABLE_MAX    (64u << 20)   /* a symbol, relocation or string table */
#define LOCAL_READS  (64u << 10)   /* REL slots read for their local target */

static int cmp_slot(const void *a, const void *b)
{
	const struct dis_slot *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_local(const void *a, const void *b)
{
	const struct dis_local *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

const char *dis_slot_name(const struct dis_slot *v, size_t n, uint64_t addr)
{
	struct dis_slot key = { addr, NULL };
	const struct dis_slot *s = n ? bsearch(&key, v, n, sizeof *v, cmp_slot) : NULL;
	return s ? s->name : NULL;
}

/* Reads len bytes of the file at off (pread, or the in-memory image). */
bool dis_read_at(const struct ds_code *c, uint64_t off, void *buf, size_t len)
{
	const struct ds_elfview *v = c->v;
	if (off > v->file_size || len > v->file_size - off)
		return false;
	if (v->fd < 0) {
		size_t sz = 0;
		const char *raw = elf_rawfile(v->elf, &sz);
		if (!raw || sz < off + len)
			return false;
		memcpy(buf, raw + off, len);
		return true;
	}
	size_t done = 0;
	while (done < len) {
		ssize_t got = pread(v->fd, (char *)buf + done, len - done, (off_t)(off + done));
		if (got <= 0)
			return false;
		done += (size_t)got;
	}
	return true;
}

const struct dis_span *dis_span_of(const struct ds_code *c, uint64_t addr)
{
	for (size_t i = 0; i < c->nspans; i++)
		if (addr >= c->spans[i].addr && addr - c->spans[i].addr < c->spans[i].size)
			return &c->spans[i];
	return NULL;
}

static GElf_Xword section_size(Elf *elf, size_t ndx)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_getscn(elf, ndx);
	return scn && gelf_getshdr(scn, &sh) ? sh.sh_size : 0;
}

/* libelf reads a whole table on elf_getdata/elf_strptr: a table (or its
 * string table) over TABLE_MAX, as a sparse hostile file may claim, is
 * not read and the file counts as capped. */
static bool table_ok(struct ds_code *c, const GElf_Shdr *sh, bool linked_strings)
{
	if (sh->sh_size <= TABLE_MAX &&
	    (!linked_strings || section_size(c->v->elf, sh->sh_link) <= TABLE_MAX))
		return true;
	c->capped = true;
	return false;
}

void dis_add_start(struct ds_code *c, uint64_t a, size_t *cap)
{
	if (c->nstarts >= STARTS_MAX || !dis_span_of(c, a))
		return;
	ds_push(c->starts, c->nstarts, *cap, a);
}

void dis_add_stub(struct ds_code *c, uint64_t at, const char *name, size_t *cap)
{
	if (c->nstubs < SLOTS_MAX)
		ds_push(c->stubs, c->nstubs, *cap, ((struct dis_slot){ at, name }));
}

static void add_slot(struct ds_code *c, uint64_t addr, const char *name, size_t *cap)
{
	if (c->nslots >= SLOTS_MAX)
		return;
	ds_push(c->slots, c->nslots, *cap, ((struct dis_slot){ addr, name }));
}

/* Function starts from a symbol table (function symbols in code). */
static void starts_from_symtab(struct ds_code *c, Elf_Scn *scn, const GElf_Shdr *sh, size_t *cap,
                               size_t *alt_cap)
{
	Elf_Data *d = sh->sh_entsize && table_ok(c, sh, false) ? elf_getdata(scn, NULL) : NULL;
	size_t n = d ? sh->sh_size / sh->sh_entsize : 0;
	for (size_t i = 1; i < n && i < STARTS_MAX; i++) {
		GElf_Sym s;
		if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
		    s.st_shndx == SHN_UNDEF || !s.st_value)
			continue;
		if (c->arch->mode_bit && (s.st_value & 1) && c->nalt < STARTS_MAX)
			ds_push(c->alt, c->nalt, alt_cap[0], s.st_value & ~1ull);
		else if (c->arch->mode_bit && c->nalt_not < STARTS_MAX)
			ds_push(c->alt_not, c->nalt_not, alt_cap[1], s.st_value);
		dis_add_start(c, c->arch->mode_bit ? s.st_value & ~1ull : s.st_value, cap);
	}
}

/* .eh_frame_hdr's binary search table: one initial location per FDE, so
 * a stripped program keeps its function boundaries.  Only the encoding
 * every GNU/LLVM linker writes (datarel sdata4 pairs) is read. */
static void starts_from_eh_frame_hdr(struct ds_code *c, const GElf_Shdr *sh, size_t *cap)
{
	unsigned char h[12];
	if (sh->sh_size < 12 || !dis_read_at(c, sh->sh_offset, h, sizeof h) || h[0] != 1 ||
	    h[2] != 0x03 || h[3] != 0x3b || (h[1] & 0x0f) != 0x0b)
		return;
	bool be = c->v->data == ELFDATA2MSB;
	uint32_t count = be ? dis_be32(h + 8) : dis_le32(h + 8);
	if (count > STARTS_MAX || (uint64_t)count * 8 > sh->sh_size - 12)
		return;
	unsigned char pair[8 * 512];
	for (uint32_t done = 0; done < count; ) {
		uint32_t k = count - done < 512 ? count - done : 512;
		if (!dis_read_at(c, sh->sh_offset + 12 + (uint64_t)done * 8, pair, (size_t)k * 8))
			return;
		for (uint32_t j = 0; j < k; j++)
			dis_add_start(c, sh->sh_addr + (uint64_t)(int64_t)(int32_t)(be ? dis_be32(pair + 8 * j)
			                                                          : dis_le32(pair + 8 * j)), cap);
		done += k;
	}
}

/* A relative relocation: a slot the loader fills with a local address
 * (the addend; for REL, read from the slot by keep_got_locals). */
static void add_local(struct ds_code *c, uint64_t addr, uint64_t target, size_t *cap)
{
	if (c->nlocals >= SLOTS_MAX)
		return;
	ds_push(c->locals, c->nlocals, *cap, ((struct dis_local){ addr, target }));
}

/* Of the relative relocations, keeps those in the GOT (what a call
 * through a slot reads: Rust's calls into std, -fno-plt calls to
 * default-visibility functions), sorted; REL targets read from the slot. */
static void keep_got_locals(struct ds_code *c, const struct dis_span *got, size_t ngot)
{
	size_t w = 0, reads = 0;
	for (size_t i = 0; i < c->nlocals; i++) {
		struct dis_local l = c->locals[i];
		const struct dis_span *g = NULL;
		for (size_t k = 0; k < ngot && !g; k++)
			if (l.addr >= got[k].addr && l.addr - got[k].addr < got[k].size)
				g = &got[k];
		if (!g)
			continue;
		if (!l.target) {
			/* a hostile REL table cannot make it read the file
			 * byte by byte: the rest are left out (not followed) */
			if (reads++ >= LOCAL_READS)
				continue;
			unsigned char w[8];
			if (!dis_read_at(c, g->off + (l.addr - g->addr), w, c->arch->word))
				continue;
			l.target = dis_word(c, w);
		}
		if (l.target)
			c->locals[w++] = l;
	}
	c->nlocals = w;
	if (w)
		qsort(c->locals, w, sizeof *c->locals, cmp_local);
}

uint64_t dis_local_target(const struct ds_code *c, uint64_t slot)
{
	struct dis_local key = { slot, 0 };
	const struct dis_local *l = c->nlocals
		? bsearch(&key, c->locals, c->nlocals, sizeof key, cmp_local) : NULL;
	return l ? l->target : 0;
}

bool dis_rel_at(const struct ds_code *c, Elf_Data *d, const GElf_Shdr *sh, size_t i, GElf_Rela *r)
{
	GElf_Rel rl;
	if (sh->sh_type == SHT_RELA) {
		if (!gelf_getrela(d, (int)i, r))
			return false;
	} else if (gelf_getrel(d, (int)i, &rl)) {
		*r = (GElf_Rela){ rl.r_offset, rl.r_info, 0 };
	} else {
		return false;
	}
	if (c->arch->rel_info)
		r->r_info = c->arch->rel_info(r->r_info);
	return true;
}

/* GOT slots of the dynamic relocations that name a symbol. */
static void slots_from_rel(struct ds_code *c, Elf_Scn *scn, const GElf_Shdr *sh, size_t *cap,
                           size_t *lcap)
{
	Elf_Scn *symscn = elf_getscn(c->v->elf, sh->sh_link);
	GElf_Shdr symsh;
	if (!symscn || !gelf_getshdr(symscn, &symsh) || symsh.sh_type != SHT_DYNSYM ||
	    !table_ok(c, sh, false) || !table_ok(c, &symsh, true))
		return;
	Elf_Data *d = sh->sh_entsize ? elf_getdata(scn, NULL) : NULL;
	Elf_Data *syms = elf_getdata(symscn, NULL);
	if (!d || !syms)
		return;
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < n && c->nslots < SLOTS_MAX; i++) {
		GElf_Rela r;
		if (!dis_rel_at(c, d, sh, i, &r))
			continue;
		size_t si = GELF_R_SYM(r.r_info);   /* gelf widens ELF32 r_info */
		GElf_Sym s;
		if (!si && GELF_R_TYPE(r.r_info) == c->arch->rel_relative)
			add_local(c, r.r_offset, sh->sh_type == SHT_RELA ? (uint64_t)r.r_addend : 0, lcap);
		if (!si || !gelf_getsym(syms, (int)si, &s))
			continue;
		const char *name = elf_strptr(c->v->elf, symsh.sh_link, s.st_name);
		if (name && *name)
			add_slot(c, r.r_offset, name, cap);
	}
}

/* Sorts v ascending: a radix sort by bytes, skipping the bytes every key
 * shares (an address's high ones).  The function starts of a large
 * program (tens of thousands: symbols and .eh_frame_hdr) cost a tenth of
 * a /usr/bin scan's instructions through qsort's comparator calls. */
static void sort_u64(uint64_t *v, size_t n)
{
	if (n < 64) {
		qsort(v, n, sizeof *v, cmp_u64);
		return;
	}
	size_t (*count)[256] = ds_xcalloc(8, sizeof *count);
	for (size_t i = 0; i < n; i++)
		for (unsigned d = 0; d < 8; d++)
			count[d][(v[i] >> (8 * d)) & 0xff]++;
	uint64_t *tmp = ds_xmalloc(ds_st_mult(n, sizeof *tmp)), *src = v, *dst = tmp;
	for (unsigned d = 0; d < 8; d++) {
		size_t *c = count[d];
		if (c[(src[0] >> (8 * d)) & 0xff] == n)
			continue;   /* every key has this byte */
		size_t pos = 0;
		for (unsigned b = 0; b < 256; b++) {
			size_t k = c[b];
			c[b] = pos;
			pos += k;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i] >> (8 * d)) & 0xff]++] = src[i];
		uint64_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof *v);
	free(tmp);
	free(count);
}

static void read_sections(struct ds_code *c)
{
	Elf *elf = c->v->elf;
	size_t shstrndx = 0, scap = 0, ncap = 0, spcap = 0, lcap = 0, ngot = 0, acap[2] = { 0, 0 };
	struct dis_span got[4];
	if (elf_getshdrstrndx(elf, &shstrndx) != 0 || section_size(elf, shstrndx) > TABLE_MAX)
		return;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		name = name ? name : "";
		if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR) &&
		    (sh.sh_flags & SHF_ALLOC) && sh.sh_offset <= c->v->file_size &&
		    sh.sh_size <= c->v->file_size - sh.sh_offset && c->nspans < 64) {
			struct dis_span span = { sh.sh_addr, sh.sh_offset, sh.sh_size,
				strncmp(name, ".plt", 4) == 0 || strcmp(name, ".iplt") == 0 };
			ds_push(c->spans, c->nspans, spcap, span);
		}
		if (strcmp(name, ".got.plt") == 0 || (!c->gotbase && strcmp(name, ".got") == 0))
			c->gotbase = sh.sh_addr;
		if ((strcmp(name, ".got") == 0 || strcmp(name, ".got.plt") == 0) && ngot < 4 &&
		    sh.sh_type == SHT_PROGBITS && sh.sh_offset <= c->v->file_size &&
		    sh.sh_size <= c->v->file_size - sh.sh_offset)
			got[ngot++] = (struct dis_span){ sh.sh_addr, sh.sh_offset, sh.sh_size, false };
		if (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL)
			slots_from_rel(c, scn, &sh, &scap, &lcap);
	}
	keep_got_locals(c, got, ngot);
	/* starts need the spans: a second pass */
	scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
			starts_from_symtab(c, scn, &sh, &ncap, acap);
		else if (name && strcmp(name, ".eh_frame_hdr") == 0)
			starts_from_eh_frame_hdr(c, &sh, &ncap);
	}
	if (c->arch->starts)
		c->arch->starts(c, &ncap);
	/* No function runs across a section: code before the first known
	 * start of its section (a stripped musl program's only starts are
	 * _init and _fini) is no part of the section before it, which would
	 * be the PLT, its stubs then read as the calls to their imports (the
	 * real ones never seen).  With no start from the symbols or the
	 * unwind tables the file has no function boundaries: the sections
	 * alone give none. */
	if (c->nstarts)
		for (size_t i = 0; i < c->nspans; i++)
			dis_add_start(c, c->spans[i].addr, &ncap);
	if (c->nalt)
		qsort(c->alt, c->nalt, sizeof *c->alt, cmp_u64);
	if (c->nalt_not)
		qsort(c->alt_not, c->nalt_not, sizeof *c->alt_not, cmp_u64);
	if (c->nslots)
		qsort(c->slots, c->nslots, sizeof *c->slots, cmp_slot);
	if (c->nstarts) {
		sort_u64(c->starts, c->nstarts);
		size_t w = 1;
		for (size_t i = 1; i < c->nstarts; i++)
			if (c->starts[i] != c->starts[w - 1])
				c->starts[w++] = c->starts[i];
		c->nstarts = w;
	}
}

/* One file per architecture (disasm_int.h); the first that reads the
 * file's machine, class and byte order decodes it. */
static const struct dis_arch *const arches[] = {
	&dis_x86_64, &dis_i386, &dis_aarch64, &dis_s390x, &dis_ppc64le, &dis_ppc64, &dis_arm,
	&dis_mips64el,
};

/* capstone 4 builds some of its tables on first use without a lock: cs_open
 * fills the architecture table, and the x86 Intel printer sorts its
 * implicit-register table (qsort on a global) the first time an instruction
 * is printed with details on.  Two workers decoding their first file at
 * once raced on that sort (ThreadSanitizer, tests/e2e/disasm.sh).  So the
 * first decoder of the process decodes a few instructions of each
 * architecture once, under pthread_once; every later one finds the tables
 * built. */
static void warm_up_all(void)
{
	for (size_t i = 0; i < sizeof arches / sizeof arches[0]; i++) {
		const struct dis_arch *a = arches[i];
		csh h;
		cs_insn *insn = NULL;
		if (cs_open(a->cs, a->mode, &h) != CS_ERR_OK)
			continue;
		cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
		size_t n = cs_disasm(h, a->warm, a->nwarm, 0x1000, 0, &insn);
		if (n)
			cs_free(insn, n);
		cs_close(&h);
	}
}

static const struct dis_arch *arch_of(const struct ds_elfview *v)
{
	for (size_t i = 0; i < sizeof arches / sizeof arches[0]; i++) {
		const struct dis_arch *a = arches[i];
		if (a->machine == v->machine && a->data == v->data &&
		    (a->elfclass == ELFCLASSNONE || a->elfclass == v->elfclass))
			return a;
	}
	return NULL;
}

struct ds_code *ds_code_open(const struct ds_elfview *v, const char **why)
{
	const struct dis_arch *arch = arch_of(v);
	if (!arch) {
		*why = "no decoder for this machine";
		return NULL;
	}
	static pthread_once_t warmed = PTHREAD_ONCE_INIT;
	pthread_once(&warmed, warm_up_all);
	struct ds_code *c = ds_xcalloc(1, sizeof *c);
	c->v = v;
	c->arch = arch;
	c->mode_now = arch->mode;
	c->unit = arch->unit;
	if (cs_open(arch->cs, arch->mode, &c->cs) != CS_ERR_OK) {
		free(c);
		*why = "capstone cannot open a decoder for this machine";
		return NULL;
	}
	cs_option(c->cs, CS_OPT_DETAIL, CS_OPT_ON);
	c->ci = cs_malloc(c->cs);
	if (arch->delay_slot)
		c->ci2 = cs_malloc(c->cs);
	read_sections(c);
	if (!c->nspans || !c->nstarts) {
		ds_code_free(c);
		*why = "no code sections or no function boundaries";
		return NULL;
	}
	c->opened = (struct dis_counts){ c->scanned, c->decoded, c->deep_decoded, c->store_scanned,
	                                 c->deep_callers, c->unreached_queries, c->capped };
	return c;
}

void ds_code_rewind(struct ds_code *c)
{
	if (!c)
		return;
	const struct dis_counts *o = &c->opened;
	c->scanned = o->scanned;
	c->decoded = o->decoded;
	c->deep_decoded = o->deep_decoded;
	c->store_scanned = o->store_scanned;
	c->deep_callers = o->deep_callers;
	c->unreached_queries = o->unreached_queries;
	c->capped = o->capped;
	c->stubs_seen = false;
	c->main_done = false;   /* found on each user's deep budget */
}

/* The deep walks' decoded functions (deep_keep) let go. */
static void deep_forget(struct ds_code *c)
{
	for (size_t i = 0; i < c->ndeep_memo; i++)
		free(c->deep_memo[i].f.in);
	c->ndeep_memo = c->deep_memo_next = c->deep_memo_insns = 0;
}

void ds_code_free(struct ds_code *c)
{
	if (!c)
		return;
	if (c->ci)
		cs_free(c->ci, 1);
	if (c->ci2)
		cs_free(c->ci2, 1);
	cs_close(&c->cs);
	free(c->spans);
	free(c->slots);
	free(c->stubs);
	free(c->starts);
	free(c->locals);
	free(c->alt);
	free(c->alt_not);
	free(c->got_words);
	free(c->arg_slots);
	deep_forget(c);
	free(c);
}

bool ds_code_capped(const struct ds_code *c)
{
	return c->capped;
}

static bool is_branch(const cs_insn *ci)
{
	for (uint8_t k = 0; ci->detail && k < ci->detail->groups_count; k++) {
		uint8_t g = ci->detail->groups[k];
		if (g == CS_GRP_JUMP || g == CS_GRP_CALL || g == CS_GRP_RET || g == CS_GRP_BRANCH_RELATIVE)
			return true;
	}
	return false;
}

/* Delay slots: the register state a forward conditional branch carries
 * to its target (GCC fills the slot from the target: `bnez $s4, L; ld
 * $t9, %call16(setgroups)($gp)` ... L: `jalr $t9`). */
#define PENDING_MAX 4096
struct pending {
	uint64_t at;
	struct dis_regs rs;
};

/* What the branches recorded give the instruction at a, reached from
 * nothing before it (an unconditional jump or return precedes it): the
 * registers all of them agree on.  Entries for a (or passed by) go. */
static bool take_pending(struct pending *v, size_t *n, uint64_t a, struct dis_regs *rs)
{
	bool got = false;
	size_t w = 0;
	for (size_t i = 0; i < *n; i++) {
		if (v[i].at > a) {
			v[w++] = v[i];
			continue;
		}
		if (v[i].at < a)
			continue;
		const struct dis_regs *o = &v[i].rs;
		if (!got) {
			*rs = *o;
			got = true;
			continue;
		}
		uint64_t keep = rs->known & o->known & ~(rs->loaded ^ o->loaded);
		for (unsigned r = 0; r < DIS_REGS; r++)
			if ((keep & DIS_BIT(r)) && (rs->val[r] != o->val[r] || rs->origin[r] != o->origin[r]))
				keep &= ~DIS_BIT(r);
		rs->known = keep;
		rs->loaded &= keep;
		rs->call_next = 0;
		rs->flag_ok = false;
	}
	*n = w;
	return got;
}

/* Decodes [start, end) into f (bounded); false when nothing could be. */
static bool decode(struct ds_code *c, uint64_t start, uint64_t end, struct dis_func *f)
{
	const struct dis_span *sp = dis_span_of(c, start);
	if (!sp)
		return false;
	if (end > sp->addr + sp->size)
		end = sp->addr + sp->size;
	size_t len = (size_t)(end - start);
	if (len > FUNC_MAX || c->decoded + len > DECODE_MAX) {
		c->capped = true;
		return false;
	}
	unsigned char *buf = ds_xmalloc(len ? len : 1);
	if (!dis_read_at(c, sp->off + (start - sp->addr), buf, len)) {
		free(buf);
		return false;
	}
	c->decoded += len;
	if (c->arch->enter)
		c->arch->enter(c, start);
	*f = (struct dis_func){ start, end, NULL, 0 };
	size_t cap = 0;
	const uint8_t *p = buf;
	size_t left = len;
	uint64_t addr = start;
	struct dis_regs rs;
	dis_regs_reset(&rs);
	struct pending *pend = NULL;
	size_t npend = 0, pcap = 0;
	uint64_t pmin = UINT64_MAX;   /* the nearest target pending */
	bool falls = true;            /* control may come from the one before */
	while (left) {
		if (addr >= pmin) {
			struct dis_regs t;
			bool got = take_pending(pend, &npend, addr, &t);
			if (got && !falls) {
				rs = t;
			} else if (got && (t.known & t.loaded & ~rs.known)) {
				/* joined by a fall-through that lost them (a call
				 * clobbers $t9): the GOT slots every branch agrees on */
				uint64_t add = t.known & t.loaded & ~rs.known;
				for (unsigned r = 0; r < DIS_REGS; r++)
					if (add & DIS_BIT(r))
						dis_set_known(&rs, r, t.val[r], t.origin[r], true);
			}
			pmin = UINT64_MAX;
			for (size_t i = 0; i < npend; i++)
				pmin = pend[i].at < pmin ? pend[i].at : pmin;
		}
		if (f->n == cap) {
			if (cap >= FUNC_INSNS) {
				c->capped = true;
				break;
			}
			ds_grow(f->in, f->n + 1, cap);
		}
		if (!cs_disasm_iter(c->cs, &p, &left, &addr, c->ci)) {
			/* data or padding inside the code: skip a unit and go on */
			size_t skip = c->unit;
			skip = skip < left ? skip : left;
			p += skip;
			left -= skip;
			addr += skip;
			dis_regs_reset(&rs);
			falls = false;
			continue;
		}
		const uint8_t *q = p;
		size_t qleft = left;
		uint64_t qaddr = addr;
		if (c->arch->delay_slot && is_branch(c->ci) &&
		    cs_disasm_iter(c->cs, &q, &qleft, &qaddr, c->ci2) && !is_branch(c->ci2)) {
			/* the delay slot runs before the branch takes effect: it
			 * is lifted at the branch's address, the branch at its */
			ds_grow(f->in, f->n + 2, cap);
			dis_lift(c, c->ci2, &rs, &f->in[f->n]);
			f->in[f->n].addr = c->ci->address;
			dis_lift(c, c->ci, &rs, &f->in[f->n + 1]);
			f->in[f->n + 1].addr = c->ci2->address;
			/* a condition tests the value from before the delay slot */
			f->in[f->n + 1].cc_flags = f->in[f->n + 1].cc != CC_NONE;
			const struct dis_insn *b = &f->in[f->n + 1];
			if (b->kind == K_CJMP && b->target > qaddr && b->target < end &&
			    npend < PENDING_MAX) {
				ds_push(pend, npend, pcap, ((struct pending){ b->target, rs }));
				pmin = b->target < pmin ? b->target : pmin;
			}
			falls = b->kind != K_JMP && b->kind != K_IJMP && b->kind != K_RET;
			f->n += 2;
			p = q;
			left = qleft;
			addr = qaddr;
			continue;
		}
		const struct dis_insn *o = &f->in[f->n];
		dis_lift(c, c->ci, &rs, &f->in[f->n++]);
		/* a nop (padding after a return) leaves the next unreached */
		bool nop = o->kind == K_OTHER && o->dst.kind == L_NONE && !o->uses && !o->clobber &&
		           o->ref_kind == R_NONE && !o->sp_adj && !o->sp_lost;
		if (!nop)
			falls = o->kind != K_JMP && o->kind != K_IJMP && o->kind != K_RET;
	}
	free(pend);
	free(buf);
	if (!sp->plt)
		dis_name_syscalls(c, f);
	return true;
}

/* PLT stubs: decode every PLT section once; a jump through a named GOT slot
 * ends a stub that begins at the adrp building its address (aarch64) or at
 * the jump, after an endbr (x86 .plt.sec). */
static void find_stubs(struct ds_code *c)
{
	c->stubs_done = true;
	size_t cap = 0;
	for (size_t s = 0; s < c->nspans; s++) {
		const struct dis_span *sp = &c->spans[s];
		struct dis_func f;
		if (sp->plt && c->arch->plt_scan) {
			unsigned char *b = sp->size <= FUNC_MAX ? ds_xmalloc(sp->size + 1) : NULL;
			if (b && dis_read_at(c, sp->off, b, sp->size))
				c->arch->plt_scan(c, b, sp->size, sp->addr, &cap);
			else
				c->capped = true;
			free(b);
			continue;
		}
		if (!sp->plt || !decode(c, sp->addr, sp->addr + sp->size, &f))
			continue;
		for (size_t i = 0; i < f.n; i++) {
			const struct dis_insn *in = &f.in[i];
			if (in->kind != K_JMP || !in->callee || in->target == 0)
				continue;
			uint64_t at = in->target;
			if (c->arch->stub_endbr && i > 0 && f.in[i - 1].kind == K_OTHER &&
			    in->addr - f.in[i - 1].addr == 4)
				at = f.in[i - 1].addr;   /* endbr64 / endbr32 */
			ds_push(c->stubs, c->nstubs, cap, ((struct dis_slot){ at, in->callee }));
			if (at != in->addr && c->arch->stub_endbr)
				ds_push(c->stubs, c->nstubs, cap, ((struct dis_slot){ in->addr, in->callee }));
		}
		free(f.in);
	}
	if (c->arch->stubs)
		c->arch->stubs(c, &cap);
	if (c->nstubs)
		qsort(c->stubs, c->nstubs, sizeof *c->stubs, cmp_slot);
}

/* The stubs for this user of the decoder: found once per file, their
 * decoding counted against each user's caps as if it found them itself
 * (a user's first query is where it would have). */
static void need_stubs(struct ds_code *c)
{
	if (c->stubs_seen)
		return;
	c->stubs_seen = true;
	if (!c->stubs_done) {
		size_t decoded = c->decoded;
		bool capped = c->capped;
		find_stubs(c);
		c->stubs_decoded = c->decoded - decoded;
		c->stubs_capped = c->capped && !capped;
		return;
	}
	c->decoded += c->stubs_decoded;
	if (c->stubs_capped)
		c->capped = true;
}

bool dis_in_list(const uint64_t *v, size_t n, uint64_t a)
{
	/* the pattern pass asks for every e8/ff byte of the code: most name
	 * no stub or slot at all, outside the sorted list's bounds */
	return n && a >= v[0] && a <= v[n - 1] && bsearch(&a, v, n, sizeof *v, cmp_u64);
}

bool dis_in_refs(const struct dis_wanted *w, uint64_t a)
{
	if (a < w->ref_lo || a >= w->ref_hi)
		return false;
	for (size_t i = 0; i < w->nrefs; i++)
		if (a >= w->refs[i].lo && a < w->refs[i].hi)
			return true;
	return false;
}

size_t dis_func_of(const struct ds_code *c, uint64_t a)
{
	size_t lo = 0, hi = c->nstarts;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->starts[mid] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : (size_t)-1;
}

struct dis_cands {
	size_t *call, *ref;   /* function indexes */
	size_t ncall, nref, capc, capr;
	/* a search keeping only the functions both calling and referring
	 * (ds_code_each_call_ref): the calls are only a filter, bounded by
	 * the number of functions, not by CANDS_MAX */
	bool calls_filter;
	struct dis_hit *hit;  /* dis_funcs_naming: the patterns */
	size_t nhit, caph;
	bool outside;         /* a pattern outside every function */
};

static void add_cand(struct ds_code *c, size_t **v, size_t *n, size_t *cap, uint64_t a, size_t max)
{
	size_t fi = dis_func_of(c, a);
	if (fi == (size_t)-1 || (*n && (*v)[*n - 1] == fi))
		return;
	if (*n >= max) {
		c->capped = true;
		return;
	}
	ds_push(*v, *n, *cap, fi);
}

uint32_t dis_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t dis_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

uint16_t dis_be16(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

uint64_t dis_word(const struct ds_code *c, const unsigned char *p)
{
	bool be = c->v->data == ELFDATA2MSB;
	if (c->arch->word == 4)
		return be ? dis_be32(p) : dis_le32(p);
	uint64_t hi = be ? dis_be32(p) : dis_le32(p + 4), lo = be ? dis_be32(p + 4) : dis_le32(p);
	return hi << 32 | lo;
}

void dis_cand_call(struct ds_code *c, struct dis_cands *k, uint64_t at)
{
	add_cand(c, &k->call, &k->ncall, &k->capc, at,
	         k->calls_filter ? CANDS_MAX + c->nstarts : CANDS_MAX);
}

void dis_cand_ref(struct ds_code *c, struct dis_cands *k, uint64_t at)
{
	add_cand(c, &k->ref, &k->nref, &k->capr, at, CANDS_MAX);
}

/* A reference to [mem_lo, mem_hi) at a, in the code at `at`: its function
 * is a candidate and the place is kept for dis_funcs_naming's caller. */
void dis_cand_mem(struct ds_code *c, struct dis_cands *k, uint64_t at, uint64_t to)
{
	if (dis_func_of(c, at) == (size_t)-1)
		k->outside = true;
	else
		add_cand(c, &k->ref, &k->nref, &k->capr, at, CANDS_MAX);
	if (k->nhit < CANDS_MAX)
		ds_push(k->hit, k->nhit, k->caph, ((struct dis_hit){ at, to }));
	else
		c->capped = true;
}

int dis_each_chunk(struct ds_code *c, dis_chunk_fn *fn, void *arg)
{
	unsigned char *buf = ds_xmalloc(CHUNK + CHUNK_OVERLAP);
	for (size_t s = 0; s < c->nspans; s++) {
		const struct dis_span *sp = &c->spans[s];
		if (sp->plt)
			continue;
		for (uint64_t done = 0; done < sp->size; done += CHUNK) {
			if (c->scanned >= SCAN_MAX) {
				c->capped = true;
				free(buf);
				return 0;
			}
			size_t want = sp->size - done < CHUNK + CHUNK_OVERLAP ? (size_t)(sp->size - done)
			                                                      : CHUNK + CHUNK_OVERLAP;
			if (!dis_read_at(c, sp->off + done, buf, want)) {
				free(buf);
				return -1;
			}
			c->scanned += want;
			fn(c, buf, want, sp->addr + done, arg);
			if (want < CHUNK + CHUNK_OVERLAP)
				break;   /* the span's end */
		}
	}
	free(buf);
	return 0;
}

struct scan_query {
	const struct dis_wanted *w;
	struct dis_cands *k;
};

/* the overlap is scanned twice: add_cand drops the duplicate candidate */
static void scan_chunk(struct ds_code *c, const unsigned char *b, size_t len, uint64_t addr,
                       void *arg)
{
	const struct scan_query *q = arg;
	(q->w->mem_hi ? c->arch->scan_mem : c->arch->scan_calls)(c, q->w, b, len, addr, q->k);
}

static int scan_code(struct ds_code *c, const struct dis_wanted *w, struct dis_cands *k)
{
	if (w->mem_hi && !c->arch->scan_mem)
		return -1;   /* references to an address are not recognised here */
	struct scan_query q = { w, k };
	return dis_each_chunk(c, scan_chunk, &q);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

static size_t uniq(size_t *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof *v, cmp_size);
	size_t w = 1;
	for (size_t i = 1; i < n; i++)
		if (v[i] != v[w - 1])
			v[w++] = v[i];
	return w;
}

static bool name_in(const char *name, const char *const *names)
{
	for (; *names; names++)
		if (strcmp(name, *names) == 0)
			return true;
	return false;
}

static void wanted_addrs(const struct dis_slot *v, size_t n, const char *const *names,
                         uint64_t **out, size_t *nout)
{
	size_t cap = 0;
	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < n; i++)
		if (name_in(v[i].name, names))
			ds_push(*out, *nout, cap, v[i].addr);
	if (*nout)
		qsort(*out, *nout, sizeof **out, cmp_u64);
}

/* How far before its jump a stub outside the PLT sections begins (the
 * longest, ppc64 ELFv1's, is six instructions). */
#define STUB_LEN 20

/* A PLT stub's own jump to its import is no call of it: the calls to the
 * stub are.  Stubs are the PLT sections' code, and the linker's elsewhere
 * (ppc64's, at the start of .text: decoded there as a function, its jump
 * reads the slot from the TOC) end with a jump naming the import their
 * own start is registered under. */
static bool stub_jump(const struct ds_code *c, const struct dis_insn *in)
{
	const struct dis_span *sp = dis_span_of(c, in->addr);
	if (sp && sp->plt)
		return true;
	if (in->kind != K_JMP || !in->callee)
		return false;
	for (uint64_t back = 0; back <= STUB_LEN && back <= in->addr; back += 4) {
		const char *name = dis_slot_name(c->stubs, c->nstubs, in->addr - back);
		if (name && strcmp(name, in->callee) == 0)
			return true;
	}
	return false;
}

/* Decodes one candidate function and calls back for its call sites: of
 * an import in names, or (names NULL) the direct ones to target. */
static int visit(struct ds_code *c, size_t fi, const char *const *names, uint64_t target,
                 ds_site_cb cb, void *ctx, int *nsites)
{
	uint64_t start = c->starts[fi];
	uint64_t end = fi + 1 < c->nstarts ? c->starts[fi + 1] : UINT64_MAX;
	struct dis_func f;
	if (!decode(c, start, end, &f))
		return 0;
	int stop = 0;
	for (size_t i = 0; i < f.n && !stop; i++) {
		const struct dis_insn *in = &f.in[i];
		if ((in->kind != K_CALL && in->kind != K_JMP) ||
		    (names ? !in->callee || !name_in(in->callee, names)
		           : in->callee || in->target != target) ||
		    stub_jump(c, in))
			continue;
		struct ds_site site = { c, &f, i };
		(*nsites)++;
		stop = cb(c, &site, ctx);
	}
	free(f.in);
	return stop;
}

int ds_code_each_call_ref(struct ds_code *c, const char *const *names,
                          const struct ds_range *refs, size_t nrefs, ds_site_cb cb, void *ctx)
{
	need_stubs(c);
	struct dis_wanted w = { .refs = refs, .nrefs = nrefs, .ref_lo = UINT64_MAX,
	                    .abs_refs = c->v->type == ET_EXEC };
	for (size_t i = 0; i < nrefs; i++) {
		w.ref_lo = refs[i].lo < w.ref_lo ? refs[i].lo : w.ref_lo;
		w.ref_hi = refs[i].hi > w.ref_hi ? refs[i].hi : w.ref_hi;
	}
	wanted_addrs(c->stubs, c->nstubs, names, &w.stubs, &w.nstubs);
	wanted_addrs(c->slots, c->nslots, names, &w.slots, &w.nslots);
	struct dis_cands k = { .calls_filter = refs != NULL };
	int rc = 0, nsites = 0;
	if ((w.nstubs || w.nslots) && scan_code(c, &w, &k) != 0)
		rc = -1;
	k.ncall = uniq(k.call, k.ncall);
	k.nref = uniq(k.ref, k.nref);
	for (size_t i = 0, j = 0; rc == 0 && i < k.ncall; i++) {
		if (refs) {   /* both a wanted call and a wanted reference */
			while (j < k.nref && k.ref[j] < k.call[i])
				j++;
			if (j == k.nref || k.ref[j] != k.call[i])
				continue;
		}
		if (visit(c, k.call[i], names, 0, cb, ctx, &nsites))
			break;
	}
	free(w.stubs);
	free(w.slots);
	free(k.call);
	free(k.ref);
	return rc < 0 ? -1 : nsites;
}

int ds_code_each_call(struct ds_code *c, const char *const *names, ds_site_cb cb, void *ctx)
{
	return ds_code_each_call_ref(c, names, NULL, 0, cb, ctx);
}

int ds_code_each_call_to(struct ds_code *c, uint64_t target, ds_site_cb cb, void *ctx)
{
	need_stubs(c);
	struct dis_wanted w = { .stubs = &target, .nstubs = 1, .ref_lo = UINT64_MAX };
	/* and the calls through GOT slots that hold it (Rust's) */
	size_t cap = 0;
	for (size_t i = 0; i < c->nlocals; i++)
		if (c->locals[i].target == target)
			ds_push(w.slots, w.nslots, cap, c->locals[i].addr);
	struct dis_cands k = { 0 };
	int rc = scan_code(c, &w, &k) != 0 ? -1 : 0, nsites = 0;
	k.ncall = uniq(k.call, k.ncall);
	for (size_t i = 0; rc == 0 && i < k.ncall; i++)
		if (visit(c, k.call[i], NULL, target, cb, ctx, &nsites))
			break;
	free(w.slots);
	free(k.call);
	free(k.ref);
	return rc < 0 ? -1 : nsites;
}

bool dis_is_local_code(const struct ds_code *c, uint64_t addr)
{
	const struct dis_span *sp = dis_span_of(c, addr);
	return sp && !sp->plt;
}

static struct dis_insn *insns_dup(const struct dis_func *f)
{
	struct dis_insn *in = ds_xmalloc(f->n ? f->n * sizeof *in : 1);
	if (f->n)
		memcpy(in, f->in, f->n * sizeof *in);
	return in;
}

/* A copy of [start, end) as a deep walk decoded it before, if kept. */
static bool deep_recall(const struct ds_code *c, uint64_t start, uint64_t end, struct dis_func *f)
{
	for (size_t i = 0; i < c->ndeep_memo; i++) {
		const struct deep_memo *m = &c->deep_memo[i];
		if (m->f.start == start && m->f.end == end && m->nstubs == c->nstubs &&
		    m->nlocals == c->nlocals) {
			*f = m->f;
			f->in = insns_dup(&m->f);
			return true;
		}
	}
	return false;
}

/* f kept for deep_recall, in place of the oldest entry; past the
 * instructions' cap, all are forgotten first. */
static void deep_keep(struct ds_code *c, const struct dis_func *f)
{
	if (f->n > DEEP_MEMO_INSNS / 4)
		return;
	if (c->deep_memo_insns + f->n > DEEP_MEMO_INSNS)
		deep_forget(c);
	struct deep_memo *m = &c->deep_memo[c->deep_memo_next];
	if (c->deep_memo_next < c->ndeep_memo) {
		c->deep_memo_insns -= m->f.n;
		free(m->f.in);
	} else {
		c->ndeep_memo++;
	}
	c->deep_memo_next = (c->deep_memo_next + 1) % DEEP_MEMO;
	m->f = *f;
	m->f.in = insns_dup(f);
	m->nstubs = c->nstubs;
	m->nlocals = c->nlocals;
	c->deep_memo_insns += f->n;
}

/* [start, end) decoded on the deep walks' budget (budget: the most
 * c->deep_decoded may reach), not the file's decoding cap, which stays
 * for the call sites. */
static bool decode_deep_span(struct ds_code *c, uint64_t start, uint64_t end, size_t budget,
                             struct dis_func *f)
{
	size_t len = (size_t)(end - start);
	if (len > FUNC_MAX || c->deep_decoded + len > budget)
		return false;
	if (deep_recall(c, start, end, f)) {
		c->deep_decoded += len;
		return true;
	}
	size_t decoded = c->decoded;
	bool capped = c->capped;
	c->decoded = 0;
	bool ok = decode(c, start, end, f);
	c->decoded = decoded;
	c->capped = capped;
	if (ok) {
		c->deep_decoded += len;
		deep_keep(c, f);
	}
	return ok;
}

size_t dis_deep_budget(const struct ds_code *c, size_t len)
{
	return c->deep_decoded + len < DEEP_FILE ? c->deep_decoded + len : DEEP_FILE;
}

/* The end of the function holding addr (fi: its index in c->starts). */
static uint64_t func_end(const struct ds_code *c, size_t fi, uint64_t addr)
{
	const struct dis_span *sp = dis_span_of(c, addr);
	uint64_t end = fi + 1 < c->nstarts ? c->starts[fi + 1] : sp->addr + sp->size;
	return end > sp->addr + sp->size ? sp->addr + sp->size : end;
}

bool dis_decode_deep(struct ds_code *c, uint64_t start, size_t budget, size_t max_len,
                     struct dis_func *f)
{
	size_t fi = dis_func_of(c, start);
	if (fi == (size_t)-1 || c->starts[fi] != start || !dis_is_local_code(c, start))
		return false;
	uint64_t end = func_end(c, fi, start);
	return end - start <= max_len && decode_deep_span(c, start, end, budget, f);
}

bool dis_decode_tail(struct ds_code *c, uint64_t at, size_t budget, size_t max_len,
                     struct dis_func *f)
{
	size_t fi = dis_func_of(c, at);
	if (fi == (size_t)-1 || !dis_is_local_code(c, at))
		return false;
	uint64_t end = func_end(c, fi, at);
	return decode_deep_span(c, at, end - at > max_len ? at + max_len : end, budget, f);
}

struct callers_all {
	ds_caller_pred pred;
	void *ctx;
	bool ok;
};

static int on_caller(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	(void)c;
	struct callers_all *a = ctx;
	if (!a->pred(site, a->ctx)) {
		a->ok = false;
		return 1;
	}
	return 0;
}

int dis_each_call_nested(struct ds_code *c, const char *const *names, uint64_t target,
                         ds_site_cb cb, void *ctx)
{
	if (c->deep_callers >= DEEP_CALLERS || c->deep_decoded >= DEEP_FILE)
		return -1;
	c->deep_callers++;
	/* decoded on the deep walks' budget, and a cap met here only makes
	 * the answer -1: the file's state is put back */
	bool capped = c->capped;
	size_t decoded = c->decoded, base = DECODE_MAX - (DEEP_FILE - c->deep_decoded);
	c->capped = false;
	c->decoded = base;
	int n = names ? ds_code_each_call(c, names, cb, ctx) : ds_code_each_call_to(c, target, cb, ctx);
	bool cut = c->capped;
	c->deep_decoded += c->decoded - base;
	c->decoded = decoded;
	c->capped = capped;
	return cut ? -1 : n;
}

bool ds_site_callers_all(const struct ds_site *site, ds_caller_pred pred, void *ctx)
{
	struct callers_all a = { pred, ctx, true };
	return dis_each_call_nested(site->c, NULL, site->f->start, on_caller, &a) > 0 && a.ok;
}

static int cmp_hit(const void *a, const void *b)
{
	const struct dis_hit *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

int dis_funcs_naming(struct ds_code *c, uint64_t lo, uint64_t hi, size_t **funcs, size_t *nfuncs,
                     struct dis_hit **hits, size_t *nhits)
{
	need_stubs(c);   /* the decoded calls name their imports */
	struct dis_wanted w = { .mem_lo = lo, .mem_hi = hi > lo ? hi : lo + 1,
	                    .abs_refs = c->v->type == ET_EXEC };
	struct dis_cands k = { 0 };
	int rc = scan_code(c, &w, &k) != 0 || k.outside ? -1 : 0;
	*nfuncs = uniq(k.ref, k.nref);
	*funcs = k.ref;
	if (k.nhit)
		qsort(k.hit, k.nhit, sizeof *k.hit, cmp_hit);
	size_t n = 0;
	for (size_t i = 0; i < k.nhit; i++)   /* the chunks' overlap saw some twice */
		if (!n || k.hit[i].at != k.hit[n - 1].at)
			k.hit[n++] = k.hit[i];
	*hits = k.hit;
	*nhits = n;
	free(k.call);
	return rc;
}

bool dis_decode_func(struct ds_code *c, size_t fi, struct dis_func *f)
{
	if (fi >= c->nstarts)
		return false;
	return decode(c, c->starts[fi], fi + 1 < c->nstarts ? c->starts[fi + 1] : UINT64_MAX, f);
}

/* Bytes at a virtual address, from the section holding them. */
bool dis_read_vaddr(const struct ds_code *c, uint64_t addr, void *buf, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(c->v->elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_ALLOC) &&
		    addr >= sh.sh_addr && addr - sh.sh_addr < sh.sh_size && len <= sh.sh_size - (addr - sh.sh_addr))
			return dis_read_at(c, sh.sh_offset + (addr - sh.sh_addr), buf, len);
	return false;
}
