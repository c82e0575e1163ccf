/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine code of an ELF file, read with capstone for the checks whose
 * imports are not enough (what a call's arguments are, which call comes
 * first on a path: chroot then chdir, setuid after setgroups, a fixed /tmp
 * name).  x86-64 (and x32), i386, aarch64, s390x, ppc64le and
 * 32-bit ARM (ARM and Thumb-2); other machines, or a build without
 * capstone, get no decoder and the checks judge by imports.
 *
 * What it finds:
 * - call sites of imported functions: `call`/`bl`/`brasl`/`blx` to a PLT,
 *   .plt.sec or .plt.got stub (ppc64: the linker's call stubs in .text),
 *   and the -fno-plt forms (`call *slot(%rip)`, `call *slot(%ebx)`,
 *   `adrp; ldr; blr`, `lgrl; basr`), the GOT slot named by the dynamic
 *   relocations; tail calls (`jmp`/`b`/`jg` to a stub) count as calls;
 * - function boundaries: function symbols (.symtab, .dynsym) and the
 *   .eh_frame_hdr search table (one entry per FDE, so stripped programs
 *   keep their boundaries); a function ends where the next one begins;
 * - paths through a function (direct branches; an indirect jump inside a
 *   function is assumed to reach all of it);
 * - where a call argument comes from: a short walk backwards in address
 *   order from the call through register moves and stack spills, to a
 *   constant, an address, a load, or the result of an imported call (code
 *   entered only by jumps -- after a return, a jump or a call of exit and
 *   the like -- is walked back from each jump to it, all of which must
 *   agree);
 * - a few levels of direct calls into the file's own functions (the deep
 *   walks below), and a function's direct callers;
 * - the stores to a global (a fixed address): found by the same kind of
 *   byte-pattern pass, the value each stores traced by the same walk.
 *
 * Everything is capped (bytes scanned and decoded per file, instructions per
 * function, steps per walk); a capped file says so (ds_code_capped) and the
 * checks then fall back to their import-based verdicts.
 */
#ifndef DISTSEC_DISASM_H
#define DISTSEC_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ds_elfview;
struct ds_code;
struct ds_site;

/* A decoder for the file, or NULL with why set ("no decoder for this
 * machine", "no section headers", ...). */
struct ds_code *ds_code_open(const struct ds_elfview *v, const char **why);
void ds_code_free(struct ds_code *c);
/* Starts a new user's queries on an open decoder (the checks share one
 * per file: ds_file_code): every cap counts again from the opening, so
 * each check's verdicts are those of a decoder of its own. */
void ds_code_rewind(struct ds_code *c);
/* True once a cap cut the reading short: some call sites may be missed. */
bool ds_code_capped(const struct ds_code *c);

/* Calls cb for each call site of one of the imported functions in names
 * (NULL-terminated), in address order; stops when cb returns non-zero.
 * The site is valid only during the callback.  Returns the number of
 * sites, or -1 on a read error. */
typedef int (*ds_site_cb)(struct ds_code *c, const struct ds_site *site, void *ctx);
/* A predicate on a site (a caller, a call). */
typedef bool (*ds_caller_pred)(const struct ds_site *caller, void *ctx);
int ds_code_each_call(struct ds_code *c, const char *const *names, ds_site_cb cb, void *ctx);
/* The same, limited to functions that also refer to an address in one of
 * refs (a string's bytes: `lea`, `adrp`+`add`, an imm32), so that a large
 * program is decoded only where a given string is used. */
struct ds_range {
	uint64_t lo, hi;   /* [lo, hi) */
};
int ds_code_each_call_ref(struct ds_code *c, const char *const *names,
                          const struct ds_range *refs, size_t nrefs, ds_site_cb cb, void *ctx);

/* The same for the direct calls (and tail jumps) to the function starting
 * at target, in this file: a wrapper's callers.  ds_site_callee is NULL. */
int ds_code_each_call_to(struct ds_code *c, uint64_t target, ds_site_cb cb, void *ctx);

/* The same for each instruction that stores to the size bytes at addr (a
 * global: its address fixed at link time), in the functions whose code
 * names it; ds_site_stored tells where the stored value comes from.
 * Returns the number of stores, or -1 when it may also change in a way
 * not seen as such a store: a wider or partial store, its address (or its
 * object's) taken, a pointer to it in the data or the GOT, code the
 * decoder does not explain, a cap (counted apart from the other queries). */
int ds_code_each_store(struct ds_code *c, uint64_t addr, unsigned size, ds_site_cb cb, void *ctx);

const char *ds_site_callee(const struct ds_site *site);
uint64_t ds_site_addr(const struct ds_site *site);
/* The start address of the function holding the site. */
uint64_t ds_site_function(const struct ds_site *site);

/* The first function of names called on some path from the site to the
 * end of its function (the site's own call excluded), or NULL. */
const char *ds_site_calls_after(const struct ds_site *site, const char *const *names);
/* The same, on paths that end at a call of one of barrier. */
const char *ds_site_calls_after_unless(const struct ds_site *site, const char *const *names,
                                       const char *const *barrier);
/* Calls cb for each call of names that a path from the site meets first
 * in its function (paths end there, at calls that do not return and at
 * main's returns, which end the process); returns how many, or -1 when a
 * path leaves the function (a return from any other function, a tail
 * call, a switch) without meeting one. */
int ds_site_each_call_after(const struct ds_site *site, const char *const *names,
                            ds_site_cb cb, void *ctx);
/* A function of names whose call site in the same function has a path
 * to this site, or NULL. */
const char *ds_site_calls_before(const struct ds_site *site, const char *const *names);

/* True when a path in the site's function leads from the instruction
 * after the one at from to the one at to (both in it); true when either
 * is not an instruction of it. */
bool ds_site_path(const struct ds_site *site, uint64_t from, uint64_t to);
/* True when every path from the instruction after the one at from (0:
 * the start of the site's function) to the one at to (0: the site) goes
 * through the success of a call of names: a conditional jump on what it
 * returned (-1 on failure; 0, or more, on success) whose failing arm is
 * not on the path, where same (if given) holds for the call -- mdadm's
 * open of the node its own mknod() just made.  False when the lifter
 * gives no such jump's condition (x86 and aarch64 give them). */
bool ds_site_only_after_success(const struct ds_site *site, uint64_t from, uint64_t to,
                                const char *const *names, ds_caller_pred same, void *ctx);

/* Bounded interprocedural steps.  A local call is a direct call to a
 * function of this file (`call`/`bl` to its start, a tail jump out of the
 * function, or a call through a GOT slot the loader fills with its address:
 * Rust's calls into its std).  Depth counts function levels: 1, the called
 * function's own calls; 2, also those of the functions it calls directly;
 * any call in a called function's code counts.  Every walk is capped
 * (functions, calls and bytes decoded per query and per file); a capped
 * walk finds nothing, and ds_code_capped is left as it was. */
/* A function of names called on a path from the site to the end of its
 * function, there or, within depth, in a local function called on it
 * (*via: that function, or the site's own), or NULL.  Unlike
 * ds_site_calls_after, a path ends at a call that does not return (exit,
 * abort, _Unwind_Resume..., or a small local function with no return). */
const char *ds_site_calls_after_deep(const struct ds_site *site, const char *const *names,
                                     unsigned depth, uint64_t *via);
/* The same for a call with a path to the site. */
const char *ds_site_calls_before_deep(const struct ds_site *site, const char *const *names,
                                      unsigned depth, uint64_t *via);
/* True when the function holding the site has direct callers in this file
 * (ds_code_each_call_to, and calls through a GOT slot holding it) and pred
 * holds for every one of them; false with none, or when a cap cut the
 * search short. */
bool ds_site_callers_all(const struct ds_site *site, ds_caller_pred pred, void *ctx);
/* True when the function holding the site is main: the one the entry
 * point's code passes to __libc_start_main.  Its parameters are the
 * command line, no caller's decision. */
bool ds_site_in_main(const struct ds_site *site);
/* True when the site is not in main and main, on every path from its
 * start on which it runs as root, calls one of names before anything
 * that may call one of changes (such a call, a local function calling one
 * within depth levels or the site's own function, an indirect call or
 * jump): the process did it once for all.  A local function main calls
 * that itself calls one of names on every path from its entry to its
 * return (paths ending in exit, abort or a local function that does not
 * return need none) before anything that may call one of changes is such
 * a call (nscd's nscd_init()).  A path is not root's after a test of
 * geteuid()'s or getuid()'s result: see ds_site_not_root. */
/* True when every path from the start of the site's function to the site
 * takes the arm of a test of geteuid()'s or getuid()'s result (the call
 * just before the test, or its result kept in a register until it) that is
 * not root's: where the id was not 0, when the jump's condition says so
 * (x86, aarch64: the id just returned, compared with 0); else the arm that
 * calls none of names where the other calls one (names need root:
 * setgroups, initgroups).  The site then runs only when the process is not
 * root (hylafax's setupPermissions: initgroups, setegid, seteuid when
 * geteuid() is 0, else setegid alone). */
bool ds_site_not_root(const struct ds_site *site, const char *const *names);
/* "geteuid" or "getuid" when every path from the start of the site's
 * function to the site takes both an arm of a test of that call's result
 * where it was 0 and one where it was not 0 (a test of the result of the
 * call just before it: x86 and aarch64 give the conditions), with no call
 * between them that might change the id (any call but geteuid, getuid,
 * getegid and getgid): the site never runs (clamscan's checkaccess(),
 * inlined on the arm where geteuid() is not 0, needs it to be 0); else
 * NULL.  A signal handler changing the id between the tests is not
 * considered. */
const char *ds_site_contra_id(const struct ds_site *site);
bool ds_site_main_first(const struct ds_site *site, const char *const *names,
                        const char *const *changes, unsigned depth);

/* True when nothing in the file can run the function holding the site:
 * no instruction outside it branches into it or computes an address in
 * it, no relocation, data word, dynamic symbol or the entry point names
 * one, so only dead code calls from there.  A program's dynamic symbol
 * counts only when the program imports a run-time look-up (dlopen, dlsym,
 * GModule's, libltdl's): nothing else calls a program's exports but a
 * library calling back by name, which is rare and not seen.  False on any
 * doubt (a read error, a cap, past 8 queries per file; a machine other
 * than x86 and aarch64, whose byte patterns it does not know). */
bool ds_site_unreached(const struct ds_site *site);
/* Is the function holding the site reached only through entries of a
 * binding's table, { "setgid", its_setgid, ... }: every data word or
 * relocated word naming it follows a pointer to a string that is one of
 * names (or ends in one after a module's separator, one of . : / - _:
 * "os.setgid", "os/posix-chroot", "posix_setgid"), and no code, export
 * or entry point names it?  A language runtime built into the program
 * (CPython's os module in its PyMethodDef table, Lua's luaL_Reg) offers
 * the call to the scripts it runs, which choose the ids.  An entry of a
 * table the program registers with an embedded Lua counts whatever its
 * name (xmake's { "gid", xm_os_gid } in the table its code gives
 * luaL_setfuncs): the table's start is the registering call's argument,
 * and every entry up to this one has a name.  False on any doubt, as
 * ds_site_unreached, whose query budget it shares. */
bool ds_site_bound_by_name(const struct ds_site *site, const char *const *names);
/* True when every path from the start of the site's function to the site
 * takes an arm of a test of a global (equal or not to a constant) that no
 * value the global ever holds takes: its initial bytes and the constant
 * each of its stores writes (ds_code_each_store), with no store of
 * anything else, no address taken and no dynamic symbol naming it (mafft's
 * `if (ppid) sprintf(name, "/tmp/pre.%d", ppid)`, ppid only ever set to
 * 0).  Up to 4 globals per site; x86 and aarch64, whose lifters give the
 * conditions; false on any doubt.  What a stripped program's ELF cannot
 * tell is not seen: a pointer to a record the global is a member of,
 * taken where no symbol gives the record's bounds (ds_code_each_store).
 * A test of the function's own argument, as its caller passed it in a
 * register, counts the same way when nothing but direct calls (and tail
 * jumps) names the function and each passes a constant from 0 to 127
 * (`if (debug)` in a function whose every call passes 0); a further query
 * of ds_site_unreached's.  An argument kept in a stack slot across loops
 * and calls is not followed (spd's triangle dump). */
bool ds_site_const_dead(const struct ds_site *site);
/* The same one level up: the site's function is named by nothing but
 * direct calls (and tail jumps), and every one of them is so cut off in
 * its own function (mafft's addsingle: `if (rnaprediction == 'r')` before
 * the call of the function printing /tmp/_rnaalifoldin.%d, and nothing
 * sets it to 'r').  On the budget of ds_site_unreached's queries. */
bool ds_site_callers_const_dead(const struct ds_site *site);
/* Argument n of the site's call read from a record's member (size bytes)
 * through a pointer (xgterm's setgid(screen->gid)): calls cb for each
 * store to that member through the same pointer in the site's function
 * (ds_site_stored tells what each writes) and returns how many, when one
 * of them is on every path from the function's entry to the load and
 * nothing on a path from them to it may write the member: no other store
 * overlapping it, no write through an index, no address computed at its
 * offset or off the pointer, the pointer in neither of a call's first two
 * arguments (where memcpy, memset, read take their destination), no indirect
 * call, and no store overlapping it and no address computed at its offset
 * in the local functions called (six levels).  The pointer is one value
 * at the stores and at the load when the walks back from the two end at
 * the same load of a fixed address or call, crossing no join (a pointer
 * reloaded from a stack slot: what the slot's one writer stored).  -1 when
 * not so, or when the argument is no such member.  Not seen: an import
 * writing the member through a copy of the pointer it was not given there,
 * a signal handler, another thread.  x86 and aarch64 only. */
int ds_site_member_stores(const struct ds_site *site, unsigned n, unsigned size, ds_site_cb cb,
                          void *ctx);
/* The words a check's details.reason ends with when ds_site_unreached
 * turned its finding into info: one sentence for every check. */
#define DS_DEAD_CODE_WHERE \
	"only in a function nothing in the program calls, jumps to or takes the address of (dead code)"
/* The same, when ds_site_const_dead turned it into info. */
#define DS_CONST_DEAD_WHERE \
	"only behind a test of a global, or of an argument, that none of the values the program " \
	"ever gives it passes (a global's initial value and every constant stored to it, its " \
	"address never taken; the constant each call passes, the function named by nothing else)"

enum ds_argsrc_kind {
	DS_SRC_UNKNOWN,   /* computed, merged from a branch, or the walk gave up */
	DS_SRC_CONST,     /* an immediate: value */
	DS_SRC_ADDR,      /* an address computed from the pc (a string): value */
	DS_SRC_LOAD,      /* loaded from memory that is not a stack slot */
	DS_SRC_RESULT,    /* returned (or written through a pointer, for a
	                     stack slot) by the call to callee */
	DS_SRC_FIELD,     /* read through the pointer the call to the import
	                     callee returned (a member of getpwuid()'s record) */
};

struct ds_argsrc {
	enum ds_argsrc_kind kind;
	int64_t value;
	const char *callee;  /* DS_SRC_RESULT, DS_SRC_FIELD: the imported
	                        function, or NULL for a local or indirect call */
	const char *of;      /* DS_SRC_FIELD: the import whose result that
	                        call's first argument was (getuid), or NULL */
	bool guarded;        /* DS_SRC_CONST: on the way to the site the value
	                        was tested by a conditional jump (`if (gid)
	                        setgid(gid)`): the path the site is on need not
	                        carry this constant */
};

/* Where argument n (0-based, n < 6) of the site's call comes from. */
struct ds_argsrc ds_site_arg(const struct ds_site *site, unsigned n);
/* Where the value a store (a ds_code_each_store or ds_site_member_stores
 * site) writes comes from. */
struct ds_argsrc ds_site_stored(const struct ds_site *site);
/* True when argument n of the site's call holds a value derived from what
 * the enclosing function's caller passed in (its parameter registers or
 * stack arguments, or memory read through them): the function forwards a
 * decision its caller made -- a wrapper, a language runtime's binding. */
bool ds_site_arg_from_caller(const struct ds_site *site, unsigned n);
/* Argument n of the site's call read through a pointer held in a register
 * the ABI has every call preserve (x86-64 rbx, rbp, r12-r15; aarch64
 * x19-x28), kept there since the call that returned it, however far
 * back: DS_SRC_FIELD of that import (.of as ds_site_arg gives it) when
 * every write of the register with a path to the load, and none on a
 * path from the function's entry, stores what one and the same call
 * returned (xonix: pw = getpwuid(getuid()) in r15, setgid(pw->pw_gid)
 * many blocks and calls later, where ds_site_arg gives up); else
 * DS_SRC_UNKNOWN.  x86 and aarch64 only, whose lifters give every
 * register an instruction writes; bounded (a function of up to 20000
 * instructions, 16 writes of the register). */
struct ds_argsrc ds_site_arg_held(const struct ds_site *site, unsigned n);
/* A stack slot of a function: the register family its address is taken
 * off and its offset, from the stack pointer's value at the function's
 * entry (or off the frame pointer, as written). */
struct ds_slot {
	unsigned base;
	int64_t key;
};
/* Argument n of the site's call is the address of a stack slot of its
 * function (`lea 0x20(%rsp), %rdi`, `mov %rsp, %rdi`; every path the walk
 * back takes reaching the same one): which one.  False when not so or not
 * known: a stack pointer the lifter does not follow (aarch64's, ppc64's,
 * MIPS', ARM's: only a frame pointer's slots are told there), and on
 * s390x, whose compilers copy strings inline (mvst), so that
 * ds_site_slot_passed would not see every copy. */
bool ds_site_arg_slot(const struct ds_site *site, unsigned n, struct ds_slot *slot);
/* Is the address of slot s given to a call of the site's function other
 * than the one at address except, as an argument n harmless(call, n, ctx)
 * does not accept (to a function of the file's own, the address of a
 * record up to 256 bytes below s counts too), so that the call may copy
 * what s holds elsewhere?  True too when a call is given a
 * slot whose offset is not known, or past 1024 calls.  An argument whose
 * walk back crosses a join, and an address stored to memory, are not
 * seen. */
bool ds_site_slot_passed(const struct ds_site *site, const struct ds_slot *s, uint64_t except,
                         bool (*harmless)(const struct ds_site *call, unsigned n, void *ctx),
                         void *ctx);
/* The import whose return value argument n of the site's call is (`p =
 * malloc(n); ... open(p, ...)`), or NULL (a value a call wrote through a
 * pointer is not one). */
const char *ds_site_arg_returned(const struct ds_site *site, unsigned n);

#endif
