/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The s390x decoder (z/Architecture, big-endian).  Calls of imports are
 * `brasl %r14, stub` into the PLT (whose stubs are `larl %r1, slot;
 * lg %r1, 0(%r1); br %r1`), `jg stub` as a tail call, or through a GOT slot
 * (`lgrl %r1, slot` or `larl` + `lg`, then `basr %r14, %r1`).  ELF ABI
 * (s390x psABI): arguments in r2-r6, the result in r2, r0-r5 and r14
 * clobbered by a call, r15 the stack pointer, r11 the frame pointer at -O0.
 * capstone 4 gives SystemZ neither instruction groups nor register
 * accesses: branches and writes are told from the mnemonics, the first
 * register operand being the one written (but by stores, compares and
 * tests).
 */
#include <elf.h>
#include <string.h>

#include "disasm_int.h"
#include "distsec/elfview.h"

#define R_SP 15
#define R_FP 11
#define R_LINK 14
#define CALL_CLOBBER (DIS_BIT(0) | DIS_BIT(1) | DIS_BIT(2) | DIS_BIT(3) | DIS_BIT(4) | \
                      DIS_BIT(5) | DIS_BIT(R_LINK))

static unsigned fam(unsigned r)
{
	return r >= SYSZ_REG_0 && r <= SYSZ_REG_15 ? r - SYSZ_REG_0 : DIS_NOREG;
}

static bool is(const char *m, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(m, *set) == 0)
			return true;
	return false;
}

static bool starts(const char *m, const char *p)
{
	return strncmp(m, p, strlen(p)) == 0;
}

/* register to register loads, extensions included: the value's origin is kept */
static const char *const moves[] = { "lr", "lgr", "lgfr", "llgfr", "llgtr", "ltr", "ltgr",
	"ltgfr", "lbr", "lgbr", "lhr", "lghr", "llhr", "llghr", "llcr", "llgcr", NULL };
static const char *const imms[] = { "lhi", "lghi", "lgfi", "llilf", "llill", "llilh", "llihl",
	"llihh", "llihf", NULL };
/* loads from memory and their sizes */
static const char *const loads8[] = { "lg", "ltg", NULL };
static const char *const loads4[] = { "l", "ly", "lgf", "llgf", "lt", "ltgf", NULL };
static const char *const loads_pcrel[] = { "lgrl", "lrl", "lgfrl", "llgfrl", NULL };
static const char *const stores[] = { "stg", "st", "sty", "sth", "sthy", "stc", "stcy", NULL };
static const char *const stores_pcrel[] = { "stgrl", "strl", "sthrl", NULL };
static const char *const mem_imms[] = { "mvghi", "mvhi", "mvhhi", "mvi", "mviy", NULL };

/* What a store writes: bytes of its mnemonic. */
static unsigned store_size(const char *m)
{
	if (m[2] == 'g' || strcmp(m, "stgrl") == 0 || strcmp(m, "mvghi") == 0)
		return 8;
	if (starts(m, "sth") || strcmp(m, "mvhhi") == 0)
		return 2;
	if (starts(m, "stc") || starts(m, "mvi"))
		return 1;
	return 4;
}

static bool stack_mem(const sysz_op_mem *m)
{
	unsigned b = fam(m->base);
	return (b == R_SP || b == R_FP) && !m->index;
}

/* A base + displacement whose base holds a known address (larl). */
static uint64_t mem_addr(const struct dis_regs *rs, const sysz_op_mem *m)
{
	unsigned b = fam(m->base);
	if (m->index || b >= 16 || !(rs->known & ~rs->loaded & DIS_BIT(b)))
		return 0;
	return rs->val[b] + (uint64_t)m->disp;
}

/* Does the instruction write its first (register) operand? */
static bool writes_first(const char *m)
{
	if (starts(m, "st") || starts(m, "tm") || starts(m, "mv") || starts(m, "ni") ||
	    starts(m, "oi") || starts(m, "xi") || strcmp(m, "nop") == 0 || strcmp(m, "nopr") == 0)
		return false;
	/* compares (c, cg, chi, cl, clfi...), but cvb/cvd convert */
	return !(m[0] == 'c' && !starts(m, "cv"));
}

static void note_uses(const cs_sysz *z, const struct dis_regs *rs, bool first_written,
                      struct dis_insn *o)
{
	for (unsigned k = 0; k < z->op_count; k++) {
		const cs_sysz_op *op = &z->operands[k];
		if (op->type == SYSZ_OP_REG && fam(op->reg) < 16 && (k || !first_written))
			o->uses |= DIS_BIT(fam(op->reg));
		if (op->type == SYSZ_OP_MEM && !mem_addr(rs, &op->mem)) {
			unsigned b = fam(op->mem.base), x = fam(op->mem.index);
			o->uses |= (b < 16 ? DIS_BIT(b) : 0) | (x < 16 ? DIS_BIT(x) : 0);
		}
	}
}

/* A branch's condition suffix as a compare leaves it (CC 0 equal, 1 low,
 * 2 high; ltr's zero, minus, plus alike): its relation, CC_NONE if none. */
static uint8_t rel_of(const char *sfx)
{
	static const struct { const char *s; uint8_t cc; } rel[] = {
		{ "e", CC_EQ }, { "ne", CC_NE }, { "lh", CC_NE }, { "l", CC_LT }, { "h", CC_GT },
		{ "le", CC_LE }, { "nh", CC_LE }, { "he", CC_GE }, { "nl", CC_GE },
	};
	for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
		if (strcmp(sfx, rel[i].s) == 0)
			return rel[i].cc;
	return CC_NONE;
}

/* `chi %r2, 0`, `cghi`, `cfi`, `cgfi`; `ltr %r1, %r2` (ltgr, ltgfr): the
 * value the next conditional jump tests (ltr's source, which it copies). */
static void note_compare(const cs_sysz *z, const char *m, struct dis_regs *rs)
{
	const cs_sysz_op *op = z->operands;
	if (z->op_count != 2 || op[0].type != SYSZ_OP_REG)
		return;
	bool cmp = strcmp(m, "chi") == 0 || strcmp(m, "cghi") == 0 || strcmp(m, "cfi") == 0 ||
	           strcmp(m, "cgfi") == 0;
	bool lt = strcmp(m, "ltr") == 0 || strcmp(m, "ltgr") == 0 || strcmp(m, "ltgfr") == 0;
	unsigned r = fam(cmp ? op[0].reg : op[1].reg);
	if ((cmp && op[1].type != SYSZ_OP_IMM) || (lt && op[1].type != SYSZ_OP_REG) ||
	    (!cmp && !lt) || r >= 16)
		return;
	rs->flag_ok = true;
	rs->flag_loc = (struct dis_loc){ L_REG, (uint8_t)r, 0 };
	rs->flag_imm = cmp ? op[1].imm : 0;
}

/* A conditional jump's condition: j<cc>/jg<cc> after a compare, or a
 * compare-and-branch with an immediate (cij<cc>, cgij<cc>: signed). */
static void jump_cond(const cs_sysz *z, const char *m, struct dis_regs *rs, bool flags,
                      struct dis_insn *o)
{
	const cs_sysz_op *op = z->operands;
	if (starts(m, "cij") || starts(m, "cgij")) {
		uint8_t cc = rel_of(m + (m[1] == 'g' ? 4 : 3));
		if (cc == CC_NONE || z->op_count != 3 || op[0].type != SYSZ_OP_REG ||
		    op[1].type != SYSZ_OP_IMM || fam(op[0].reg) >= 16)
			return;
		o->cc = cc;
		o->cc_loc = (struct dis_loc){ L_REG, (uint8_t)fam(op[0].reg), 0 };
		o->value = op[1].imm;
	} else if (m[0] == 'j') {
		dis_cond_from_flags(rs, flags, rel_of(m + (m[1] == 'g' ? 2 : 1)), o);
	}
}

/* Branches: true when the instruction is one (o->kind set). */
static bool branch(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o,
                   bool flags)
{
	const cs_sysz *z = &ci->detail->sysz;
	const cs_sysz_op *op = z->operands;
	const char *m = ci->mnemonic;
	unsigned last = z->op_count ? z->op_count - 1 : 0;
	bool imm_target = z->op_count && op[last].type == SYSZ_OP_IMM;
	if (strcmp(m, "brasl") == 0 || strcmp(m, "bras") == 0) {
		o->kind = K_CALL;
		o->target = imm_target ? (uint64_t)op[last].imm : 0;
		o->callee = dis_slot_name(c->stubs, c->nstubs, o->target);
	} else if (strcmp(m, "basr") == 0 || strcmp(m, "bas") == 0) {
		unsigned r = z->op_count == 2 && op[1].type == SYSZ_OP_REG ? fam(op[1].reg) : DIS_NOREG;
		if (r == 0)
			return false;   /* basr %r1, %r0: the next address into r1, no branch */
		bool slot = r < 16 && (rs->known & rs->loaded & DIS_BIT(r));
		dis_via_slot(c, slot ? rs->val[r] : 0, slot ? rs->origin[r] : 0, o, K_CALL, K_ICALL);
	} else if (strcmp(m, "j") == 0 || strcmp(m, "jg") == 0) {
		o->kind = K_JMP;
		o->target = imm_target ? (uint64_t)op[last].imm : 0;
		o->callee = dis_slot_name(c->stubs, c->nstubs, o->target);
		dis_regs_reset(rs);
		return true;
	} else if (strcmp(m, "br") == 0) {
		unsigned r = op[0].type == SYSZ_OP_REG ? fam(op[0].reg) : DIS_NOREG;
		bool slot = r < 16 && (rs->known & rs->loaded & DIS_BIT(r));
		if (r == R_LINK)
			o->kind = K_RET;
		else
			dis_via_slot(c, slot ? rs->val[r] : 0, slot ? rs->origin[r] : 0, o, K_JMP, K_IJMP);
		dis_regs_reset(rs);
		return true;
	} else if (m[0] == 'j' || starts(m, "brc") || starts(m, "brx") ||
	           (m[0] == 'c' && strchr(m, 'j'))) {
		/* jne, jgh, brct(g), brxh, cij/cgrj/clgij...: conditional */
		o->kind = K_CJMP;
		o->target = imm_target ? (uint64_t)op[last].imm : 0;
		jump_cond(z, m, rs, flags, o);
		if (starts(m, "brct") || starts(m, "brx"))
			o->clobber |= op[0].type == SYSZ_OP_REG && fam(op[0].reg) < 16
			              ? DIS_BIT(fam(op[0].reg)) : 0;
		return true;
	} else if (m[0] == 'b' && m[strlen(m) - 1] == 'r') {
		/* ber %r14, bcr 8, %r14: a conditional return, else an indirect
		 * jump; bcr 0 (nopr) never branches, bcr 15 always */
		unsigned r = op[last].type == SYSZ_OP_REG ? fam(op[last].reg) : DIS_NOREG;
		int64_t mask = strcmp(m, "bcr") == 0 && op[0].type == SYSZ_OP_IMM ? op[0].imm : -1;
		if (mask == 0)
			return false;
		if (mask == 15 && r == R_LINK)
			o->kind = K_RET;
		else
			o->kind = r == R_LINK ? K_CJMP : K_IJMP;
		if (mask == 15)
			dis_regs_reset(rs);
		return true;
	} else {
		return false;
	}
	o->clobber = CALL_CLOBBER;
	dis_forget(rs, o->clobber);
	return true;
}

/* Loads and stores, moves, constants, addresses: the one definition. */
static bool define(const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	const cs_sysz *z = &ci->detail->sysz;
	const cs_sysz_op *op = z->operands;
	const char *m = ci->mnemonic;
	if (z->op_count < 2)
		return false;
	unsigned d = op[0].type == SYSZ_OP_REG ? fam(op[0].reg) : DIS_NOREG;
	if (is(m, stores) && op[1].type == SYSZ_OP_MEM && d < 16) {
		o->src = S_REG;
		o->src_reg = (uint8_t)d;
		if (stack_mem(&op[1].mem)) {
			o->dst = (struct dis_loc){ L_STACK, (uint8_t)fam(op[1].mem.base),
			                           (int32_t)op[1].mem.disp };
		} else if ((o->ref = mem_addr(rs, &op[1].mem)) != 0) {
			o->ref_kind = R_WRITE;
			o->ref_size = (uint8_t)store_size(m);
			o->ref_move = true;
		} else {
			o->ref_kind = R_WRITE_VIA;
			o->ref_base = (uint8_t)fam(op[1].mem.base);
			o->ref_size = (uint8_t)store_size(m);
		}
		return true;
	}
	if (is(m, stores_pcrel) && op[1].type == SYSZ_OP_IMM && d < 16) {
		o->src = S_REG;
		o->src_reg = (uint8_t)d;
		o->ref_kind = R_WRITE;
		o->ref = (uint64_t)op[1].imm;
		o->ref_size = (uint8_t)store_size(m);
		o->ref_move = true;
		return true;
	}
	if (is(m, mem_imms) && op[0].type == SYSZ_OP_MEM && op[1].type == SYSZ_OP_IMM) {
		o->src = S_IMM;
		o->value = op[1].imm;
		if ((o->ref = mem_addr(rs, &op[0].mem)) != 0) {
			o->ref_kind = R_WRITE;
			o->ref_size = (uint8_t)store_size(m);
			o->ref_move = true;
		} else if (!stack_mem(&op[0].mem)) {
			o->ref_kind = R_WRITE_VIA;
			o->ref_base = (uint8_t)fam(op[0].mem.base);
		}
		return true;
	}
	if (d >= 16)
		return false;
	o->dst = (struct dis_loc){ L_REG, (uint8_t)d, 0 };
	const uint64_t known = rs->known & ~rs->loaded;
	dis_forget(rs, DIS_BIT(d));
	if (is(m, moves) && op[1].type == SYSZ_OP_REG) {
		o->src_reg = (uint8_t)fam(op[1].reg);
		o->src = o->src_reg < 16 ? S_REG : S_UNKNOWN;
		return true;
	}
	if (is(m, imms) && op[1].type == SYSZ_OP_IMM) {
		/* llilh/llihl/llihh/llihf: the immediate in a higher halfword or word */
		unsigned shift = strcmp(m, "llilh") == 0 ? 16 : strcmp(m, "llihl") == 0 ||
		                 strcmp(m, "llihf") == 0 ? 32 : strcmp(m, "llihh") == 0 ? 48 : 0;
		o->src = S_IMM;
		o->value = (int64_t)((uint64_t)op[1].imm << shift);
		return true;
	}
	if ((strcmp(m, "xgr") == 0 || strcmp(m, "xr") == 0) && op[1].type == SYSZ_OP_REG &&
	    fam(op[1].reg) == d) {
		o->src = S_IMM;
		o->value = 0;
		return true;
	}
	if (strcmp(m, "larl") == 0 && op[1].type == SYSZ_OP_IMM) {
		o->src = S_ADDR;
		o->value = op[1].imm;
		o->ref_kind = R_ADDR;
		o->ref = (uint64_t)op[1].imm;
		dis_set_known(rs, d, (uint64_t)op[1].imm, ci->address, false);
		return true;
	}
	if ((strcmp(m, "la") == 0 || strcmp(m, "lay") == 0) && op[1].type == SYSZ_OP_MEM) {
		unsigned b = fam(op[1].mem.base);
		if (!op[1].mem.base && !op[1].mem.index) {
			o->src = S_IMM;   /* la %r2, 5: a constant */
			o->value = op[1].mem.disp;
		} else if (b < 16 && !op[1].mem.index && (known & DIS_BIT(b))) {
			uint64_t a = rs->val[b] + (uint64_t)op[1].mem.disp;
			o->src = S_ADDR;
			o->value = (int64_t)a;
			o->ref_kind = R_ADDR;
			o->ref = a;
			dis_set_known(rs, d, a, rs->origin[b], false);
		} else if (stack_mem(&op[1].mem)) {
			o->src = S_SLOT;   /* la %r2, 164(%r15): a stack slot's address */
			o->src_reg = (uint8_t)b;
			o->src_disp = (int32_t)op[1].mem.disp;
		} else {
			o->src = S_UNKNOWN;
		}
		return true;
	}
	if (is(m, loads_pcrel) && op[1].type == SYSZ_OP_IMM) {
		o->src = S_LOAD;
		o->value = op[1].imm;
		o->ref_kind = R_READ;
		o->ref = (uint64_t)op[1].imm;
		o->ref_size = m[1] == 'g' && m[2] == 'r' ? 8 : 4;
		dis_set_known(rs, d, (uint64_t)op[1].imm, ci->address, true);
		return true;
	}
	if ((is(m, loads8) || is(m, loads4)) && op[1].type == SYSZ_OP_MEM) {
		if (stack_mem(&op[1].mem)) {
			o->src = S_STACK;
			o->src_reg = (uint8_t)fam(op[1].mem.base);
			o->src_disp = (int32_t)op[1].mem.disp;
			return true;
		}
		unsigned b = fam(op[1].mem.base);
		o->src = S_LOAD;
		if (b < 16 && !op[1].mem.index)
			o->src_reg = (uint8_t)b;
		if (b < 16 && !op[1].mem.index && (known & DIS_BIT(b))) {
			uint64_t a = rs->val[b] + (uint64_t)op[1].mem.disp;
			o->value = (int64_t)a;
			o->ref_kind = R_READ;
			o->ref = a;
			o->ref_size = is(m, loads8) ? 8 : 4;
			dis_set_known(rs, d, a, rs->origin[b], true);
		}
		return true;
	}
	o->dst.kind = L_NONE;
	return false;
}

/* `sllg %r2, %r2, 1`, `nilf %r2, 255`: computed from the register alone. */
static void keeps(const cs_insn *ci, struct dis_insn *o)
{
	const cs_sysz *z = &ci->detail->sysz;
	const char *m = ci->mnemonic;
	if (!z->op_count || z->operands[0].type != SYSZ_OP_REG || starts(m, "l") || m[0] == 'c')
		return;
	unsigned d = fam(z->operands[0].reg);
	for (unsigned k = 1; k < z->op_count; k++) {
		const cs_sysz_op *op = &z->operands[k];
		if (op->type == SYSZ_OP_REG ? fam(op->reg) != d
		                            : op->type != SYSZ_OP_IMM &&
		                              (op->type != SYSZ_OP_MEM || op->mem.base || op->mem.index))
			return;
	}
	if (d >= 16)
		return;
	o->dst = (struct dis_loc){ L_REG, (uint8_t)d, 0 };
	o->src = S_UNKNOWN;
	o->keeps = true;
}

static void lift(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *o)
{
	const cs_sysz *z = &ci->detail->sysz;
	const char *m = ci->mnemonic;
	bool first = z->op_count && z->operands[0].type == SYSZ_OP_REG && writes_first(m);
	note_uses(z, rs, first, o);
	bool flags = rs->flag_ok;
	rs->flag_ok = false;
	if (branch(c, ci, rs, o, flags))
		return;
	note_compare(z, m, rs);
	if (define(ci, rs, o)) {
		/* lay %r15, -160(%r15): a move by a constant */
		const cs_sysz_op *op = z->operands;
		if (o->dst.kind == L_REG && o->dst.reg == R_SP && (strcmp(m, "la") == 0 ||
		    strcmp(m, "lay") == 0) && op[1].type == SYSZ_OP_MEM &&
		    fam(op[1].mem.base) == R_SP && !op[1].mem.index)
			o->sp_adj = (int32_t)op[1].mem.disp;
		else if (o->dst.kind == L_REG && o->dst.reg == R_SP)
			o->sp_lost = true;
		return;
	}
	keeps(ci, o);
	if (first) {
		unsigned d = fam(z->operands[0].reg);
		if (d < 16)
			o->clobber |= DIS_BIT(d);
		/* lm/lmg load a range of registers; divisions and multiplications
		 * an even/odd pair */
		unsigned hi = z->op_count > 1 && z->operands[1].type == SYSZ_OP_REG
		              ? fam(z->operands[1].reg) : d;
		if (starts(m, "lm") && d < 16 && hi < 16)
			for (unsigned r = d; r <= hi; r++)
				o->clobber |= DIS_BIT(r);
		if ((m[0] == 'd' || (m[0] == 'm' && m[1] != 'v')) && d < 15)
			o->clobber |= DIS_BIT(d + 1);
	}
	if (o->clobber & DIS_BIT(R_SP)) {
		/* aghi %r15, -160; lmg %r6, %r15, 208(%r15) reloads it */
		o->clobber &= ~DIS_BIT(R_SP);
		if ((strcmp(m, "aghi") == 0 || strcmp(m, "agfi") == 0) &&
		    z->operands[1].type == SYSZ_OP_IMM)
			o->sp_adj = (int32_t)z->operands[1].imm;
		else
			o->sp_lost = true;
	}
	dis_forget(rs, o->clobber);
}

static int32_t ri32(const unsigned char *p)
{
	return (int32_t)dis_be32(p);
}

/* brasl/brcl (`c0 x5`, `c0 x4`) to a stub; lgrl (`c4 x8`) or larl (`c0 x0`)
 * of a wanted slot; larl of a wanted string.  Instructions are halfword
 * aligned. */
static void scan_calls(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b,
                       size_t len, uint64_t addr, struct dis_cands *k)
{
	for (size_t i = 0; i + 6 <= len; i += 2) {
		if (b[i] != 0xc0 && b[i] != 0xc4)
			continue;
		uint64_t at = addr + i, t = at + 2 * (uint64_t)(int64_t)ri32(b + i + 2);
		unsigned sub = b[i + 1] & 0x0f;
		if (b[i] == 0xc0 && (sub == 5 || sub == 4) && dis_in_list(w->stubs, w->nstubs, t))
			dis_cand_call(c, k, at);
		else if (((b[i] == 0xc4 && sub == 8) || (b[i] == 0xc0 && sub == 0)) &&
		         dis_in_list(w->slots, w->nslots, t))
			dis_cand_call(c, k, at);
		if (b[i] == 0xc0 && sub == 0 && w->nrefs && dis_in_refs(w, t))
			dis_cand_ref(c, k, at);
	}
}

/* larl of an address up to 4 KiB below the range (a base for a
 * displacement), and the pc-relative loads, stores and compares
 * (`c4`, `c6`) naming it. */
static void scan_mem(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b,
                     size_t len, uint64_t addr, struct dis_cands *k)
{
	for (size_t i = 0; i + 6 <= len; i += 2) {
		if (b[i] != 0xc0 && b[i] != 0xc4 && b[i] != 0xc6)
			continue;
		uint64_t at = addr + i, t = at + 2 * (uint64_t)(int64_t)ri32(b + i + 2);
		if (b[i] == 0xc0 && (b[i + 1] & 0x0f) == 0 ? t + 0x1000 > w->mem_lo && t < w->mem_hi
		                                           : t + 8 > w->mem_lo && t < w->mem_hi)
			dis_cand_mem(c, k, at, t);
	}
}

/* nopr; br %r14 */
static const uint8_t warm[] = { 0x07, 0x00, 0x07, 0xfe };

/* arch/s390/kernel/syscalls/syscall.tbl (asm/unistd_64.h): 64-bit
 * processes have only the 32-bit-gid call, 206 (81 is 31-bit's 16-bit one) */
#define NR_SETGROUPS 206
static const struct dis_syscall syscalls[] = { { NR_SETGROUPS, "setgroups" }, { 0, NULL } };

const struct dis_arch dis_s390x = {
	.name = "s390x", .machine = EM_S390, .elfclass = ELFCLASS64, .data = ELFDATA2MSB,
	.cs = CS_ARCH_SYSZ, .mode = CS_MODE_BIG_ENDIAN, .unit = 2, .word = 8,
	.sp = R_SP, .fp = R_FP, .ret = 2, .nargs = 5, .args = { 2, 3, 4, 5, 6 },
	.stack_args = 160, .sp_tracked = true, .string_insns = true,
	.caller_saved = CALL_CLOBBER,
	.rel_relative = R_390_RELATIVE,
	.rel_pointer = { R_390_64, R_390_GLOB_DAT, R_390_RELATIVE },
	.warm = warm, .nwarm = sizeof warm, .syscalls = syscalls,
	.lift = lift, .scan_calls = scan_calls, .scan_mem = scan_mem,
};
