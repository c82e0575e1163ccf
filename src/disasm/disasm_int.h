/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the disassembly layer (include/distsec/disasm.h): capstone's
 * instructions are lifted into one small machine-neutral record each by
 * the file of their architecture (struct dis_arch: disasm_x86.c,
 * disasm_a64.c, disasm_s390x.c, disasm_ppc64.c, disasm_arm.c,
 * disasm_mips64.c), so that the
 * walks over a function (disasm_flow.c) and the file-level work
 * (disasm.c) never look at an architecture again.
 */
#ifndef DISTSEC_DISASM_INT_H
#define DISTSEC_DISASM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <capstone/capstone.h>
#include <gelf.h>

#include "distsec/disasm.h"

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
enum dis_loc_kind {
	L_NONE, L_REG, L_STACK, L_PUSH,
	L_MEM   /* a K_CJMP's cc_loc only (x86): the fixed address the flags'
	           setter compared (its ref: `cmpl $0, ppid(%rip)`) */
};
struct dis_loc {
	uint8_t kind, reg;
	int32_t disp;
};

/* Where the value an instruction defines comes from. */
/* S_SLOT: the address of the stack slot src_reg + src_disp (`lea
 * 0x14(%rsp), %rdx`), what a call filling it through a pointer is given */
enum dis_src { S_UNKNOWN, S_REG, S_IMM, S_ADDR, S_LOAD, S_STACK, S_SLOT };

#define DIS_ZR 32          /* aarch64 wzr/xzr (and what reads as 0 elsewhere) */
#define DIS_REGS 40        /* register families: bits of a uint64_t mask */
#define DIS_NOREG 0xff

struct dis_insn {
	uint64_t addr;
	uint64_t target;       /* direct branch/call target; for a jump through a
	                          GOT slot, where its stub begins (PLT decoding) */
	const char *callee;    /* the import a call (or tail jump) reaches */
	uint64_t clobber;      /* register families written besides dst */
	int64_t value;         /* S_IMM, S_ADDR, S_LOAD: the constant/address */
	struct dis_loc dst;    /* the one definition modelled, L_NONE if none */
	uint64_t also;         /* L_REG: register families the same load defines
	                          besides dst, from the same source (arm's ldrd,
	                          ldm); in clobber too for those that do not ask */
	uint8_t kind, src, src_reg;   /* S_LOAD: src_reg is the base register, if any,
	                                 and src_disp (x86, aarch64) its displacement */
	bool keeps;            /* dst is computed from its own old value and
	                          constants (`sar $1, %rdi`, `sxtw x0, w0`) */
	int32_t src_disp;      /* S_STACK, S_SLOT */
	int32_t sp_adj;        /* what it adds to the stack pointer (push -8) */
	bool sp_lost;          /* writes the stack pointer some other way */
	/* A fixed address (a global) the instruction names (disasm_global.c):
	 * memory it reads or writes at ref (ref_size bytes), an address it
	 * computes, or a write through a register it cannot resolve. */
	uint8_t ref_kind;      /* enum dis_ref */
	uint8_t ref_size;      /* R_READ, R_WRITE: bytes; 0 if unknown */
	uint8_t ref_base;      /* R_WRITE_VIA, R_READ_VIA: the base register */
	bool ref_move;         /* R_WRITE, M_STORE: a plain store of src (S_REG or S_IMM) */
	uint64_t ref;
	/* A record's member (p->gid) written, or its address computed (&p->gid,
	 * lea and aarch64's add of an immediate), through a base register that
	 * is not the stack pointer (x86's %rbp included: at -O2 it may hold any
	 * pointer; not aarch64's x29, always its frame): enum dis_member, the
	 * base, the displacement, the
	 * bytes written (0: unknown) and whether an index register is added.
	 * x86 and aarch64 (disasm_member.c) */
	uint8_t mem, mem_base, mem_size;
	bool mem_indexed;
	int32_t mem_disp;
	uint64_t uses;         /* register families its operands read, but the
	                          base of a resolved ref (calls' arguments not) */
	struct dis_loc tested; /* a compare's stack slot operand (x86), or L_NONE */
	/* K_CJMP: taken when the value at cc_loc compares with value so
	 * (enum dis_cc), where the lifter can tell; CC_NONE otherwise.
	 * cc_flags: the value is the one before the instruction preceding the
	 * jump (the flags' setter, which may overwrite it: `subs w8, w8, #0`) */
	uint8_t cc;
	bool cc_flags;
	uint8_t cc_back;       /* cc_loc L_MEM: the setter is this many
	                          instructions before the jump */
	struct dis_loc cc_loc;
};

enum dis_member { M_NONE, M_STORE, M_ADDR };

/* A conditional jump's condition on one value and a constant (signed). */
enum dis_cc { CC_NONE, CC_EQ, CC_NE, CC_LT, CC_GE, CC_GT, CC_LE };

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
	uint64_t val[DIS_REGS], origin[DIS_REGS];
	uint64_t call_next;    /* after a local call: its return address (i386 thunks) */
	/* the last instruction set the flags by comparing flag_loc with
	 * flag_imm (x86 test/cmp, aarch64 cmp/cmn): what the next conditional
	 * jump tests; flag_unit: the condition register field it set (ppc64's
	 * CR field, 0 elsewhere), flag_unsigned: an unsigned compare */
	bool flag_ok;
	struct dis_loc flag_loc;
	int64_t flag_imm;
	uint8_t flag_back;     /* instructions since the setter (L_MEM) */
	uint8_t flag_unit;
	bool flag_unsigned;
};

#define DEEP_FILE (4u << 20)      /* bytes decoded by all deep walks of a file */
#define NORET_FILE_MEMO 64        /* local functions judged for dis_local_noreturn */
#define DEEP_MEMO 32              /* functions the deep walks decoded, kept per file */
#define DEEP_MEMO_INSNS 65536u    /* their instructions, at most */
#define DEEP_CALLERS 8            /* ds_site_callers_all queries per file */

struct dis_local {         /* a GOT slot the loader fills with a local address */
	uint64_t addr, target;
};

/* A system call number and the libc function making that call: a call of
 * syscall() whose first argument is the constant nr is taken as a call
 * of name (diod's syscall(SYS_setgroups, n, list)). */
struct dis_syscall {
	int64_t nr;
	const char *name;
};

struct dis_wanted;
struct dis_cands;
typedef void dis_scan_fn(struct ds_code *c, const struct dis_wanted *w, const unsigned char *b,
                         size_t len, uint64_t addr, struct dis_cands *k);

/* One architecture (in the shape of rizin's analysis plug-ins): its
 * capstone setup, lifter, byte-pattern scanners, ABI and relocations.
 * Adding one is one file defining one of these, listed in disasm.c. */
struct dis_arch {
	const char *name;
	unsigned machine;          /* e_machine */
	int elfclass, data;        /* ELFCLASS*, ELFDATA2*: what the decoder reads */
	cs_arch cs;
	cs_mode mode;
	uint8_t unit;              /* bytes skipped over code capstone cannot decode */
	uint8_t word;              /* bytes of a pointer (a GOT slot) */
	uint8_t sp, fp, ret;       /* stack and frame pointer, return value (families) */
	uint8_t nargs;             /* argument registers, in order; 0: all on the stack */
	uint8_t args[8];
	uint8_t stack_args;        /* where the caller's stack arguments begin, from the
	                              entry stack pointer (x86: above the return address) */
	bool sp_tracked;           /* the lifter gives every stack pointer move (sp_adj) */
	bool string_insns;         /* compilers copy a string of any length inline
	                              (s390x's mvst for strcpy): a buffer's copies
	                              are not all calls */
	uint64_t caller_saved;     /* register families a call clobbers */
	unsigned rel_relative;     /* R_*_RELATIVE: a slot filled with a local address */
	unsigned rel_pointer[6];   /* relocations storing an address (0 ends the list) */
	bool stub_endbr;           /* a PLT stub may begin with a 4-byte endbr */
	/* where _start gives __libc_start_main the address of main: argument
	 * main_arg (0: the first), or with main_word, word main_word of the
	 * table that argument points to (ppc64's start_addresses) */
	uint8_t main_arg, main_word;
	bool mode_bit;             /* bit 0 of a function symbol: the other instruction
	                              set (ARM: Thumb), kept in ds_code.alt */
	bool delay_slot;           /* the instruction after a branch runs before it takes
	                              effect (MIPS): decode() lifts the two swapped */
	/* optional: r_info as GELF_R_SYM/GELF_R_TYPE read it, from libelf's raw
	 * one (MIPS64 keeps its symbol and three types in its own layout) */
	uint64_t (*rel_info)(uint64_t raw);
	/* the syscall() numbers of the calls the checks ask about, from the
	 * kernel's uapi headers, ended by a NULL name */
	const struct dis_syscall *syscalls;
	const uint8_t *warm;       /* a few instructions decoded once (see warm_up) */
	size_t nwarm;
	void (*lift)(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs,
	             struct dis_insn *out);
	dis_scan_fn *scan_calls;   /* candidate call sites and string references */
	dis_scan_fn *scan_mem;     /* candidate references to an address range; NULL:
	                              ds_code_each_store answers -1 */
	/* optional: more function starts (dis_add_start) and the architecture's
	 * own tables (slots, locals), before they are sorted */
	void (*starts)(struct ds_code *c, size_t *cap);
	/* optional: the stubs of a PLT section (dis_add_stub) from its bytes b
	 * at addr, instead of decoding it */
	void (*plt_scan)(struct ds_code *c, const unsigned char *b, size_t len, uint64_t addr,
	                 size_t *cap);
	/* optional: PLT call stubs outside the PLT sections (dis_add_stub) */
	void (*stubs)(struct ds_code *c, size_t *cap);
	/* optional: before the function at start is decoded (an instruction set) */
	void (*enter)(struct ds_code *c, uint64_t start);
};

extern const struct dis_arch dis_x86_64, dis_i386, dis_aarch64, dis_s390x, dis_ppc64le, dis_ppc64,
	dis_arm, dis_mips64el;

/* The values a global may hold, as the value rule found them
 * (disasm_const_branch.c): kept per file, since the sites of one
 * function, and of one file's checks, ask about the same globals. */
#define DIS_VALUES_MAX 8
#define DIS_VALUE_MEMO 4
struct dis_global_values {
	uint64_t addr;
	unsigned size;
	bool known;          /* every value it may hold is in v */
	int64_t v[DIS_VALUES_MAX];
	size_t n;
};

struct ds_code {
	const struct ds_elfview *v;
	csh cs;
	cs_insn *ci, *ci2;               /* ci2: a branch's delay slot */
	const struct dis_arch *arch;
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
	size_t const_scanned;            /* the same, by dis_each_store_in (the value
	                                    rule's queries): a budget of their own, so
	                                    that they never starve another check's */
	struct dis_global_values value_memo[DIS_VALUE_MEMO];  /* a ring */
	size_t nvalue_memo, value_memo_next;
	uint64_t toc;                    /* ppc64: the TOC pointer (r2); MIPS: $gp */
	uint64_t *got_words;             /* MIPS: the primary GOT's words as linked */
	size_t ngot_words;
	uint64_t got_addr;               /* MIPS: its address (DT_PLTGOT) */
	struct dis_loc gp_saved[2];      /* MIPS: stack slots holding $gp, in the
	                                    function being decoded */
	uint64_t entry;                  /* MIPS: its start ($t9 holds it there) */
	bool bp_frame;                   /* x86: it sets up %rbp as its frame pointer */
	uint64_t *alt, *alt_not;         /* ARM: function starts in Thumb, in ARM
	                                    code (their symbols' bit 0), sorted */
	size_t nalt, nalt_not;
	bool alt_default;                /* ARM: a start in neither list is Thumb */
	cs_mode mode_now;                /* the capstone mode last set */
	uint8_t unit;                    /* arch->unit, or what the mode decodes */
	unsigned unreached_queries;      /* ds_site_unreached queries made */
	uint64_t main;                   /* dis_main, once main_done */
	bool main_done;
	/* ds_site_slot_passed: the stack slots the calls of the function last
	 * asked about are given (disasm_slot.c), kept for its next questions */
	struct dis_arg_slot *arg_slots;
	size_t narg_slots;
	uint64_t arg_slots_fn;           /* its start, 0: none yet */
	size_t arg_slots_insns;          /* and instructions */
	bool arg_slots_over;             /* it has too many calls to look at */
	/* local functions asked about by dis_local_noreturn, and the answers */
	uint64_t noret_fn[NORET_FILE_MEMO];
	bool noret[NORET_FILE_MEMO];
	size_t nnoret;
	/* ds_code_rewind: the counters as ds_code_open left them, and what
	 * find_stubs added to them, replayed when a later user needs the
	 * stubs found by an earlier one */
	struct dis_counts {
		size_t scanned, decoded, deep_decoded, store_scanned;
		unsigned deep_callers, unreached_queries;
		bool capped;
	} opened;
	/* what dis_decode_deep and dis_decode_tail decoded, a ring: the deep
	 * walks of one file (noreturn callees, a path's calls, dead code) ask
	 * for the same functions again; a copy is given, and the budget is
	 * charged as if decoded, so the verdicts do not depend on it */
	struct deep_memo {
		struct dis_func f;
		size_t nstubs, nlocals;  /* what the calls' names were resolved against */
	} deep_memo[DEEP_MEMO];
	size_t ndeep_memo, deep_memo_next, deep_memo_insns;
	bool stubs_seen;                 /* find_stubs done or replayed since the rewind */
	size_t stubs_decoded;
	bool stubs_capped;
};

/* Argument n of the call at index call is the address of a stack slot:
 * slot, when its offset is known (keyed). */
struct dis_arg_slot {
	size_t call;
	unsigned n;
	bool keyed;
	struct ds_slot slot;
};

struct ds_site {
	struct ds_code *c;
	const struct dis_func *f;
	size_t i;
};

/* disasm_lift.c: what every architecture's lifter shares */
void dis_lift(struct ds_code *c, const cs_insn *ci, struct dis_regs *rs, struct dis_insn *out);
void dis_regs_reset(struct dis_regs *rs);
/* A conditional jump on the flags the instruction before it set
 * (rs->flag_*), cc being the jump's relation: recorded in o. */
void dis_cond_from_flags(struct dis_regs *rs, bool flags, uint8_t cc, struct dis_insn *o);
void dis_set_known(struct dis_regs *rs, unsigned r, uint64_t val, uint64_t origin, bool loaded);
void dis_forget(struct dis_regs *rs, uint64_t mask);
/* The register families capstone says the instruction writes, in o->clobber. */
void dis_clobber_written(struct ds_code *c, const cs_insn *ci, struct dis_insn *o,
                         unsigned (*family)(unsigned));
/* A call through the GOT slot at slot (0: unknown): the import it names,
 * else a direct call of the local function the loader puts there. */
void dis_via_slot(struct ds_code *c, uint64_t slot, uint64_t origin, struct dis_insn *o,
                  enum dis_kind known, enum dis_kind unknown);
/* An instruction the lifter does not model writes register family d:
 * clobbered, or (alone: computed from d and constants, `sra $a0, $a0, 1`)
 * a definition keeping its origin; the stack pointer's is lost. */
void dis_def_first(struct ds_code *c, struct dis_insn *o, unsigned d, bool alone);
/* d gets the value v: a constant (origin 0), else an address built at
 * origin, which the instruction computes (R_ADDR). */
void dis_def_value(struct dis_regs *rs, struct dis_insn *o, unsigned d, uint64_t v,
                   uint64_t origin);
/* The stack pointer defined: adding imm to itself (add_sp) moves it,
 * anything else loses it. */
void dis_def_sp(struct dis_insn *o, bool add_sp, int64_t imm);
/* d loaded from the known address a (size bytes; origin: where a was
 * built): it holds what is there (a GOT slot's import). */
void dis_def_load(struct dis_regs *rs, struct dis_insn *o, unsigned d, uint64_t a,
                  unsigned size, uint64_t origin);
#define DIS_BIT(r) (1ull << (r))

/* disasm.c: the byte-pattern pass an architecture's scanners feed */
struct dis_wanted {
	uint64_t *stubs, *slots;
	size_t nstubs, nslots;
	const struct ds_range *refs;
	size_t nrefs;
	uint64_t ref_lo, ref_hi;   /* bounds of all refs: most bytes stop there */
	bool abs_refs;             /* position-dependent code: absolute addresses */
	uint64_t mem_lo, mem_hi;   /* dis_funcs_naming: any reference to [lo, hi) */
};
bool dis_in_list(const uint64_t *v, size_t n, uint64_t a);
bool dis_in_refs(const struct dis_wanted *w, uint64_t a);
/* The function holding a call candidate at `at`, a string reference, and
 * a reference to [mem_lo, mem_hi) naming `to`. */
void dis_cand_call(struct ds_code *c, struct dis_cands *k, uint64_t at);
void dis_cand_ref(struct ds_code *c, struct dis_cands *k, uint64_t at);
void dis_cand_mem(struct ds_code *c, struct dis_cands *k, uint64_t at, uint64_t to);
uint32_t dis_le32(const unsigned char *p);
uint32_t dis_be32(const unsigned char *p);
uint16_t dis_be16(const unsigned char *p);
/* A word of the file's own byte order and class, read from p. */
uint64_t dis_word(const struct ds_code *c, const unsigned char *p);
void dis_add_start(struct ds_code *c, uint64_t a, size_t *cap);
void dis_add_stub(struct ds_code *c, uint64_t at, const char *name, size_t *cap);
/* The index into c->starts of the function holding a, or (size_t)-1. */
size_t dis_func_of(const struct ds_code *c, uint64_t a);
/* How far after its first instruction a two-instruction address (aarch64's
 * adrp and add or ldr, ppc64's addis and addi or ld) is still paired:
 * compilers schedule other instructions between the two (driftnet's pid
 * file name on aarch64: five instructions on, another adrp among them). */
#define DIS_PAIR_SPAN 64

/* The code of every span but the PLT, to fn a chunk at a time (64 KiB and
 * the next chunk's first 32 bytes, so that a pattern cut at a chunk's end
 * is seen whole; fn sees those bytes twice).  The bytes count toward the
 * file's pattern-scan cap, which ends the walk (c->capped).  -1 when a
 * read fails. */
typedef void dis_chunk_fn(struct ds_code *c, const unsigned char *b, size_t len, uint64_t addr,
                          void *arg);
int dis_each_chunk(struct ds_code *c, dis_chunk_fn *fn, void *arg);
bool dis_read_at(const struct ds_code *c, uint64_t off, void *buf, size_t len);
/* disasm_callstarts.c: function starts from direct calls.  at gives the
 * target of a call whose encoding starts at b (avail bytes there) at
 * address at, or 0; the code is read every step bytes.  A target becomes a
 * start when at least min_sites distinct sites call it and keep (when
 * given) accepts it. */
typedef uint64_t dis_call_at_fn(const unsigned char *b, size_t avail, uint64_t at);
void dis_starts_from_calls(struct ds_code *c, size_t *cap, dis_call_at_fn *at, unsigned step,
                           unsigned min_sites, bool (*keep)(const struct ds_code *, uint64_t));
/* Fewer starts than this from the symbols and unwind tables: the file's
 * function boundaries come from its calls too (dis_arch.starts) */
#define DIS_FEW_STARTS 16
/* Each executable section, for an architecture's own passes. */
const struct dis_span *dis_span_of(const struct ds_code *c, uint64_t addr);
/* disasm.c */
const char *dis_slot_name(const struct dis_slot *v, size_t n, uint64_t addr);
/* The local function a GOT slot holds (a relative relocation), or 0. */
uint64_t dis_local_target(const struct ds_code *c, uint64_t slot);
/* Decodes the function starting exactly at start for a deep walk, within
 * budget bytes of c->deep_decoded and max_len bytes; false (c->capped
 * untouched) when it is not a function start, not code, or over a cap. */
/* Does the local function at fn never return (every path ends in a call
 * that does not return: busybox's bb_error_msg_and_die)?  Small functions
 * only, within the file's deep budget; answers kept per file. */
bool dis_local_noreturn(struct ds_code *c, uint64_t fn);
/* The budget (what c->deep_decoded may reach) of a deep question that may
 * decode len more bytes, within the file's DEEP_FILE. */
size_t dis_deep_budget(const struct ds_code *c, size_t len);
bool dis_decode_deep(struct ds_code *c, uint64_t start, size_t budget, size_t max_len,
                     struct dis_func *f);
/* Decodes from at, inside a local function (a jump's target), to that
 * function's end or max_len bytes on, on the same budget. */
bool dis_decode_tail(struct ds_code *c, uint64_t at, size_t budget, size_t max_len,
                     struct dis_func *f);
/* Does the code at addr, a jump's target outside the jumping function
 * (gcc's cold part of it), run straight into a call that does not return,
 * with no branch, jump or return before it? */
bool dis_tail_noreturn(struct ds_code *c, uint64_t addr);
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
/* disasm_global.c: ds_code_each_store, but where no symbol gives the
 * object holding addr, the object is taken to start up to below bytes
 * under it (a record's start, in a stripped program): an address in that
 * window taken, or a store from it reaching addr, and -1.  Its bytes
 * scanned count against c->const_scanned, not the other queries' budget. */
int dis_each_store_in(struct ds_code *c, uint64_t addr, unsigned size, uint64_t below,
                      ds_site_cb cb, void *ctx);
bool dis_read_vaddr(const struct ds_code *c, uint64_t addr, void *buf, size_t len);
/* Entry i of a REL or RELA section as a GElf_Rela (a REL's addend 0: it
 * is the word being relocated, the caller reads it if it needs it). */
bool dis_rel_at(const struct ds_code *c, Elf_Data *d, const GElf_Shdr *sh, size_t i, GElf_Rela *r);
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
/* Names each call of syscall() in f whose number is a constant of the
 * architecture's syscalls table after the function it stands for. */
void dis_name_syscalls(struct ds_code *c, struct dis_func *f);
/* Is the conditional jump at->i a test of whether what a call of one of
 * names returned is 0, that call the last one before the jump?  Its
 * index in names, with *zero_taken saying whether the jump is taken on
 * 0; -1 when not, or when the lifter gives no condition (x86 and aarch64
 * give them). */
int dis_zero_test(const struct ds_site *at, const char *const *names, bool *zero_taken);
/* An edge of a path that never runs: the successor of instruction i
 * (site->f's) that cut says is not taken, or (size_t)-1. */
typedef size_t dis_edge_fn(const struct ds_site *site, size_t i, void *ctx);
/* What a dis_edge_fn gives for "neither successor": every edge out of i. */
#define DIS_CUT_BOTH ((size_t)-2)
/* Is the site, in its function, reached from the entry only over edges
 * cut cuts (and at least one was cut)?  An indirect jump may go anywhere:
 * false past one. */
bool dis_cut_off(const struct ds_site *site, dis_edge_fn *cut, void *ctx);
/* ds_site_unreached, with the direct calls and tail jumps to the start of
 * the site's function set aside: true when nothing else names it, the
 * addresses of those calls in calls (*n of them, up to max; more, and
 * the answer is false).  The asker judges the calls. */
bool dis_site_only_direct(const struct ds_site *site, uint64_t *calls, size_t max, size_t *n);
/* A call-site search asked from inside another (a check's callback, a
 * query): the calls of the imports in names, or (names NULL) the direct
 * calls and tail jumps to target, decoded on the deep walks' budget.
 * The number of sites, or -1 when a cap cut it short (the file's caps
 * are put back, so the outer search never sees this one's). */
int dis_each_call_nested(struct ds_code *c, const char *const *names, uint64_t target,
                         ds_site_cb cb, void *ctx);
/* Is the conditional jump at->i a test (equal or not to a constant) of
 * what a load of a fixed address put in a register, the value not
 * changed on the way?  That address and the load's size in bytes. */
bool dis_cond_global(const struct ds_site *at, uint64_t *addr, unsigned *size);
/* Is the conditional jump at->i a test (equal or not to a constant) of
 * the function's own argument *n (0-based), as its caller passed it in a
 * register, the value not changed on the way? */
bool dis_cond_param(const struct ds_site *at, unsigned *n);
/* The walks' answer "argument value of the caller" (dis_cond_param's
 * only), never given to a check. */
#define DIS_SRC_PARAM ((enum ds_argsrc_kind)(DS_SRC_FIELD + 1))
/* A walk of dis_arg_slot ending at the instruction computing a stack
 * slot's address (value: its index), so that the paths a join brings
 * together agree only on the same one; never given to a check. */
#define DIS_SRC_SLOT ((enum ds_argsrc_kind)(DS_SRC_FIELD + 2))
/* The successors of instruction i on a path (up to 2; an indirect jump
 * reaches every instruction: *all set); returns how many are in next. */
unsigned dis_succ(const struct dis_func *f, size_t i, size_t next[2], bool *all);
/* Where the value in loc (a register family or a stack slot) before the
 * instruction at->i comes from (the walk of ds_site_arg). */
struct ds_argsrc dis_loc_src(const struct ds_site *at, struct dis_loc loc);
/* Is argument n of the site's call read through a pointer (a record's
 * member), by a load the walk back reaches without crossing a join?  Its
 * index and base register family. */
bool dis_arg_load(const struct ds_site *site, unsigned n, size_t *at, unsigned *base);
/* Where the walk back from loc before at->i ends, crossing no join: def[0]
 * the instruction defining the value (a load of a fixed address, a call
 * returning it), def[1] the load it went on through when it was read
 * through a pointer ((size_t)-1: none).  Two walks ending alike name one
 * value.  False when the walk ends anywhere else. */
bool dis_def_of(const struct ds_site *at, struct dis_loc loc, size_t def[2]);
/* The load from a stack slot (a spilled value reloaded) the walk back from
 * loc before at->i reaches first, crossing no join: its index. */
bool dis_reload_of(const struct ds_site *at, struct dis_loc loc, size_t *reload);
/* Argument n of the site's call is the address of a stack slot (`lea
 * 0x20(%rsp), %rdi`, `mov %rsp, %rdi`), every path the walk back takes
 * reaching the same instruction computing it: its index. */
bool dis_arg_slot(const struct ds_site *site, unsigned n, size_t *at);
/* The stack pointer's offset from its value at f's entry before each
 * instruction reached from the entry (known[i]), on an architecture whose
 * lifter gives every move of it; false when two paths disagree. */
bool dis_sp_offsets(const struct ds_code *c, const struct dis_func *f, int64_t *off,
                    unsigned char *known);
/* Where argument n of a call is when the call is made. */
struct dis_loc dis_arg_loc(const struct dis_arch *a, unsigned n);
/* What a call returned, kept in loc before at->i: DS_SRC_RESULT with .of
 * (the import whose result that call's first argument was), else
 * DS_SRC_UNKNOWN. */
struct ds_argsrc dis_result_src(const struct ds_site *at, struct dis_loc loc);
/* disasm_deep.c: main's start (what the entry point passes to
 * __libc_start_main), or 0 */
uint64_t dis_main(struct ds_code *c);
/* disasm_param.c: which argument registers an ABI passes parameters in */
bool dis_arg_reg(const struct dis_arch *a, unsigned r);

#endif
