/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The aarch64 decoder: the lifter (adrp/add/ldr address building followed
 * forward, bl/blr/br, stores to globals), the byte patterns of calls (`bl`
 * or `b` to a stub, `adrp` + `ldr` of a slot) and of address references
 * (`adrp` pages), AAPCS64: x0-x7 arguments, x0-x18 caller-saved.
 */
#include <elf.h>
#include <string.h>

#include "disasm_int.h"


static unsigned a64_family(unsigned r)
{
	if (r >= ARM64_REG_W0 && r <= ARM64_REG_W30)
		return r - ARM64_REG_W0;
	if (r >= ARM64_REG_X0 && r <= ARM64_REG_X28)
		return r - ARM64_REG_X0;
	switch (r) {
	case ARM64_REG_X29: return 29;
	case ARM64_REG_X30: return 30;
	case ARM64_REG_SP: case ARM64_REG_WSP: return 31;
	case ARM64_REG_XZR: case ARM64_REG_WZR: return DIS_ZR;
	}
	return DIS_NOREG;
}

static bool a64_stack_mem(const arm64_op_mem *m)
{
	unsigned b = a64_family(m->base);
	return (b == 31 || b == 29) && m->index == ARM64_REG_INVALID;
}

/* The last immediate operand: a branch's target. */
static bool a64_last_imm(const cs_arm64 *a, uint64_t *imm)
{
	for (int k = a->op_count - 1; k >= 0; k--)
		if (a->operands[k].type == ARM64_OP_IMM) {
			*imm = (uint64_t)a->operands[k].imm;
			return true;
		}
	return false;
}

static void a64_via_reg(struct ds_code *c, const struct dis_regs *rs, const cs_arm64_op *op,
                        struct dis_insn *o, enum dis_kind known, enum dis_kind unknown)
{
	unsigned r = op->type == ARM64_OP_REG ? a64_family(op->reg) : DIS_NOREG;
	bool slot = r < 31 && (rs->known & rs->loaded & DIS_BIT(r));
	dis_via_slot(c, slot ? rs->val[r] : 0, slot ? rs->origin[r] : 0, o, known, unknown);
}

static bool lift_a64_move(const cs_insn *ci, struct dis_regs *rs,
                          struct dis_insn *o)
{
	const cs_arm64 *a = &ci->detail->arm64;
	const cs_arm64_op *op = a->operands;
	if (a->op_count < 2 || op[0].type != ARM64_OP_REG)
		return false;
	unsigned d = a64_family(op[0].reg);
	if (d > 31)
		return false;
	o->dst = (struct dis_loc){ L_REG, (uint8_t)d, 0 };
	/* `add x0, x0, #lo` reads what it overwrites: keep the old state */
	const uint64_t known = rs->known & ~rs->loaded;
	dis_forget(rs, DIS_BIT(d));
	switch (ci->id) {
	case ARM64_INS_ADRP: case ARM64_INS_ADR:
		o->src = S_ADDR;
		o->value = op[1].imm;
		o->ref_kind = ci->id == ARM64_INS_ADRP ? R_PAGE : R_ADDR;
		o->ref = (uint64_t)op[1].imm;
		dis_set_known(rs, d, (uint64_t)op[1].imm, ci->address, false);
		return true;
	case ARM64_INS_ADD: case ARM64_INS_SUB:
		if (a->op_count == 3 && op[2].type == ARM64_OP_IMM && op[1].type == ARM64_OP_REG) {
			unsigned s = a64_family(op[1].reg);
			uint64_t imm = (uint64_t)op[2].imm << (op[2].shift.type == ARM64_SFT_LSL ? op[2].shift.value : 0);
			if ((s == 31 || s == 29) && imm < 0x10000) {
				/* `add x0, sp, #0x14`, `sub x0, x29, #4`: a slot's address */
				o->src = S_SLOT;
				o->src_reg = (uint8_t)s;
				o->src_disp = ci->id == ARM64_INS_SUB ? -(int32_t)imm : (int32_t)imm;
				return true;
			}
			if (ci->id == ARM64_INS_SUB)
				break;
			if (s < 31 && (known & DIS_BIT(s))) {
				o->src = S_ADDR;
				o->value = (int64_t)(rs->val[s] + imm);
				o->ref_kind = R_ADDR;
				o->ref = rs->val[s] + imm;
				dis_set_known(rs, d, rs->val[s] + imm, rs->origin[s], false);
				return true;
			}
		}
		break;
	case ARM64_INS_MOV: case ARM64_INS_MOVZ: case ARM64_INS_MOVN:
		if (op[1].type == ARM64_OP_REG) {
			o->src_reg = (uint8_t)a64_family(op[1].reg);
			o->src = o->src_reg == DIS_NOREG ? S_UNKNOWN : S_REG;
			return true;
		}
		if (op[1].type == ARM64_OP_IMM && !op[1].shift.value) {
			o->src = S_IMM;
			o->value = ci->id == ARM64_INS_MOVN ? ~op[1].imm : op[1].imm;
			if (op[0].reg >= ARM64_REG_W0 && op[0].reg <= ARM64_REG_W30)
				o->value = (int32_t)o->value;
			return true;
		}
		break;
	case ARM64_INS_LDR: case ARM64_INS_LDUR: case ARM64_INS_LDRSW:
		if (op[1].type != ARM64_OP_MEM || a->writeback || a->op_count != 2)
			break;
		if (a64_stack_mem(&op[1].mem)) {
			o->src = S_STACK;
			o->src_reg = (uint8_t)a64_family(op[1].mem.base);
			o->src_disp = op[1].mem.disp;
			return true;
		}
		unsigned b = a64_family(op[1].mem.base);
		o->src = S_LOAD;
		if (b < 31 && op[1].mem.index == ARM64_REG_INVALID) {
			o->src_reg = (uint8_t)b;
			o->src_disp = op[1].mem.disp;
		}
		if (b < 31 && op[1].mem.index == ARM64_REG_INVALID && (known & DIS_BIT(b))) {
			uint64_t at = rs->val[b] + (uint64_t)(int64_t)op[1].mem.disp;
			o->value = (int64_t)at;
			dis_set_known(rs, d, at, rs->origin[b], true);
		}
		return true;
	}
	o->dst.kind = L_NONE;
	return false;
}

/* `asr x0, x0, #1`, `sxtw x0, w0`: computed from the register's own value
 * (and constants) only. */
static void a64_keeps(const cs_insn *ci, struct dis_insn *o)
{
	const cs_arm64 *a = &ci->detail->arm64;
	const cs_arm64_op *op = a->operands;
	switch (ci->id) {
	case ARM64_INS_ASR: case ARM64_INS_LSR: case ARM64_INS_LSL: case ARM64_INS_AND:
	case ARM64_INS_ADD: case ARM64_INS_SUB: case ARM64_INS_SXTW: case ARM64_INS_UXTW:
	case ARM64_INS_SBFX: case ARM64_INS_UBFX: case ARM64_INS_EOR: case ARM64_INS_ORR:
		break;
	default:
		return;
	}
	if (a->op_count < 2 || op[0].type != ARM64_OP_REG)
		return;
	unsigned d = a64_family(op[0].reg);
	if (d > 30)
		return;
	for (unsigned k = 1; k < a->op_count; k++)
		if (op[k].type != ARM64_OP_IMM &&
		    (op[k].type != ARM64_OP_REG || a64_family(op[k].reg) != d))
			return;
	o->dst = (struct dis_loc){ L_REG, (uint8_t)d, 0 };
	o->src = S_UNKNOWN;
	o->keeps = true;
}

static unsigned a64_reg_size(unsigned r)
{
	if (r >= ARM64_REG_W0 && r <= ARM64_REG_W30) return 4;
	if ((r >= ARM64_REG_X0 && r <= ARM64_REG_X28) || r == ARM64_REG_X29 || r == ARM64_REG_X30)
		return 8;
	if (r >= ARM64_REG_B0 && r <= ARM64_REG_B31) return 1;
	if (r >= ARM64_REG_H0 && r <= ARM64_REG_H31) return 2;
	if (r >= ARM64_REG_S0 && r <= ARM64_REG_S31) return 4;
	if (r >= ARM64_REG_D0 && r <= ARM64_REG_D31) return 8;
	if (r >= ARM64_REG_Q0 && r <= ARM64_REG_Q31) return 16;
	if (r == ARM64_REG_WZR) return 4;
	if (r == ARM64_REG_XZR) return 8;
	return 0;
}

/* Does the instruction write the memory it names (stores, atomics)? */
static bool a64_writes_mem(const char *m)
{
	static const char *const rmw[] = { "ldadd", "ldclr", "ldeor", "ldset", "ldsmax", "ldsmin",
	                                   "ldumax", "ldumin", "swp", "cas", "st", NULL };
	for (size_t k = 0; rmw[k]; k++)
		if (strncmp(m, rmw[k], strlen(rmw[k])) == 0)
			return true;
	return false;
}

/* A load or store at base + offset, the base an address built by adrp
 * (and add): the global it reads or writes; a store through any other
 * base: a write through that register. */
static void a64_refs(const cs_insn *ci, const struct dis_regs *rs, struct dis_insn *o)
{
	const cs_arm64 *a = &ci->detail->arm64;
	const cs_arm64_op *op = a->operands;
	for (unsigned k = 0; k < a->op_count; k++) {
		unsigned f = op[k].type == ARM64_OP_REG ? a64_family(op[k].reg) : DIS_NOREG;
		if (op[k].type == ARM64_OP_MEM) {
			unsigned b = a64_family(op[k].mem.base), i = a64_family(op[k].mem.index);
			bool resolved = b < 31 && i == DIS_NOREG && !a->writeback &&
			                (rs->known & ~rs->loaded & DIS_BIT(b));
			o->uses |= (b < 31 && !resolved ? DIS_BIT(b) : 0) | (i < 31 ? DIS_BIT(i) : 0);
		} else if (f < 31 && (k > 0 || a64_writes_mem(ci->mnemonic) ||
		                      !(op[k].access & CS_AC_WRITE) || (op[k].access & CS_AC_READ))) {
			o->uses |= DIS_BIT(f);   /* a destination is not a use */
		}
	}
	for (unsigned k = 0; k < a->op_count; k++) {
		if (op[k].type != ARM64_OP_MEM)
			continue;
		unsigned b = a64_family(op[k].mem.base);
		bool write = a64_writes_mem(ci->mnemonic);
		bool known = b < 31 && op[k].mem.index == ARM64_REG_INVALID && !a->writeback &&
		             (rs->known & ~rs->loaded & DIS_BIT(b));
		unsigned size = op[0].type == ARM64_OP_REG ? a64_reg_size(op[0].reg) : 0;
		if (ci->id == ARM64_INS_STRB || ci->id == ARM64_INS_STURB)
			size = 1;
		else if (ci->id == ARM64_INS_STRH || ci->id == ARM64_INS_STURH)
			size = 2;
		else if (k == 2 && op[1].type == ARM64_OP_REG)
			size *= 2;   /* stp */
		else if (k != 1)
			size = 0;
		bool move = write && k == 1 && (ci->id == ARM64_INS_STR || ci->id == ARM64_INS_STUR) &&
		            op[0].type == ARM64_OP_REG;
		if (known) {
			o->ref = rs->val[b] + (uint64_t)(int64_t)op[k].mem.disp;
			o->ref_kind = write ? R_WRITE : R_READ;
			o->ref_size = (uint8_t)size;
		} else if (write && !a64_stack_mem(&op[k].mem)) {
			o->ref_kind = R_WRITE_VIA;
			o->ref_base = (uint8_t)b;
			if (b < 31) {   /* a record's member, p->gid = w0 */
				o->mem = M_STORE;
				o->mem_base = (uint8_t)b;
				o->mem_size = (uint8_t)size;
				o->mem_indexed = op[k].mem.index != ARM64_REG_INVALID || a->writeback;
				o->mem_disp = op[k].mem.disp;
			}
		}
		if (move && (known || o->mem == M_STORE)) {
			o->ref_move = true;
			o->src_reg = (uint8_t)a64_family(op[0].reg);
			o->src = o->src_reg == DIS_ZR ? S_IMM : o->src_reg == DIS_NOREG ? S_UNKNOWN : S_REG;
			o->value = 0;   /* fp/simd registers: S_UNKNOWN */
		}
		return;
	}
}

/* The signed relation a b.cond takes its branch on, after a cmp (mi and
 * pl read the sign of the value itself only against 0). */
static uint8_t a64_cc(arm64_cc cc, int64_t imm)
{
	switch (cc) {
	case ARM64_CC_EQ: return CC_EQ;
	case ARM64_CC_NE: return CC_NE;
	case ARM64_CC_LT: return CC_LT;
	case ARM64_CC_GE: return CC_GE;
	case ARM64_CC_GT: return CC_GT;
	case ARM64_CC_LE: return CC_LE;
	case ARM64_CC_MI: return imm ? CC_NONE : CC_LT;
	case ARM64_CC_PL: return imm ? CC_NONE : CC_GE;
	default: return CC_NONE;
	}
}

/* cbz/cbnz compare a register with 0; tbnz/tbz on its sign bit (31 of a
 * w register, 63 of an x) test it below 0. */
static void a64_test_cc(const cs_insn *ci, struct dis_insn *o)
{
	const cs_arm64 *a = &ci->detail->arm64;
	const cs_arm64_op *op = a->operands;
	unsigned r = a->op_count ? a64_family(op[0].reg) : DIS_NOREG;
	if (op[0].type != ARM64_OP_REG || r > 30)
		return;
	bool w = op[0].reg >= ARM64_REG_W0 && op[0].reg <= ARM64_REG_W30;
	o->cc_loc = (struct dis_loc){ L_REG, (uint8_t)r, 0 };
	o->value = 0;
	if (ci->id == ARM64_INS_CBZ || ci->id == ARM64_INS_CBNZ)
		o->cc = ci->id == ARM64_INS_CBZ ? CC_EQ : CC_NE;
	else if (a->op_count == 3 && op[1].type == ARM64_OP_IMM && op[1].imm == (w ? 31 : 63))
		o->cc = ci->id == ARM64_INS_TBNZ ? CC_LT : CC_GE;
}

static void lift_a64_insn(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs,
                          struct dis_insn *o);

/* A pre- or post-indexed access (`ldr w1, [x19], #4`, `str x0, [x20,
 * #8]!`) writes its base register too, which the cases above do not
 * list: a value kept in that register (ds_site_arg_held) ends there. */
static void lift_a64(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	const cs_arm64 *a = &ci->detail->arm64;
	/* &p->gid: a member's address off a register other than sp and fp
	 * whose value the lift does not know (not adrp's page) */
	unsigned b = a->op_count == 3 && a->operands[1].type == ARM64_OP_REG
	             ? a64_family(a->operands[1].reg) : DIS_NOREG;
	bool member = ci->id == ARM64_INS_ADD && b < 29 && !(rs->known & DIS_BIT(b)) &&
	              a->operands[2].type == ARM64_OP_IMM && !a->operands[2].shift.value;
	lift_a64_insn(c, ci, rs, o);
	if (member) {
		o->mem = M_ADDR;
		o->mem_base = (uint8_t)b;
		o->mem_disp = (int32_t)a->operands[2].imm;
	}
	if (!a->writeback)
		return;
	for (unsigned k = 0; k < a->op_count; k++) {
		unsigned b = a->operands[k].type == ARM64_OP_MEM ? a64_family(a->operands[k].mem.base)
		                                                   : DIS_NOREG;
		if (b < 31) {
			o->clobber |= DIS_BIT(b);
			dis_forget(rs, DIS_BIT(b));
		}
	}
}

static void lift_a64_insn(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs,
                          struct dis_insn *o)
{
	const cs_arm64 *a = &ci->detail->arm64;
	const cs_arm64_op *op = a->operands;
	uint64_t t;
	bool flags = rs->flag_ok;
	rs->flag_ok = false;
	a64_refs(ci, rs, o);
	switch (ci->id) {
	case ARM64_INS_CMP: case ARM64_INS_CMN: case ARM64_INS_SUB: case ARM64_INS_ADD: {
		/* what the b.cond after it tests: a register against an
		 * immediate (-O0's `subs w8, w8, #0`: the value before it) */
		unsigned k = a->op_count == 3 ? 1 : 0;
		bool cmp = ci->id == ARM64_INS_CMP || ci->id == ARM64_INS_CMN;
		if ((cmp || a->update_flags) && a->op_count == k + 2 && op[k].type == ARM64_OP_REG &&
		    op[k + 1].type == ARM64_OP_IMM && a64_family(op[k].reg) < 31 &&
		    !op[k + 1].shift.value) {
			bool sub = ci->id == ARM64_INS_CMP || ci->id == ARM64_INS_SUB;
			rs->flag_ok = true;
			rs->flag_loc = (struct dis_loc){ L_REG, (uint8_t)a64_family(op[k].reg), 0 };
			rs->flag_imm = sub ? op[k + 1].imm : -op[k + 1].imm;
		}
		if (cmp)
			return;   /* flags only: see the compares below */
		break;
	}
	case ARM64_INS_BL:
		o->kind = K_CALL;
		if (a64_last_imm(a, &t)) {
			o->target = t;
			o->callee = dis_slot_name(c->stubs, c->nstubs, t);
		}
		o->clobber = (1ull << 19) - 1;
		dis_forget(rs, o->clobber | DIS_BIT(30));
		return;
	case ARM64_INS_BLR:
		a64_via_reg(c, rs, &op[0], o, K_CALL, K_ICALL);
		o->clobber = (1ull << 19) - 1;
		dis_forget(rs, o->clobber | DIS_BIT(30));
		return;
	case ARM64_INS_BR:
		a64_via_reg(c, rs, &op[0], o, K_JMP, K_IJMP);
		dis_regs_reset(rs);
		return;
	case ARM64_INS_B:
		if (!a64_last_imm(a, &t))
			break;
		o->target = t;
		if (a->cc != ARM64_CC_INVALID && a->cc != ARM64_CC_AL) {
			o->kind = K_CJMP;
			dis_cond_from_flags(rs, flags, a64_cc(a->cc, rs->flag_imm), o);
			return;
		}
		o->kind = K_JMP;
		o->callee = dis_slot_name(c->stubs, c->nstubs, t);
		dis_regs_reset(rs);
		return;
	case ARM64_INS_CBZ: case ARM64_INS_CBNZ: case ARM64_INS_TBZ: case ARM64_INS_TBNZ:
		if (a64_last_imm(a, &t)) {
			o->kind = K_CJMP;
			o->target = t;
			a64_test_cc(ci, o);
		}
		return;
	case ARM64_INS_RET: case ARM64_INS_BRK: case ARM64_INS_HLT:
		o->kind = K_RET;
		dis_regs_reset(rs);
		return;
	case ARM64_INS_STR: case ARM64_INS_STUR:
		/* -O0 spills an argument to its frame: `str w0, [x29, #28]` */
		if (a->op_count == 2 && !a->writeback && op[0].type == ARM64_OP_REG &&
		    op[1].type == ARM64_OP_MEM && a64_stack_mem(&op[1].mem)) {
			o->dst = (struct dis_loc){ L_STACK, (uint8_t)a64_family(op[1].mem.base),
			                           op[1].mem.disp };
			o->src_reg = (uint8_t)a64_family(op[0].reg);
			o->src = o->src_reg == DIS_ZR ? S_IMM : S_REG;
			o->value = 0;
			return;
		}
		return;
	/* Compares set the flags only.  Capstone 4 lists `cmp x0, #5` and
	 * `tst w2, #1` as writing their register and gives `cmn`, `ccmp`,
	 * `fcmp` no written register at all (which the fallback below takes
	 * for a missing list): either way a value tested on its way to a call
	 * (`cmn w1, #1`: is the gid -1?) would be lost. */
	case ARM64_INS_TST: case ARM64_INS_CCMP: case ARM64_INS_CCMN:
	case ARM64_INS_FCMP: case ARM64_INS_FCMPE: case ARM64_INS_FCCMP: case ARM64_INS_FCCMPE:
		return;
	default:
		break;
	}
	if (lift_a64_move(ci, rs, o))
		return;
	a64_keeps(ci, o);
	/* Anything else: the registers it writes lose what we knew. */
	for (unsigned k = 0; k < a->op_count; k++)
		if (op[k].type == ARM64_OP_REG && (op[k].access & CS_AC_WRITE)) {
			unsigned f = a64_family(op[k].reg);
			if (f < 64)
				o->clobber |= DIS_BIT(f);
		}
	dis_clobber_written(c, ci, o, a64_family);
	/* No access information: the first register operand of a non-store. */
	if (!o->clobber && a->op_count && op[0].type == ARM64_OP_REG &&
	    !cs_insn_group(c->cs, ci, CS_GRP_JUMP)) {
		unsigned f = a64_family(op[0].reg);
		if (f < 64)
			o->clobber |= DIS_BIT(f);
	}
	dis_forget(rs, o->clobber);
}

/* The page the adrp X at AT addresses: its 21-bit page offset
 * sign-extended, in unsigned arithmetic (shifting a negative int64_t, or
 * one into its sign bit, is undefined). */
static uint64_t adrp_page(uint32_t x, uint64_t at)
{
	uint64_t imm = (((x >> 5) & 0x7ffff) << 2) | ((x >> 29) & 3);
	if (imm & 0x100000)
		imm |= ~0x1fffffull;
	return (at & ~0xfffull) + (imm << 12);
}

/* The target of the b or bl word x at at (imm26, in words). */
static uint64_t a64_branch(uint32_t x, uint64_t at)
{
	return at + (uint64_t)((int64_t)((int32_t)(x << 6) >> 6) * 4);
}

/* aarch64: bl/b to a stub; adrp followed by ldr of a wanted slot or by an
 * add giving a wanted string's address, up to DIS_PAIR_SPAN bytes on.  A
 * candidate only names a function to decode; the lifter follows the
 * register itself. */
static void scan_a64(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b,
                     size_t len, uint64_t addr, struct dis_cands *k)
{
	for (size_t i = 0; i + 4 <= len; i += 4) {
		uint32_t x = dis_le32(b + i);
		uint64_t at = addr + i;
		if ((x & 0x7c000000) == 0x14000000) {           /* b, bl */
			if (dis_in_list(w->stubs, w->nstubs, a64_branch(x, at)))
				dis_cand_call(c, k, at);
			continue;
		}
		if ((x & 0x9f000000) != 0x90000000)             /* adrp */
			continue;
		uint64_t page = adrp_page(x, at);
		unsigned rd = x & 31;
		for (size_t j = i + 4; j + 4 <= len && j <= i + DIS_PAIR_SPAN; j += 4) {
			uint32_t y = dis_le32(b + j);
			if (((y >> 5) & 31) != rd)
				continue;
			if ((y & 0xffc00000) == 0xf9400000 &&        /* ldr x, [xn, #imm] */
			    dis_in_list(w->slots, w->nslots, page + ((y >> 10) & 0xfff) * 8))
				dis_cand_call(c, k, at);
			else if ((y & 0xff800000) == 0x91000000 && w->nrefs &&
			         dis_in_refs(w, page + (((y >> 10) & 0xfff) << (((y >> 22) & 1) * 12))))
				dis_cand_ref(c, k, at);
		}
	}
}

/* bl at b: its target, or 0 */
static uint64_t bl_at(const unsigned char *b, size_t avail, uint64_t at)
{
	uint32_t x = avail >= 4 ? dis_le32(b) : 0;
	return (x & 0xfc000000u) == 0x94000000u ? a64_branch(x, at) : 0;
}

/* With too few starts from the symbols and unwind tables (a stripped musl
 * program built without them), the targets of bl: each named by two call
 * sites, since a data word in the code may read as a bl. */
static void a64_starts(struct ds_code *c, size_t *cap)
{
	if (c->nstarts < DIS_FEW_STARTS)
		dis_starts_from_calls(c, cap, bl_at, 4, 2, NULL);
}

/* aarch64: an adrp of a page an access to [mem_lo, mem_hi) may start from
 * (the page itself, or up to 16 KiB below it: GCC's section anchors). */
static void scan_a64_mem(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b,
                         size_t len, uint64_t addr, struct dis_cands *k)
{
	uint64_t first = (w->mem_lo > 0x4000 ? w->mem_lo - 0x4000 : 0) & ~0xfffull;
	uint64_t last = (w->mem_hi - 1) & ~0xfffull;
	for (size_t i = 0; i + 4 <= len; i += 4) {
		uint32_t x = dis_le32(b + i);
		if ((x & 0x9f000000) != 0x90000000)             /* adrp */
			continue;
		uint64_t page = adrp_page(x, addr + i);
		if (page >= first && page <= last)
			dis_cand_mem(c, k, addr + i, page);
	}
}


/* nop; ret */
static const uint8_t warm[] = { 0x1f, 0x20, 0x03, 0xd5, 0xc0, 0x03, 0x5f, 0xd6 };

/* include/uapi/asm-generic/unistd.h, which arm64 uses */
#define NR_SETGROUPS 159
static const struct dis_syscall syscalls[] = { { NR_SETGROUPS, "setgroups" }, { 0, NULL } };

const struct dis_arch dis_aarch64 = {
	.name = "aarch64", .machine = EM_AARCH64, .elfclass = ELFCLASS64, .data = ELFDATA2LSB,
	.cs = CS_ARCH_ARM64, .mode = CS_MODE_ARM, .unit = 4, .word = 8,
	.sp = 31, .fp = 29, .ret = 0, .nargs = 8, .args = { 0, 1, 2, 3, 4, 5, 6, 7 },
	.stack_args = 0, .sp_tracked = false,
	.caller_saved = (1ull << 19) - 1,
	.rel_relative = R_AARCH64_RELATIVE,
	.rel_pointer = { R_AARCH64_ABS64, R_AARCH64_GLOB_DAT, R_AARCH64_RELATIVE },
	.warm = warm, .nwarm = sizeof warm, .syscalls = syscalls,
	.lift = lift_a64, .scan_calls = scan_a64, .scan_mem = scan_a64_mem, .starts = a64_starts,
};
