/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every store to one global (ds_code_each_store, include/distsec/disasm.h):
 * a program that saves its real gid at start-up (`saved = getgid()`) and
 * later passes the global to setgid.  The functions whose code may name
 * the global are found by the byte-pattern pass (disasm.c), only they are
 * decoded, and each instruction naming it is one of:
 * - a load: fine;
 * - a plain store of a register or a constant of exactly its size: a store,
 *   given to the caller (ds_site_stored says where the value comes from);
 * - anything else that may change it: a wider, partial or read-modify-write
 *   store; its address, or its object's (the symbol holding it, when the
 *   file has one; else the exact address), computed into a register that
 *   goes anywhere but the base of resolved loads and stores (a call's
 *   argument, a copy, a spill, a branch); a write through a register that
 *   held an address built near it (aarch64 adrp/add whose value the lift
 *   lost at a join); an i386 GOT-relative displacement through a register
 *   not known to be the GOT pointer that would name it; a dynamic
 *   relocation pointing into its object (a pointer to it in the data or a
 *   GOT slot): the stores cannot all be seen, -1.
 * Not seen: a pointer to the object's start when the file has no symbol
 * for it and the global is a member further in (a struct's address passed
 * to a function that writes the member; dis_each_store_in looks a given
 * number of bytes below for one), and pointers in the data of
 * position-dependent (ET_EXEC) files, which carry no relocation.
 * Its own budget: the caps of disasm.c counted afresh for each query, then
 * the file's counts restored, so a query never caps the call-site search;
 * all the queries of a file scan 512 MiB of code at most.
 */
#include <gelf.h>
#include <stdlib.h>

#include "disasm_int.h"
#include "distsec/elfview.h"

#define NEAR_BELOW   0x4000u        /* a base register an access may start from */
#define TABLE_MAX    (64u << 20)
#define RELS_MAX     (4u << 20)
#define READS_MAX    (256u << 10)   /* REL addends read from the file */
#define STORES_SCAN  (512u << 20)   /* code bytes scanned by all the queries of a file */

/* The object (a symbol with a size) holding addr, or the fallback window:
 * from below bytes under addr, but not below the start of its section
 * (no record spans two). */
static void object_of(const struct ds_code *c, uint64_t addr, uint64_t below, uint64_t *lo)
{
	*lo = addr > below ? addr - below : 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while (below && (scn = elf_nextscn(c->v->elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && addr >= sh.sh_addr &&
		    addr - sh.sh_addr < sh.sh_size && sh.sh_addr > *lo)
			*lo = sh.sh_addr;
	scn = NULL;
	while ((scn = elf_nextscn(c->v->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize || sh.sh_size > TABLE_MAX)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = d ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 1; i < n; i++) {
			GElf_Sym s;
			if (gelf_getsym(d, (int)i, &s) && GELF_ST_TYPE(s.st_info) == STT_OBJECT &&
			    s.st_shndx != SHN_UNDEF && s.st_size && addr >= s.st_value &&
			    addr - s.st_value < s.st_size) {
				*lo = s.st_value;
				return;
			}
		}
	}
}

/* Does a dynamic relocation put an address in [lo, hi) in memory (a
 * pointer in the data, a GOT slot)? */
static bool pointer_type(const struct dis_arch *a, unsigned t)
{
	for (size_t k = 0; k < sizeof a->rel_pointer / sizeof a->rel_pointer[0] && a->rel_pointer[k]; k++)
		if (a->rel_pointer[k] == t)
			return true;
	return false;
}

static bool pointed_to(const struct ds_code *c, uint64_t lo, uint64_t hi)
{
	size_t reads = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(c->v->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) ||
		    !(sh.sh_flags & SHF_ALLOC) || !sh.sh_entsize)
			continue;
		if (sh.sh_size / sh.sh_entsize > RELS_MAX)
			return true;
		Elf_Scn *symscn = elf_getscn(c->v->elf, sh.sh_link);
		GElf_Shdr symsh;
		Elf_Data *syms = symscn && gelf_getshdr(symscn, &symsh) && symsh.sh_size <= TABLE_MAX
		                 ? elf_getdata(symscn, NULL) : NULL;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = d ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; i < n; i++) {
			GElf_Rela r;
			if (!dis_rel_at(c, d, &sh, i, &r))
				continue;
			if (!pointer_type(c->arch, (unsigned)GELF_R_TYPE(r.r_info)))
				continue;
			uint32_t w = 0;   /* REL: the addend is the word being relocated */
			if (sh.sh_type == SHT_REL && ++reads > READS_MAX)
				return true;
			if (sh.sh_type == SHT_REL && dis_read_vaddr(c, r.r_offset, &w, sizeof w))
				r.r_addend = (GElf_Sxword)w;
			uint64_t to;
			GElf_Sym s;
			size_t si = GELF_R_SYM(r.r_info);
			if (!si)
				to = (uint64_t)r.r_addend;
			else if (si && syms && gelf_getsym(syms, (int)si, &s) && s.st_shndx != SHN_UNDEF)
				to = s.st_value + (uint64_t)r.r_addend;
			else
				continue;
			if (c->arch->word == 4)
				to &= 0xffffffffu;
			if (to >= lo && to < hi)
				return true;
		}
	}
	return false;
}

struct query {
	uint64_t addr, size, taken_lo, hi;
	const struct dis_hit *hits;
	size_t nhits, next_hit;
};

/* Imports that read no argument register: an address left in one across
 * their call (ppc64's `addi r4, r2, off; stw r3, 0(r4); bl getuid`) is
 * not passed. */
static const char *const no_args[] = { "getuid", "geteuid", "getgid", "getegid", "getpid",
	"getppid", NULL };

/* The address of the global's object, computed into register r by
 * instruction i: does it go anywhere but the base of the loads and stores
 * the lift resolved (aarch64 `add x19, x19, :lo12:obj; str w0, [x19, #8]`)
 * before r is redefined?  A call with r an argument, a branch, any other
 * read: yes. */
static bool escapes(const struct dis_func *f, size_t i, unsigned r, const struct dis_arch *arch)
{
	uint64_t bit = 1ull << r;
	for (size_t j = i + 1; j < f->n; j++) {
		const struct dis_insn *in = &f->in[j];
		if (in->uses & bit)
			return true;
		if (in->ref_kind == R_WRITE && in->ref_move && in->src == S_REG && in->src_reg == r)
			return true;   /* stored as a value */
		switch (in->kind) {
		case K_RET:
			return false;
		case K_CALL: case K_ICALL:
			if (dis_arg_reg(arch, r) && !dis_named(in, no_args))
				return true;
			break;
		case K_OTHER:
			break;
		case K_CJMP:
			/* a conditional return (ARM's popne {.., pc}, s390x's ber
			 * %r14): the path it takes ends */
			if (!in->target)
				break;
			return true;
		default:
			return true;   /* it may be used where the branch goes */
		}
		if ((in->dst.kind == L_REG && in->dst.reg == r) || (in->clobber & bit))
			return false;
	}
	return true;
}

/* One decoded function: calls back for its stores, false when something
 * else may change the global. */
static bool scan_func(struct ds_code *c, const struct dis_func *f, struct query *q,
                      ds_site_cb cb, void *ctx, int *nstores, bool *stop)
{
	uint64_t sus = 0;   /* registers holding an address near the global */
	for (size_t i = 0; i < f->n; i++) {
		const struct dis_insn *in = &f->in[i];
		uint64_t next = i + 1 < f->n ? f->in[i + 1].addr : f->end;
		/* i386: a displacement off the GOT through a register whose
		 * value was lost (a spill, a join): if that register is the GOT
		 * pointer, an access to the global itself or its object's
		 * address computed: a pattern the decoder does not explain */
		for (; q->next_hit < q->nhits && q->hits[q->next_hit].at < next; q->next_hit++) {
			uint64_t to = q->hits[q->next_hit].to;
			bool lost = in->ref_kind == R_ADDR_VIA
			            ? to >= q->taken_lo && to < q->hi
			            : (in->ref_kind == R_READ_VIA || in->ref_kind == R_WRITE_VIA) &&
			              to < q->hi && to + (in->ref_size ? in->ref_size : 16) > q->addr;
			if (q->hits[q->next_hit].at >= in->addr && lost)
				return false;
		}
		switch (in->ref_kind) {
		case R_WRITE:
			if (in->ref == q->addr && in->ref_size == q->size && in->ref_move) {
				struct ds_site site = { c, f, i };
				(*nstores)++;
				if (!*stop && cb(c, &site, ctx))
					*stop = true;
			} else if (in->ref < q->hi && in->ref + (in->ref_size ? in->ref_size : 16) > q->addr) {
				return false;
			}
			break;
		case R_ADDR:
			if (in->ref >= q->taken_lo && in->ref < q->hi &&
			    (in->dst.kind != L_REG || in->dst.reg >= 64 || escapes(f, i, in->dst.reg, c->arch)))
				return false;   /* its address taken */
			break;
		case R_WRITE_VIA:
			if (in->ref_base < 64 && (sus & (1ull << in->ref_base)))
				return false;
			break;
		default:
			break;
		}
		bool near = (in->ref_kind == R_ADDR || in->ref_kind == R_PAGE) &&
		            in->ref + NEAR_BELOW >= q->taken_lo && in->ref < q->hi;
		if (in->dst.kind == L_REG && in->dst.reg < 64)
			sus = near ? sus | (1ull << in->dst.reg) : sus & ~(1ull << in->dst.reg);
		sus &= ~in->clobber;
	}
	/* hits past the last instruction (undecodable bytes at its end) */
	return !(q->next_hit < q->nhits && q->hits[q->next_hit].at < f->end);
}

/* budget: the file's counter of bytes scanned this query adds to */
static int each_store(struct ds_code *c, uint64_t addr, unsigned size, uint64_t below,
                      size_t *budget, ds_site_cb cb, void *ctx)
{
	if (!size || addr + size < addr)
		return -1;
	if (*budget >= STORES_SCAN)
		return -1;
	struct query q = { .addr = addr, .size = size, .hi = addr + size };
	object_of(c, addr, below, &q.taken_lo);
	if (pointed_to(c, q.taken_lo, q.hi))
		return -1;
	size_t saved_decoded = c->decoded, saved_scanned = c->scanned;
	bool saved_capped = c->capped;
	c->decoded = c->scanned = 0;
	c->capped = false;
	size_t *funcs = NULL, nfuncs = 0;
	struct dis_hit *hits = NULL;
	int nstores = 0;
	bool ok = dis_funcs_naming(c, q.taken_lo, q.hi, &funcs, &nfuncs, &hits, &q.nhits) == 0;
	q.hits = hits;
	bool stop = false;
	for (size_t k = 0; ok && k < nfuncs; k++) {
		struct dis_func f;
		if (!dis_decode_func(c, funcs[k], &f)) {
			ok = false;
			break;
		}
		/* hits before this function belong to no decoded one */
		while (q.next_hit < q.nhits && q.hits[q.next_hit].at < f.start)
			q.next_hit++;
		ok = scan_func(c, &f, &q, cb, ctx, &nstores, &stop);
		free(f.in);
	}
	ok = ok && !c->capped;
	*budget += c->scanned;
	free(funcs);
	free(hits);
	c->decoded = saved_decoded;
	c->scanned = saved_scanned;
	c->capped = saved_capped;
	return ok ? nstores : -1;
}

int ds_code_each_store(struct ds_code *c, uint64_t addr, unsigned size, ds_site_cb cb, void *ctx)
{
	return each_store(c, addr, size, 0, &c->store_scanned, cb, ctx);
}

int dis_each_store_in(struct ds_code *c, uint64_t addr, unsigned size, uint64_t below,
                      ds_site_cb cb, void *ctx)
{
	return each_store(c, addr, size, below, &c->const_scanned, cb, ctx);
}
