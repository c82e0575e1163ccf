/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The 64-bit PowerPC decoders: ppc64le (little-endian, ELFv2 ABI) and
 * ppc64 (big-endian, ELFv1), one instruction set and one lifter.  Calls
 * of imports are `bl stub` followed by a nop the linker turns into
 * `ld r2, 24(r1)` (ELFv1: 40(r1)); the stubs are linker-made code in
 * .text (not in a PLT section: ppc64's .plt holds the slots, ELFv1's each
 * a function descriptor), `std r2, 24(r1)` (40), then `ld r12, off(r2)`
 * or `addis r12, r2, hi; ld r12, lo(r12)` (ELFv1: r11 for the high part),
 * `mtctr r12`, ELFv1's `ld r2` of the callee's TOC pointer from the
 * descriptor, `bctr`, the slot TOC-relative (r2, the TOC pointer: .got +
 * 0x8000).  ELFv2 calls a local function at its local entry, 8 bytes past
 * its start when it sets up r2 itself; ELFv1 at its code address, which
 * its symbol does not give (a function symbol names its descriptor in
 * .opd: code address, TOC pointer, environment), so .opd gives the
 * function starts.  Strings are TOC-relative too (`addis; addi`).
 * Arguments in r3-r10, the result in r3, r0 and r3-r12, ctr and lr
 * clobbered by a call, r1 the stack pointer, r31 the frame pointer at
 * -O0; the caller's parameter save area at 32(r1) (ELFv1: 48).  capstone 4
 * gives PowerPC no register accesses: the first register operand is the
 * one written (but by stores, compares, moves to special registers and
 * traps).
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disasm_int.h"
#include "distsec/elfview.h"
#include "distsec/util.h"

#define R_SP 1
#define R_TOC 2
#define R_FP 31
#define R_CTR 33
#define R_LR 34
#define TOC_BIAS 0x8000     /* the TOC pointer is the GOT's start + 32 KiB */
#define CALL_CLOBBER (DIS_BIT(0) | (DIS_BIT(13) - DIS_BIT(3)) | DIS_BIT(R_CTR) | DIS_BIT(R_LR))

/* instruction words (big-endian bit numbering: opcode in the top 6 bits) */
#define OP(w) ((w) >> 26)
#define RT(w) (((w) >> 21) & 31)
#define RA(w) (((w) >> 16) & 31)
#define STD_R2_24_R1 0xf8410018u   /* ELFv2's TOC save */
#define STD_R2_40_R1 0xf8410028u   /* ELFv1's */
#define MTCTR_R12 0x7d8903a6u
#define BCTR 0x4e800420u
#define CMPLDI_R2_0 0x28220000u  /* cmpldi r2, 0 */
#define BNECTR 0x4ce20420u       /* bnectr (bcctr 7, 2) */
#define OPD_ENTRY 24               /* an ELFv1 function descriptor */
#define OPD_MAX (64u << 20)

static unsigned fam(unsigned r)
{
	if (r >= PPC_REG_R0 && r <= PPC_REG_R31)
		return r - PPC_REG_R0;
	return r == PPC_REG_CTR ? R_CTR : r == PPC_REG_LR ? R_LR : DIS_NOREG;
}

static bool starts(const char *m, const char *p)
{
	return strncmp(m, p, strlen(p)) == 0;
}

static bool is(const char *m, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(m, *set) == 0)
			return true;
	return false;
}

static const char *const moves[] = { "mr", "clrldi", "extsw", "extsh", "extsb", "clrlwi",
	"rldicl", "rldic", NULL };
static const char *const loads[] = { "ld", "lwz", "lwa", "lhz", "lha", "lbz", NULL };
static const char *const stores[] = { "std", "stw", "sth", "stb", NULL };

static unsigned mem_size(const char *m)
{
	char k = m[0] == 'l' ? m[1] : m[2];
	return k == 'd' ? 8 : k == 'w' ? 4 : k == 'h' ? 2 : 1;
}

static bool stack_mem(const ppc_op_mem *m)
{
	unsigned b = fam(m->base);
	return b == R_SP || b == R_FP;
}

/* rs->origin 0: a constant (li, lis), else where an address was built */
static uint64_t mem_addr(const struct dis_regs *rs, const ppc_op_mem *m)
{
	unsigned b = fam(m->base);
	if (b >= 32 || !(rs->known & ~rs->loaded & DIS_BIT(b)))
		return 0;
	return rs->val[b] + (uint64_t)(int64_t)m->disp;
}

/* A local function is called at its local entry: its start, 8 bytes on. */
static uint64_t local_start(const struct ds_code *c, uint64_t t)
{
	size_t fi = dis_func_of(c, t);
	return fi != (size_t)-1 && c->starts[fi] != t && c->starts[fi] == t - 8 ? t - 8 : t;
}

/* The CR field an operand names (cr7), 0 for cr0, or -1. */
static int cr_field(const cs_ppc_op *op)
{
	if (op->type != PPC_OP_REG || op->reg < PPC_REG_CR0 || op->reg > PPC_REG_CR7)
		return -1;
	return op->reg - PPC_REG_CR0;
}

/* `cmpwi cr7, r9, 0` (cmpdi; cmplwi and cmpldi unsigned; cr0 when not
 * named): what a conditional branch right after it on that field tests. */
static void note_compare(const cs_insn *ci, struct dis_regs *rs)
{
	const cs_ppc *p = &ci->detail->ppc;
	const char *m = ci->mnemonic;
	bool logical = strcmp(m, "cmplwi") == 0 || strcmp(m, "cmpldi") == 0;
	if (!logical && strcmp(m, "cmpwi") != 0 && strcmp(m, "cmpdi") != 0)
		return;
	unsigned k = p->op_count == 3 ? 1 : 0;
	int cr = k ? cr_field(&p->operands[0]) : 0;
	if (cr < 0 || p->op_count != k + 2 || p->operands[k].type != PPC_OP_REG ||
	    p->operands[k + 1].type != PPC_OP_IMM || fam(p->operands[k].reg) >= 32)
		return;
	rs->flag_ok = true;
	rs->flag_loc = (struct dis_loc){ L_REG, (uint8_t)fam(p->operands[k].reg), 0 };
	rs->flag_imm = p->operands[k + 1].imm;
	rs->flag_unit = (uint8_t)cr;
	rs->flag_unsigned = logical;
}

/* A conditional branch's relation on the field the compare before it set. */
static uint8_t branch_rel(const cs_ppc *p, const struct dis_regs *rs)
{
	int cr = p->op_count == 2 ? cr_field(&p->operands[0]) : p->op_count == 1 ? 0 : -1;
	if (cr < 0 || (unsigned)cr != rs->flag_unit)
		return CC_NONE;
	switch (p->bc) {
	case PPC_BC_EQ: return CC_EQ;
	case PPC_BC_NE: return CC_NE;
	case PPC_BC_LT: return rs->flag_unsigned ? CC_NONE : CC_LT;
	case PPC_BC_GE: return rs->flag_unsigned ? CC_NONE : CC_GE;
	case PPC_BC_GT: return rs->flag_unsigned ? CC_NONE : CC_GT;
	case PPC_BC_LE: return rs->flag_unsigned ? CC_NONE : CC_LE;
	default: return CC_NONE;
	}
}

static bool branch(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o,
                   bool flags)
{
	const cs_ppc *p = &ci->detail->ppc;
	const char *m = ci->mnemonic;
	if (m[0] != 'b' && !starts(m, "trap") && !starts(m, "tw") && !starts(m, "td"))
		return false;
	unsigned last = p->op_count ? p->op_count - 1u : 0;
	bool imm = p->op_count && p->operands[last].type == PPC_OP_IMM;
	uint64_t t = imm ? (uint64_t)p->operands[last].imm : 0;
	bool ctr_slot = (rs->known & rs->loaded & DIS_BIT(R_CTR)) != 0;
	if (strcmp(m, "trap") == 0) {
		o->kind = K_RET;
	} else if (m[0] == 't') {
		return false;   /* a conditional trap: the path goes on */
	} else if (strcmp(m, "bl") == 0 && imm) {
		o->kind = K_CALL;
		o->callee = dis_slot_name(c->stubs, c->nstubs, t);
		o->target = o->callee ? t : local_start(c, t);
	} else if (strcmp(m, "bctrl") == 0) {
		dis_via_slot(c, ctr_slot ? rs->val[R_CTR] : 0, ctr_slot ? rs->origin[R_CTR] : 0, o,
		             K_CALL, K_ICALL);
	} else if (strcmp(m, "blrl") == 0 || starts(m, "bcl")) {
		/* bcl 20, 31, .+4 reads the pc into lr */
		o->kind = strcmp(m, "blrl") == 0 ? K_ICALL : K_OTHER;
		o->clobber = DIS_BIT(R_LR);
		dis_forget(rs, o->clobber);
		return true;
	} else if (strcmp(m, "b") == 0 && imm) {
		o->kind = K_JMP;
		o->callee = dis_slot_name(c->stubs, c->nstubs, t);
		o->target = o->callee ? t : local_start(c, t);
		dis_regs_reset(rs);
		return true;
	} else if (strcmp(m, "blr") == 0) {
		o->kind = K_RET;
		dis_regs_reset(rs);
		return true;
	} else if (strcmp(m, "bctr") == 0) {
		dis_via_slot(c, ctr_slot ? rs->val[R_CTR] : 0, ctr_slot ? rs->origin[R_CTR] : 0, o,
		             K_JMP, K_IJMP);
		dis_regs_reset(rs);
		return true;
	} else if (imm) {
		o->kind = K_CJMP;   /* beq, bne, bdnz, bc...: conditional */
		o->target = t;
		if (starts(m, "bd"))
			o->clobber = DIS_BIT(R_CTR);
		else
			dis_cond_from_flags(rs, flags, flags ? branch_rel(p, rs) : CC_NONE, o);
		return true;
	} else {
		/* beqlr: a conditional return; beqctr: a conditional jump anywhere */
		size_t n = strlen(m);
		o->kind = n > 2 && strcmp(m + n - 2, "lr") == 0 ? K_CJMP : K_IJMP;
		return true;
	}
	o->clobber = CALL_CLOBBER;
	dis_forget(rs, o->clobber);
	return true;
}

/* mtctr/mtlr rS: the special register gets what rS held. */
static bool move_to_special(const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	const cs_ppc *p = &ci->detail->ppc;
	const char *m = ci->mnemonic;
	unsigned d = strcmp(m, "mtctr") == 0 ? R_CTR : strcmp(m, "mtlr") == 0 ? R_LR : DIS_NOREG;
	if (d == DIS_NOREG || p->op_count != 1 || p->operands[0].type != PPC_OP_REG)
		return false;
	unsigned s = fam(p->operands[0].reg);
	o->dst = (struct dis_loc){ L_REG, (uint8_t)d, 0 };
	o->src = s < 32 ? S_REG : S_UNKNOWN;
	o->src_reg = (uint8_t)s;
	o->uses |= s < 32 ? DIS_BIT(s) : 0;
	bool k = s < 32 && (rs->known & DIS_BIT(s));
	uint64_t val = k ? rs->val[s] : 0, origin = k ? rs->origin[s] : 0;
	bool loaded = k && (rs->loaded & DIS_BIT(s));
	dis_forget(rs, DIS_BIT(d));
	if (k)
		dis_set_known(rs, d, val, origin, loaded);
	return true;
}

static bool store(const cs_insn *ci, const struct dis_regs *rs, struct dis_insn *o)
{
	const cs_ppc *p = &ci->detail->ppc;
	const char *m = ci->mnemonic;
	bool update = m[strlen(m) - 1] == 'u';
	char base[8];
	snprintf(base, sizeof base, "%.*s", (int)(strlen(m) - update), m);
	if (!is(base, stores) || p->op_count != 2 || p->operands[0].type != PPC_OP_REG ||
	    p->operands[1].type != PPC_OP_MEM)
		return false;
	const ppc_op_mem *mem = &p->operands[1].mem;
	unsigned s = fam(p->operands[0].reg), b = fam(mem->base);
	o->src = s < 32 ? S_REG : S_UNKNOWN;
	o->src_reg = (uint8_t)s;
	o->uses |= (s < 32 ? DIS_BIT(s) : 0);
	if (update) {   /* stdu r1, -N(r1): the frame */
		if (b == R_SP)
			o->sp_adj = mem->disp;
		o->clobber |= b < 32 ? DIS_BIT(b) : 0;
		return true;
	}
	if (stack_mem(mem)) {
		o->dst = (struct dis_loc){ L_STACK, (uint8_t)b, mem->disp };
	} else if ((o->ref = mem_addr(rs, mem)) != 0) {
		o->ref_kind = R_WRITE;
		o->ref_size = (uint8_t)mem_size(m);
		o->ref_move = true;
	} else {
		o->ref_kind = R_WRITE_VIA;
		o->ref_base = (uint8_t)b;
		o->ref_size = (uint8_t)mem_size(m);
		o->uses |= b < 32 ? DIS_BIT(b) : 0;
	}
	return true;
}

/* The one register an instruction defines, and from what. */
static bool define(const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	const cs_ppc *p = &ci->detail->ppc;
	const cs_ppc_op *op = p->operands;
	const char *m = ci->mnemonic;
	if (p->op_count < 2 || op[0].type != PPC_OP_REG || fam(op[0].reg) >= 32)
		return false;
	unsigned d = fam(op[0].reg);
	uint64_t known = rs->known & ~rs->loaded;
	uint64_t sval = 0, sorigin = 0;
	unsigned s = op[1].type == PPC_OP_REG ? fam(op[1].reg) : DIS_NOREG;
	bool sk = s < 32 && (known & DIS_BIT(s));
	if (sk) {
		sval = rs->val[s];
		sorigin = rs->origin[s];
	}
	if (s < 32)
		o->uses |= DIS_BIT(s);
	/* lwz r3, 0(r3): the address before r3 is redefined */
	unsigned b = op[1].type == PPC_OP_MEM ? fam(op[1].mem.base) : DIS_NOREG;
	uint64_t a = op[1].type == PPC_OP_MEM ? mem_addr(rs, &op[1].mem) : 0;
	uint64_t aorigin = a ? rs->origin[b] : 0;
	o->dst = (struct dis_loc){ L_REG, (uint8_t)d, 0 };
	dis_forget(rs, DIS_BIT(d));
	/* capstone 4 gives the 16-bit immediates as encoded: signed for li,
	 * lis, addi, addis, unsigned for ori, oris */
	if ((strcmp(m, "li") == 0 || strcmp(m, "lis") == 0) && op[1].type == PPC_OP_IMM) {
		int64_t v = (int16_t)(uint16_t)op[1].imm * (strcmp(m, "lis") == 0 ? 65536 : 1);
		o->src = S_IMM;
		o->value = v;
		dis_set_known(rs, d, (uint64_t)v, 0, false);
		return true;
	}
	if (is(m, moves) && s < 32 && (p->op_count == 2 || (op[2].type == PPC_OP_IMM &&
	                                                    (m[0] == 'c' || op[2].imm == 0)))) {
		/* mr; clrldi r3, r3, 32 (rldic(l) rA, rS, 0, 32) and the sign
		 * extensions keep the origin */
		o->src = S_REG;
		o->src_reg = (uint8_t)s;
		if (sk && strcmp(m, "mr") == 0)
			dis_set_known(rs, d, sval, sorigin, false);
		return true;
	}
	if (strcmp(m, "addi") == 0 && p->op_count == 3 && op[2].type == PPC_OP_IMM && !sk &&
	    (s == R_SP || s == R_FP) && d != R_SP) {
		o->src = S_SLOT;   /* addi r5, r1, 40: a stack slot's address */
		o->src_reg = (uint8_t)s;
		o->src_disp = (int16_t)(uint16_t)op[2].imm;
		return true;
	}
	if ((strcmp(m, "addi") == 0 || strcmp(m, "addis") == 0 || strcmp(m, "ori") == 0 ||
	     strcmp(m, "oris") == 0) && p->op_count == 3 && op[2].type == PPC_OP_IMM && sk) {
		uint64_t imm = (uint64_t)op[2].imm & 0xffff, simm = (uint64_t)(int64_t)(int16_t)imm;
		uint64_t v = strcmp(m, "addi") == 0 ? sval + simm
		           : strcmp(m, "addis") == 0 ? sval + simm * 65536
		           : strcmp(m, "ori") == 0 ? sval | imm : sval | imm << 16;
		dis_def_value(rs, o, d, v, sorigin);
		return true;
	}
	if (is(m, loads) && op[1].type == PPC_OP_MEM) {
		if (stack_mem(&op[1].mem)) {
			o->src = S_STACK;
			o->src_reg = (uint8_t)fam(op[1].mem.base);
			o->src_disp = op[1].mem.disp;
			return true;
		}
		o->src = S_LOAD;
		o->src_reg = b < 32 ? (uint8_t)b : DIS_NOREG;
		o->uses |= a || b >= 32 ? 0 : DIS_BIT(b);
		if (a)
			dis_def_load(rs, o, d, a, mem_size(m), aorigin ? aorigin : ci->address);
		return true;
	}
	o->dst.kind = L_NONE;
	return false;
}

/* Does the instruction write its first (register) operand? */
static bool writes_first(const char *m)
{
	return !(starts(m, "st") || starts(m, "cmp") || starts(m, "mt") || starts(m, "dcb") ||
	         starts(m, "icb") || starts(m, "tw") || starts(m, "td") || strcmp(m, "nop") == 0 ||
	         strstr(m, "sync") || strcmp(m, "eieio") == 0);
}

static void lift(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	const cs_ppc *p = &ci->detail->ppc;
	const char *m = ci->mnemonic;
	/* r2 holds the TOC pointer wherever code of this file runs */
	if (c->toc)
		dis_set_known(rs, R_TOC, c->toc, 1, false);
	bool flags = rs->flag_ok;
	rs->flag_ok = false;
	if (branch(c, ci, rs, o, flags) || move_to_special(ci, rs, o) || store(ci, rs, o))
		return;
	note_compare(ci, rs);
	if (define(ci, rs, o)) {
		if (o->dst.reg == R_SP)
			dis_def_sp(o, strcmp(m, "addi") == 0 && p->op_count == 3 &&
			              p->operands[1].type == PPC_OP_REG && fam(p->operands[1].reg) == R_SP,
			           p->operands[2].imm);
		return;
	}
	for (unsigned k = 0; k < p->op_count; k++) {
		const cs_ppc_op *op = &p->operands[k];
		unsigned f = op->type == PPC_OP_REG ? fam(op->reg)
		           : op->type == PPC_OP_MEM ? fam(op->mem.base) : DIS_NOREG;
		if (f < 64 && (k || op->type == PPC_OP_MEM || !writes_first(m)))
			o->uses |= DIS_BIT(f);
	}
	if (p->op_count && p->operands[0].type == PPC_OP_REG && writes_first(m)) {
		unsigned d = fam(p->operands[0].reg);
		bool alone = p->op_count > 1;   /* srawi r3, r3, 1 */
		for (unsigned k = 1; k < p->op_count && alone; k++)
			alone = p->operands[k].type == PPC_OP_IMM ||
			        (p->operands[k].type == PPC_OP_REG && fam(p->operands[k].reg) == d);
		dis_def_first(c, o, d, alone);
	}
	dis_forget(rs, o->clobber);
}

static uint32_t word(const struct ds_code *c, const unsigned char *p)
{
	return c->v->data == ELFDATA2MSB ? dis_be32(p) : dis_le32(p);
}

static int64_t simm16(uint32_t w)
{
	return (int16_t)(w & 0xffff);
}

/* TOC-relative `addis rX, r2, hi` then a `addi`/`ld` off rX within
 * DIS_PAIR_SPAN bytes: the address they build; *ld whether it is loaded.
 * Only a candidate: the lifter follows rX itself. */
static uint64_t toc_pair(const struct ds_code *c, const unsigned char *b, size_t len, size_t i,
                         bool *ld)
{
	uint32_t w = word(c, b + i);
	uint64_t hi = c->toc + (uint64_t)(simm16(w) * 65536);
	unsigned rx = RT(w);
	for (size_t j = i + 4; j + 4 <= len && j <= i + DIS_PAIR_SPAN; j += 4) {
		uint32_t y = word(c, b + j);
		if (RA(y) != rx)
			continue;
		if (OP(y) == 14 || OP(y) == 58) {   /* addi, ld */
			*ld = OP(y) == 58;
			return hi + (uint64_t)(OP(y) == 58 ? simm16(y & ~3u) : simm16(y));
		}
	}
	return 0;
}

/* bl/b to a stub (or a local function's local entry); TOC-relative
 * address building naming a wanted slot (a call) or string. */
static void scan_calls(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b,
                       size_t len, uint64_t addr, struct dis_cands *k)
{
	for (size_t i = 0; i + 4 <= len; i += 4) {
		uint32_t x = word(c, b + i);
		uint64_t at = addr + i;
		if (OP(x) == 18 && !(x & 2)) {               /* b, bl */
			uint64_t t = at + (uint64_t)(((int64_t)(int32_t)(x << 6) >> 6) & ~3ll);
			if (dis_in_list(w->stubs, w->nstubs, t) || dis_in_list(w->stubs, w->nstubs, t - 8))
				dis_cand_call(c, k, at);
			continue;
		}
		bool ld = false;
		uint64_t a = 0;
		if (c->toc && OP(x) == 15 && RA(x) == R_TOC)   /* addis rX, r2, hi */
			a = toc_pair(c, b, len, i, &ld);
		else if (c->toc && (OP(x) == 14 || OP(x) == 58) && RA(x) == R_TOC) {
			ld = OP(x) == 58;
			a = c->toc + (uint64_t)(ld ? simm16(x & ~3u) : simm16(x));
		}
		if (!a)
			continue;
		if (ld && dis_in_list(w->slots, w->nslots, a))
			dis_cand_call(c, k, at);
		else if (!ld && w->nrefs && dis_in_refs(w, a))
			dis_cand_ref(c, k, at);
	}
}

/* An access to [mem_lo, mem_hi): a TOC-relative high part within 32 KiB
 * of it, or a D-form access off r2 itself. */
static void scan_mem(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b,
                     size_t len, uint64_t addr, struct dis_cands *k)
{
	if (!c->toc)
		return;
	for (size_t i = 0; i + 4 <= len; i += 4) {
		uint32_t x = word(c, b + i);
		if (RA(x) != R_TOC || OP(x) < 14)
			continue;
		uint64_t a = c->toc + (uint64_t)(OP(x) == 15 ? simm16(x) * 65536 : simm16(x));
		if (OP(x) == 15 ? a + 0x8000 > w->mem_lo && a < w->mem_hi + 0x8000
		                : a + 8 > w->mem_lo && a < w->mem_hi)
			dis_cand_mem(c, k, addr + i, a);
	}
}

/* ELFv2 global entry points: `addis r2, r12, hi; addi r2, r2, lo`, the
 * TOC set up from the function's own address in r12, which the ABI gives
 * only on entry.  GCC on ppc64el emits no unwind tables for C unless asked,
 * so a stripped C program (xringd) has no other function boundaries. */
static void entries_in(struct ds_code *c, const unsigned char *b, size_t len, uint64_t addr,
                       void *cap)
{
	for (size_t i = 0; i + 8 <= len; i += 4)
		if ((word(c, b + i) & 0xffff0000u) == 0x3c4c0000u &&      /* addis r2, r12 */
		    (word(c, b + i + 4) & 0xffff0000u) == 0x38420000u)    /* addi r2, r2 */
			dis_add_start(c, addr + i, cap);   /* twice in an overlap: made unique */
}

static void global_entries(struct ds_code *c, size_t *cap)
{
	(void)dis_each_chunk(c, entries_in, cap);   /* a failed read: the starts found so far */
}

/* The TOC pointer, from the GOT's address; the function starts: ELFv2's
 * global entry points, ELFv1's descriptors in .opd. */
static void toc_of(struct ds_code *c, size_t *cap)
{
	c->toc = c->gotbase ? c->gotbase + TOC_BIAS : 0;
	global_entries(c, cap);
	size_t shstrndx = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	if (elf_getshdrstrndx(c->v->elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(c->v->elf, scn)) != NULL) {
		const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(c->v->elf, shstrndx, sh.sh_name)
		                                           : NULL;
		if (!name || strcmp(name, ".opd") != 0 || sh.sh_type != SHT_PROGBITS ||
		    sh.sh_size > OPD_MAX)
			continue;
		unsigned char *opd = ds_xmalloc(sh.sh_size + 1);
		if (dis_read_at(c, sh.sh_offset, opd, sh.sh_size))
			for (size_t i = 0; i + OPD_ENTRY <= sh.sh_size; i += OPD_ENTRY)
				dis_add_start(c, dis_word(c, opd + i), cap);
		free(opd);
	}
}

/* At code + j: `ld r12, d(r2)`, or `addis rX, r2, hi; ld r12, lo(rX)`
 * (rX r12, or r11 in ELFv1's stubs): the slot; *j past it. */
static uint64_t stub_slot(const struct ds_code *c, const unsigned char *code, size_t size,
                          size_t *j)
{
	uint32_t x = word(c, code + *j);
	if ((x & 0xffff0000u) == 0xe9820000u) {                 /* ld r12, d(r2) */
		*j += 4;
		return c->toc + (uint64_t)simm16(x & ~3u);
	}
	if (OP(x) != 15 || RA(x) != R_TOC || (RT(x) != 11 && RT(x) != 12) || *j + 8 > size)
		return 0;
	uint32_t y = word(c, code + *j + 4);                    /* addis rX, r2; ld r12, lo(rX) */
	if (OP(y) != 58 || RT(y) != 12 || RA(y) != RT(x) || (y & 3))
		return 0;
	*j += 8;
	return c->toc + (uint64_t)(simm16(x) * 65536) + (uint64_t)simm16(y);
}

/* The linker's PLT call stubs, wherever in the code they are. */
static void find_call_stubs(struct ds_code *c, size_t *cap)
{
	for (size_t s = 0; c->toc && s < c->nspans; s++) {
		const struct dis_span *sp = &c->spans[s];
		unsigned char *code = NULL;
		if (sp->size > (64u << 20) || !(code = ds_xmalloc(sp->size ? sp->size : 1)) ||
		    !dis_read_at(c, sp->off, code, sp->size)) {
			free(code);
			continue;
		}
		for (size_t i = 0; i + 16 <= sp->size; i += 4) {
			size_t j = i;
			uint32_t save = word(c, code + j);
			if (save == STD_R2_24_R1 || save == STD_R2_40_R1)
				j += 4;
			uint64_t slot = stub_slot(c, code, sp->size, &j);
			if (!slot || j + 8 > sp->size || word(c, code + j) != MTCTR_R12)
				continue;
			j += 4;
			uint32_t x = word(c, code + j);
			/* ELFv1: ld r2, d(r2|r11), the callee's TOC pointer */
			if (OP(x) == 58 && RT(x) == R_TOC && (RA(x) == R_TOC || RA(x) == 11) &&
			    j + 8 <= sp->size)
				j += 4;
			/* GNU ld's lazy (thread-safe) ELFv1 stub tests the TOC
			 * pointer it loaded: cmpldi r2, 0; bnectr; then b to the
			 * resolver (a shared library linked without -z now) */
			if (word(c, code + j) == CMPLDI_R2_0 && j + 8 <= sp->size &&
			    word(c, code + j + 4) == BNECTR)
				j += 4;
			else if (word(c, code + j) != BCTR)
				continue;
			const char *name = dis_slot_name(c->slots, c->nslots, slot);
			if (name)
				dis_add_stub(c, sp->addr + i, name, cap);
			i = j;
		}
		free(code);
	}
}

/* arch/powerpc/kernel/syscalls/syscall.tbl (asm/unistd_64.h) */
#define NR_SETGROUPS 81
static const struct dis_syscall syscalls[] = { { NR_SETGROUPS, "setgroups" }, { 0, NULL } };

#define PPC64_COMMON \
	.machine = EM_PPC64, .elfclass = ELFCLASS64, .cs = CS_ARCH_PPC, .unit = 4, .word = 8, \
	.sp = R_SP, .fp = R_FP, .ret = 3, .nargs = 8, .args = { 3, 4, 5, 6, 7, 8, 9, 10 }, \
	.sp_tracked = false, .caller_saved = CALL_CLOBBER, .rel_relative = R_PPC64_RELATIVE, \
	.rel_pointer = { R_PPC64_ADDR64, R_PPC64_GLOB_DAT, R_PPC64_RELATIVE }, \
	.lift = lift, .scan_calls = scan_calls, .scan_mem = scan_mem, \
	.starts = toc_of, .stubs = find_call_stubs, .syscalls = syscalls

/* nop; blr */
static const uint8_t warm_le[] = { 0x00, 0x00, 0x00, 0x60, 0x20, 0x00, 0x80, 0x4e };
static const uint8_t warm_be[] = { 0x60, 0x00, 0x00, 0x00, 0x4e, 0x80, 0x00, 0x20 };

const struct dis_arch dis_ppc64le = {
	PPC64_COMMON,
	.name = "ppc64le", .data = ELFDATA2LSB, .mode = CS_MODE_64 | CS_MODE_LITTLE_ENDIAN,
	.stack_args = 32, .warm = warm_le, .nwarm = sizeof warm_le,
	/* glibc's start.S: r8 points to {0, main, init, fini} (ELFv1's
	 * ppc64 holds a function descriptor there: not read) */
	.main_arg = 5, .main_word = 1,
};

const struct dis_arch dis_ppc64 = {
	PPC64_COMMON,
	.name = "ppc64", .data = ELFDATA2MSB, .mode = CS_MODE_64 | CS_MODE_BIG_ENDIAN,
	.stack_args = 48, .warm = warm_be, .nwarm = sizeof warm_be,
};
