/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capstone instruction -> struct dis_insn (disasm_int.h): the dispatch to
 * the architecture's lifter and what every lifter shares.  Only what the
 * walks need is modelled: moves of registers, immediates, pc-relative
 * addresses and stack slots, pushes (i386 call arguments), calls and
 * branches; every other instruction only clobbers the registers it writes.
 */
#include <string.h>

#include "disasm_int.h"

void dis_regs_reset(struct dis_regs *rs)
{
	rs->known = rs->loaded = 0;
	rs->call_next = 0;
	rs->flag_ok = false;
	rs->flag_unit = 0;
	rs->flag_unsigned = false;
}

void dis_cond_from_flags(struct dis_regs *rs, bool flags, uint8_t cc, struct dis_insn *o)
{
	if (!flags || cc == CC_NONE)
		return;
	o->cc = cc;
	o->cc_flags = true;
	o->cc_loc = rs->flag_loc;
	o->cc_back = rs->flag_back;
	o->value = rs->flag_imm;
}

void dis_set_known(struct dis_regs *rs, unsigned r, uint64_t val, uint64_t origin, bool loaded)
{
	if (r >= DIS_REGS || r == DIS_ZR)
		return;
	rs->known |= DIS_BIT(r);
	rs->val[r] = val;
	rs->origin[r] = origin;
	if (loaded)
		rs->loaded |= DIS_BIT(r);
	else
		rs->loaded &= ~DIS_BIT(r);
}

void dis_forget(struct dis_regs *rs, uint64_t mask)
{
	rs->known &= ~mask;
	rs->loaded &= ~mask;
}

void dis_clobber_written(struct ds_code *c, const cs_insn *ci, struct dis_insn *o,
                         unsigned (*family)(unsigned))
{
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	if (cs_regs_access(c->cs, ci, rd, &nrd, wr, &nwr) != CS_ERR_OK)
		return;
	for (unsigned k = 0; k < nwr; k++) {
		unsigned f = family(wr[k]);
		if (f < 64)
			o->clobber |= DIS_BIT(f);
	}
}

void dis_via_slot(struct ds_code *c, uint64_t slot, uint64_t origin, struct dis_insn *o,
                  enum dis_kind known, enum dis_kind unknown)
{
	o->callee = slot ? dis_slot_name(c->slots, c->nslots, slot) : NULL;
	o->kind = (uint8_t)(o->callee ? known : unknown);
	o->target = o->callee ? origin : 0;
	/* a call through a slot holding a local function: a direct call */
	uint64_t local = slot && !o->callee && known == K_CALL ? dis_local_target(c, slot) : 0;
	if (local) {
		o->kind = K_CALL;
		o->target = local;
	}
}

void dis_def_first(struct ds_code *c, struct dis_insn *o, unsigned d, bool alone)
{
	if (d < 64)
		o->clobber |= DIS_BIT(d);
	if (alone && d < 32) {
		o->dst = (struct dis_loc){ L_REG, (uint8_t)d, 0 };
		o->src = S_UNKNOWN;
		o->keeps = true;
	}
	if (d == c->arch->sp)
		o->sp_lost = true;
}

void dis_def_value(struct dis_regs *rs, struct dis_insn *o, unsigned d, uint64_t v,
                   uint64_t origin)
{
	o->src = origin ? S_ADDR : S_IMM;
	o->value = (int64_t)v;
	if (origin) {
		o->ref_kind = R_ADDR;
		o->ref = v;
	}
	dis_set_known(rs, d, v, origin, false);
}

void dis_def_sp(struct dis_insn *o, bool add_sp, int64_t imm)
{
	o->sp_lost = !add_sp;
	if (add_sp)
		o->sp_adj = (int32_t)imm;
}

void dis_def_load(struct dis_regs *rs, struct dis_insn *o, unsigned d, uint64_t a,
                  unsigned size, uint64_t origin)
{
	o->value = (int64_t)a;
	o->ref_kind = R_READ;
	o->ref = a;
	o->ref_size = (uint8_t)size;
	dis_set_known(rs, d, a, origin, true);
}

void dis_lift(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *out)
{
	memset(out, 0, sizeof *out);
	out->addr = ci->address;
	out->src_reg = DIS_NOREG;
	if (ci->detail)
		c->arch->lift(c, ci, rs, out);
}
