/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The 32-bit ARM decoder (armhf, armel: little-endian EABI), ARM and
 * Thumb-2 code.  A function's instruction set is bit 0 of its symbol
 * (Thumb when set); for a start known only from .ARM.exidx (a stripped
 * file), its prologue's, else the entry point's (Debian builds Thumb-2).  Calls of
 * imports are `bl`/`blx` to a PLT entry (`add ip, pc, #..; add ip, ip,
 * #..; ldr pc, [ip, #..]!`, ARM code, or lld's `movw; movt; add ip, ip, pc;
 * ldr pc, [ip]`), with a Thumb `bx pc` prefix for callers that cannot
 * switch; `b` to one is a tail call.  Position-independent addresses come
 * from a literal-pool word added to the pc (`ldr r0, [pc, #n]; add r0, pc,
 * r0`), or movw/movt.  AAPCS: arguments in r0-r3, the result in r0, r0-r3,
 * r12 and lr clobbered by a call, sp r13, frame pointer r11 (ARM) or r7
 * (Thumb).
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "disasm_int.h"
#include "distsec/elfview.h"
#include "distsec/util.h"

#define R_IP 12
#define R_SP 13
#define R_LR 14
#define R_PC 15
#define CALL_CLOBBER (DIS_BIT(0) | DIS_BIT(1) | DIS_BIT(2) | DIS_BIT(3) | DIS_BIT(R_IP) | \
                      DIS_BIT(R_LR))
#define EXIDX_MAX (1u << 20)   /* .ARM.exidx entries read */

static unsigned fam(unsigned r)
{
	if (r >= ARM_REG_R0 && r <= ARM_REG_R12)
		return r - ARM_REG_R0;
	return r == ARM_REG_SP ? R_SP : r == ARM_REG_LR ? R_LR : r == ARM_REG_PC ? R_PC : DIS_NOREG;
}

static bool thumb(const struct ds_code *c)
{
	return (c->mode_now & CS_MODE_THUMB) != 0;
}

/* What reading pc gives: the instruction's address plus 8 (ARM) or 4. */
static uint64_t pc_of(const struct ds_code *c, const cs_insn *ci)
{
	return ci->address + (thumb(c) ? 4 : 8);
}

static bool stack_base(const struct ds_code *c, unsigned b)
{
	return b == R_SP || b == (thumb(c) ? 7u : 11u);
}

static bool known_const(const struct dis_regs *rs, unsigned r)
{
	return r < 16 && (rs->known & ~rs->loaded & DIS_BIT(r));
}

static void branch_to(struct ds_code *c, uint64_t t, struct dis_insn *o, enum dis_kind kind)
{
	o->kind = (uint8_t)kind;
	o->target = t;
	o->callee = dis_slot_name(c->stubs, c->nstubs, t);
}

/* Does the instruction write pc other than as a call: a return, or a jump
 * through memory or a register? */
static bool writes_pc(const cs_arm *a)
{
	for (unsigned k = 0; k < a->op_count; k++)
		if (a->operands[k].type == ARM_OP_REG && fam(a->operands[k].reg) == R_PC &&
		    (a->operands[k].access & CS_AC_WRITE))
			return true;
	return false;
}

/* A b<cc> after `cmp rN, #imm`: its relation, as aarch64's a64_cc. */
static uint8_t arm_rel(arm_cc cc, int64_t imm)
{
	switch (cc) {
	case ARM_CC_EQ: return CC_EQ;
	case ARM_CC_NE: return CC_NE;
	case ARM_CC_LT: return CC_LT;
	case ARM_CC_GE: return CC_GE;
	case ARM_CC_GT: return CC_GT;
	case ARM_CC_LE: return CC_LE;
	case ARM_CC_MI: return imm ? CC_NONE : CC_LT;
	case ARM_CC_PL: return imm ? CC_NONE : CC_GE;
	default: return CC_NONE;
	}
}

/* `cmp rN, #imm` (cmn: -imm): what the conditional branch after it tests. */
static bool lift_compare(const cs_insn *ci, struct dis_regs *rs)
{
	const cs_arm *a = &ci->detail->arm;
	const cs_arm_op *op = a->operands;
	if ((ci->id != ARM_INS_CMP && ci->id != ARM_INS_CMN) || a->op_count != 2 ||
	    op[0].type != ARM_OP_REG || op[1].type != ARM_OP_IMM || fam(op[0].reg) >= 13 ||
	    op[0].shift.value || (a->cc != ARM_CC_AL && a->cc != ARM_CC_INVALID))
		return false;
	rs->flag_ok = true;
	rs->flag_loc = (struct dis_loc){ L_REG, (uint8_t)fam(op[0].reg), 0 };
	rs->flag_imm = ci->id == ARM_INS_CMP ? (int32_t)op[1].imm : -(int64_t)(int32_t)op[1].imm;
	return true;
}

static bool lift_branch(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs,
                        struct dis_insn *o, bool flags)
{
	const cs_arm *a = &ci->detail->arm;
	const cs_arm_op *op = a->operands;
	bool cond = a->cc != ARM_CC_AL && a->cc != ARM_CC_INVALID;
	unsigned r = a->op_count && op[0].type == ARM_OP_REG ? fam(op[0].reg) : DIS_NOREG;
	bool slot = r < 16 && (rs->known & rs->loaded & DIS_BIT(r));
	switch (ci->id) {
	case ARM_INS_BL: case ARM_INS_BLX:
		if (a->op_count && op[0].type == ARM_OP_IMM)
			branch_to(c, (uint64_t)op[0].imm & 0xffffffffu, o, K_CALL);
		else
			dis_via_slot(c, slot ? rs->val[r] : 0, slot ? rs->origin[r] : 0, o, K_CALL,
			             K_ICALL);
		o->clobber = CALL_CLOBBER;
		dis_forget(rs, o->clobber);
		return true;
	case ARM_INS_B:
		if (!a->op_count || op[0].type != ARM_OP_IMM)
			return false;
		branch_to(c, (uint64_t)op[0].imm & 0xffffffffu, o, cond ? K_CJMP : K_JMP);
		if (cond) {
			o->callee = NULL;
			dis_cond_from_flags(rs, flags, arm_rel(a->cc, rs->flag_imm), o);
		} else
			dis_regs_reset(rs);
		return true;
	case ARM_INS_CBZ: case ARM_INS_CBNZ:
		o->kind = K_CJMP;
		o->target = a->op_count > 1 && op[1].type == ARM_OP_IMM ? (uint64_t)op[1].imm : 0;
		if (r < 13) {
			o->cc = ci->id == ARM_INS_CBZ ? CC_EQ : CC_NE;
			o->cc_loc = (struct dis_loc){ L_REG, (uint8_t)r, 0 };
			o->value = 0;
		}
		return true;
	case ARM_INS_BX:
		if (r == R_LR)
			o->kind = cond ? K_CJMP : K_RET;
		else if (cond)
			o->kind = K_IJMP;
		else
			dis_via_slot(c, slot ? rs->val[r] : 0, slot ? rs->origin[r] : 0, o, K_JMP, K_IJMP);
		if (!cond)
			dis_regs_reset(rs);
		return true;
	case ARM_INS_TBB: case ARM_INS_TBH:
		o->kind = K_IJMP;
		return true;
	case ARM_INS_UDF: case ARM_INS_TRAP:
		o->kind = cond ? K_OTHER : K_RET;
		return true;
	default:
		break;
	}
	if (!writes_pc(a))
		return false;
	/* pop {.., pc}, ldm sp!, {.., pc}, mov pc, lr: a return; ldr pc, [..]
	 * or add pc, ..: a jump anywhere */
	bool ret = ci->id == ARM_INS_POP || (ci->id == ARM_INS_LDM && a->op_count &&
	                                     op[0].type == ARM_OP_REG && fam(op[0].reg) == R_SP) ||
	           (ci->id == ARM_INS_MOV && a->op_count == 2 && op[1].type == ARM_OP_REG &&
	            fam(op[1].reg) == R_LR);
	o->kind = ret ? (cond ? K_CJMP : K_RET) : K_IJMP;
	if (!cond)
		dis_regs_reset(rs);
	return true;
}

/* A word of the literal pool at addr. */
static bool literal(const struct ds_code *c, uint64_t addr, uint32_t *w)
{
	unsigned char b[4];
	if (!dis_read_vaddr(c, addr, b, 4))
		return false;
	*w = dis_le32(b);
	return true;
}

static unsigned store_size(unsigned id)
{
	return id == ARM_INS_STRB ? 1 : id == ARM_INS_STRH ? 2 : id == ARM_INS_STR ? 4 : 0;
}

/* `ldrd r0, r1, [r3]`, `ldm r3, {r0, r1, r2}`: several registers loaded
 * through one base (cgo's setregid and setresgid read their arguments so):
 * dst is the first, `also` the others.  Through the stack, the pc, a known
 * address, with write-back, or into sp, lr, pc or the frame pointer: not
 * modelled. */
static bool lift_multi(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs,
                       struct dis_insn *o)
{
	const cs_arm *a = &ci->detail->arm;
	const cs_arm_op *op = a->operands;
	unsigned b, first;
	if (a->writeback)
		return false;
	if (ci->id == ARM_INS_LDRD && a->op_count == 3 && op[0].type == ARM_OP_REG &&
	    op[2].type == ARM_OP_MEM && op[2].mem.index == ARM_REG_INVALID) {
		b = fam(op[2].mem.base);
		first = 0;
	} else if ((ci->id == ARM_INS_LDM || ci->id == ARM_INS_LDMIB || ci->id == ARM_INS_LDMDA ||
	            ci->id == ARM_INS_LDMDB) && a->op_count >= 2 && op[0].type == ARM_OP_REG &&
	           op[1].type == ARM_OP_REG) {
		b = fam(op[0].reg);
		first = 1;
	} else {
		return false;
	}
	if (b >= 16 || b == R_PC || stack_base(c, b) || known_const(rs, b))
		return false;
	uint64_t regs = 0;
	for (unsigned k = first; k < a->op_count; k++) {
		if (op[k].type != ARM_OP_REG)
			continue;
		unsigned r = fam(op[k].reg);
		if (r >= R_SP || stack_base(c, r))
			return false;
		regs |= DIS_BIT(r);
	}
	unsigned d = fam(op[first].reg);
	o->dst = (struct dis_loc){ L_REG, (uint8_t)d, 0 };
	o->src = S_LOAD;
	o->src_reg = (uint8_t)b;
	o->also = regs & ~DIS_BIT(d);
	o->clobber = o->also;
	dis_forget(rs, regs);
	return true;
}

static bool lift_memory(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs,
                        struct dis_insn *o)
{
	const cs_arm *a = &ci->detail->arm;
	const cs_arm_op *op = a->operands;
	if (lift_multi(c, ci, rs, o))
		return true;
	if (a->op_count != 2 || op[0].type != ARM_OP_REG || op[1].type != ARM_OP_MEM || a->writeback)
		return false;
	unsigned s = fam(op[0].reg), b = fam(op[1].mem.base), x = fam(op[1].mem.index);
	bool plain = op[1].mem.index == ARM_REG_INVALID;
	uint64_t at = plain && known_const(rs, b) ? rs->val[b] + (uint64_t)(int64_t)op[1].mem.disp : 0;
	/* ldr r0, [pc, r0]: a literal offset from the pc, or a known base
	 * plus a constant index */
	if (!plain && known_const(rs, x) && !rs->origin[x] && op[1].mem.scale == 1 &&
	    !op[1].mem.lshift && (b == R_PC || known_const(rs, b)))
		at = ((b == R_PC ? pc_of(c, ci) : rs->val[b]) + rs->val[x]) & 0xffffffffu;
	unsigned size = store_size(ci->id);
	if (size) {
		o->src = s < 16 ? S_REG : S_UNKNOWN;
		o->src_reg = (uint8_t)s;
		if (plain && stack_base(c, b)) {
			o->dst = (struct dis_loc){ L_STACK, (uint8_t)b, op[1].mem.disp };
		} else if (at) {
			o->ref_kind = R_WRITE;
			o->ref = at;
			o->ref_size = (uint8_t)size;
			o->ref_move = true;
		} else {
			o->ref_kind = R_WRITE_VIA;
			o->ref_base = (uint8_t)b;
			o->ref_size = (uint8_t)size;
		}
		return true;
	}
	if (ci->id != ARM_INS_LDR || s >= 16)
		return false;
	o->dst = (struct dis_loc){ L_REG, (uint8_t)s, 0 };
	uint32_t w;
	if (b == R_PC && plain) {
		/* a literal: a constant, or an offset the pc is added to */
		dis_forget(rs, DIS_BIT(s));
		uint64_t lit = ((pc_of(c, ci) & ~3ull) + (uint64_t)(int64_t)op[1].mem.disp) & 0xffffffffu;
		if (literal(c, lit, &w)) {
			o->src = S_IMM;
			o->value = (int64_t)w;
			dis_set_known(rs, s, w, 0, false);
		}
		return true;
	}
	if (plain && stack_base(c, b)) {
		dis_forget(rs, DIS_BIT(s));
		o->src = S_STACK;
		o->src_reg = (uint8_t)b;
		o->src_disp = op[1].mem.disp;
		return true;
	}
	o->src = S_LOAD;
	o->src_reg = plain && b < 16 ? (uint8_t)b : DIS_NOREG;
	/* the base's origin only where it is known: the pc (ldr r0, [pc, r1]) has none */
	uint64_t origin = at && known_const(rs, b) ? rs->origin[b] : 0;
	dis_forget(rs, DIS_BIT(s));
	if (at) {
		o->value = (int64_t)at;
		o->ref_kind = R_READ;
		o->ref = at;
		o->ref_size = 4;
		dis_set_known(rs, s, at, origin ? origin : ci->address, true);
	}
	return true;
}

/* Moves, constants and pc-relative addresses: the one definition. */
static bool lift_move(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs,
                      struct dis_insn *o)
{
	const cs_arm *a = &ci->detail->arm;
	const cs_arm_op *op = a->operands;
	if (a->op_count < 2 || op[0].type != ARM_OP_REG || fam(op[0].reg) >= 15)
		return false;
	unsigned d = fam(op[0].reg);
	unsigned s = op[1].type == ARM_OP_REG ? fam(op[1].reg) : DIS_NOREG;
	bool sk = known_const(rs, s);
	uint64_t sval = sk ? rs->val[s] : 0, sorigin = sk ? rs->origin[s] : 0;
	bool dk = known_const(rs, d);
	uint64_t dval = dk ? rs->val[d] : 0;
	o->dst = (struct dis_loc){ L_REG, (uint8_t)d, 0 };
	switch (ci->id) {
	case ARM_INS_MOV: case ARM_INS_MOVW: case ARM_INS_MVN:
		if (a->op_count != 2)
			break;
		dis_forget(rs, DIS_BIT(d));
		if (op[1].type == ARM_OP_IMM) {
			uint32_t v = (uint32_t)op[1].imm;
			o->src = S_IMM;
			o->value = (int32_t)(ci->id == ARM_INS_MVN ? ~v : v);
			dis_set_known(rs, d, (uint32_t)o->value, 0, false);
			return true;
		}
		if (s < 15 && ci->id == ARM_INS_MOV && !op[1].shift.value) {
			o->src = S_REG;
			o->src_reg = (uint8_t)s;
			if (sk)
				dis_set_known(rs, d, sval, sorigin, false);
			return true;
		}
		break;
	case ARM_INS_MOVT:
		dis_forget(rs, DIS_BIT(d));
		if (op[1].type == ARM_OP_IMM && dk) {
			uint64_t v = (dval & 0xffff) | ((uint64_t)op[1].imm & 0xffff) << 16;
			o->src = S_IMM;
			o->value = (int32_t)v;
			dis_set_known(rs, d, v, 0, false);
			return true;
		}
		o->src = S_UNKNOWN;
		return true;
	case ARM_INS_UXTB: case ARM_INS_UXTH: case ARM_INS_SXTB: case ARM_INS_SXTH:
		if (a->op_count != 2 || s >= 15)
			break;
		dis_forget(rs, DIS_BIT(d));
		o->src = S_REG;   /* an extension keeps the origin */
		o->src_reg = (uint8_t)s;
		return true;
	case ARM_INS_ADR:
		if (op[1].type != ARM_OP_IMM)
			break;
		dis_forget(rs, DIS_BIT(d));
		o->src = S_ADDR;
		o->value = (int64_t)(((pc_of(c, ci) & ~3ull) + (uint64_t)op[1].imm) & 0xffffffffu);
		o->ref_kind = R_ADDR;
		o->ref = (uint64_t)o->value;
		dis_set_known(rs, d, o->ref, ci->address, false);
		return true;
	case ARM_INS_SUB:
		if (a->op_count != 3 || op[2].type != ARM_OP_IMM || !stack_base(c, s))
			break;
		dis_forget(rs, DIS_BIT(d));
		o->src = S_SLOT;   /* sub r0, r11, #8: a stack slot's address */
		o->src_reg = (uint8_t)s;
		o->src_disp = -(int32_t)op[2].imm;
		return true;
	case ARM_INS_ADD: {
		if (a->op_count == 3 && op[2].type == ARM_OP_IMM && stack_base(c, s)) {
			dis_forget(rs, DIS_BIT(d));
			o->src = S_SLOT;   /* add r0, sp, #12 */
			o->src_reg = (uint8_t)s;
			o->src_disp = (int32_t)op[2].imm;
			return true;
		}
		/* add r0, pc, r0 / add r0, pc (Thumb): a literal offset from the pc */
		unsigned x = a->op_count == 3 && op[2].type == ARM_OP_REG ? fam(op[2].reg) : DIS_NOREG;
		unsigned other = s == R_PC ? (a->op_count == 2 ? d : x) : x == R_PC ? s : DIS_NOREG;
		unsigned y = a->op_count == 2 ? d : x;
		if (other == DIS_NOREG && s < 15 && y < 15 && known_const(rs, s) && known_const(rs, y) &&
		    !op[1].shift.value && (a->op_count == 2 || !op[2].shift.value)) {
			/* a literal offset added to an adr's address (glibc's
			 * _start: the GOT's address) */
			uint64_t v = (rs->val[s] + rs->val[y]) & 0xffffffffu;
			dis_forget(rs, DIS_BIT(d));
			o->src = S_ADDR;
			o->value = (int64_t)v;
			dis_set_known(rs, d, v, ci->address, false);
			return true;
		}
		if (other == DIS_NOREG || !known_const(rs, other) || rs->origin[other])
			break;
		uint64_t v = (pc_of(c, ci) + rs->val[other]) & 0xffffffffu;
		dis_forget(rs, DIS_BIT(d));
		o->src = S_ADDR;
		o->value = (int64_t)v;
		o->ref_kind = R_ADDR;
		o->ref = v;
		dis_set_known(rs, d, v, ci->address, false);
		return true;
	}
	default:
		break;
	}
	o->dst.kind = L_NONE;
	return false;
}

/* `lsl r0, r0, #1`, `and r0, r0, #255`: from the register's own value. */
static void keeps(const cs_insn *ci, struct dis_insn *o)
{
	const cs_arm *a = &ci->detail->arm;
	const cs_arm_op *op = a->operands;
	if (a->op_count < 2 || op[0].type != ARM_OP_REG || !(op[0].access & CS_AC_WRITE) ||
	    ci->id == ARM_INS_LDR || ci->id == ARM_INS_POP)
		return;
	unsigned d = fam(op[0].reg);
	if (d >= 13)
		return;
	for (unsigned k = 1; k < a->op_count; k++)
		if (op[k].type != ARM_OP_IMM && (op[k].type != ARM_OP_REG || fam(op[k].reg) != d))
			return;
	o->dst = (struct dis_loc){ L_REG, (uint8_t)d, 0 };
	o->src = S_UNKNOWN;
	o->keeps = true;
}

static void lift(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	const cs_arm *a = &ci->detail->arm;
	bool cond = a->cc != ARM_CC_AL && a->cc != ARM_CC_INVALID;
	for (unsigned k = 0; k < a->op_count; k++) {
		const cs_arm_op *op = &a->operands[k];
		if (op->type == ARM_OP_REG && fam(op->reg) < 16 && (op->access & CS_AC_READ))
			o->uses |= DIS_BIT(fam(op->reg));
		if (op->type == ARM_OP_MEM) {
			unsigned b = fam(op->mem.base), x = fam(op->mem.index);
			if (!(op->mem.index == ARM_REG_INVALID && known_const(rs, b)) && b < 16 && b != R_PC)
				o->uses |= DIS_BIT(b);
			o->uses |= x < 16 ? DIS_BIT(x) : 0;
		}
	}
	bool flags = rs->flag_ok;
	rs->flag_ok = false;
	if (lift_compare(ci, rs))
		return;   /* flags only */
	if (lift_branch(c, ci, rs, o, flags))
		return;
	/* a conditional instruction still names what it names (`addne r1, pc,
	 * r1; strne r0, [r1]` stores to a global), but the value it defines
	 * is that on one path only */
	if (lift_memory(c, ci, rs, o) || lift_move(c, ci, rs, o)) {
		if (cond && o->dst.kind == L_REG)
			o->src = S_UNKNOWN;
		return;
	}
	if (ci->id == ARM_INS_STR || ci->id == ARM_INS_STRB || ci->id == ARM_INS_STRH) {
		/* a write-back store: what it writes, not followed */
		const cs_arm_op *m = a->op_count > 1 ? &a->operands[1] : NULL;
		if (m && m->type == ARM_OP_MEM && !stack_base(c, fam(m->mem.base))) {
			o->ref_kind = R_WRITE_VIA;
			o->ref_base = (uint8_t)fam(m->mem.base);
		}
	}
	if (!cond)
		keeps(ci, o);
	dis_clobber_written(c, ci, o, fam);
	if (o->clobber & DIS_BIT(R_SP)) {
		o->clobber &= ~DIS_BIT(R_SP);
		if (ci->id != ARM_INS_PUSH && ci->id != ARM_INS_POP && ci->id != ARM_INS_SUB &&
		    ci->id != ARM_INS_ADD)
			o->sp_lost = true;
	}
	o->clobber &= ~DIS_BIT(R_PC);
	dis_forget(rs, o->clobber | (o->dst.kind == L_REG ? DIS_BIT(o->dst.reg) : 0));
}

static int64_t sext(uint64_t v, unsigned bits)
{
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* A Thumb-2 BL, BLX or B.W at p: its target, or 0. */
static uint64_t thumb_branch(const unsigned char *p, uint64_t at)
{
	unsigned h1 = (unsigned)p[0] | (unsigned)p[1] << 8, h2 = (unsigned)p[2] | (unsigned)p[3] << 8;
	unsigned kind = h2 & 0xd000;   /* bl 11x1, blx 11x0, b.w 10x1 */
	if ((h1 & 0xf800) != 0xf000 || (kind != 0xd000 && kind != 0xc000 && kind != 0x9000))
		return 0;
	unsigned s = (h1 >> 10) & 1, j1 = (h2 >> 13) & 1, j2 = (h2 >> 11) & 1;
	unsigned i1 = !(j1 ^ s), i2 = !(j2 ^ s);
	uint64_t imm = (uint64_t)s << 24 | (uint64_t)i1 << 23 | (uint64_t)i2 << 22 |
	               (uint64_t)(h1 & 0x3ff) << 12 | (uint64_t)(h2 & 0x7ff) << 1;
	uint64_t base = kind == 0xc000 ? (at + 4) & ~3ull : at + 4;   /* blx: to ARM code */
	return (base + (uint64_t)sext(imm, 25)) & 0xffffffffu;
}

/* The target of the ARM b, bl or blx (immediate) word x at: blx's H bit
 * adds a halfword. */
static uint64_t arm_branch(uint32_t x, uint64_t at)
{
	uint64_t off = (uint64_t)sext(x & 0xffffff, 24) * 4;
	return (at + 8 + off + ((x >> 28) == 0xf ? ((x >> 23) & 2) : 0)) & 0xffffffffu;
}

/* bl/blx/b (ARM, every fourth byte) and Thumb-2 BL/BLX/B.W (every
 * second) to a stub.  PIC code names its strings through literal-pool
 * offsets no byte pattern finds: a function with a wanted call is also
 * a string candidate, and the decoder decides. */
static void scan_calls(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b,
                       size_t len, uint64_t addr, struct dis_cands *k)
{
	for (size_t i = 0; i + 4 <= len; i += 2) {
		uint64_t at = addr + i, t = 0;
		if (!(at & 3)) {
			uint32_t x = dis_le32(b + i);
			if ((x & 0x0e000000) == 0x0a000000) {   /* b, bl, blx */
				t = arm_branch(x, at);
				if (dis_in_list(w->stubs, w->nstubs, t))
					goto hit;
			}
		}
		t = thumb_branch(b + i, at);
		if (!t || !dis_in_list(w->stubs, w->nstubs, t))
			continue;
hit:
		dis_cand_call(c, k, at);
		if (w->nrefs)
			dis_cand_ref(c, k, at);
	}
}

/* Stores to a global go through a literal-pool offset as well: every
 * function of the range is a candidate (the query's own caps apply). */
static void scan_mem(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b,
                     size_t len, uint64_t addr, struct dis_cands *k)
{
	(void)w;
	(void)b;
	size_t lo = dis_func_of(c, addr);
	for (size_t fi = lo == (size_t)-1 ? 0 : lo; fi < c->nstarts && c->starts[fi] < addr + len; fi++)
		if (c->starts[fi] >= addr || fi == lo)
			dis_cand_ref(c, k, c->starts[fi] > addr ? c->starts[fi] : addr);
}

static uint32_t arm_imm(uint32_t x)
{
	unsigned rot = ((x >> 8) & 15) * 2;
	uint32_t v = x & 0xff;
	return rot ? (v >> rot) | (v << (32 - rot)) : v;
}

/* PLT entries, by their words: bfd's and lld's short form (add ip, pc;
 * add ip, ip; ldr pc, [ip, #n]!), lld's long form (movw ip; movt ip;
 * add ip, ip, pc; ldr pc, [ip]), each with a Thumb `bx pc; b .-4` before
 * it when one is there. */
static void plt_stubs(struct ds_code *c, size_t *cap)
{
	for (size_t s = 0; s < c->nspans; s++) {
		const struct dis_span *sp = &c->spans[s];
		unsigned char *code;
		if (!sp->plt || sp->size > (16u << 20))
			continue;
		code = ds_xmalloc(sp->size ? sp->size : 1);
		if (!dis_read_at(c, sp->off, code, sp->size)) {
			free(code);
			continue;
		}
		for (size_t i = 0; i + 12 <= sp->size; i += 4) {
			uint32_t x = dis_le32(code + i), y = dis_le32(code + i + 4), z = dis_le32(code + i + 8);
			uint64_t at = sp->addr + i, slot;
			if ((x & 0xfffff000u) == 0xe28fc000u && (y & 0xfffff000u) == 0xe28cc000u &&
			    (z & 0xfffff000u) == 0xe5bcf000u)
				slot = at + 8 + arm_imm(x) + arm_imm(y) + (z & 0xfff);
			else if (i + 16 <= sp->size && (x & 0xfff0f000u) == 0xe300c000u &&
			         (y & 0xfff0f000u) == 0xe340c000u && z == 0xe08cc00fu &&
			         dis_le32(code + i + 12) == 0xe59cf000u)
				slot = ((((y >> 4) & 0xf000) | (y & 0xfff)) << 16 |
				        ((x >> 4) & 0xf000) | (x & 0xfff)) + at + 16;
			else
				continue;
			const char *name = dis_slot_name(c->slots, c->nslots, slot & 0xffffffffu);
			if (!name)
				continue;
			dis_add_stub(c, at, name, cap);
			if (i >= 4 && dis_le32(code + i - 4) == 0xe7fd4778u)   /* bx pc; b .-4 */
				dis_add_stub(c, at - 4, name, cap);
		}
		free(code);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* .ARM.exidx: a prel31 offset to each function's start (stripped files
 * keep it); and the instruction set of starts no symbol names. */
static void exidx_starts(struct ds_code *c, size_t *cap)
{
	GElf_Ehdr eh;
	c->alt_default = gelf_getehdr(c->v->elf, &eh) && (eh.e_entry & 1);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(c->v->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_ARM_EXIDX)
			continue;
		unsigned char e[8];
		for (uint64_t i = 0; i + 8 <= sh.sh_size && i / 8 < EXIDX_MAX; i += 8) {
			if (!dis_read_at(c, sh.sh_offset + i, e, 8))
				break;
			uint64_t fn = (sh.sh_addr + i + (uint64_t)sext(dis_le32(e) & 0x7fffffffu, 31)) &
			              0xfffffffeu;
			dis_add_start(c, fn, cap);
		}
	}
}

/* Does the code at p save lr first (a function that calls others): ARM
 * `push {.., lr}` (the word e92d4xxx), Thumb `push {.., lr}` (b5xx) or
 * push.w (the halfwords e92d 4xxx)? */
static bool push_lr(const unsigned char *p)
{
	return (p[3] == 0xe9 && p[2] == 0x2d && (p[1] & 0x40)) || p[1] == 0xb5 ||
	       (p[1] == 0xe9 && p[0] == 0x2d && (p[3] & 0x40));
}

/* The bytes a first instruction some prologues put before the push of lr
 * takes: the stack-clash probe's `mov ip, #4096` (Alpine's
 * -fstack-clash-protection: ARM e3a0cxxx, Thumb mov.w f04f/f44f 0cxx/5cxx)
 * or a variadic function's push of its argument registers (Thumb b40f,
 * ARM e92d000f); 0 for none. */
static unsigned prologue_prefix(const unsigned char *p)
{
	if ((p[3] == 0xe3 && p[2] == 0xa0 && (p[1] & 0xf0) == 0xc0) ||
	    (p[3] == 0xe9 && p[2] == 0x2d && !(p[1] & 0xc0)))
		return 4;
	if ((p[1] & 0xfb) == 0xf0 && (p[0] & 0xef) == 0x4f && (p[3] & 0x0f) == 0x0c)
		return 4;
	return p[1] == 0xb4 ? 2 : 0;
}

/* A function's start that saves lr, at once or after such a prefix. */
static bool saves_lr(const struct ds_code *c, uint64_t start)
{
	unsigned char b[8];
	if (!dis_read_vaddr(c, start, b, 8))
		return false;
	unsigned skip = push_lr(b) ? 0 : prologue_prefix(b);
	return push_lr(b + skip);
}

/* A bl or blx at b: its target (Thumb's from any halfword, ARM's from a
 * word), or 0. */
static uint64_t bl_at(const unsigned char *b, size_t avail, uint64_t at)
{
	if (avail < 4)
		return 0;
	uint64_t t = 0;
	unsigned h2 = (unsigned)b[2] | (unsigned)b[3] << 8;
	if ((h2 & 0xc000) == 0xc000)   /* Thumb bl, blx; not b.w */
		t = thumb_branch(b, at);
	if (!t && !(at & 3)) {
		uint32_t x = dis_le32(b);
		if ((x & 0xff000000) == 0xeb000000)   /* ARM bl */
			t = arm_branch(x, at);
	}
	return t;
}

/* .ARM.exidx, then the target of every bl whose code saves lr.  GCC gives
 * C functions that cannot throw no .ARM.exidx entry, so a stripped armhf
 * program's table may name crt1's _start alone (putty's plink: five starts
 * for 330 KB of code).  Data in the literal pools can look like a bl; the
 * prologue its target must have keeps those out. */
static void arm_starts(struct ds_code *c, size_t *cap)
{
	exidx_starts(c, cap);
	dis_starts_from_calls(c, cap, bl_at, 2, 1, saves_lr);
}

/* A start no symbol names (a stripped file's .ARM.exidx): its prologue
 * tells, an ARM `push {.., lr}` (e92d4xxx, a little-endian word) or a
 * Thumb one (b5xx; push.w: the halfwords e92d 4xxx); else the entry
 * point's instruction set (Debian builds Thumb-2, its crt1.o too). */
static bool guess_thumb(const struct ds_code *c, uint64_t start)
{
	unsigned char b[4];
	if (dis_read_vaddr(c, start, b, 4)) {
		if (b[3] == 0xe9 && b[2] == 0x2d && (b[1] & 0xf0) == 0x40)
			return false;
		if (b[1] == 0xb5 || (b[1] == 0xe9 && b[0] == 0x2d && (b[3] & 0xf0) == 0x40))
			return true;
	}
	return c->alt_default;
}

/* Before a function is decoded: its instruction set. */
static void enter(struct ds_code *c, uint64_t start)
{
	const struct dis_span *sp = dis_span_of(c, start);
	bool t;
	if (sp && sp->plt)
		t = false;   /* PLT entries are ARM code */
	else if (c->nalt && bsearch(&start, c->alt, c->nalt, sizeof start, cmp_u64))
		t = true;
	else if (c->nalt_not && bsearch(&start, c->alt_not, c->nalt_not, sizeof start, cmp_u64))
		t = false;
	else
		t = guess_thumb(c, start);
	cs_mode m = t ? CS_MODE_THUMB : CS_MODE_ARM;
	if (m != c->mode_now) {
		cs_option(c->cs, CS_OPT_MODE, m);
		c->mode_now = m;
	}
	c->unit = t ? 2 : 4;
}

/* nop; bx lr */
static const uint8_t warm[] = { 0x00, 0xf0, 0x20, 0xe3, 0x1e, 0xff, 0x2f, 0xe1 };

/* arch/arm/tools/syscall.tbl (asm/unistd-eabi.h, __NR_SYSCALL_BASE 0):
 * setgroups takes 16-bit gids, setgroups32 (glibc's setgroups) 32-bit
 * ones */
#define NR_SETGROUPS 81
#define NR_SETGROUPS32 206
static const struct dis_syscall syscalls[] = {
	{ NR_SETGROUPS, "setgroups" }, { NR_SETGROUPS32, "setgroups" }, { 0, NULL },
};

const struct dis_arch dis_arm = {
	.name = "arm", .machine = EM_ARM, .elfclass = ELFCLASS32, .data = ELFDATA2LSB,
	.cs = CS_ARCH_ARM, .mode = CS_MODE_ARM, .unit = 4, .word = 4,
	.sp = R_SP, .fp = 11, .ret = 0, .nargs = 4, .args = { 0, 1, 2, 3 },
	.stack_args = 0, .sp_tracked = false,
	.caller_saved = CALL_CLOBBER,
	.rel_relative = R_ARM_RELATIVE,
	.rel_pointer = { R_ARM_ABS32, R_ARM_GLOB_DAT, R_ARM_RELATIVE },
	.mode_bit = true, .warm = warm, .nwarm = sizeof warm, .syscalls = syscalls,
	.lift = lift, .scan_calls = scan_calls, .scan_mem = scan_mem,
	.starts = arm_starts, .stubs = plt_stubs, .enter = enter,
};
