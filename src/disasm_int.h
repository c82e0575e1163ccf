/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the disassembly layer (include/distsec/disasm.h): capstone's
 * instructions are lifted into one small machine-neutral record each
 * (disasm_lift.c) so that the walks over a function (disasm_flow.c) and
 * the file-level work (disasm.c) never look at an architecture again.
 */
#ifndef DISTSEC_DISASM_INT_H
#define DISTSEC_DISASM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <capstone/capstone.h>
#include <gelf.h>

#include "distsec/disasm.h"

enum dis_arch { DIS_X64, DIS_X86, DIS_A64 };

/* What an instruction does to the control flow. */
enum dis_kind {
	K_OTHER,
	K_CALL,      /* direct or through a GOT slot: target or callee set */
	K_ICALL,     /* through a register or memory we cannot name */
	K_JMP,       /* direct jump (callee set: a tail call to an import) */
	K_CJMP,      /* conditional jump to target, or fall through */
	K_IJMP,      /* indirect jump (a switch table): target unknown */
	K_RET,       /* return, trap, halt: the path ends */
};

/* A place a value lives in: a register family (rax/eax/ax/al are one;
 * x0/w0 are one), a stack slot (base register + displacement) or, on
 * i386, the stack slot a push fills. */
enum dis_loc_kind { L_NONE, L_REG, L_STACK, L_PUSH };
struct dis_loc {
	uint8_t kind, reg;
	int32_t disp;
};

/* Where the value an instruction defines comes from. */
enum dis_src { S_UNKNOWN, S_REG, S_IMM, S_ADDR, S_LOAD, S_STACK };

#define DIS_ZR 32          /* aarch64 wzr/xzr: reads as 0 */
#define DIS_NOREG 0xff

struct dis_insn {
	uint64_t addr;
	uint64_t target;       /* direct branch/call target; for a jump through a
	                          GOT slot, where its stub begins (PLT decoding) */
	const char *callee;    /* the import a call (or tail jump) reaches */
	uint64_t clobber;      /* register families written besides dst */
	int64_t value;         /* S_IMM, S_ADDR, S_LOAD: the constant/address */
	struct dis_loc dst;    /* the one definition modelled, L_NONE if none */
	uint8_t kind, src, src_reg;   /* S_LOAD: src_reg is the base register, if any */
	bool keeps;            /* dst is computed from its own old value and
	                          constants (`sar $1, %rdi`, `sxtw x0, w0`) */
	int32_t src_disp;      /* S_STACK */
	int32_t sp_adj;        /* what it adds to the stack pointer (push -8) */
	bool sp_lost;          /* writes the stack pointer some other way */
	/* A fixed address (a global) the instruction names (disasm_global.c):
	 * memory it reads or writes at ref (ref_size bytes), an address it
	 * computes, or a write through a register it cannot resolve. */
	uint8_t ref_kind;      /* enum dis_ref */
	uint8_t ref_size;      /* R_READ, R_WRITE: bytes; 0 if unknown */
	uint8_t ref_base;      /* R_WRITE_VIA, R_READ_VIA: the base register */
	bool ref_move;         /* R_WRITE: a plain store of src (S_REG or S_IMM) */
	uint64_t ref;
	uint64_t uses;         /* register families its operands read, but the
	                          base of a resolved ref (calls' arguments not) */
};

enum dis_ref {
	R_NONE,
	R_READ,
	R_WRITE,
	R_ADDR,        /* computes the address (lea, add, an indexed base, an
	                  absolute immediate in position-dependent code) */
	R_PAGE,        /* aarch64 adrp: a page for the next access */
	R_WRITE_VIA,   /* writes memory through ref_base, address unknown */
	R_READ_VIA,    /* x86: reads it so */
	R_ADDR_VIA,    /* x86: computes an address off such a register */
};

struct dis_slot {          /* a GOT slot, or a PLT stub, and its import */
	uint64_t addr;
	const char *name;
};

struct dis_span {          /* an executable section */
	uint64_t addr, off, size;
	bool plt;
};

struct dis_func {
	uint64_t start, end;
	struct dis_insn *in;
	size_t n;
};

/* Forward-propagated register values (adrp/add pairs, the i386 GOT
 * pointer), reset wherever control may join from elsewhere. */
struct dis_regs {
	uint64_t known;        /* bit per family */
	uint64_t loaded;       /* bit: val holds a GOT slot the reg was loaded from */
	uint64_t val[33], origin[33];
	uint64_t call_next;    /* after a local call: its return address (i386 thunks) */
};

#define DEEP_FILE (4u << 20)      /* bytes decoded by all deep walks of a file */
#define DEEP_CALLERS 8            /* ds_site_callers_all queries per file */

struct dis_local {         /* a GOT slot the loader fills with a local address */
	uint64_t addr, target;
};

struct ds_code {
	const struct ds_elfview *v;
	csh cs;
	cs_insn *ci;
	enum dis_arch arch;
	struct dis_span *spans;
	size_t nspans;
	struct dis_slot *slots, *stubs;  /* sorted by address */
	size_t nslots, nstubs;
	uint64_t gotbase;                /* i386 _GLOBAL_OFFSET_TABLE_ */
	uint64_t *starts;                /* function starts, sorted, unique */
	size_t nstarts;
	size_t scanned, decoded;         /* bytes, against the caps */
	bool capped, stubs_done;
	struct dis_local *locals;        /* sorted by address (disasm_deep.c) */
	size_t nlocals;
	size_t deep_decoded;             /* bytes decoded by the deep walks */
	unsigned deep_callers;           /* ds_site_callers_all queries made */
	size_t store_scanned;            /* bytes pattern-scanned by ds_code_each_store */
};

struct ds_site {
	struct ds_code *c;
	const struct dis_func *f;
	size_t i;
};

/* disasm_lift.c */
void dis_lift(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *out);
void dis_regs_reset(struct dis_regs *rs);
/* disasm.c */
const char *dis_slot_name(const struct dis_slot *v, size_t n, uint64_t addr);
/* The local function a GOT slot holds (a relative relocation), or 0. */
uint64_t dis_local_target(const struct ds_code *c, uint64_t slot);
/* Decodes the function starting exactly at start for a deep walk, within
 * budget bytes of c->deep_decoded and max_len bytes; false (c->capped
 * untouched) when it is not a function start, not code, or over a cap. */
bool dis_decode_deep(struct ds_code *c, uint64_t start, size_t budget, size_t max_len,
                     struct dis_func *f);
/* Is addr in a code section that is not a PLT? */
bool dis_is_local_code(const struct ds_code *c, uint64_t addr);
/* The functions (indexes into c->starts) whose code may name an address
 * in [lo, hi) (byte patterns: rip-relative, absolute and GOT-relative
 * displacements, aarch64 adrp pages), sorted; the patterns in *hits
 * (x86: where the displacement is), sorted; -1 on a read error or a
 * pattern outside any function. */
struct dis_hit {
	uint64_t at, to;   /* where the pattern is, the address it names */
};
int dis_funcs_naming(struct ds_code *c, uint64_t lo, uint64_t hi, size_t **funcs, size_t *nfuncs,
                     struct dis_hit **hits, size_t *nhits);
bool dis_decode_func(struct ds_code *c, size_t fi, struct dis_func *f);
bool dis_read_vaddr(const struct ds_code *c, uint64_t addr, void *buf, size_t len);
/* Entry i of a REL or RELA section as a GElf_Rela (a REL's addend 0: it
 * is the word being relocated, the caller reads it if it needs it). */
bool dis_rel_at(Elf_Data *d, const GElf_Shdr *sh, size_t i, GElf_Rela *r);
/* disasm_flow.c */
size_t dis_index_of(const struct dis_func *f, uint64_t addr);
/* The name in names a call (or tail jump) to an import has, or NULL. */
const char *dis_named(const struct dis_insn *in, const char *const *names);
/* A call (or tail jump) of an import that does not return: exit, abort,
 * __stack_chk_fail, longjmp, _Unwind_Resume... */
bool dis_noreturn(const struct dis_insn *in);
/* Is a call of names (goal (size_t)-1) or the instruction goal on a path
 * from index from?  A path ends at a call of barrier (NULL: none).  mark
 * (f->n bytes, zeroed), when given, keeps the instructions walked: after
 * a walk that found nothing, every instruction on a path from `from`. */
const char *dis_reach(const struct dis_func *f, size_t from, const char *const *names,
                      size_t goal, const char *const *barrier, unsigned char *mark);
/* The same, a path also ending at each instruction i with stop[i] set. */
const char *dis_reach_stop(const struct dis_func *f, size_t from, const char *const *names,
                           size_t goal, const char *const *barrier, const unsigned char *stop,
                           unsigned char *mark);
/* The successors of instruction i on a path (up to 2; an indirect jump
 * reaches every instruction: *all set); returns how many are in next. */
unsigned dis_succ(const struct dis_func *f, size_t i, size_t next[2], bool *all);
/* disasm_param.c: which argument registers an ABI passes parameters in */
bool dis_arg_reg(enum dis_arch a, unsigned r);

#endif
