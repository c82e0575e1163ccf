/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stack buffers a call is given (ds_site_arg_slot, ds_site_slot_passed,
 * include/distsec/disasm.h): `lea 0x90(%rsp), %rdi` before one call and
 * `lea 0x1a0(%rsp), %rdi` before another name two buffers of the
 * function's frame, told apart by their offsets from the stack pointer at
 * the function's entry (the lifter gives every push, pop and adjustment of
 * it, dis_sp_offsets), or off the frame pointer as written.  A check asks
 * so whether the buffer a name was printed into is the one a file call
 * opens.
 */
#include <stdlib.h>
#include <string.h>

#include "disasm_int.h"
#include "distsec/util.h"

/* A record on the stack whose start a call is given may hold a slot up to
 * this far above it. */
#define SLOT_RECORD 256
/* Calls of a function looked at for ds_site_slot_passed: past them, the
 * slot counts as passed on. */
#define SLOT_CALLS 1024

bool dis_sp_offsets(const struct ds_code *c, const struct dis_func *f, int64_t *off,
                    unsigned char *known)
{
	if (!c->arch->sp_tracked || !f->n)
		return false;
	size_t *stack = ds_xmalloc(f->n * sizeof *stack), top = 0;
	bool ok = true;
	off[0] = 0;
	known[0] = 1;
	stack[top++] = 0;
	while (ok && top) {
		size_t i = stack[--top], next[2];
		const struct dis_insn *in = &f->in[i];
		bool all;
		/* a path ends where the pointer is set some other way (leave) */
		unsigned nn = in->sp_lost ? 0 : dis_succ(f, i, next, &all);
		for (unsigned k = 0; k < nn && ok; k++) {
			if (next[k] >= f->n)
				continue;
			if (known[next[k]]) {
				ok = off[next[k]] == off[i] + in->sp_adj;
				continue;
			}
			known[next[k]] = 1;
			off[next[k]] = off[i] + in->sp_adj;
			stack[top++] = next[k];
		}
	}
	free(stack);
	return ok;
}

/* The slot whose address instruction at computes, keyed with off (the
 * stack pointer's offsets, NULL when not known). */
static bool key_of(const struct ds_code *c, const struct dis_func *f, const int64_t *off,
                   const unsigned char *known, size_t at, struct ds_slot *s)
{
	const struct dis_insn *in = &f->in[at];
	s->base = in->src_reg;
	s->key = in->src == S_SLOT ? in->src_disp : 0;   /* else a copy of the pointer itself */
	if (in->src_reg != c->arch->sp)
		return true;   /* the frame pointer: fixed over the function's body */
	if (!off || !known[at])
		return false;
	s->key += off[at];
	return true;
}

/* The stack pointer's offsets in f, or NULL (freed by the caller). */
static int64_t *offsets(const struct ds_code *c, const struct dis_func *f, unsigned char **known)
{
	int64_t *off = ds_xmalloc(f->n * sizeof *off);
	*known = ds_xcalloc(f->n, 1);
	if (dis_sp_offsets(c, f, off, *known))
		return off;
	free(off);
	free(*known);
	*known = NULL;
	return NULL;
}

bool ds_site_arg_slot(const struct ds_site *site, unsigned n, struct ds_slot *slot)
{
	size_t at;
	/* where a buffer is copied inline, ds_site_slot_passed sees too little */
	if (site->c->arch->string_insns || !dis_arg_slot(site, n, &at))
		return false;
	unsigned char *known = NULL;
	int64_t *off = site->f->in[at].src_reg == site->c->arch->sp ? offsets(site->c, site->f, &known)
	                                                             : NULL;
	bool ok = key_of(site->c, site->f, off, known, at, slot);
	free(off);
	free(known);
	return ok;
}

const char *ds_site_arg_returned(const struct ds_site *site, unsigned n)
{
	const struct dis_arch *a = site->c->arch;
	if (n >= 6 || (a->nargs && n >= a->nargs))
		return NULL;
	struct ds_argsrc r = dis_result_src(site, dis_arg_loc(a, n));
	return r.kind == DS_SRC_RESULT ? r.callee : NULL;
}

/* Does slot k (an argument's) name s, or, given to the file's own
 * function (record), a record up to SLOT_RECORD bytes below it that may
 * hold it?  An import given a record copies it whole, if at all, so a
 * member is not where the copy starts.  Off another base register (the
 * frame pointer, the stack pointer) it may be any slot. */
static bool holds(const struct ds_slot *k, const struct ds_slot *s, bool record)
{
	if (k->base != s->base)
		return true;
	return record ? k->key <= s->key && s->key - k->key < SLOT_RECORD : k->key == s->key;
}

/* The slots the calls of the site's function are given, kept in c for
 * the function's next questions. */
static void arg_slots(struct ds_code *c, const struct dis_func *f)
{
	if (c->arg_slots_fn == f->start && c->arg_slots_insns == f->n && c->arg_slots_fn)
		return;
	unsigned nargs = c->arch->nargs ? c->arch->nargs : 6, calls = 0;
	unsigned char *known = NULL;
	int64_t *off = offsets(c, f, &known);
	size_t cap = 0;
	c->narg_slots = 0;
	c->arg_slots_over = false;
	for (size_t j = 0; j < f->n && !c->arg_slots_over; j++) {
		const struct dis_insn *in = &f->in[j];
		if (in->kind != K_CALL && in->kind != K_ICALL)
			continue;
		if (++calls > SLOT_CALLS) {
			c->arg_slots_over = true;
			break;
		}
		struct ds_site call = { c, f, j };
		for (unsigned n = 0; n < nargs && n < 6; n++) {
			size_t at;
			if (!dis_arg_slot(&call, n, &at))
				continue;
			if (c->narg_slots == cap) {
				cap = cap ? 2 * cap : 16;
				c->arg_slots = ds_xrealloc(c->arg_slots, cap * sizeof *c->arg_slots);
			}
			struct dis_arg_slot *a = &c->arg_slots[c->narg_slots++];
			a->call = j;
			a->n = n;
			a->keyed = key_of(c, f, off, known, at, &a->slot);
		}
	}
	free(off);
	free(known);
	c->arg_slots_fn = f->start;
	c->arg_slots_insns = f->n;
}

bool ds_site_slot_passed(const struct ds_site *site, const struct ds_slot *s, uint64_t except,
                         bool (*harmless)(const struct ds_site *call, unsigned n, void *ctx),
                         void *ctx)
{
	struct ds_code *c = site->c;
	const struct dis_func *f = site->f;
	arg_slots(c, f);
	if (c->arg_slots_over)
		return true;
	for (size_t j = 0; j < c->narg_slots; j++) {
		const struct dis_arg_slot *a = &c->arg_slots[j];
		const struct dis_insn *in = &f->in[a->call];
		if (in->addr == except || (a->keyed && !holds(&a->slot, s, !in->callee)))
			continue;
		struct ds_site call = { c, f, a->call };
		if (!harmless(&call, a->n, ctx))
			return true;
	}
	return false;
}
