/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A call argument read from a record's member through a pointer, and the
 * stores that put it there (ds_site_member_stores, include/distsec/
 * disasm.h): xgterm's spawn() does screen->gid = getgid() through the
 * pointer it loaded from a global, keeps the pointer on the stack across
 * some calls, and then calls setgid(screen->gid).  The member holds what
 * the store wrote when:
 * - the pointer at the store and at the load is one value: the walk back
 *   (disasm_flow.c) from the base register of each ends at the same
 *   instruction, a load of a fixed address or a call's return, crossing
 *   no join;
 * - such a store is on every path from the function's entry to the load;
 * - nothing on a path from such a store to the load may write the member:
 *   no other store overlapping it through any register (which may alias
 *   the pointer), no write through an index, no address computed at its
 *   offset or off the same pointer, the pointer in neither of a call's first
 *   two arguments (a third or later one is not seen), no
 *   indirect call, and no store overlapping it (through any register) and
 *   no address computed at its offset in the local functions called, up to
 *   MEMBER_DEPTH levels of direct calls (their indirect calls: no).
 * Not seen: an import writing the member through a pointer it was not
 * given on this path (a copy of the pointer kept by the library), a
 * signal handler, another thread.  x86 and aarch64, whose lifters give a
 * member's stores and addresses (struct dis_insn's mem).
 */
#include <stdlib.h>
#include <string.h>

#include "disasm_int.h"
#include "distsec/util.h"

#define MEMBER_STORES 8     /* stores through the same pointer looked at */
#define MEMBER_DEPTH 6      /* levels of local calls looked into */
#define MEMBER_FUNCS 128    /* local functions looked into per query */
#define MEMBER_QUERY (1u << 20)   /* bytes they may decode */
#define UNKNOWN_SIZE 16     /* what a write of unknown size may cover */
/* The arguments a call is looked at for the pointer: where the functions
 * writing memory in bulk take their destination (memcpy, memset, read,
 * fread, recv); a register left holding it from before is not read as
 * an argument of a call taking fewer (chown(path, uid, gid) with the
 * pointer still in rcx), and an address inside the record is an address
 * computed off it, seen as such */
#define MEMBER_ARGS 2

struct member {
	struct ds_code *c;
	int32_t disp;
	unsigned size;
	size_t def[2];              /* the pointer's definition (dis_def_of) */
	size_t budget;
	uint64_t seen[MEMBER_FUNCS];
	size_t nseen;
};

static bool overlaps(const struct member *m, const struct dis_insn *in)
{
	int64_t lo = in->mem_disp, hi = lo + (in->mem_size ? in->mem_size : UNKNOWN_SIZE);
	return lo < m->disp + (int64_t)m->size && hi > m->disp;
}

static bool pointer_def(const struct ds_site *at, struct dis_loc loc, size_t def[2]);

static bool same_pointer(const struct member *m, const struct ds_site *at, struct dis_loc loc)
{
	size_t def[2];
	return pointer_def(at, loc, def) && def[0] == m->def[0] && def[1] == m->def[1];
}

#define SLOT_SPAN 256   /* a record on the stack whose start's address is taken */

/* A stack slot as (base, offset): off the stack pointer, from its value at
 * the function's entry; off a frame pointer, as written. */
static bool slot_key(const struct ds_code *c, const int64_t *off, const unsigned char *known,
                     size_t i, unsigned reg, int32_t disp, int64_t *key)
{
	if (reg != c->arch->sp) {
		*key = disp;
		return true;
	}
	*key = off[i] + disp;
	return known[i];
}

/* The one instruction of f writing the stack slot the load at index r
 * reads, when nothing else writes it or takes an address at or below it
 * (SLOT_SPAN) and it is on every path from the entry to r; (size_t)-1
 * otherwise. */
static size_t slot_writer(const struct ds_code *c, const struct dis_func *f, size_t r)
{
	int64_t *off = ds_xmalloc(f->n * sizeof *off), key, k;
	unsigned char *known = ds_xcalloc(f->n, 1);
	size_t w = (size_t)-1;
	unsigned base = f->in[r].src_reg, word = c->arch->word;
	bool ok = dis_sp_offsets(c, f, off, known) &&
	          slot_key(c, off, known, r, base, f->in[r].src_disp, &key);
	for (size_t j = 0; j < f->n && ok; j++) {
		const struct dis_insn *in = &f->in[j];
		if (in->dst.kind == L_STACK && in->dst.reg == base) {
			ok = slot_key(c, off, known, j, base, in->dst.disp, &k);
			if (ok && k == key)
				ok = w == (size_t)-1 && (w = j, true);
			else if (ok)
				ok = k <= key - (int64_t)word || k >= key + (int64_t)word;
		} else if (in->dst.kind == L_PUSH && base == c->arch->sp) {
			ok = known[j] && off[j] - (int64_t)word != key;
		} else if (in->src == S_SLOT && in->src_reg == base) {
			ok = slot_key(c, off, known, j, base, in->src_disp, &k) &&
			     (k > key || key - k >= SLOT_SPAN);
		}
	}
	free(off);
	free(known);
	if (!ok || w == (size_t)-1 || f->in[w].src != S_REG || f->in[w].src_reg >= 64)
		return (size_t)-1;
	unsigned char *stop = ds_xcalloc(f->n, 1);
	stop[w] = 1;
	if (dis_reach_stop(f, 0, NULL, r, NULL, stop, NULL))
		w = (size_t)-1;
	free(stop);
	return w;
}

/* The pointer in loc before at->i, as dis_def_of names it; a pointer
 * spilled to a stack slot and reloaded far on (xgterm keeps its screen
 * pointer at 0x8(%rsp) across hundreds of instructions) is named by what
 * the slot's one writer stored. */
static bool pointer_def(const struct ds_site *at, struct dis_loc loc, size_t def[2])
{
	size_t r, w;
	if (dis_def_of(at, loc, def))
		return true;
	if (!dis_reload_of(at, loc, &r) || (w = slot_writer(at->c, at->f, r)) == (size_t)-1)
		return false;
	struct ds_site ws = { at->c, at->f, w };
	return dis_def_of(&ws, (struct dis_loc){ L_REG, at->f->in[w].src_reg, 0 }, def);
}

/* The local function a call or a tail jump out of f goes to, or 0 (i386's
 * `call 1f; 1: pop %ebx`, a call into f itself, only reads the pc). */
static uint64_t local_target(const struct ds_code *c, const struct dis_func *f,
                             const struct dis_insn *in)
{
	if (in->callee || !in->target || (in->kind != K_CALL && in->kind != K_JMP))
		return 0;
	if (in->target >= f->start && in->target < f->end)
		return 0;
	return dis_is_local_code(c, in->target) ? in->target : 0;
}

static bool callee_clean(struct member *m, uint64_t fn, unsigned depth);

/* back[i]: the load at li is reached from instruction i on a path through
 * no instruction with stop[i] set (those themselves left out); false when
 * the passes do not settle (MEMBER_PASSES). */
#define MEMBER_PASSES 64
static bool reaches_back(const struct dis_func *f, size_t li, const unsigned char *stop,
                         unsigned char *back)
{
	back[li] = 1;
	for (unsigned pass = 0; pass < MEMBER_PASSES; pass++) {
		bool changed = false;
		for (size_t i = f->n; i-- > 0;) {
			if (back[i] || stop[i])
				continue;
			size_t next[2];
			bool all;
			unsigned nn = dis_succ(f, i, next, &all);
			bool to = all;   /* a switch may go to the load's path */
			for (unsigned k = 0; k < nn && !to; k++)
				to = next[k] < f->n && back[next[k]];
			if (to) {
				back[i] = 1;
				changed = true;
			}
		}
		if (!changed)
			return true;
	}
	return false;
}

/* Can the instructions of f with mark[i] set (all of them: mark NULL)
 * leave the member as it was?  own: f holds the load, and m->def is the
 * pointer there (a called function may reach the record through any
 * register, and its writes through an index are taken for arrays';
 * stores[i]: the stores being judged). */
static bool region_clean(struct member *m, const struct dis_func *f, const unsigned char *mark,
                         const unsigned char *stores, bool own, unsigned depth)
{
	const struct dis_arch *a = m->c->arch;
	for (size_t i = 0; i < f->n; i++) {
		if (mark && !mark[i])
			continue;
		const struct dis_insn *in = &f->in[i];
		struct ds_site at = { m->c, f, i };
		if (in->mem == M_STORE && !(stores && stores[i]) &&
		    (own ? in->mem_indexed || overlaps(m, in) : !in->mem_indexed && overlaps(m, in)))
			return false;
		if (in->mem == M_ADDR && (in->mem_disp == m->disp ||
		                          (own && same_pointer(m, &at, (struct dis_loc){ L_REG, in->mem_base, 0 }))))
			return false;
		if (in->kind == K_ICALL || in->kind == K_IJMP)
			return false;
		uint64_t to = local_target(m->c, f, in);
		if (in->kind != K_CALL && !to && !(in->kind == K_JMP && in->callee))
			continue;
		for (unsigned n = 0; own && n < MEMBER_ARGS; n++)
			if (same_pointer(m, &at, dis_arg_loc(a, n)))
				return false;   /* memset, read, a setter given the record */
		if (to && !callee_clean(m, to, depth + 1))
			return false;
	}
	return true;
}

/* A local function (and those it calls, to MEMBER_DEPTH) writes no
 * memory at the member's offset and computes no address there. */
static bool callee_clean(struct member *m, uint64_t fn, unsigned depth)
{
	for (size_t k = 0; k < m->nseen; k++)
		if (m->seen[k] == fn)
			return true;   /* looked at, or being looked at (recursion) */
	if (depth > MEMBER_DEPTH || m->nseen == MEMBER_FUNCS)
		return false;
	m->seen[m->nseen++] = fn;
	struct dis_func f;
	if (!dis_decode_deep(m->c, fn, m->budget, (size_t)-1, &f))
		return false;
	bool ok = region_clean(m, &f, NULL, NULL, false, depth);
	free(f.in);
	return ok;
}

int ds_site_member_stores(const struct ds_site *site, unsigned n, unsigned size, ds_site_cb cb,
                          void *ctx)
{
	struct ds_code *c = site->c;
	const struct dis_func *f = site->f;
	size_t li;
	unsigned base;
	if (c->arch != &dis_x86_64 && c->arch != &dis_i386 && c->arch != &dis_aarch64)
		return -1;
	if (!dis_arg_load(site, n, &li, &base) || base >= 64 || f->in[li].src != S_LOAD ||
	    f->in[li].value)
		return -1;
	struct member m = { .c = c, .disp = f->in[li].src_disp, .size = size,
	                    .budget = dis_deep_budget(c, MEMBER_QUERY) };
	struct ds_site load = { c, f, li };
	if (!pointer_def(&load, (struct dis_loc){ L_REG, (uint8_t)base, 0 }, m.def))
		return -1;
	/* the stores of the member through the same pointer */
	unsigned char *stores = ds_xcalloc(f->n, 1), *mark = ds_xcalloc(f->n, 1);
	size_t at[MEMBER_STORES], nat = 0;
	int found = -1;
	for (size_t i = 0; i < f->n; i++) {
		const struct dis_insn *in = &f->in[i];
		struct ds_site s = { c, f, i };
		if (in->mem != M_STORE || in->mem_indexed || in->mem_disp != m.disp ||
		    in->mem_size != size || !in->ref_move ||
		    !same_pointer(&m, &s, (struct dis_loc){ L_REG, in->mem_base, 0 }))
			continue;
		if (nat == MEMBER_STORES)
			goto out;
		stores[i] = 1;
		at[nat++] = i;
	}
	/* one of them on every path to the load, nothing between */
	if (!nat || dis_reach_stop(f, 0, NULL, li, NULL, stores, NULL))
		goto out;
	/* the instructions on a path from a store to the load: reached from
	 * one, and reaching the load, with no such store between */
	unsigned char *stop = ds_xcalloc(f->n, 1), *back = ds_xcalloc(f->n, 1);
	for (size_t i = 0; i < f->n; i++) {   /* paths end at the stores and at exits */
		const struct dis_insn *in = &f->in[i];
		stop[i] = stores[i] || (in->kind == K_CALL &&
		                        (dis_noreturn(in) || (!in->callee && in->target &&
		                                              dis_local_noreturn(c, in->target))));
	}
	bool settled = reaches_back(f, li, stop, back);
	stop[li] = 1;
	for (size_t k = 0; k < nat; k++)
		if (at[k] + 1 < f->n && !mark[at[k] + 1])
			dis_reach_stop(f, at[k] + 1, NULL, (size_t)-1, NULL, stop, mark);
	/* the pointer read again on the way: another value, maybe */
	for (int k = 0; k < 2; k++)
		settled = settled && !(m.def[k] < f->n && mark[m.def[k]] && back[m.def[k]]);
	for (size_t i = 0; i < f->n; i++)
		mark[i] = mark[i] && back[i] && i != li && !stores[i];
	free(stop);
	free(back);
	if (!settled)
		goto out;
	if (!region_clean(&m, f, mark, stores, true, 0))
		goto out;
	found = 0;
	for (size_t k = 0; k < nat; k++) {
		struct ds_site s = { c, f, at[k] };
		found++;
		if (cb(c, &s, ctx))
			break;
	}
out:
	free(stores);
	free(mark);
	return found;
}
