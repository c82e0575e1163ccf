/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Does a call argument come from the enclosing function's own parameters
 * on every path from its entry?  A forward dataflow over the function's
 * control flow (dis_succ: fall through, direct jumps inside it; a return,
 * a tail call or a call that does not return ends a path) marks what holds
 * a value derived from what the caller passed in: the argument registers
 * at entry (rdi rsi rdx rcx r8 r9; x0-x7), the caller's stack arguments
 * (read above the return address, the stack pointer followed through
 * push/pop/sub/add), values loaded through such a pointer (`mov
 * (%rdi),%rax; mov (%rax),%edi`: cgo's argument block), in-place
 * computations on them (`sar $1, %rdi`: OCaml's Int_val) and their spills
 * to the frame.  A call clobbers its caller-saved registers.  Where paths
 * join, a place holds the caller's value only if it does on each of them
 * (lxc_switch_uid_gid: gcc -O2 lays the setresgid block reached from the
 * entry after a block whose calls clobber %rsi).  States are kept per
 * basic block and iterated to a fixpoint within PARAM_STEPS; over it, a
 * site reached by an indirect jump (a switch table: any target) or a jump
 * to no instruction, the answer is no.
 */
#include <stdlib.h>
#include <string.h>

#include "disasm_int.h"
#include "distsec/util.h"

#define SLOTS 64            /* spilled frame slots followed */
#define DEPTH_UNKNOWN INT32_MIN
/* instructions stepped per query, past one step per instruction: room for
 * loops to reach their fixpoint */
#define PARAM_STEPS(n) (4 * (n) + 4096)

struct slot {
	uint8_t base;
	int32_t off;
};

struct taint {
	uint64_t regs;              /* bit per register family */
	struct slot slot[SLOTS];
	size_t nslots;
	int32_t depth;              /* bytes the stack pointer is below its entry value */
	int32_t fp_depth;           /* the same for the frame pointer, once set from it */
	unsigned sp, fp;            /* stack and frame pointer families */
	int32_t stack_args;         /* the caller's stack arguments, from the entry sp */
	uint64_t args_set;          /* bit per 4-byte word of them: written since with
	                               what is not the caller's (a cdecl parameter
	                               assigned at -O0) */
};

/* The bit in args_set of the caller's stack argument at entry-relative
 * offset ko, or 0 past the words followed. */
static uint64_t arg_word(const struct taint *t, int32_t ko)
{
	int64_t w = ((int64_t)ko - t->stack_args) / 4;
	return (ko - t->stack_args) % 4 == 0 && w < 64 ? 1ull << w : 0;
}

bool dis_arg_reg(const struct dis_arch *a, unsigned r)
{
	for (unsigned k = 0; k < a->nargs; k++)
		if (a->args[k] == r)
			return true;
	return false;   /* none: cdecl passes all on the stack */
}

/* A frame location as (base, offset from the entry stack pointer) when the
 * base's distance to it is known, else (base, raw displacement). */
static void frame_key(const struct taint *t, unsigned base, int32_t disp, uint8_t *kb, int32_t *ko,
                      bool *entry_rel)
{
	*kb = (uint8_t)base;
	*ko = disp;
	*entry_rel = false;
	int32_t d = base == t->sp ? t->depth : base == t->fp ? t->fp_depth : DEPTH_UNKNOWN;
	if (d != DEPTH_UNKNOWN) {
		*kb = (uint8_t)t->sp;
		*ko = disp - d;
		*entry_rel = true;
	}
}

static size_t find_slot(const struct taint *t, uint8_t kb, int32_t ko)
{
	for (size_t k = 0; k < t->nslots; k++)
		if (t->slot[k].base == kb && t->slot[k].off == ko)
			return k;
	return (size_t)-1;
}

static bool slot_tainted(const struct taint *t, unsigned base, int32_t disp)
{
	uint8_t kb;
	int32_t ko;
	bool rel;
	frame_key(t, base, disp, &kb, &ko, &rel);
	/* above the return address (x86) or the entry sp: the caller's
	 * stack arguments */
	if (rel && ko >= t->stack_args)
		return !(t->args_set & arg_word(t, ko));
	return find_slot(t, kb, ko) != (size_t)-1;
}

static void set_slot(struct taint *t, unsigned base, int32_t disp, bool on)
{
	uint8_t kb;
	int32_t ko;
	bool rel;
	frame_key(t, base, disp, &kb, &ko, &rel);
	if (rel && ko >= t->stack_args) {
		t->args_set = on ? t->args_set & ~arg_word(t, ko) : t->args_set | arg_word(t, ko);
		return;
	}
	size_t k = find_slot(t, kb, ko);
	if (on && k == (size_t)-1 && t->nslots < SLOTS)
		t->slot[t->nslots++] = (struct slot){ kb, ko };
	else if (!on && k != (size_t)-1)
		t->slot[k] = t->slot[--t->nslots];
}

static bool reg_tainted(const struct taint *t, unsigned r)
{
	return r < 64 && (t->regs & (1ull << r));
}

/* Is the value the instruction defines derived from a parameter? */
static bool src_tainted(const struct taint *t, const struct dis_insn *in)
{
	switch (in->src) {
	case S_REG: return reg_tainted(t, in->src_reg);
	case S_LOAD: return in->src_reg != DIS_NOREG && reg_tainted(t, in->src_reg);
	case S_STACK: return slot_tainted(t, in->src_reg, in->src_disp);
	default: return false;
	}
}

static void step(struct taint *t, const struct dis_insn *in)
{
	bool on = in->keeps ? reg_tainted(t, in->dst.reg) : src_tainted(t, in);
	uint64_t clobber = in->clobber;
	if (in->dst.kind == L_REG) {
		/* ldrd, ldm: the other registers loaded the same way */
		clobber &= ~in->also;
		t->regs = on ? t->regs | in->also : t->regs & ~in->also;
		clobber &= ~(1ull << in->dst.reg);
		if (in->dst.reg == t->fp && in->src == S_REG && in->src_reg == t->sp)
			t->fp_depth = t->depth;   /* mov %rsp, %rbp */
		else if (in->dst.reg == t->fp)
			t->fp_depth = DEPTH_UNKNOWN;
		if (in->dst.reg < 64)
			t->regs = on ? t->regs | (1ull << in->dst.reg) : t->regs & ~(1ull << in->dst.reg);
	} else if (in->dst.kind == L_STACK) {
		set_slot(t, in->dst.reg, in->dst.disp, on);
	}
	t->regs &= ~clobber;
	if (clobber & (1ull << t->fp))
		t->fp_depth = DEPTH_UNKNOWN;
	if (in->sp_lost) {
		t->depth = DEPTH_UNKNOWN;
	} else if (in->sp_adj && t->depth != DEPTH_UNKNOWN) {
		t->depth -= in->sp_adj;
		if (in->dst.kind == L_PUSH)
			set_slot(t, t->sp, 0, on);   /* the new top of stack */
	}
}

/* Meets s into d (a place stays the caller's only if it is in both);
 * returns whether d changed. */
static bool meet(struct taint *d, const struct taint *s)
{
	bool changed = false;
	uint64_t regs = d->regs & s->regs, args_set = d->args_set | s->args_set;
	changed |= regs != d->regs || args_set != d->args_set;
	d->regs = regs;
	d->args_set = args_set;
	for (size_t k = 0; k < d->nslots;)
		if (find_slot(s, d->slot[k].base, d->slot[k].off) == (size_t)-1) {
			d->slot[k] = d->slot[--d->nslots];
			changed = true;
		} else {
			k++;
		}
	if (d->depth != s->depth && d->depth != DEPTH_UNKNOWN) {
		d->depth = DEPTH_UNKNOWN;
		changed = true;
	}
	if (d->fp_depth != s->fp_depth && d->fp_depth != DEPTH_UNKNOWN) {
		d->fp_depth = DEPTH_UNKNOWN;
		changed = true;
	}
	return changed;
}

/* Does the path end after instruction i, or go on only through dis_succ? */
static bool ends_block(const struct dis_insn *in)
{
	return in->kind == K_JMP || in->kind == K_CJMP || in->kind == K_RET || in->kind == K_IJMP ||
	       (in->kind == K_CALL && dis_noreturn(in));
}

struct flow {
	const struct dis_func *f;
	uint32_t *block;            /* per instruction: its block's index, if it leads one */
	struct taint *in;           /* per block: the state entering it */
	unsigned char *reached, *pending;
	size_t nblocks, steps;
	bool lost;                  /* a path went where the flow cannot follow */
};

static void flow_into(struct flow *w, size_t j, const struct taint *t)
{
	/* off the end: after a call of a local function that does not
	 * return (openssh's sshfatal), the path ends */
	if (j == w->f->n)
		return;
	if (j > w->f->n) {
		w->lost = true;   /* a jump into no instruction */
		return;
	}
	uint32_t b = w->block[j];
	if (!w->reached[b]) {
		w->in[b] = *t;
		w->reached[b] = w->pending[b] = 1;
	} else if (meet(&w->in[b], t)) {
		w->pending[b] = 1;
	}
}

/* Steps block b from its entry state, to its end or to instruction stop. */
static size_t flow_block(struct flow *w, size_t i, struct taint *t, size_t stop)
{
	const struct dis_func *f = w->f;
	for (;; i++) {
		if (i == stop)
			return i;
		const struct dis_insn *in = &f->in[i];
		step(t, in);
		w->steps++;
		if (ends_block(in) || i + 1 >= f->n || w->block[i + 1] != UINT32_MAX)
			return i;
	}
}

bool ds_site_arg_from_caller(const struct ds_site *site, unsigned n)
{
	const struct dis_func *f = site->f;
	const struct dis_arch *arch = site->c->arch;
	if (arch->nargs && n >= arch->nargs)
		return false;
	struct taint t0 = { .sp = arch->sp, .fp = arch->fp, .stack_args = arch->stack_args };
	/* where the lifter does not give every stack pointer move, frame
	 * slots are keyed raw */
	t0.depth = arch->sp_tracked ? 0 : DEPTH_UNKNOWN;
	t0.fp_depth = DEPTH_UNKNOWN;
	for (unsigned r = 0; r < 64; r++)
		if (dis_arg_reg(arch, r))
			t0.regs |= 1ull << r;

	/* the blocks: the entry, each jump target, what follows a jump */
	struct flow w = { .f = f, .block = ds_xmalloc(f->n * sizeof *w.block) };
	memset(w.block, 0xff, f->n * sizeof *w.block);
	w.block[0] = 0;
	for (size_t i = 0; i < f->n; i++) {
		const struct dis_insn *in = &f->in[i];
		size_t next[2];
		bool all;
		unsigned nn = dis_succ(f, i, next, &all);
		for (unsigned k = 0; k < nn; k++)
			if (next[k] < f->n && (next[k] != i + 1 || ends_block(in)))
				w.block[next[k]] = 0;
		if (ends_block(in) && i + 1 < f->n)
			w.block[i + 1] = 0;
	}
	for (size_t i = 0; i < f->n; i++)
		if (w.block[i] != UINT32_MAX)
			w.block[i] = (uint32_t)w.nblocks++;
	w.in = ds_xmalloc(w.nblocks * sizeof *w.in);
	w.reached = ds_xcalloc(w.nblocks, 2);
	w.pending = w.reached + w.nblocks;

	bool from_caller = false;
	flow_into(&w, 0, &t0);
	size_t cap = PARAM_STEPS(f->n);
	/* sweeps in address order: a loop's body is met again on the next */
	for (bool again = true; again && !w.lost && w.steps <= cap;) {
		again = false;
		for (size_t i = 0; i < f->n && !w.lost && w.steps <= cap; i++) {
			uint32_t b = w.block[i];
			if (b == UINT32_MAX || !w.pending[b])
				continue;
			w.pending[b] = 0;
			again = true;
			struct taint t = w.in[b];
			size_t end = flow_block(&w, i, &t, (size_t)-1);
			size_t next[2];
			bool all;
			unsigned nn = dis_noreturn(&f->in[end]) ? 0 : dis_succ(f, end, next, &all);
			if (nn == 0 && f->in[end].kind == K_IJMP)
				w.lost = true;   /* a switch table: targets unknown */
			for (unsigned k = 0; k < nn; k++)
				flow_into(&w, next[k], &t);
		}
	}
	if (!w.lost && w.steps <= cap) {
		size_t lead = site->i;
		while (w.block[lead] == UINT32_MAX)
			lead--;
		if (w.reached[w.block[lead]]) {
			struct taint t = w.in[w.block[lead]];
			flow_block(&w, lead, &t, site->i);
			if (arch->nargs)
				from_caller = reg_tainted(&t, arch->args[n]);
			else   /* cdecl: argument n at n*4(%esp) when the call is made */
				from_caller = t.depth != DEPTH_UNKNOWN &&
				              find_slot(&t, arch->sp, (int32_t)(4 * n) - t.depth) != (size_t)-1;
		}
	}
	free(w.block);
	free(w.in);
	free(w.reached);
	return from_caller;
}
