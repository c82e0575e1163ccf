/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Does a call argument come from the enclosing function's own parameters?
 * A forward walk over the function in address order (the same
 * approximation of the paths as the backward walk of disasm_flow.c) marks
 * what holds a value derived from what the caller passed in: the argument
 * registers at entry (rdi rsi rdx rcx r8 r9; x0-x7), the caller's stack
 * arguments (read above the return address, the stack pointer followed
 * through push/pop/sub/add), values loaded through such a pointer
 * (`mov (%rdi),%rax; mov (%rax),%edi`: cgo's argument block), in-place
 * computations on them (`sar $1, %rdi`: OCaml's Int_val) and their spills
 * to the frame.  A call clobbers its caller-saved registers.
 */
#include <stdlib.h>

#include "disasm_int.h"

#define SLOTS 64            /* spilled frame slots followed */
#define DEPTH_UNKNOWN INT32_MIN

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
};

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
		return true;
	return find_slot(t, kb, ko) != (size_t)-1;
}

static void set_slot(struct taint *t, unsigned base, int32_t disp, bool on)
{
	uint8_t kb;
	int32_t ko;
	bool rel;
	frame_key(t, base, disp, &kb, &ko, &rel);
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

bool ds_site_arg_from_caller(const struct ds_site *site, unsigned n)
{
	const struct dis_func *f = site->f;
	const struct dis_arch *arch = site->c->arch;
	struct taint t = { .sp = arch->sp, .fp = arch->fp, .stack_args = arch->stack_args };
	/* where the lifter does not give every stack pointer move, frame
	 * slots are keyed raw */
	t.depth = arch->sp_tracked ? 0 : DEPTH_UNKNOWN;
	t.fp_depth = DEPTH_UNKNOWN;
	for (unsigned r = 0; r < 64; r++)
		if (dis_arg_reg(arch, r))
			t.regs |= 1ull << r;
	for (size_t i = 0; i < site->i; i++)
		step(&t, &f->in[i]);
	if (arch->nargs)
		return n < arch->nargs && reg_tainted(&t, arch->args[n]);
	/* cdecl: argument n at n*4(%esp) when the call is made */
	return t.depth != DEPTH_UNKNOWN &&
	       find_slot(&t, arch->sp, (int32_t)(4 * n) - t.depth) != (size_t)-1;
}
