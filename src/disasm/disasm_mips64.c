/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The mips64el decoder (64-bit MIPS, little-endian, n64 ABI, Debian's
 * mips64el).  Position-independent code calls through the GOT: `ld $t9,
 * off($gp); jalr $t9`, with $gp the GOT's address + 0x7ff0 in every
 * function of the file (its prologue computes it from $t9; a spill and
 * reload keeps it).  There are no relocations for the GOT: the dynamic
 * section splits it (the MIPS ABI supplement, "Global Offset Table"):
 * DT_MIPS_LOCAL_GOTNO entries of local addresses as linked (the loader
 * adds the load bias; `%got_page` entries hold a 64 KiB page that an
 * `daddiu` completes), then one entry per dynamic symbol from
 * DT_MIPS_GOTSYM to DT_MIPS_SYMTABNO, in order.  A local function is
 * called by `bal` or through its local entry.  Each branch has a delay
 * slot, run before the branch takes effect (decode() lifts the two
 * swapped).  n64: arguments in $a0-$a7 ($4-$11), the result in $v0, $at,
 * $v0-$t3, $t8, $t9, $ra, hi and lo clobbered by a call, $sp the stack
 * pointer, $s8 the frame pointer at -O0.  capstone 4 gives MIPS no
 * register accesses: the first register operand is the one written (but
 * by stores, moves to coprocessors, multiplies and traps).  A GOT over 64
 * KiB may be split into several with their own $gp (binutils' multi-GOT):
 * $gp is then not known and calls through the GOT are not named.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "disasm_int.h"
#include "distsec/elfview.h"
#include "distsec/util.h"

#define R_AT 1
#define R_V0 2
#define R_T9 25
#define R_GP 28
#define R_SP 29
#define R_FP 30
#define R_RA 31
#define R_HI 33
#define R_LO 34
#define GP_BIAS 0x7ff0        /* $gp: the GOT's start + 32 KiB - 16 */
#define GOT_ONE (64u << 10)   /* what one $gp reaches */
#define GOT_MAX (1u << 20)    /* GOT entries read */
#define TABLE_MAX (64u << 20)
#define CALL_CLOBBER ((DIS_BIT(16) - DIS_BIT(R_AT)) | DIS_BIT(24) | DIS_BIT(R_T9) | \
                      DIS_BIT(R_RA) | DIS_BIT(R_HI) | DIS_BIT(R_LO))

/* instruction words */
#define OP(w) ((w) >> 26)
#define RS(w) (((w) >> 21) & 31)
#define RT(w) (((w) >> 16) & 31)
#define OP_REGIMM 1
#define OP_JAL 3
#define OP_BEQ 4
#define OP_ADDIU 9
#define OP_DADDIU 25
#define OP_LD 55
#define RT_BGEZAL 17

static unsigned fam(unsigned r)
{
	if (r == MIPS_REG_0)
		return DIS_ZR;
	if (r > MIPS_REG_0 && r <= MIPS_REG_31)
		return r - MIPS_REG_0;
	return r == MIPS_REG_HI ? R_HI : r == MIPS_REG_LO ? R_LO : DIS_NOREG;
}

static bool is(const char *m, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(m, *set) == 0)
			return true;
	return false;
}

static const char *const loads[] = { "ld", "lw", "lwu", "lh", "lhu", "lb", "lbu", NULL };
static const char *const stores[] = { "sd", "sw", "sh", "sb", NULL };
static const char *const other_stores[] = { "sdl", "sdr", "swl", "swr", "sc", "scd", "sdc1",
	"swc1", "sdxc1", "swxc1", "suxc1", NULL };
/* the first register operand is read, not written */
static const char *const reads_first[] = { "mtc1", "dmtc1", "mthc1", "ctc1", "mtc0", "dmtc0",
	"mthi", "mtlo", "mult", "multu", "dmult", "dmultu", "div", "divu", "ddiv", "ddivu",
	"madd", "maddu", "msub", "msubu", "teq", "tne", "tge", "tgeu", "tlt", "tltu", "teqi",
	"tnei", "tgei", "tgeiu", "tlti", "tltiu", "cache", "pref", "sync", "nop", "syscall", NULL };

static unsigned mem_size(const char *m)
{
	char k = m[1];
	return k == 'd' ? 8 : k == 'w' ? 4 : k == 'h' ? 2 : 1;
}

static bool stack_base(unsigned b)
{
	return b == R_SP || b == R_FP;
}

/* The GOT entry at a, its index; false outside the primary GOT. */
static bool got_index(const struct ds_code *c, uint64_t a, size_t *i)
{
	if (!c->ngot_words || a < c->got_addr || (a - c->got_addr) % 8)
		return false;
	*i = (size_t)((a - c->got_addr) / 8);
	return *i < c->ngot_words;
}

/* The address a base register and displacement name, 0 if unknown. */
static uint64_t mem_addr(const struct dis_regs *rs, const mips_op_mem *m)
{
	unsigned b = fam(m->base);
	if (b >= 32 || !(rs->known & ~rs->loaded & DIS_BIT(b)))
		return 0;
	return rs->val[b] + (uint64_t)(int64_t)m->disp;
}

static unsigned last_reg(const cs_mips *p)
{
	return p->op_count && p->operands[p->op_count - 1].type == MIPS_OP_REG
	       ? fam(p->operands[p->op_count - 1].reg) : DIS_NOREG;
}

/* Through a register: a GOT slot it was loaded from, a local address. */
static void via_reg(struct ds_code *c, const struct dis_regs *rs, unsigned r, struct dis_insn *o,
                    enum dis_kind known, enum dis_kind unknown)
{
	bool k = r < 32 && (rs->known & DIS_BIT(r));
	if (k && (rs->loaded & DIS_BIT(r))) {
		dis_via_slot(c, rs->val[r], rs->origin[r], o, known, unknown);
	} else if (k && rs->origin[r] && dis_is_local_code(c, rs->val[r])) {
		o->kind = (uint8_t)known;
		o->target = rs->val[r];
	} else {
		o->kind = (uint8_t)unknown;
	}
}

/* A branch comparing one register with 0 (beqz, bnez, beq/bne with $zero,
 * bgez, bltz, bgtz, blez): its relation.  Not the branch-likely forms,
 * whose delay slot runs on the taken path only. */
static void zero_test(const cs_mips *p, const char *m, unsigned last, struct dis_insn *o)
{
	static const struct { const char *m; uint8_t cc; } rel[] = {
		{ "beqz", CC_EQ }, { "bnez", CC_NE }, { "beq", CC_EQ }, { "bne", CC_NE },
		{ "bgez", CC_GE }, { "bltz", CC_LT }, { "bgtz", CC_GT }, { "blez", CC_LE },
	};
	unsigned r = DIS_NOREG, nregs = 0;
	for (unsigned k = 0; k < last; k++) {
		if (p->operands[k].type != MIPS_OP_REG)
			return;
		unsigned f = fam(p->operands[k].reg);
		nregs++;
		if (f != DIS_ZR)
			r = r == DIS_NOREG ? f : 64;   /* two registers: not against 0 */
	}
	if (r >= 32 || !nregs)
		return;
	for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
		if (strcmp(m, rel[i].m) == 0) {
			o->cc = rel[i].cc;
			o->cc_loc = (struct dis_loc){ L_REG, (uint8_t)r, 0 };
			o->value = 0;
			return;
		}
}

static bool branch(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	const cs_mips *p = &ci->detail->mips;
	const char *m = ci->mnemonic;
	unsigned last = p->op_count ? p->op_count - 1u : 0;
	bool imm = p->op_count && p->operands[last].type == MIPS_OP_IMM;
	uint64_t t = imm ? (uint64_t)p->operands[last].imm : 0;
	if (strcmp(m, "break") == 0 || strcmp(m, "sdbbp") == 0 || strcmp(m, "eret") == 0 ||
	    strcmp(m, "deret") == 0) {
		o->kind = K_RET;
		dis_regs_reset(rs);
		return true;
	}
	if (m[0] != 'b' && m[0] != 'j')
		return false;
	if (strcmp(m, "jalr") == 0 || strcmp(m, "jalr.hb") == 0) {
		via_reg(c, rs, last_reg(p), o, K_CALL, K_ICALL);
	} else if ((strcmp(m, "bal") == 0 || strcmp(m, "jal") == 0 || strcmp(m, "bgezal") == 0 ||
	            strcmp(m, "bltzal") == 0) && imm) {
		o->kind = K_CALL;
		o->callee = dis_slot_name(c->stubs, c->nstubs, t);
		o->target = t;
	} else if (strcmp(m, "jr") == 0 || strcmp(m, "jr.hb") == 0) {
		unsigned r = last_reg(p);
		if (r == R_RA)
			o->kind = K_RET;
		else
			via_reg(c, rs, r, o, K_JMP, K_IJMP);   /* a tail call, a switch */
		dis_regs_reset(rs);
		return true;
	} else if ((strcmp(m, "b") == 0 || strcmp(m, "j") == 0) && imm) {
		o->kind = K_JMP;
		o->callee = dis_slot_name(c->stubs, c->nstubs, t);
		o->target = t;
		dis_regs_reset(rs);
		return true;
	} else if (imm && m[0] == 'b') {
		o->kind = K_CJMP;   /* beq, bnez, bgez, bc1t...: conditional */
		o->target = t;
		/* the registers it compares (`if (gid)`: beqz) */
		for (unsigned k = 0; k < last; k++) {
			unsigned f = p->operands[k].type == MIPS_OP_REG ? fam(p->operands[k].reg) : DIS_NOREG;
			if (f < 64 && f != DIS_ZR)
				o->uses |= DIS_BIT(f);
		}
		zero_test(p, m, last, o);
		return true;
	} else {
		return false;
	}
	o->clobber = CALL_CLOBBER;
	dis_forget(rs, o->clobber);
	return true;
}

/* A store to the stack slot l: of $gp (saved), else of something else. */
static void gp_save(struct ds_code *c, struct dis_loc l, bool gp)
{
	struct dis_loc *free_one = NULL;
	for (unsigned k = 0; k < 2; k++) {
		struct dis_loc *g = &c->gp_saved[k];
		if (g->kind == L_STACK && g->reg == l.reg && g->disp == l.disp) {
			if (!gp)
				g->kind = L_NONE;
			return;
		}
		if (g->kind != L_STACK && !free_one)
			free_one = g;
	}
	if (gp && free_one)
		*free_one = l;
}

static bool gp_reloaded(const struct ds_code *c, unsigned b, int32_t disp)
{
	for (unsigned k = 0; k < 2; k++)
		if (c->gp_saved[k].kind == L_STACK && c->gp_saved[k].reg == b &&
		    c->gp_saved[k].disp == disp)
			return true;
	return false;
}

/* Before a function is decoded: no $gp saved yet. */
static void enter(struct ds_code *c, uint64_t start)
{
	c->gp_saved[0].kind = c->gp_saved[1].kind = L_NONE;
	c->entry = start;
}

static bool store(struct ds_code *c, const cs_insn *ci, const struct dis_regs *rs, struct dis_insn *o)
{
	const cs_mips *p = &ci->detail->mips;
	const char *m = ci->mnemonic;
	bool plain = is(m, stores);
	if ((!plain && !is(m, other_stores)) || p->op_count != 2 || p->operands[1].type != MIPS_OP_MEM)
		return false;
	const mips_op_mem *mem = &p->operands[1].mem;
	unsigned s = p->operands[0].type == MIPS_OP_REG ? fam(p->operands[0].reg) : DIS_NOREG;
	unsigned b = fam(mem->base);
	bool gpr = plain && s <= DIS_ZR;
	o->src = !gpr ? S_UNKNOWN : s == DIS_ZR ? S_IMM : S_REG;
	o->src_reg = gpr && s < 32 ? (uint8_t)s : DIS_NOREG;
	o->uses |= gpr && s < 32 ? DIS_BIT(s) : 0;
	uint64_t a = mem_addr(rs, mem);
	if (plain && stack_base(b)) {
		o->dst = (struct dis_loc){ L_STACK, (uint8_t)b, mem->disp };
		gp_save(c, o->dst, s == R_GP && mem_size(m) == 8);
	} else if (a) {
		o->ref_kind = R_WRITE;
		o->ref = a;
		o->ref_size = plain ? (uint8_t)mem_size(m) : 0;
		o->ref_move = gpr;
	} else if (!stack_base(b)) {
		o->ref_kind = R_WRITE_VIA;
		o->ref_base = (uint8_t)b;
		o->ref_size = plain ? (uint8_t)mem_size(m) : 0;
		o->uses |= b < 32 ? DIS_BIT(b) : 0;
	}
	return true;
}

/* A load: a stack slot, a GOT entry off $gp (an import's slot, or a local
 * address as linked), memory at a known address. */
static bool load(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o,
                 unsigned d)
{
	const cs_mips *p = &ci->detail->mips;
	const char *m = ci->mnemonic;
	if (!is(m, loads) || p->op_count != 2 || p->operands[1].type != MIPS_OP_MEM)
		return false;
	const mips_op_mem *mem = &p->operands[1].mem;
	unsigned b = fam(mem->base);
	uint64_t a = mem_addr(rs, mem);
	uint64_t aorigin = a ? rs->origin[b] : 0;
	size_t gi;
	dis_forget(rs, DIS_BIT(d));
	o->dst = (struct dis_loc){ L_REG, (uint8_t)d, 0 };
	if (stack_base(b)) {
		o->src = S_STACK;
		o->src_reg = (uint8_t)b;
		o->src_disp = mem->disp;
		/* -O0 reloads $gp from its slot into another register */
		if (c->toc && mem_size(m) == 8 && gp_reloaded(c, b, mem->disp))
			dis_set_known(rs, d, c->toc, 1, false);
		return true;
	}
	o->src = S_LOAD;
	o->src_reg = b < 32 ? (uint8_t)b : DIS_NOREG;
	o->uses |= a || b >= 32 ? 0 : DIS_BIT(b);
	if (!a) {
		/* a GOT entry's offset off a register that may hold $gp: the
		 * address it names is not known here (disasm_global.c) */
		if (c->toc && b < 32 && mem_size(m) == 8 && got_index(c, c->toc + (uint64_t)mem->disp, &gi)) {
			o->ref_kind = R_ADDR_VIA;
			o->ref_base = (uint8_t)b;
		}
		return true;
	}
	if (mem_size(m) == 8 && got_index(c, a, &gi) &&
	    !dis_slot_name(c->slots, c->nslots, a)) {
		/* a local address (or its page) as linked: the value itself */
		dis_def_value(rs, o, d, c->got_words[gi], ci->address);
		return true;
	}
	dis_def_load(rs, o, d, a, mem_size(m), aorigin ? aorigin : ci->address);
	return true;
}

/* The one register an instruction defines, and from what. */
static bool define(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	const cs_mips *p = &ci->detail->mips;
	const cs_mips_op *op = p->operands;
	const char *m = ci->mnemonic;
	if (p->op_count < 2 || op[0].type != MIPS_OP_REG || fam(op[0].reg) >= 32)
		return false;
	unsigned d = fam(op[0].reg);
	if (load(c, ci, rs, o, d))
		return true;
	uint64_t known = rs->known & ~rs->loaded;
	unsigned s = op[1].type == MIPS_OP_REG ? fam(op[1].reg) : DIS_NOREG;
	/* addu/daddu/or rd, rs, $zero (or $zero, rs): a move */
	if (p->op_count == 3 && op[2].type == MIPS_OP_REG && s <= DIS_ZR &&
	    (strcmp(m, "addu") == 0 || strcmp(m, "daddu") == 0 || strcmp(m, "or") == 0)) {
		unsigned s2 = fam(op[2].reg);
		if (s2 == DIS_ZR)
			m = "move";
		else if (s == DIS_ZR)
			m = "move", s = s2;
	}
	bool sk = s < 32 && (known & DIS_BIT(s));
	uint64_t sval = sk ? rs->val[s] : 0, sorigin = sk ? rs->origin[s] : 0;
	unsigned t = p->op_count == 3 && op[2].type == MIPS_OP_REG ? fam(op[2].reg) : DIS_NOREG;
	if (sk && t < 32 && (known & DIS_BIT(t)) && strcmp(m, "daddu") == 0) {
		/* lui; daddu $v0, $at, $t9: the prologue's $gp */
		o->uses |= DIS_BIT(s) | DIS_BIT(t);
		o->dst = (struct dis_loc){ L_REG, (uint8_t)d, 0 };
		uint64_t v = sval + rs->val[t], origin = sorigin | rs->origin[t];
		o->src = origin ? S_ADDR : S_IMM;
		o->value = (int64_t)v;
		dis_set_known(rs, d, v, origin, false);
		return true;
	}
	if (s < 32)
		o->uses |= DIS_BIT(s);
	int64_t imm = p->op_count == 3 && op[2].type == MIPS_OP_IMM ? op[2].imm : 0;
	bool has_imm = p->op_count == 3 && op[2].type == MIPS_OP_IMM;
	o->dst = (struct dis_loc){ L_REG, (uint8_t)d, 0 };
	dis_forget(rs, DIS_BIT(d));
	if (strcmp(m, "lui") == 0 && p->op_count == 2 && op[1].type == MIPS_OP_IMM) {
		int64_t v = (int32_t)(uint32_t)((uint64_t)op[1].imm << 16);
		o->src = S_IMM;
		o->value = v;
		dis_set_known(rs, d, (uint64_t)v, 0, false);
		return true;
	}
	if (has_imm && s == DIS_ZR && (strcmp(m, "addiu") == 0 || strcmp(m, "daddiu") == 0 ||
	                               strcmp(m, "ori") == 0)) {
		int64_t v = m[0] == 'o' ? imm & 0xffff : imm;   /* li */
		o->src = S_IMM;
		o->value = v;
		dis_set_known(rs, d, (uint64_t)v, 0, false);
		return true;
	}
	if (s == DIS_ZR && strcmp(m, "move") == 0) {   /* move $a0, $zero: GCC's 0 */
		o->src = S_IMM;
		o->value = 0;
		dis_set_known(rs, d, 0, 0, false);
		return true;
	}
	/* move; sll rd, rs, 0 and dext rd, rs, 0, 32 (the 32-bit sign and
	 * zero extensions) keep the origin */
	if (s < 32 && (strcmp(m, "move") == 0 || (strcmp(m, "sll") == 0 && has_imm && imm == 0) ||
	               (strcmp(m, "dext") == 0 && p->op_count == 4 && op[2].type == MIPS_OP_IMM &&
	                op[2].imm == 0 && op[3].type == MIPS_OP_IMM && op[3].imm == 32))) {
		o->src = S_REG;
		o->src_reg = (uint8_t)s;
		if (sk && strcmp(m, "move") == 0)
			dis_set_known(rs, d, sval, sorigin, false);
		return true;
	}
	if (has_imm && !sk && stack_base(s) && d != R_SP && strcmp(m, "daddiu") == 0) {
		o->src = S_SLOT;   /* daddiu $a0, $sp, 16: a stack slot's address */
		o->src_reg = (uint8_t)s;
		o->src_disp = (int32_t)imm;
		return true;
	}
	if (has_imm && sk && (strcmp(m, "addiu") == 0 || strcmp(m, "daddiu") == 0 ||
	                      strcmp(m, "ori") == 0)) {
		uint64_t v = m[0] == 'o' ? sval | ((uint64_t)imm & 0xffff) : sval + (uint64_t)imm;
		if (strcmp(m, "addiu") == 0)
			v = (uint64_t)(int64_t)(int32_t)v;
		dis_def_value(rs, o, d, v, sorigin);
		return true;
	}
	o->dst.kind = L_NONE;
	return false;
}

static void lift(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	const cs_mips *p = &ci->detail->mips;
	const char *m = ci->mnemonic;
	/* $gp holds the GOT pointer wherever code of this file runs */
	if (c->toc)
		dis_set_known(rs, R_GP, c->toc, 1, false);
	/* the function's own address, from which its prologue computes $gp */
	if (ci->address == c->entry)
		dis_set_known(rs, R_T9, c->entry, c->entry, false);
	if (branch(c, ci, rs, o) || store(c, ci, rs, o))
		return;
	if (define(c, ci, rs, o)) {
		if (o->dst.reg == R_SP)
			dis_def_sp(o, strcmp(m, "daddiu") == 0 && p->op_count == 3 &&
			              p->operands[1].type == MIPS_OP_REG && fam(p->operands[1].reg) == R_SP,
			           p->operands[2].imm);
		return;
	}
	bool writes = p->op_count && p->operands[0].type == MIPS_OP_REG && !is(m, reads_first);
	for (unsigned k = 0; k < p->op_count; k++) {
		const cs_mips_op *op = &p->operands[k];
		unsigned f = op->type == MIPS_OP_REG ? fam(op->reg)
		           : op->type == MIPS_OP_MEM ? fam(op->mem.base) : DIS_NOREG;
		if (f < 64 && f != DIS_ZR && (k || !writes))
			o->uses |= DIS_BIT(f);
	}
	if (m[0] == 'm' && (strstr(m, "mult") || strstr(m, "madd") || strstr(m, "msub")))
		o->clobber |= DIS_BIT(R_HI) | DIS_BIT(R_LO);
	if (strstr(m, "div"))
		o->clobber |= DIS_BIT(R_HI) | DIS_BIT(R_LO);
	unsigned d = writes ? fam(p->operands[0].reg) : DIS_ZR;
	if (d != DIS_ZR) {
		bool alone = p->op_count > 1;   /* sra $a0, $a0, 1 */
		for (unsigned k = 1; k < p->op_count && alone; k++)
			alone = p->operands[k].type == MIPS_OP_IMM ||
			        (p->operands[k].type == MIPS_OP_REG && fam(p->operands[k].reg) == d);
		dis_def_first(c, o, d, alone);
	}
	dis_forget(rs, o->clobber);
}

static int64_t simm16(uint32_t w)
{
	return (int16_t)(w & 0xffff);
}

/* `ld rX, off($gp)`: the GOT entry it reads, or 0. */
static uint64_t gp_slot(const struct ds_code *c, uint32_t x)
{
	return c->toc && OP(x) == OP_LD && RS(x) == R_GP ? c->toc + (uint64_t)simm16(x) : 0;
}

/* A direct call or jump (bal, jal, b): its target, or 0. */
static uint64_t direct_target(uint32_t x, uint64_t at)
{
	if ((OP(x) == OP_REGIMM && RS(x) == 0 && RT(x) == RT_BGEZAL) ||
	    (OP(x) == OP_BEQ && RS(x) == 0 && RT(x) == 0))
		return at + 4 + (uint64_t)(simm16(x) * 4);
	if (OP(x) == OP_JAL)
		return ((at + 4) & ~0x0fffffffull) | (uint64_t)(x & 0x03ffffff) << 2;
	return 0;
}

/* The local address a GOT entry holds as linked, in *v (false: an
 * import's slot, or outside the GOT), and in *done that plus the `daddiu`
 * off the loaded register within the next instructions (a page's rest). */
static bool got_ref(const struct ds_code *c, const unsigned char *b, size_t len, size_t i,
                    uint64_t slot, uint64_t *v, uint64_t *done)
{
	size_t gi;
	if (!got_index(c, slot, &gi) || dis_slot_name(c->slots, c->nslots, slot))
		return false;
	*v = *done = c->got_words[gi];
	unsigned rx = RT(dis_le32(b + i));
	for (size_t j = i + 4; j + 4 <= len && j <= i + 24; j += 4) {
		uint32_t y = dis_le32(b + j);
		if ((OP(y) == OP_DADDIU || OP(y) == OP_ADDIU) && RS(y) == rx) {
			*done = *v + (uint64_t)simm16(y);
			break;
		}
	}
	return true;
}

/* bal/jal/b to a wanted stub or local function; `ld rX, off($gp)` of a
 * wanted slot (a call), or of a local address naming a wanted string. */
static void scan_calls(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b,
                       size_t len, uint64_t addr, struct dis_cands *k)
{
	for (size_t i = 0; i + 4 <= len; i += 4) {
		uint32_t x = dis_le32(b + i);
		uint64_t at = addr + i, t = direct_target(x, at), slot;
		if (t) {
			if (dis_in_list(w->stubs, w->nstubs, t))
				dis_cand_call(c, k, at);
			continue;
		}
		if (!(slot = gp_slot(c, x)))
			continue;
		if (dis_in_list(w->slots, w->nslots, slot)) {
			dis_cand_call(c, k, at);
			continue;
		}
		uint64_t v, done;
		if (w->nrefs && got_ref(c, b, len, i, slot, &v, &done) &&
		    (dis_in_refs(w, v) || dis_in_refs(w, done)))
			dis_cand_ref(c, k, at);
	}
}

/* A GOT entry holding an address within 32 KiB of [mem_lo, mem_hi) (a
 * page `daddiu` completes, or the address itself), read off $gp or off
 * any register (-O0 reloads $gp into others): the place, and in the
 * range the address it may reach. */
static void scan_mem(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b,
                     size_t len, uint64_t addr, struct dis_cands *k)
{
	for (size_t i = 0; c->toc && i + 4 <= len; i += 4) {
		uint32_t x = dis_le32(b + i);
		uint64_t slot = c->toc + (uint64_t)simm16(x);
		size_t gi;
		if (OP(x) != OP_LD || !got_index(c, slot, &gi) || dis_slot_name(c->slots, c->nslots, slot))
			continue;
		uint64_t v = c->got_words[gi];
		if (v + 0x8000 > w->mem_lo && v < w->mem_hi + 0x8000)
			dis_cand_mem(c, k, addr + i, v < w->mem_lo ? w->mem_lo : v >= w->mem_hi ? w->mem_hi - 1 : v);
	}
}

static int cmp_local(const void *a, const void *b)
{
	const struct dis_local *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The dynamic section's GOT layout and the dynamic symbol table. */
struct layout {
	uint64_t got, local, gotsym, symtabno;
	Elf_Scn *dynsym;
	GElf_Shdr symsh;
};

static bool layout_of(const struct ds_code *c, struct layout *l)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	unsigned seen = 0;
	*l = (struct layout){ 0 };
	while ((scn = elf_nextscn(c->v->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_DYNSYM && sh.sh_size <= TABLE_MAX) {
			l->dynsym = scn;
			l->symsh = sh;
		}
		if (sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize || sh.sh_size > TABLE_MAX)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = d ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; i < n; i++) {
			GElf_Dyn dyn;
			if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag == DT_NULL)
				break;
			uint64_t v = dyn.d_un.d_val;
			switch (dyn.d_tag) {
			case DT_PLTGOT: l->got = v; seen |= 1; break;
			case DT_MIPS_LOCAL_GOTNO: l->local = v; seen |= 2; break;
			case DT_MIPS_GOTSYM: l->gotsym = v; seen |= 4; break;
			case DT_MIPS_SYMTABNO: l->symtabno = v; seen |= 8; break;
			default: break;
			}
		}
	}
	return seen == 15 && l->dynsym && l->local <= GOT_MAX && l->gotsym <= l->symtabno &&
	       l->symtabno - l->gotsym <= GOT_MAX - l->local;
}

/* The primary GOT: its words as linked, a slot per undefined symbol, and
 * the local functions the loader puts in the others (ds_site_callers_all
 * follows calls through them).  $gp only when one GOT serves the file. */
static void read_got(struct ds_code *c, size_t *cap)
{
	(void)cap;
	struct layout l;
	if (!layout_of(c, &l))
		return;
	size_t n = (size_t)(l.local + (l.symtabno - l.gotsym));
	unsigned char *raw = ds_xmalloc(n * 8 + 1);
	if (!dis_read_vaddr(c, l.got, raw, n * 8)) {
		free(raw);
		return;
	}
	c->got_words = ds_xmalloc(n * sizeof *c->got_words + 1);
	for (size_t i = 0; i < n; i++)
		c->got_words[i] = dis_word(c, raw + 8 * i);
	free(raw);
	c->ngot_words = n;
	c->got_addr = l.got;
	Elf_Scn *gs = NULL;
	GElf_Shdr sh;
	bool one = true;
	while ((gs = elf_nextscn(c->v->elf, gs)) != NULL)
		if (gelf_getshdr(gs, &sh) && sh.sh_addr == l.got && sh.sh_size > GOT_ONE)
			one = false;
	c->toc = one ? l.got + GP_BIAS : 0;
	Elf_Data *syms = elf_getdata(l.dynsym, NULL);
	size_t scap = c->nslots, lcap = c->nlocals, added = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t at = l.got + 8 * i, target = c->got_words[i];
		GElf_Sym s;
		if (i >= l.local) {
			const char *name = NULL;
			if (!syms || !gelf_getsym(syms, (int)(l.gotsym + (i - l.local)), &s))
				continue;
			if (s.st_shndx == SHN_UNDEF)
				name = elf_strptr(c->v->elf, l.symsh.sh_link, s.st_name);
			if (name && *name) {
				ds_push(c->slots, c->nslots, scap, ((struct dis_slot){ at, name }));
				continue;
			}
			target = s.st_value;
		}
		if (i >= 2 && dis_is_local_code(c, target)) {   /* 0, 1: the loader's own */
			ds_push(c->locals, c->nlocals, lcap, ((struct dis_local){ at, target }));
			added++;
		}
	}
	if (added)
		qsort(c->locals, c->nlocals, sizeof *c->locals, cmp_local);
}

#define W_JR_RA 0x03e00008u   /* jr $ra */

/* A return or an unconditional branch (`b`: beq $zero, $zero), after which
 * nothing falls through but the delay slot. */
static bool ends_flow(uint32_t w)
{
	return w == W_JR_RA || (w & 0xffff0000u) == 0x10000000u;
}

/* `lui rX, hi; daddu rY, rX, $t9`: $gp made from the function's own
 * address, which the n64 PIC ABI passes in $t9 on entry. */
static bool gp_setup(uint32_t a, uint32_t b)
{
	unsigned rx = (a >> 16) & 31;
	return (a & 0xffe00000u) == 0x3c000000u &&                     /* lui rx (rs 0) */
	       (b & 0xfc0007ffu) == 0x0000002du && ((b >> 21) & 31) == rx &&  /* daddu rd, rx, */
	       ((b >> 16) & 31) == 25;                                  /* $t9 */
}

/* Function starts where $gp is set up right after the delay slot of a
 * return or branch (nops of padding between): the functions that no symbol or unwind entry
 * names (crtstuff's, whose `jr $t9` tail call otherwise ends the function
 * before them with an unknown jump).  The setup alone is no start:
 * shrink-wrapped code does it after a first test. */
static void prologues_in(struct ds_code *c, const unsigned char *b, size_t len, uint64_t addr,
                         void *cap)
{
	for (size_t i = 8; i + 8 <= len; i += 4) {
		if (!gp_setup(dis_le32(b + i), dis_le32(b + i + 4)))
			continue;
		size_t k = i - 4;
		while (k >= 4 && k + 16 >= i && dis_le32(b + k) == 0)
			k -= 4;   /* back over padding, to a delay slot or its jr */
		if (ends_flow(dis_le32(b + k)) || (k >= 4 && ends_flow(dis_le32(b + k - 4))))
			dis_add_start(c, addr + i, cap);
	}
}

static void mips_starts(struct ds_code *c, size_t *cap)
{
	read_got(c, cap);
	(void)dis_each_chunk(c, prologues_in, cap);   /* a failed read: what was found */
}


/* R_MIPS_REL32 and R_MIPS_64 in one relocation (binutils' dynamic
 * relocations: a slot the loader adds the load bias to, or a symbol's
 * address) */
#define REL32_64 (R_MIPS_REL32 | R_MIPS_64 << 8)

/* MIPS64's r_info: a 32-bit symbol, then the special symbol and three
 * types, the first in the last byte (the ABI's Elf64_Mips_Rel), read by
 * libelf as a little-endian word; the types are kept as one, in order. */
static uint64_t rel_info(uint64_t raw)
{
	uint64_t sym = raw & 0xffffffffu;
	uint64_t type = (raw >> 56 & 0xff) | (raw >> 48 & 0xff) << 8 | (raw >> 40 & 0xff) << 16;
	return GELF_R_INFO(sym, type);
}

/* nop; jr $ra */
static const uint8_t warm[] = { 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0xe0, 0x03 };

/* arch/mips/kernel/syscalls/syscall_n64.tbl (asm/unistd_n64.h):
 * __NR_Linux 5000 + 114 */
#define NR_SETGROUPS 5114
static const struct dis_syscall syscalls[] = { { NR_SETGROUPS, "setgroups" }, { 0, NULL } };

const struct dis_arch dis_mips64el = {
	.name = "mips64el", .machine = EM_MIPS, .elfclass = ELFCLASS64, .data = ELFDATA2LSB,
	.cs = CS_ARCH_MIPS, .mode = CS_MODE_MIPS64 | CS_MODE_LITTLE_ENDIAN, .unit = 4, .word = 8,
	.sp = R_SP, .fp = R_FP, .ret = R_V0, .nargs = 8, .args = { 4, 5, 6, 7, 8, 9, 10, 11 },
	.stack_args = 0, .sp_tracked = false,
	.caller_saved = CALL_CLOBBER,
	.rel_relative = REL32_64,
	.rel_pointer = { REL32_64, R_MIPS_64 },
	.delay_slot = true, .rel_info = rel_info,
	.warm = warm, .nwarm = sizeof warm, .syscalls = syscalls,
	.lift = lift, .scan_calls = scan_calls, .scan_mem = scan_mem,
	.starts = mips_starts, .enter = enter,
};
