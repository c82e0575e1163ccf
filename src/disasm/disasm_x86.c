/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The x86 decoders: x86-64 (x32 included: the same instruction set in
 * ELFCLASS32 files) and i386, one capstone architecture in two modes.
 * The lifter, the byte patterns of calls (`e8/e9 rel32` to a stub,
 * `ff 15/25 disp32` through a slot, i386's `ff 93/a3` off the GOT pointer)
 * and of references to an address, the SysV and cdecl ABIs.
 */
#include <elf.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "disasm_int.h"
#include "distsec/elfview.h"

static bool is32(const struct ds_code *c)
{
	return c->arch == &dis_i386;
}


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

/* An access to a stack slot: off the stack pointer, or off the frame
 * pointer in a function that sets one up (x86_enter); elsewhere %rbp is
 * a register like the others (clang and gcc at -O2 keep a record's
 * pointer in it: `mov 0x48(%ebp), %edi` reads a member, not a slot). */
static bool x86_stack_mem(const struct ds_code *c, const x86_op_mem *m)
{
	unsigned b = x86_family(m->base);
	return (b == X86_SP || (b == X86_BP && c->bp_frame)) && m->index == X86_REG_INVALID;
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
		return (uint64_t)m->disp & (is32(c) ? 0xffffffffu : ~0ull);
	unsigned b = x86_family(m->base);
	if (!is32(c) || b > 15)
		return 0;
	if (rs->known & DIS_BIT(b))
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
		if (x86_stack_mem(c, &op->mem)) {
			o->src = S_STACK;
			o->src_reg = (uint8_t)x86_family(op->mem.base);
			o->src_disp = (int32_t)op->mem.disp;
		} else {
			o->src = S_LOAD;
			o->value = (int64_t)a;
			/* the base a parameter's pointed-to value is read through */
			if (op->mem.index == X86_REG_INVALID && x86_family(op->mem.base) < 16) {
				o->src_reg = (uint8_t)x86_family(op->mem.base);
				o->src_disp = (int32_t)op->mem.disp;
			}
		}
	}
}

static void x86_dst(const struct ds_code *c, const cs_x86_op *op, struct dis_insn *o)
{
	if (op->type == X86_OP_REG) {
		unsigned f = x86_family(op->reg);
		if (f != DIS_NOREG)
			o->dst = (struct dis_loc){ L_REG, (uint8_t)f, 0 };
	} else if (op->type == X86_OP_MEM && x86_stack_mem(c, &op->mem)) {
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
	dis_via_slot(c, a, ci->address, o, direct, indirect);
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
	int32_t word = !is32(c) ? 8 : 4;
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
			o->uses |= DIS_BIT(f);   /* a destination is not a use */
		if (op->type != X86_OP_MEM || x86_mem_addr(c, rs, ci, &op->mem))
			continue;
		unsigned b = x86_family(op->mem.base), i = x86_family(op->mem.index);
		o->uses |= (b < 64 ? DIS_BIT(b) : 0) | (i < 64 ? DIS_BIT(i) : 0);
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
			o->ref_kind = a ? R_ADDR : x86_stack_mem(c, &base) ? R_NONE : R_ADDR_VIA;
			o->ref_base = (uint8_t)x86_family(op->mem.base);
		} else if (a) {
			o->ref_kind = (op->access & CS_AC_WRITE) ? R_WRITE : R_READ;
			o->ref_size = op->size;
			o->ref_move = ci->id == X86_INS_MOV && k == 0 && x->op_count == 2 &&
			              (op[1].type == X86_OP_REG || op[1].type == X86_OP_IMM);
		} else if (!x86_stack_mem(c, &op->mem)) {
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
			o->ref = (uint64_t)x->operands[k].imm & (is32(c) ? 0xffffffffu : ~0ull);
		}
}

/* `test %eax, %eax` and `cmp $imm, loc` (a register, a stack slot, or
 * a fixed address x86_refs resolved into o's ref: L_MEM): what the
 * conditional jump after it tests. */
static void x86_flags(const struct ds_code *c, const cs_insn *ci, struct dis_regs *rs,
                      const struct dis_insn *o)
{
	const cs_x86 *x = &ci->detail->x86;
	const cs_x86_op *op = x->operands;
	struct dis_insn at = { 0 };
	if (x->op_count != 2)
		return;
	if (ci->id == X86_INS_TEST && (op[0].type != X86_OP_REG || op[1].type != X86_OP_REG ||
	                               op[0].reg != op[1].reg))
		return;
	if (ci->id == X86_INS_CMP && op[1].type != X86_OP_IMM)
		return;
	x86_dst(c, &op[0], &at);
	if (ci->id == X86_INS_CMP && op[0].type == X86_OP_MEM && o->ref_kind == R_READ &&
	    o->ref_size == op[0].size)
		at.dst = (struct dis_loc){ L_MEM, 0, 0 };
	if (at.dst.kind == L_NONE)
		return;
	rs->flag_ok = true;
	rs->flag_back = 1;
	rs->flag_loc = at.dst;
	rs->flag_imm = ci->id == X86_INS_CMP ? op[1].imm : 0;
}

/* The signed relation a jcc takes its branch on, after x86_flags (js and
 * jns read the sign of the value itself only against 0). */
static uint8_t x86_cc(unsigned id, int64_t imm)
{
	switch (id) {
	case X86_INS_JE: return CC_EQ;
	case X86_INS_JNE: return CC_NE;
	case X86_INS_JL: return CC_LT;
	case X86_INS_JGE: return CC_GE;
	case X86_INS_JG: return CC_GT;
	case X86_INS_JLE: return CC_LE;
	case X86_INS_JS: return imm ? CC_NONE : CC_LT;
	case X86_INS_JNS: return imm ? CC_NONE : CC_GE;
	default: return CC_NONE;
	}
}

/* A record's member written (or its address computed, lea) through a
 * register other than the stack pointer (struct dis_insn's mem). */
static void x86_member(const struct ds_code *c, const struct dis_regs *rs, const cs_insn *ci,
                       struct dis_insn *o)
{
	const cs_x86 *x = &ci->detail->x86;
	for (unsigned k = 0; k < x->op_count; k++) {
		const cs_x86_op *op = &x->operands[k];
		if (op->type != X86_OP_MEM)
			continue;
		x86_op_mem base = op->mem;
		base.index = X86_REG_INVALID;
		unsigned b = x86_family(op->mem.base);
		bool lea = ci->id == X86_INS_LEA;
		if (b >= 16 || b == X86_SP || op->mem.segment != X86_REG_INVALID ||
		    x86_mem_addr(c, rs, ci, &base) || (!lea && !(op->access & CS_AC_WRITE)))
			return;
		o->mem = lea ? M_ADDR : M_STORE;
		o->mem_base = (uint8_t)b;
		o->mem_size = lea ? 0 : op->size;
		o->mem_indexed = op->mem.index != X86_REG_INVALID;
		o->mem_disp = (int32_t)op->mem.disp;
		o->ref_move = !lea && ci->id == X86_INS_MOV && k == 0 && x->op_count == 2 &&
		              (op[1].type == X86_OP_REG || op[1].type == X86_OP_IMM);
		return;
	}
}

/* Moves, which write no flag. */
static bool keeps_flags(unsigned id)
{
	return id == X86_INS_MOV || id == X86_INS_MOVABS || id == X86_INS_MOVZX ||
	       id == X86_INS_MOVSX || id == X86_INS_MOVSXD || id == X86_INS_LEA;
}

static void lift_x86(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	x86_refs(c, rs, ci, o);
	x86_member(c, rs, ci, o);
	bool sp_known = x86_sp(c, ci, o);
	bool flags = rs->flag_ok;
	lift_x86_op(c, ci, rs, o);
	/* a move between `cmp $k, global` and its jump leaves the flags as
	 * they were: the jump still tests the global (mafft's `cmpb $0x72,
	 * rnaprediction; mov %fs:..., %rdi; je`) */
	if (flags && rs->flag_loc.kind == L_MEM && rs->flag_back < 4 && keeps_flags(ci->id)) {
		rs->flag_ok = true;
		rs->flag_back++;
	}
	if (!sp_known && ((o->dst.kind == L_REG && o->dst.reg == X86_SP) || (o->clobber & DIS_BIT(X86_SP))))
		o->sp_lost = true;
}

static void lift_x86_op(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	const cs_x86 *x = &ci->detail->x86;
	const cs_x86_op *op = x->operands;
	uint64_t call_next = rs->call_next;
	bool flags = rs->flag_ok;
	rs->call_next = 0;
	rs->flag_ok = false;
	switch (ci->id) {
	case X86_INS_MOV: case X86_INS_MOVABS: case X86_INS_MOVZX:
	case X86_INS_MOVSX: case X86_INS_MOVSXD:
		if (x->op_count != 2)
			break;
		x86_dst(c, &op[0], o);
		x86_src(c, rs, ci, &op[1], o);
		if (o->dst.kind == L_REG)
			dis_forget(rs, DIS_BIT(o->dst.reg));
		return;
	case X86_INS_XCHG: {
		/* GCC at -Os moves a call's result on with the one-byte
		 * `xchg %eax, %edi` (busybox's setgid(getgid())): the other
		 * register is modelled as the move's destination, %eax as only
		 * written (between two other registers: the first operand) */
		if (x->op_count != 2 || op[0].type != X86_OP_REG || op[1].type != X86_OP_REG)
			break;
		unsigned d = x86_family(op[0].reg) == 0 ? 1 : 0;
		x86_dst(c, &op[d], o);
		x86_src(c, rs, ci, &op[1 - d], o);
		if (x86_family(op[1 - d].reg) < 16)
			o->clobber |= DIS_BIT(x86_family(op[1 - d].reg));
		dis_forget(rs, o->clobber | (o->dst.kind == L_REG ? DIS_BIT(o->dst.reg) : 0));
		return;
	}
	case X86_INS_LEA:
		if (x->op_count != 2 || op[1].type != X86_OP_MEM)
			break;
		x86_dst(c, &op[0], o);
		uint64_t a = x86_mem_addr(c, rs, ci, &op[1].mem);
		o->src = a ? S_ADDR : S_UNKNOWN;
		o->value = (int64_t)a;
		if (!a && x86_stack_mem(c, &op[1].mem)) {
			o->src = S_SLOT;
			o->src_reg = (uint8_t)x86_family(op[1].mem.base);
			o->src_disp = (int32_t)op[1].mem.disp;
		}
		if (o->dst.kind == L_REG)
			dis_forget(rs, DIS_BIT(o->dst.reg));
		return;
	case X86_INS_XOR: case X86_INS_SUB:
		if (x->op_count == 2 && op[0].type == X86_OP_REG && op[1].type == X86_OP_REG &&
		    x86_family(op[0].reg) == x86_family(op[1].reg)) {
			x86_dst(c, &op[0], o);
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
			x86_dst(c, &op[0], o);
			o->src = S_IMM;
			o->value = -1;
			return;
		}
		break;
	case X86_INS_ADD:
		/* i386 PIC: `call thunk; add $off, %reg` or `call 1f; 1: pop %reg;
		 * add $off, %reg` makes reg the GOT pointer. */
		if (is32(c) && x->op_count == 2 && op[0].type == X86_OP_REG &&
		    op[1].type == X86_OP_IMM) {
			unsigned f = x86_family(op[0].reg);
			if (f < 16 && call_next)
				dis_set_known(rs, f, call_next + (uint64_t)op[1].imm, ci->address, false);
			else if (f < 16 && (rs->known & DIS_BIT(f)))
				rs->val[f] += (uint64_t)op[1].imm;
			if (f < 16)
				o->clobber |= DIS_BIT(f);
			return;
		}
		break;
	case X86_INS_POP:
		if (is32(c) && op[0].type == X86_OP_REG && call_next) {
			unsigned f = x86_family(op[0].reg);
			o->clobber |= DIS_BIT(f);
			rs->call_next = call_next;   /* the add that follows */
			dis_forget(rs, DIS_BIT(f));
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
		o->clobber = DIS_BIT(0) | DIS_BIT(1) | DIS_BIT(2);
		if (!is32(c))
			o->clobber |= DIS_BIT(6) | DIS_BIT(7) | DIS_BIT(8) | DIS_BIT(9) | DIS_BIT(10) | DIS_BIT(11);
		dis_forget(rs, o->clobber);
		return;
	case X86_INS_JMP:
		if (x->op_count != 1)
			break;
		x86_branch(c, rs, ci, &op[0], o, K_JMP, K_IJMP);
		dis_regs_reset(rs);
		return;
	case X86_INS_CMP: case X86_INS_TEST:
		x86_flags(c, ci, rs, o);
		/* a test of a value kept on the stack (-O0's `cmpl $0,
		 * -0x14(%rbp)`): which slot, for what was tested */
		for (unsigned k = 0; k < x->op_count; k++)
			if (op[k].type == X86_OP_MEM && x86_stack_mem(c, &op[k].mem))
				o->tested = (struct dis_loc){ L_STACK, (uint8_t)x86_family(op[k].mem.base),
				                              (int32_t)op[k].mem.disp };
		break;
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
			dis_cond_from_flags(rs, flags, x86_cc(ci->id, rs->flag_imm), o);
			return;
		}
		break;
	}
	x86_keeps(ci, o);
	dis_clobber_written(c, ci, o, x86_family);
	dis_forget(rs, o->clobber);
}

/* Little-endian 32 bits at p, read inline: the pattern pass calls it for
 * every picked byte of the code. */
static inline uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* a in the sorted v[0..n): the bounds first, inline (most picked bytes
 * name no stub or slot: an immediate, a call of a local function) */
static inline bool in_sorted(const uint64_t *v, size_t n, uint64_t a)
{
	return n && a - v[0] <= v[n - 1] - v[0] && dis_in_list(v, n, a);
}

/* scan_x86 at b[i], a picked opcode (i + 5 <= len: a call or jump rel32
 * may be the code's last 5 bytes; the longer forms are read only where
 * their 6 bytes are there).  Inlined into the
 * loop: a call per picked byte (one in 12 of the code) was half of the
 * pass's instructions. */
static inline __attribute__((always_inline)) void
x86_at(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b, size_t len, size_t i,
       uint64_t addr, bool x64, struct dis_cands *k)
{
	uint64_t at = addr + i;
	if (b[i] == 0xe8 || b[i] == 0xe9) {
		uint64_t t = at + 5 + (uint64_t)(int64_t)(int32_t)le32(b + i + 1);
		if (!x64)
			t &= 0xffffffffu;
		if (in_sorted(w->stubs, w->nstubs, t))
			dis_cand_call(c, k, at);
	} else if (b[i] == 0xff && i + 6 <= len && (b[i + 1] == 0x15 || b[i + 1] == 0x25 ||
	           (!x64 && (b[i + 1] == 0x93 || b[i + 1] == 0xa3)))) {
		uint64_t d = (uint64_t)(int64_t)(int32_t)le32(b + i + 2);
		uint64_t slot = x64 ? at + 6 + d : ((b[i + 1] & 0x80) ? c->gotbase + d : d) & 0xffffffffu;
		if (in_sorted(w->slots, w->nslots, slot))
			dis_cand_call(c, k, at);
	}
	if (!w->nrefs)
		return;
	uint64_t ref = 0;
	if (x64 && b[i] == 0x8d && (b[i + 1] & 0xc7) == 0x05 && i + 6 <= len)
		ref = at + 6 + (uint64_t)(int64_t)(int32_t)le32(b + i + 2);
	else if (!x64 && b[i] == 0x8d && (b[i + 1] & 0xc0) == 0x80 && (b[i + 1] & 7) != 4 &&
	         i + 6 <= len)
		ref = (c->gotbase + (uint64_t)(int64_t)(int32_t)le32(b + i + 2)) & 0xffffffffu;
	else if (w->abs_refs && (b[i] == 0x68 || (b[i] >= 0xb8 && b[i] <= 0xbf)))
		ref = le32(b + i + 1);
	else if (w->abs_refs && b[i] == 0xc7 && i + 6 <= len)
		ref = le32(b + i + 2);
	if (ref && dis_in_refs(w, ref))
		dis_cand_ref(c, k, at);
}

/* x86: call/jmp rel32 to a stub, call/jmp through a slot; references to
 * the wanted strings (lea rip-relative, i386 lea off the GOT, imm32). */
static void scan_x86(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b,
                     size_t len, uint64_t addr, struct dis_cands *k)
{
	bool x64 = !is32(c);
	/* the opcodes looked at; every other byte is skipped */
	unsigned char pick[256] = { 0 };
	/* (no stub wanted: no e8/e9 can name one; no slot: no ff) */
	pick[0xe8] = pick[0xe9] = w->nstubs > 0;
	pick[0xff] = w->nslots > 0;
	if (w->nrefs) {
		pick[0x8d] = 1;
		if (w->abs_refs) {
			pick[0x68] = pick[0xc7] = 1;
			memset(pick + 0xb8, 1, 8);
		}
	}
	size_t i = 0;
#ifdef __SSE2__
	/* 16 bytes compared with each picked opcode at once, then only the
	 * hits visited, in order: the same places as the loop below, without
	 * a branch per byte (most of a /usr scan's pattern pass) */
	__m128i want[16];
	size_t nwant = 0;
	for (unsigned v = 0; v < 256; v++)
		if (pick[v])
			want[nwant++] = _mm_set1_epi8((char)v);
	if (!nwant)
		return;
	for (; i + 16 + 5 <= len; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
		__m128i m = _mm_cmpeq_epi8(x, want[0]);
		for (size_t n = 1; n < nwant; n++)
			m = _mm_or_si128(m, _mm_cmpeq_epi8(x, want[n]));
		for (unsigned bits = (unsigned)_mm_movemask_epi8(m); bits; bits &= bits - 1)
			x86_at(c, w, b, len, i + (size_t)__builtin_ctz(bits), addr, x64, k);
	}
#endif
	for (; i + 5 <= len; i++)
		if (pick[b[i]])
			x86_at(c, w, b, len, i, addr, x64, k);
}

/* x86: every 4 bytes read as a displacement -- rip-relative (the
 * instruction may end up to 4 immediate bytes after it), absolute, or off
 * the i386 GOT pointer -- that names an address in [mem_lo, mem_hi). */
static void scan_x86_mem(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b,
                         size_t len, uint64_t addr, struct dis_cands *k)
{
	bool x64 = !is32(c);
	uint64_t lo = w->mem_lo, span = w->mem_hi - w->mem_lo;
	for (size_t i = 0; i + 4 <= len; i++) {
		uint64_t d = (uint64_t)(int64_t)(int32_t)dis_le32(b + i), at = addr + i;
		uint64_t got = (c->gotbase + d) & 0xffffffffu;
		if (x64 && at + 4 + d + 4 - lo < span + 4)
			dis_cand_mem(c, k, at, at + 4 + d);
		else if (x64 ? w->abs_refs && d - lo < span : (d & 0xffffffffu) - lo < span)
			dis_cand_mem(c, k, at, x64 ? d : d & 0xffffffffu);
		else if (!x64 && c->gotbase && got - lo < span)
			dis_cand_mem(c, k, at, got);
	}
}


/* call rel32 at b: its target (i386's in 32 bits), or 0 */
static uint64_t call_at(const unsigned char *b, size_t avail, uint64_t at)
{
	if (avail < 5 || b[0] != 0xe8)
		return 0;
	return at + 5 + (uint64_t)(int64_t)(int32_t)dis_le32(b + 1);
}

static uint64_t call_at32(const unsigned char *b, size_t avail, uint64_t at)
{
	return call_at(b, avail, at) & 0xffffffffu;
}

/* With too few starts from the symbols and unwind tables (a stripped musl
 * program built without them: Alpine's busybox), the targets of calls.
 * Read at every byte, an e8 may be inside another instruction: a target
 * is a start only when two call sites name it, which a misread displacement
 * does by chance once in billions. */
static void x86_starts(struct ds_code *c, size_t *cap)
{
	if (c->nstarts < DIS_FEW_STARTS)
		dis_starts_from_calls(c, cap, is32(c) ? call_at32 : call_at, 1, 2, NULL);
}

/* add eax, 1; in al, dx; nop; call .+5: capstone's x86 printer builds its
 * tables on first use */
static const uint8_t warm[] = { 0x05, 1, 0, 0, 0, 0xec, 0x90, 0xe8, 0, 0, 0, 0 };

/* rdi rsi rdx rcx r8 r9 are families 7 6 2 1 8 9 (x86_family) */
/* A PLT section's stubs from their bytes, as decoding them would find
 * them: `jmp *slot` (ff 25 disp32: rip-relative on x86-64 and x32,
 * absolute on i386; i386 PIC's ff a3 disp32 off %ebx, the GOT), with a
 * bnd prefix (f2) where -z bndplt put one, and an endbr just before it
 * (.plt.sec) starting the stub too. */
static void plt_x86(struct ds_code *c, const unsigned char *b, size_t len, uint64_t addr,
                    size_t *cap)
{
	bool x64 = !is32(c);
	for (size_t i = 0; i + 6 <= len; i++) {
		if (b[i] != 0xff || (b[i + 1] != 0x25 && (x64 || b[i + 1] != 0xa3)))
			continue;
		uint64_t d = (uint64_t)(int64_t)(int32_t)dis_le32(b + i + 2);
		uint64_t slot = x64 ? addr + i + 6 + d
		              : ((b[i + 1] == 0xa3 ? c->gotbase + d : d) & 0xffffffffu);
		if (c->v->elfclass == ELFCLASS32)
			slot &= 0xffffffffu;
		const char *name = dis_slot_name(c->slots, c->nslots, slot);
		if (!name)
			continue;
		size_t at = i > 0 && b[i - 1] == 0xf2 ? i - 1 : i;
		dis_add_stub(c, addr + at, name, cap);
		if (at >= 4 && b[at - 4] == 0xf3 && b[at - 3] == 0x0f && b[at - 2] == 0x1e &&
		    (b[at - 1] == 0xfa || b[at - 1] == 0xfb))
			dis_add_stub(c, addr + at - 4, name, cap);
		i += 5;
	}
}

/* arch/x86/entry/syscalls/syscall_64.tbl (asm/unistd_64.h); x32's
 * (asm/unistd_x32.h) is the same number with __X32_SYSCALL_BIT set */
#define NR64_SETGROUPS 116
#define X32_SYSCALL_BIT 0x40000000
static const struct dis_syscall syscalls_64[] = {
	{ NR64_SETGROUPS, "setgroups" }, { X32_SYSCALL_BIT | NR64_SETGROUPS, "setgroups" }, { 0, NULL },
};

/* arch/x86/entry/syscalls/syscall_32.tbl (asm/unistd_32.h): setgroups
 * takes 16-bit gids, setgroups32 (glibc's setgroups) 32-bit ones */
#define NR32_SETGROUPS 81
#define NR32_SETGROUPS32 206
static const struct dis_syscall syscalls_32[] = {
	{ NR32_SETGROUPS, "setgroups" }, { NR32_SETGROUPS32, "setgroups" }, { 0, NULL },
};

/* Does the function holding start (being decoded from there) set up a
 * frame pointer first: push %rbp; mov %rsp, %rbp (after an endbr)?  Read
 * from its first bytes, so that a part decoded alone (a jump's target)
 * is read as its function is; true when they cannot be read. */
static void x86_enter(struct ds_code *c, uint64_t start)
{
	static const unsigned char mov64[] = { 0x48, 0x89, 0xe5 }, mov64r[] = { 0x48, 0x8b, 0xec },
		mov32[] = { 0x89, 0xe5 }, mov32r[] = { 0x8b, 0xec };
	size_t fi = dis_func_of(c, start);
	uint64_t fn = fi == (size_t)-1 ? start : c->starts[fi];
	const struct dis_span *sp = dis_span_of(c, fn);
	unsigned char b[8];
	c->bp_frame = true;
	if (!sp || fn - sp->addr + sizeof b > sp->size ||
	    !dis_read_at(c, sp->off + (fn - sp->addr), b, sizeof b))
		return;
	size_t k = b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && (b[3] & 0xfe) == 0xfa ? 4 : 0;
	const unsigned char *m = b + k + 1;
	c->bp_frame = b[k] == 0x55 && (memcmp(m, mov64, 3) == 0 || memcmp(m, mov64r, 3) == 0 ||
	                               memcmp(m, mov32, 2) == 0 || memcmp(m, mov32r, 2) == 0);
}

const struct dis_arch dis_x86_64 = {
	.name = "x86-64", .machine = EM_X86_64, .elfclass = ELFCLASSNONE, .data = ELFDATA2LSB,
	.cs = CS_ARCH_X86, .mode = CS_MODE_64, .unit = 1, .word = 8,
	.sp = X86_SP, .fp = X86_BP, .ret = 0, .nargs = 6, .args = { 7, 6, 2, 1, 8, 9 },
	.stack_args = 8, .sp_tracked = true,
	.caller_saved = DIS_BIT(0) | DIS_BIT(1) | DIS_BIT(2) | DIS_BIT(6) | DIS_BIT(7) |
	                DIS_BIT(8) | DIS_BIT(9) | DIS_BIT(10) | DIS_BIT(11),
	.rel_relative = R_X86_64_RELATIVE,
	.rel_pointer = { R_X86_64_64, R_X86_64_GLOB_DAT, R_X86_64_RELATIVE, R_X86_64_32,
	                 R_X86_64_32S },
	.stub_endbr = true, .warm = warm, .nwarm = sizeof warm, .syscalls = syscalls_64,
	.lift = lift_x86, .scan_calls = scan_x86, .scan_mem = scan_x86_mem, .plt_scan = plt_x86,
	.starts = x86_starts, .enter = x86_enter,
};

/* cdecl: every argument on the stack */
const struct dis_arch dis_i386 = {
	.name = "i386", .machine = EM_386, .elfclass = ELFCLASS32, .data = ELFDATA2LSB,
	.cs = CS_ARCH_X86, .mode = CS_MODE_32, .unit = 1, .word = 4,
	.sp = X86_SP, .fp = X86_BP, .ret = 0, .nargs = 0,
	.stack_args = 4, .sp_tracked = true,
	.caller_saved = DIS_BIT(0) | DIS_BIT(1) | DIS_BIT(2),
	.rel_relative = R_386_RELATIVE,
	.rel_pointer = { R_386_32, R_386_GLOB_DAT, R_386_RELATIVE },
	.stub_endbr = true, .warm = warm, .nwarm = sizeof warm, .syscalls = syscalls_32,
	.lift = lift_x86, .scan_calls = scan_x86, .scan_mem = scan_x86_mem, .plt_scan = plt_x86,
	.starts = x86_starts, .enter = x86_enter,
};
