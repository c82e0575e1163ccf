/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capstone instruction -> struct dis_insn (disasm_int.h), one function per
 * architecture.  Only what the walks need is modelled: moves of registers,
 * immediates, pc-relative addresses and stack slots, pushes (i386 call
 * arguments), calls and branches; every other instruction only clobbers
 * the registers it writes.
 */
#include <gelf.h>
#include <string.h>

#include "disasm_int.h"
#include "distsec/elfview.h"

#define BIT(r) (1ull << (r))

void dis_regs_reset(struct dis_regs *rs)
{
	rs->known = rs->loaded = 0;
	rs->call_next = 0;
}

static void set_known(struct dis_regs *rs, unsigned r, uint64_t val, uint64_t origin, bool loaded)
{
	if (r > 31)
		return;
	rs->known |= BIT(r);
	rs->val[r] = val;
	rs->origin[r] = origin;
	if (loaded)
		rs->loaded |= BIT(r);
	else
		rs->loaded &= ~BIT(r);
}

static void forget(struct dis_regs *rs, uint64_t mask)
{
	rs->known &= ~mask;
	rs->loaded &= ~mask;
}

/* ---- x86 (64- and 32-bit) ---- */

static unsigned x86_family(unsigned r)
{
	static const unsigned short fam[16][5] = {
		{ X86_REG_RAX, X86_REG_EAX, X86_REG_AX, X86_REG_AL, X86_REG_AH },
		{ X86_REG_RCX, X86_REG_ECX, X86_REG_CX, X86_REG_CL, X86_REG_CH },
		{ X86_REG_RDX, X86_REG_EDX, X86_REG_DX, X86_REG_DL, X86_REG_DH },
		{ X86_REG_RBX, X86_REG_EBX, X86_REG_BX, X86_REG_BL, X86_REG_BH },
		{ X86_REG_RSP, X86_REG_ESP, X86_REG_SP, X86_REG_SPL, 0 },
		{ X86_REG_RBP, X86_REG_EBP, X86_REG_BP, X86_REG_BPL, 0 },
		{ X86_REG_RSI, X86_REG_ESI, X86_REG_SI, X86_REG_SIL, 0 },
		{ X86_REG_RDI, X86_REG_EDI, X86_REG_DI, X86_REG_DIL, 0 },
		{ X86_REG_R8, X86_REG_R8D, X86_REG_R8W, X86_REG_R8B, 0 },
		{ X86_REG_R9, X86_REG_R9D, X86_REG_R9W, X86_REG_R9B, 0 },
		{ X86_REG_R10, X86_REG_R10D, X86_REG_R10W, X86_REG_R10B, 0 },
		{ X86_REG_R11, X86_REG_R11D, X86_REG_R11W, X86_REG_R11B, 0 },
		{ X86_REG_R12, X86_REG_R12D, X86_REG_R12W, X86_REG_R12B, 0 },
		{ X86_REG_R13, X86_REG_R13D, X86_REG_R13W, X86_REG_R13B, 0 },
		{ X86_REG_R14, X86_REG_R14D, X86_REG_R14W, X86_REG_R14B, 0 },
		{ X86_REG_R15, X86_REG_R15D, X86_REG_R15W, X86_REG_R15B, 0 },
	};
	if (r == X86_REG_INVALID)
		return DIS_NOREG;
	for (unsigned f = 0; f < 16; f++)
		for (unsigned k = 0; k < 5; k++)
			if (fam[f][k] == r)
				return f;
	return DIS_NOREG;
}

#define X86_SP 4
#define X86_BP 5
#define X86_BX 3

static bool x86_stack_mem(const x86_op_mem *m)
{
	unsigned b = x86_family(m->base);
	return (b == X86_SP || b == X86_BP) && m->index == X86_REG_INVALID;
}

/* The address a memory operand names when it does not depend on a
 * register we cannot know: rip-relative, absolute, or (i386) off the GOT
 * pointer.  0 when unknown. */
static uint64_t x86_mem_addr(const struct ds_code *c, const struct dis_regs *rs,
                             const cs_insn *ci, const x86_op_mem *m)
{
	if (m->index != X86_REG_INVALID || m->segment != X86_REG_INVALID)
		return 0;
	if (m->base == X86_REG_RIP)
		return ci->address + ci->size + (uint64_t)m->disp;
	if (m->base == X86_REG_INVALID)
		return (uint64_t)m->disp & (c->arch == DIS_X86 ? 0xffffffffu : ~0ull);
	unsigned b = x86_family(m->base);
	if (c->arch != DIS_X86 || b > 15)
		return 0;
	if (rs->known & BIT(b))
		return (rs->val[b] + (uint64_t)m->disp) & 0xffffffffu;
	/* ebx is the GOT pointer wherever a PLT call is made (i386 psABI) */
	if (b == X86_BX && c->gotbase)
		return (c->gotbase + (uint64_t)m->disp) & 0xffffffffu;
	return 0;
}

static void x86_src(const struct ds_code *c, const struct dis_regs *rs, const cs_insn *ci,
                    const cs_x86_op *op, struct dis_insn *o)
{
	o->src = S_UNKNOWN;
	if (op->type == X86_OP_REG) {
		o->src_reg = (uint8_t)x86_family(op->reg);
		if (o->src_reg != DIS_NOREG)
			o->src = S_REG;
	} else if (op->type == X86_OP_IMM) {
		o->src = S_IMM;
		o->value = op->imm;
	} else if (op->type == X86_OP_MEM) {
		uint64_t a = x86_mem_addr(c, rs, ci, &op->mem);
		if (x86_stack_mem(&op->mem)) {
			o->src = S_STACK;
			o->src_reg = (uint8_t)x86_family(op->mem.base);
			o->src_disp = (int32_t)op->mem.disp;
		} else {
			o->src = S_LOAD;
			o->value = (int64_t)a;
			/* the base a parameter's pointed-to value is read through */
			if (op->mem.index == X86_REG_INVALID && x86_family(op->mem.base) < 16)
				o->src_reg = (uint8_t)x86_family(op->mem.base);
		}
	}
}

static void x86_dst(const cs_x86_op *op, struct dis_insn *o)
{
	if (op->type == X86_OP_REG) {
		unsigned f = x86_family(op->reg);
		if (f != DIS_NOREG)
			o->dst = (struct dis_loc){ L_REG, (uint8_t)f, 0 };
	} else if (op->type == X86_OP_MEM && x86_stack_mem(&op->mem)) {
		o->dst = (struct dis_loc){ L_STACK, (uint8_t)x86_family(op->mem.base),
		                           (int32_t)op->mem.disp };
	}
}

/* A call or jump: its direct target, or the import its GOT slot holds. */
static void x86_branch(struct ds_code *c, const struct dis_regs *rs, const cs_insn *ci,
                       const cs_x86_op *op, struct dis_insn *o, enum dis_kind direct,
                       enum dis_kind indirect)
{
	if (op->type == X86_OP_IMM) {
		o->kind = (uint8_t)direct;
		o->target = (uint64_t)op->imm;
		o->callee = dis_slot_name(c->stubs, c->nstubs, o->target);
		return;
	}
	uint64_t a = op->type == X86_OP_MEM ? x86_mem_addr(c, rs, ci, &op->mem) : 0;
	o->callee = a ? dis_slot_name(c->slots, c->nslots, a) : NULL;
	o->kind = (uint8_t)(o->callee ? direct : indirect);
	o->target = o->callee ? ci->address : 0;
	/* a call through a slot holding a local function: a direct call */
	uint64_t local = a && !o->callee && direct == K_CALL ? dis_local_target(c, a) : 0;
	if (local) {
		o->kind = K_CALL;
		o->target = local;
	}
}

static void clobber_written(struct ds_code *c, const cs_insn *ci, struct dis_insn *o,
                            unsigned (*family)(unsigned))
{
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	if (cs_regs_access(c->cs, ci, rd, &nrd, wr, &nwr) != CS_ERR_OK)
		return;
	for (unsigned k = 0; k < nwr; k++) {
		unsigned f = family(wr[k]);
		if (f < 64)
			o->clobber |= BIT(f);
	}
}

static void lift_x86_op(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs,
                        struct dis_insn *o);

/* An in-place computation on one register (`sar $1, %rdi`: OCaml's
 * Int_val): the value stays derived from what the register held. */
static bool x86_keeps(const cs_insn *ci, struct dis_insn *o)
{
	const cs_x86 *x = &ci->detail->x86;
	switch (ci->id) {
	case X86_INS_SAR: case X86_INS_SHR: case X86_INS_SHL: case X86_INS_AND:
	case X86_INS_OR: case X86_INS_ADD: case X86_INS_SUB: case X86_INS_XOR:
	case X86_INS_NOT: case X86_INS_NEG: case X86_INS_INC: case X86_INS_DEC:
		break;
	default:
		return false;
	}
	if (!x->op_count || x->operands[0].type != X86_OP_REG ||
	    (x->op_count == 2 && x->operands[1].type != X86_OP_IMM) || x->op_count > 2)
		return false;
	unsigned f = x86_family(x->operands[0].reg);
	if (f >= 16)
		return false;
	o->dst = (struct dis_loc){ L_REG, (uint8_t)f, 0 };
	o->src = S_UNKNOWN;
	o->keeps = true;
	return true;
}

/* How the instruction moves the stack pointer, when by a constant. */
static bool x86_sp(const struct ds_code *c, const cs_insn *ci, struct dis_insn *o)
{
	const cs_x86 *x = &ci->detail->x86;
	const cs_x86_op *op = x->operands;
	int32_t word = c->arch == DIS_X64 ? 8 : 4;
	switch (ci->id) {
	case X86_INS_PUSH:
		o->sp_adj = -word;
		return true;
	case X86_INS_POP:
		o->sp_adj = word;
		return true;
	case X86_INS_SUB: case X86_INS_ADD:
		if (x->op_count != 2 || op[0].type != X86_OP_REG || x86_family(op[0].reg) != X86_SP ||
		    op[1].type != X86_OP_IMM)
			return false;
		o->sp_adj = (int32_t)(ci->id == X86_INS_SUB ? -op[1].imm : op[1].imm);
		return true;
	default:
		return false;
	}
}

/* The fixed address (a global) the instruction names, if any: read,
 * written, computed (lea, an indexed table's base, an absolute immediate
 * in position-dependent code); or a write through a register. */
static void x86_refs(const struct ds_code *c, const struct dis_regs *rs, const cs_insn *ci,
                     struct dis_insn *o)
{
	const cs_x86 *x = &ci->detail->x86;
	for (unsigned k = 0; k < x->op_count; k++) {
		const cs_x86_op *op = &x->operands[k];
		unsigned f = op->type == X86_OP_REG ? x86_family(op->reg) : DIS_NOREG;
		if (f < 64 && (!(op->access & CS_AC_WRITE) || (op->access & CS_AC_READ)))
			o->uses |= BIT(f);   /* a destination is not a use */
		if (op->type != X86_OP_MEM || x86_mem_addr(c, rs, ci, &op->mem))
			continue;
		unsigned b = x86_family(op->mem.base), i = x86_family(op->mem.index);
		o->uses |= (b < 64 ? BIT(b) : 0) | (i < 64 ? BIT(i) : 0);
	}
	for (unsigned k = 0; k < x->op_count; k++) {
		const cs_x86_op *op = &x->operands[k];
		if (op->type != X86_OP_MEM)
			continue;
		uint64_t a = x86_mem_addr(c, rs, ci, &op->mem);
		x86_op_mem base = op->mem;
		base.index = X86_REG_INVALID;
		if (ci->id == X86_INS_LEA || (!a && op->mem.index != X86_REG_INVALID)) {
			a = x86_mem_addr(c, rs, ci, &base);
			o->ref_kind = a ? R_ADDR : x86_stack_mem(&base) ? R_NONE : R_ADDR_VIA;
			o->ref_base = (uint8_t)x86_family(op->mem.base);
		} else if (a) {
			o->ref_kind = (op->access & CS_AC_WRITE) ? R_WRITE : R_READ;
			o->ref_size = op->size;
			o->ref_move = ci->id == X86_INS_MOV && k == 0 && x->op_count == 2 &&
			              (op[1].type == X86_OP_REG || op[1].type == X86_OP_IMM);
		} else if (!x86_stack_mem(&op->mem)) {
			o->ref_kind = (op->access & CS_AC_WRITE) ? R_WRITE_VIA : R_READ_VIA;
			o->ref_base = (uint8_t)x86_family(op->mem.base);
			o->ref_size = op->size;
		}
		o->ref = a;
		return;
	}
	if (c->v->type != ET_EXEC || cs_insn_group(c->cs, ci, CS_GRP_JUMP) ||
	    cs_insn_group(c->cs, ci, CS_GRP_CALL))
		return;
	for (unsigned k = 0; k < x->op_count; k++)
		if (x->operands[k].type == X86_OP_IMM) {
			o->ref_kind = R_ADDR;
			o->ref = (uint64_t)x->operands[k].imm & (c->arch == DIS_X86 ? 0xffffffffu : ~0ull);
		}
}

static void lift_x86(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	x86_refs(c, rs, ci, o);
	bool sp_known = x86_sp(c, ci, o);
	lift_x86_op(c, ci, rs, o);
	if (!sp_known && ((o->dst.kind == L_REG && o->dst.reg == X86_SP) || (o->clobber & BIT(X86_SP))))
		o->sp_lost = true;
}

static void lift_x86_op(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	const cs_x86 *x = &ci->detail->x86;
	const cs_x86_op *op = x->operands;
	uint64_t call_next = rs->call_next;
	rs->call_next = 0;
	switch (ci->id) {
	case X86_INS_MOV: case X86_INS_MOVABS: case X86_INS_MOVZX:
	case X86_INS_MOVSX: case X86_INS_MOVSXD:
		if (x->op_count != 2)
			break;
		x86_dst(&op[0], o);
		x86_src(c, rs, ci, &op[1], o);
		if (o->dst.kind == L_REG)
			forget(rs, BIT(o->dst.reg));
		return;
	case X86_INS_LEA:
		if (x->op_count != 2 || op[1].type != X86_OP_MEM)
			break;
		x86_dst(&op[0], o);
		uint64_t a = x86_mem_addr(c, rs, ci, &op[1].mem);
		o->src = a ? S_ADDR : S_UNKNOWN;
		o->value = (int64_t)a;
		if (o->dst.kind == L_REG)
			forget(rs, BIT(o->dst.reg));
		return;
	case X86_INS_XOR: case X86_INS_SUB:
		if (x->op_count == 2 && op[0].type == X86_OP_REG && op[1].type == X86_OP_REG &&
		    x86_family(op[0].reg) == x86_family(op[1].reg)) {
			x86_dst(&op[0], o);
			o->src = S_IMM;
			o->value = 0;
			return;
		}
		break;
	case X86_INS_OR:
		/* `or $-1, %esi` sets all bits whatever esi held; capstone shows
		 * the sign-extended imm8 as 0xffffffff for a 32-bit operand */
		if (x->op_count == 2 && op[0].type == X86_OP_REG && op[1].type == X86_OP_IMM &&
		    (op[1].imm == -1 || (op[0].size < 8 && (uint64_t)op[1].imm ==
		                         (1ULL << (8 * op[0].size)) - 1))) {
			x86_dst(&op[0], o);
			o->src = S_IMM;
			o->value = -1;
			return;
		}
		break;
	case X86_INS_ADD:
		/* i386 PIC: `call thunk; add $off, %reg` or `call 1f; 1: pop %reg;
		 * add $off, %reg` makes reg the GOT pointer. */
		if (c->arch == DIS_X86 && x->op_count == 2 && op[0].type == X86_OP_REG &&
		    op[1].type == X86_OP_IMM) {
			unsigned f = x86_family(op[0].reg);
			if (f < 16 && call_next)
				set_known(rs, f, call_next + (uint64_t)op[1].imm, ci->address, false);
			else if (f < 16 && (rs->known & BIT(f)))
				rs->val[f] += (uint64_t)op[1].imm;
			if (f < 16)
				o->clobber |= BIT(f);
			return;
		}
		break;
	case X86_INS_POP:
		if (c->arch == DIS_X86 && op[0].type == X86_OP_REG && call_next) {
			unsigned f = x86_family(op[0].reg);
			o->clobber |= BIT(f);
			rs->call_next = call_next;   /* the add that follows */
			forget(rs, BIT(f));
			return;
		}
		break;
	case X86_INS_PUSH:
		if (x->op_count == 1) {
			o->dst = (struct dis_loc){ L_PUSH, DIS_NOREG, 0 };
			x86_src(c, rs, ci, &op[0], o);
			return;
		}
		break;
	case X86_INS_CALL:
		if (x->op_count != 1)
			break;
		x86_branch(c, rs, ci, &op[0], o, K_CALL, K_ICALL);
		if (o->kind == K_CALL && !o->callee && op[0].type == X86_OP_IMM)
			rs->call_next = ci->address + ci->size;
		o->clobber = BIT(0) | BIT(1) | BIT(2);
		if (c->arch == DIS_X64)
			o->clobber |= BIT(6) | BIT(7) | BIT(8) | BIT(9) | BIT(10) | BIT(11);
		forget(rs, o->clobber);
		return;
	case X86_INS_JMP:
		if (x->op_count != 1)
			break;
		x86_branch(c, rs, ci, &op[0], o, K_JMP, K_IJMP);
		dis_regs_reset(rs);
		return;
	case X86_INS_RET: case X86_INS_RETF: case X86_INS_IRET: case X86_INS_IRETD:
	case X86_INS_IRETQ: case X86_INS_HLT: case X86_INS_UD2:
		o->kind = K_RET;
		dis_regs_reset(rs);
		return;
	default:
		if (cs_insn_group(c->cs, ci, CS_GRP_JUMP) && x->op_count == 1 &&
		    op[0].type == X86_OP_IMM) {
			o->kind = K_CJMP;
			o->target = (uint64_t)op[0].imm;
			return;
		}
		break;
	}
	x86_keeps(ci, o);
	clobber_written(c, ci, o, x86_family);
	forget(rs, o->clobber);
}

/* ---- aarch64 ---- */

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
	if (r < 31 && (rs->known & rs->loaded & BIT(r))) {
		o->callee = dis_slot_name(c->slots, c->nslots, rs->val[r]);
		o->target = rs->origin[r];
	}
	o->kind = (uint8_t)(o->callee ? known : unknown);
	/* a call through a slot holding a local function: a direct call */
	uint64_t local = r < 31 && !o->callee && known == K_CALL && (rs->known & rs->loaded & BIT(r))
		? dis_local_target(c, rs->val[r]) : 0;
	if (local) {
		o->kind = K_CALL;
		o->target = local;
	}
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
	forget(rs, BIT(d));
	switch (ci->id) {
	case ARM64_INS_ADRP: case ARM64_INS_ADR:
		o->src = S_ADDR;
		o->value = op[1].imm;
		o->ref_kind = ci->id == ARM64_INS_ADRP ? R_PAGE : R_ADDR;
		o->ref = (uint64_t)op[1].imm;
		set_known(rs, d, (uint64_t)op[1].imm, ci->address, false);
		return true;
	case ARM64_INS_ADD:
		if (a->op_count == 3 && op[2].type == ARM64_OP_IMM && op[1].type == ARM64_OP_REG) {
			unsigned s = a64_family(op[1].reg);
			uint64_t imm = (uint64_t)op[2].imm << (op[2].shift.type == ARM64_SFT_LSL ? op[2].shift.value : 0);
			if (s < 31 && (known & BIT(s))) {
				o->src = S_ADDR;
				o->value = (int64_t)(rs->val[s] + imm);
				o->ref_kind = R_ADDR;
				o->ref = rs->val[s] + imm;
				set_known(rs, d, rs->val[s] + imm, rs->origin[s], false);
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
		if (b < 31 && op[1].mem.index == ARM64_REG_INVALID)
			o->src_reg = (uint8_t)b;
		if (b < 31 && op[1].mem.index == ARM64_REG_INVALID && (known & BIT(b))) {
			uint64_t at = rs->val[b] + (uint64_t)(int64_t)op[1].mem.disp;
			o->value = (int64_t)at;
			set_known(rs, d, at, rs->origin[b], true);
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
			                (rs->known & ~rs->loaded & BIT(b));
			o->uses |= (b < 31 && !resolved ? BIT(b) : 0) | (i < 31 ? BIT(i) : 0);
		} else if (f < 31 && (k > 0 || a64_writes_mem(ci->mnemonic) ||
		                      !(op[k].access & CS_AC_WRITE) || (op[k].access & CS_AC_READ))) {
			o->uses |= BIT(f);   /* a destination is not a use */
		}
	}
	for (unsigned k = 0; k < a->op_count; k++) {
		if (op[k].type != ARM64_OP_MEM)
			continue;
		unsigned b = a64_family(op[k].mem.base);
		bool write = a64_writes_mem(ci->mnemonic);
		bool known = b < 31 && op[k].mem.index == ARM64_REG_INVALID && !a->writeback &&
		             (rs->known & ~rs->loaded & BIT(b));
		if (known) {
			o->ref = rs->val[b] + (uint64_t)(int64_t)op[k].mem.disp;
			o->ref_kind = write ? R_WRITE : R_READ;
			unsigned size = op[0].type == ARM64_OP_REG ? a64_reg_size(op[0].reg) : 0;
			if (ci->id == ARM64_INS_STRB || ci->id == ARM64_INS_STURB)
				size = 1;
			else if (ci->id == ARM64_INS_STRH || ci->id == ARM64_INS_STURH)
				size = 2;
			else if (k == 2 && op[1].type == ARM64_OP_REG)
				size *= 2;   /* stp */
			else if (k != 1)
				size = 0;
			o->ref_size = (uint8_t)size;
			if (write && k == 1 && (ci->id == ARM64_INS_STR || ci->id == ARM64_INS_STUR) &&
			    op[0].type == ARM64_OP_REG) {
				o->ref_move = true;
				o->src_reg = (uint8_t)a64_family(op[0].reg);
				o->src = o->src_reg == DIS_ZR ? S_IMM : o->src_reg == DIS_NOREG ? S_UNKNOWN : S_REG;
				o->value = 0;   /* fp/simd registers: S_UNKNOWN */
			}
		} else if (write && !a64_stack_mem(&op[k].mem)) {
			o->ref_kind = R_WRITE_VIA;
			o->ref_base = (uint8_t)b;
		}
		return;
	}
}

static void lift_a64(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	const cs_arm64 *a = &ci->detail->arm64;
	const cs_arm64_op *op = a->operands;
	uint64_t t;
	a64_refs(ci, rs, o);
	switch (ci->id) {
	case ARM64_INS_BL:
		o->kind = K_CALL;
		if (a64_last_imm(a, &t)) {
			o->target = t;
			o->callee = dis_slot_name(c->stubs, c->nstubs, t);
		}
		o->clobber = (1ull << 19) - 1;
		forget(rs, o->clobber | BIT(30));
		return;
	case ARM64_INS_BLR:
		a64_via_reg(c, rs, &op[0], o, K_CALL, K_ICALL);
		o->clobber = (1ull << 19) - 1;
		forget(rs, o->clobber | BIT(30));
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
				o->clobber |= BIT(f);
		}
	clobber_written(c, ci, o, a64_family);
	/* No access information: the first register operand of a non-store. */
	if (!o->clobber && a->op_count && op[0].type == ARM64_OP_REG &&
	    !cs_insn_group(c->cs, ci, CS_GRP_JUMP)) {
		unsigned f = a64_family(op[0].reg);
		if (f < 64)
			o->clobber |= BIT(f);
	}
	forget(rs, o->clobber);
}

void dis_lift(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *out)
{
	memset(out, 0, sizeof *out);
	out->addr = ci->address;
	out->src_reg = DIS_NOREG;
	if (!ci->detail)
		return;
	if (c->arch == DIS_A64)
		lift_a64(c, ci, rs, out);
	else
		lift_x86(c, ci, rs, out);
}
