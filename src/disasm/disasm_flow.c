/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Walks over one decoded function (disasm_int.h): paths from a call site
 * (reachability over direct branches) and where a call argument comes from
 * (a backward walk in address order).
 */
#include <stdlib.h>
#include <string.h>

#include "disasm_int.h"
#include "distsec/util.h"

#define WALK_MAX 96          /* instructions looked at backwards per argument */
#define WALK_HOPS 8          /* joins walked back over per argument */
#define WALK_JOIN 4          /* jumps into one place followed back; more: unknown */

size_t dis_index_of(const struct dis_func *f, uint64_t addr)
{
	size_t lo = 0, hi = f->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->in[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->n && f->in[lo].addr == addr ? lo : (size_t)-1;
}

static const char *const noreturn_calls[] = {
	"exit", "_exit", "_Exit", "quick_exit", "abort", "err", "errx", "verr", "verrx",
	"__stack_chk_fail", "__assert_fail", "__fortify_fail", "__chk_fail", "pthread_exit",
	"longjmp", "_longjmp", "siglongjmp", "__longjmp_chk", "_Unwind_Resume", "__cxa_throw",
	"__cxa_rethrow", NULL
};

bool dis_noreturn(const struct dis_insn *in)
{
	return dis_named(in, noreturn_calls) != NULL;
}

const char *dis_named(const struct dis_insn *in, const char *const *names)
{
	if ((in->kind != K_CALL && in->kind != K_JMP) || !in->callee)
		return NULL;
	for (; *names; names++)
		if (strcmp(in->callee, *names) == 0)
			return *names;
	return NULL;
}

unsigned dis_succ(const struct dis_func *f, size_t i, size_t next[2], bool *all)
{
	const struct dis_insn *in = &f->in[i];
	unsigned n = 0;
	*all = false;
	switch (in->kind) {
	case K_RET:
		break;
	case K_IJMP:
		/* a switch table: any instruction of the function may follow */
		*all = true;
		break;
	case K_JMP:
		if (!in->callee && in->target >= f->start && in->target < f->end)
			next[n++] = dis_index_of(f, in->target);
		break;
	case K_CJMP:
		if (in->target >= f->start && in->target < f->end)
			next[n++] = dis_index_of(f, in->target);
		next[n++] = i + 1;
		break;
	default:
		next[n++] = i + 1;
		break;
	}
	return n;
}

/* The one walk over a function's paths (dis_reach, dis_reach_stop,
 * ds_site_only_after_success): from index from, is a call of names
 * (goal (size_t)-1; names NULL: none) or the instruction goal reached?
 * A path ends at a call of barrier, at each i with stop[i], and with
 * noreturn_ends at a call that does not return; cut[i] leaves out one
 * edge of the conditional jump at i (1: the branch taken, 2: the
 * fall-through).  mark as dis_reach's. */
struct reach {
	const char *const *names;
	size_t goal;
	const char *const *barrier;
	const unsigned char *stop, *cut;
	bool noreturn_ends;
};

static const char *reach(const struct dis_func *f, size_t from, const struct reach *r,
                         unsigned char *mark)
{
	if (from >= f->n)
		return NULL;
	unsigned char *seen = mark ? mark : ds_xcalloc(f->n, 1);
	size_t *stack = ds_xmalloc(f->n * sizeof *stack), top = 0;
	const char *hit = NULL;
	stack[top++] = from;
	seen[from] = 1;
	while (top && !hit) {
		size_t i = stack[--top];
		const struct dis_insn *in = &f->in[i];
		if (r->goal != (size_t)-1 ? i == r->goal
		                          : r->names && (hit = dis_named(in, r->names)) != NULL) {
			hit = hit ? hit : "";
			break;
		}
		if ((r->barrier && dis_named(in, r->barrier)) || (r->stop && r->stop[i]) ||
		    (r->noreturn_ends && in->kind == K_CALL && dis_noreturn(in)))
			continue;
		size_t next[2];
		bool all;
		unsigned nn = dis_succ(f, i, next, &all);
		for (size_t k = 0; all && k < f->n; k++)
			if (!seen[k]) {
				seen[k] = 1;
				stack[top++] = k;
			}
		for (unsigned k = 0; k < nn; k++) {
			/* dis_succ gives a conditional jump's target first */
			if (r->cut && in->kind == K_CJMP && r->cut[i] == (nn == 2 && k == 0 ? 1 : 2))
				continue;
			if (next[k] < f->n && !seen[next[k]]) {
				seen[next[k]] = 1;
				stack[top++] = next[k];
			}
		}
	}
	if (!mark)
		free(seen);
	free(stack);
	return hit;
}

const char *dis_reach(const struct dis_func *f, size_t from, const char *const *names,
                      size_t goal, const char *const *barrier, unsigned char *mark)
{
	struct reach r = { .names = names, .goal = goal, .barrier = barrier };
	return reach(f, from, &r, mark);
}

const char *dis_reach_stop(const struct dis_func *f, size_t from, const char *const *names,
                           size_t goal, const char *const *barrier, const unsigned char *stop,
                           unsigned char *mark)
{
	struct reach r = { .names = names, .goal = goal, .barrier = barrier, .stop = stop };
	return reach(f, from, &r, mark);
}

void dis_name_syscalls(struct ds_code *c, struct dis_func *f)
{
	const struct dis_syscall *t = c->arch->syscalls;
	for (size_t i = 0; t && i < f->n; i++) {
		struct dis_insn *in = &f->in[i];
		if ((in->kind != K_CALL && in->kind != K_JMP) || !in->callee ||
		    strcmp(in->callee, "syscall") != 0)
			continue;
		struct ds_site at = { c, f, i };
		struct ds_argsrc nr = ds_site_arg(&at, 0);
		if (nr.kind != DS_SRC_CONST || nr.guarded)
			continue;
		for (size_t k = 0; t[k].name; k++)
			if (t[k].nr == nr.value)
				in->callee = t[k].name;
	}
}

const char *ds_site_calls_after(const struct ds_site *site, const char *const *names)
{
	return dis_reach(site->f, site->i + 1, names, (size_t)-1, NULL, NULL);
}

const char *ds_site_calls_after_unless(const struct ds_site *site, const char *const *names,
                                       const char *const *barrier)
{
	return dis_reach(site->f, site->i + 1, names, (size_t)-1, barrier, NULL);
}

int ds_site_each_call_after(const struct ds_site *site, const char *const *names,
                            ds_site_cb cb, void *ctx)
{
	static const char *const none[] = { NULL };
	const struct dis_func *f = site->f;
	if (site->i + 1 >= f->n)
		return -1;
	unsigned char *mark = ds_xcalloc(f->n, 1), *stop = ds_xcalloc(f->n, 1);
	for (size_t i = 0; i < f->n; i++)
		stop[i] = f->in[i].kind == K_CALL && dis_noreturn(&f->in[i]);
	dis_reach_stop(f, site->i + 1, none, (size_t)-1, names, stop, mark);
	/* returning from main ends the process, as exit() does */
	bool main = ds_site_in_main(site);
	int n = 0;
	for (size_t i = 0; i < f->n && n >= 0; i++) {
		const struct dis_insn *in = &f->in[i];
		if (!mark[i] || stop[i])
			continue;
		if (dis_named(in, names)) {
			struct ds_site at = { site->c, f, i };
			n++;
			if (cb(site->c, &at, ctx))
				break;
		} else if ((in->kind == K_RET && !main) || in->kind == K_IJMP ||
		           (in->kind == K_JMP && (in->callee ? !dis_noreturn(in)
		                                             : in->target < f->start || in->target >= f->end))) {
			n = -1;   /* a way out of the function with none of them */
		}
	}
	free(mark);
	free(stop);
	return n;
}

const char *ds_site_calls_before(const struct ds_site *site, const char *const *names)
{
	const struct dis_func *f = site->f;
	for (size_t j = 0; j < f->n; j++) {
		const char *n = dis_named(&f->in[j], names);
		if (n && f->in[j].kind == K_CALL && dis_reach(f, j + 1, names, site->i, NULL, NULL))
			return n;
	}
	return NULL;
}

const char *ds_site_callee(const struct ds_site *site)
{
	return site->f->in[site->i].callee;
}

uint64_t ds_site_addr(const struct ds_site *site)
{
	return site->f->in[site->i].addr;
}

uint64_t ds_site_function(const struct ds_site *site)
{
	return site->f->start;
}

static bool caller_saved(const struct dis_arch *a, unsigned r)
{
	return r >= 64 || (a->caller_saved & DIS_BIT(r));
}

static bool same_loc(const struct dis_loc *a, const struct dis_loc *b)
{
	return a->kind == b->kind && a->reg == b->reg && (a->kind != L_STACK || a->disp == b->disp);
}

static struct ds_argsrc argsrc(enum ds_argsrc_kind kind, int64_t value, const char *callee)
{
	return (struct ds_argsrc){ .kind = kind, .value = value, .callee = callee };
}

/* Where argument n of a call is when the call is made. */
static struct dis_loc arg_loc(const struct dis_arch *a, unsigned n)
{
	if (a->nargs)
		return (struct dis_loc){ L_REG, a->args[n], 0 };
	return (struct dis_loc){ L_PUSH, DIS_NOREG, (int32_t)(4 * n) };
}

/* One backward walk: its site and what it may still spend; deref: the
 * value was read through a pointer whose source the walk now follows
 * (one level), call: the call that returned it; tested: a conditional
 * jump on the value was crossed. */
struct walk {
	const struct ds_site *site;
	unsigned steps, hops;
	bool deref, tested;
	size_t call;
	/* a walk asking whether a call's argument is the address of the
	 * stack slot target (slot_arg), target kept relative to the stack
	 * pointer where the walk is; no such question of its own */
	bool inner, has_slot;
	struct dis_loc target;
	/* the call is the file's own function: an address up to STRUCT_SPAN
	 * below the slot may be its record's start (CPython's path_t, filled
	 * by a converter given &path, then path.narrow read) */
	bool span;
	/* the load the walk went on through (deref): its index, and whether
	 * a join was crossed before it (the load is then one of several) */
	size_t load_at;
	bool load_joined;
	/* the load of a fixed address the walk ended at (DS_SRC_LOAD) */
	size_t src_at;
	/* dis_reload_of: end at the first load from a stack slot, kept here */
	bool to_reload;
	size_t reload_at;
	/* dis_cond_param: a walk reaching the function's entry with an
	 * argument register ends there (DIS_SRC_PARAM) */
	bool params;
	/* dis_arg_slot: end at the address of a stack slot, or the stack
	 * pointer's own value (DIS_SRC_SLOT) */
	bool slots;
};

/* How far into a record on the stack a call given its start may write. */
#define STRUCT_SPAN 256

/* Is the stack slot at the one the inner walk asks about, or with w->span
 * the start of a record that may hold it? */
static bool names_slot(const struct walk *w, const struct dis_loc *at)
{
	if (same_loc(at, &w->target))
		return true;
	return w->span && at->kind == L_STACK && w->target.kind == L_STACK && at->reg == w->target.reg &&
	       at->disp <= w->target.disp && w->target.disp - at->disp < STRUCT_SPAN;
}

/* Follows the definition's source; returns true when the walk ends.  A
 * load through an unresolved base register goes on with the base, once:
 * the field of a record a call returned (walk_back). */
static bool follow(struct walk *w, const struct dis_insn *in, struct dis_loc *want,
                   struct ds_argsrc *out)
{
	switch (in->src) {
	case S_REG:
		if (in->src_reg == DIS_ZR) {
			*out = argsrc(DS_SRC_CONST, 0, NULL);
			return true;
		}
		if (w->slots && in->src_reg == w->site->c->arch->sp) {   /* `mov %rsp, %rdi` */
			*out = argsrc(DIS_SRC_SLOT, in - w->site->f->in, NULL);
			return true;
		}
		if (w->inner && in->src_reg == w->site->c->arch->sp) {
			/* `mov x2, sp`: the slot at the stack pointer's address */
			struct dis_loc at = { L_STACK, in->src_reg, 0 };
			w->has_slot = names_slot(w, &at);
			*out = argsrc(DS_SRC_UNKNOWN, 0, NULL);
			return true;
		}
		*want = (struct dis_loc){ L_REG, in->src_reg, 0 };
		return false;
	case S_STACK:
		if (w->to_reload && !w->deref) {
			w->reload_at = (size_t)(in - w->site->f->in);
			*out = argsrc(DS_SRC_UNKNOWN, 0, NULL);
			return true;
		}
		*want = (struct dis_loc){ L_STACK, in->src_reg, in->src_disp };
		return false;
	case S_IMM:
		*out = argsrc(DS_SRC_CONST, in->value, NULL);
		return true;
	case S_ADDR:
		*out = argsrc(DS_SRC_ADDR, in->value, NULL);
		return true;
	case S_SLOT: {
		struct dis_loc at = { L_STACK, in->src_reg, in->src_disp };
		w->has_slot = w->inner && names_slot(w, &at);
		*out = w->slots ? argsrc(DIS_SRC_SLOT, in - w->site->f->in, NULL)
		                : argsrc(DS_SRC_UNKNOWN, 0, NULL);
		return true;
	}
	case S_LOAD:
		if (!in->value && in->src_reg < 64 && !w->deref) {
			w->deref = true;
			w->load_at = (size_t)(in - w->site->f->in);
			w->load_joined = w->hops > 0;
			*want = (struct dis_loc){ L_REG, in->src_reg, 0 };
			return false;
		}
		w->src_at = (size_t)(in - w->site->f->in);
		*out = argsrc(DS_SRC_LOAD, in->value, NULL);
		return true;
	default:
		*out = argsrc(DS_SRC_UNKNOWN, 0, NULL);
		return true;
	}
}

static struct ds_argsrc walk_back(const struct ds_site *site, struct dis_loc want);

static bool defines_nothing(const struct dis_insn *in)
{
	return in->kind == K_OTHER && in->dst.kind == L_NONE && !in->clobber && !in->sp_adj &&
	       !in->sp_lost;
}

/* How many direct jumps in f go to addr, the first max of them in from[];
 * more than max when an indirect jump could go there too. */
static size_t jumps_to(const struct dis_func *f, uint64_t addr, size_t *from, size_t max)
{
	size_t n = 0;
	for (size_t j = 0; j < f->n; j++) {
		const struct dis_insn *in = &f->in[j];
		if (in->kind == K_IJMP)
			return max + 1;
		if ((in->kind == K_CJMP || (in->kind == K_JMP && !in->callee)) && in->target == addr) {
			if (n < max)
				from[n] = j;
			n++;
		}
	}
	return n;
}

struct ds_argsrc ds_site_arg(const struct ds_site *site, unsigned n)
{
	const struct dis_arch *a = site->c->arch;
	if (n >= 6 || (a->nargs && n >= a->nargs))
		return argsrc(DS_SRC_UNKNOWN, 0, NULL);
	return walk_back(site, arg_loc(a, n));
}

/* A store's site (ds_code_each_store): the value it writes. */
struct ds_argsrc ds_site_stored(const struct ds_site *site)
{
	const struct dis_insn *in = &site->f->in[site->i];
	struct ds_argsrc out = { .kind = DS_SRC_UNKNOWN };
	if ((in->ref_kind != R_WRITE && in->mem != M_STORE) || !in->ref_move)
		return out;
	if (in->src == S_IMM || (in->src == S_REG && in->src_reg == DIS_ZR))
		return argsrc(DS_SRC_CONST, in->src == S_IMM ? in->value : 0, NULL);
	if (in->src != S_REG || in->src_reg >= 64)
		return out;
	return walk_back(site, (struct dis_loc){ L_REG, in->src_reg, 0 });
}

static struct ds_argsrc walk_from(struct walk *w, size_t i, struct dis_loc want, unsigned pushes,
                                  const char *crossed);

static bool same_src(struct ds_argsrc a, struct ds_argsrc b)
{
	return a.kind == b.kind && a.value == b.value &&
	       (a.callee == b.callee || (a.callee && b.callee && strcmp(a.callee, b.callee) == 0));
}

/* Where the walk gives up: a stack slot live across a call was written
 * through a pointer by that call, as far as the walk can tell. */
static struct ds_argsrc given_up(struct dis_loc want, const char *crossed)
{
	if (want.kind == L_STACK && crossed)
		return argsrc(DS_SRC_RESULT, 0, *crossed ? crossed : NULL);
	return argsrc(DS_SRC_UNKNOWN, 0, NULL);
}

/* The code at index entry is entered by jumps only (a jump or return
 * precedes it): the value is the same one before each of the jumps to it
 * (luit's `setuid(uid) >= 0` branch to its tail call of setgid; at -O0,
 * two branches of a condition joining), or unknown. */
static struct ds_argsrc from_jumps(struct walk *w, size_t entry, struct dis_loc want,
                                   unsigned pushes, const char *crossed)
{
	const struct dis_func *f = w->site->f;
	size_t from[WALK_JOIN], n;
	for (;;) {   /* entry < f->n: it follows a jump, return or call */
		n = jumps_to(f, f->in[entry].addr, from, WALK_JOIN);
		if (n || entry >= w->site->i || !defines_nothing(&f->in[entry]))
			break;
		entry++;   /* alignment padding no jump enters */
	}
	if (n == 0 || n > WALK_JOIN || w->hops++ >= WALK_HOPS)
		return given_up(want, crossed);
	struct dis_loc target = w->target;   /* each path moves it on its own */
	struct ds_argsrc r = walk_from(w, from[0], want, pushes, crossed);
	for (size_t k = 1; k < n && r.kind != DS_SRC_UNKNOWN && !w->has_slot; k++) {
		w->target = target;
		if (!same_src(r, walk_from(w, from[k], want, pushes, crossed)))
			return argsrc(DS_SRC_UNKNOWN, 0, NULL);
	}
	return r;
}

/* Where the value in `want` at the site comes from: backwards in address
 * order through moves and spills, and back over jumps into the code. */
static struct ds_argsrc walk_back(const struct ds_site *site, struct dis_loc want)
{
	struct walk w = { .site = site, .call = (size_t)-1 };
	struct ds_argsrc r = walk_from(&w, site->i, want, 0, NULL);
	if (r.kind == DS_SRC_CONST)
		r.guarded = w.tested;
	if (!w.deref)
		return r;
	/* a field of what an import returned; anything else read through a
	 * pointer stays the load it was */
	if (r.kind != DS_SRC_RESULT || !r.callee || w.call == (size_t)-1)
		return argsrc(DS_SRC_LOAD, 0, NULL);
	struct ds_site call = { site->c, site->f, w.call };
	struct ds_argsrc a = ds_site_arg(&call, 0);
	r.kind = DS_SRC_FIELD;
	r.of = a.kind == DS_SRC_RESULT ? a.callee : NULL;
	return r;
}

struct ds_argsrc dis_loc_src(const struct ds_site *at, struct dis_loc loc)
{
	return walk_back(at, loc);
}

bool dis_def_of(const struct ds_site *at, struct dis_loc loc, size_t def[2])
{
	struct walk w = { .site = at, .call = (size_t)-1 };
	struct ds_argsrc r = walk_from(&w, at->i, loc, 0, NULL);
	if (w.hops || (w.deref && w.load_joined))
		return false;
	def[1] = w.deref ? w.load_at : (size_t)-1;
	if (r.kind == DS_SRC_LOAD && r.value)
		def[0] = w.src_at;
	else if (r.kind == DS_SRC_RESULT && w.call != (size_t)-1)
		def[0] = w.call;
	else
		return false;
	return true;
}

bool dis_reload_of(const struct ds_site *at, struct dis_loc loc, size_t *reload)
{
	struct walk w = { .site = at, .call = (size_t)-1, .to_reload = true, .reload_at = (size_t)-1 };
	walk_from(&w, at->i, loc, 0, NULL);
	if (w.hops || w.deref || w.reload_at == (size_t)-1)
		return false;
	*reload = w.reload_at;
	return true;
}

bool dis_arg_slot(const struct ds_site *site, unsigned n, size_t *at)
{
	const struct dis_arch *a = site->c->arch;
	if (n >= 6 || (a->nargs && n >= a->nargs))
		return false;
	struct walk w = { .site = site, .call = (size_t)-1, .slots = true };
	struct ds_argsrc r = walk_from(&w, site->i, arg_loc(a, n), 0, NULL);
	if (w.deref || r.kind != DIS_SRC_SLOT)
		return false;
	*at = (size_t)r.value;
	return true;
}

struct dis_loc dis_arg_loc(const struct dis_arch *a, unsigned n)
{
	return arg_loc(a, n);
}

bool dis_arg_load(const struct ds_site *site, unsigned n, size_t *at, unsigned *base)
{
	const struct dis_arch *a = site->c->arch;
	if (n >= 6 || (a->nargs && n >= a->nargs))
		return false;
	struct walk w = { .site = site, .call = (size_t)-1 };
	walk_from(&w, site->i, arg_loc(a, n), 0, NULL);
	if (!w.deref || w.load_joined)
		return false;
	*at = w.load_at;
	*base = site->f->in[w.load_at].src_reg;
	return true;
}

struct ds_argsrc dis_result_src(const struct ds_site *at, struct dis_loc loc)
{
	struct walk w = { .site = at, .call = (size_t)-1 };
	struct ds_argsrc r = walk_from(&w, at->i, loc, 0, NULL);
	if (w.deref || r.kind != DS_SRC_RESULT || !r.callee || w.call == (size_t)-1)
		return argsrc(DS_SRC_UNKNOWN, 0, NULL);
	struct ds_site call = { at->c, at->f, w.call };
	struct ds_argsrc a = ds_site_arg(&call, 0);
	r.of = a.kind == DS_SRC_RESULT ? a.callee : NULL;
	return r;
}

/* Does the value at loc when the call at index i is made hold the address
 * of slot (with span: of a record that may hold it)? */
static bool passes_slot(const struct ds_site *call, size_t i, struct dis_loc loc,
                        struct dis_loc slot, bool span)
{
	struct walk aw = { .site = call, .call = (size_t)-1, .inner = true, .target = slot,
	                   .span = span };
	walk_from(&aw, i, loc, 0, NULL);
	return aw.has_slot;
}

/* Is the stack slot `slot` one the call at index i was given the address
 * of (getresgid(&r, &e, &s)), or, for a function of the file's own, of a
 * record that may hold it, so that it may have filled it? */
static bool slot_arg(const struct walk *w, size_t i, struct dis_loc slot)
{
	const struct dis_arch *a = w->site->c->arch;
	unsigned nargs = a->nargs ? a->nargs : 6;
	struct ds_site call = { w->site->c, w->site->f, i };
	bool own = !w->site->f->in[i].callee;   /* not an import: its writes are not known */
	for (unsigned n = 0; n < nargs && n < 6; n++)
		if (passes_slot(&call, i, arg_loc(a, n), slot, own))
			return true;
	/* where every argument goes on the stack (i386), a static function
	 * of the file's own may take its first ones in the registers a call
	 * clobbers anyway (clang's and GCC's regparm for local functions) */
	for (unsigned r = 0; own && !a->nargs && r < 64; r++)
		if ((a->caller_saved >> r & 1) &&
		    passes_slot(&call, i, (struct dis_loc){ L_REG, (uint8_t)r, 0 }, slot, true))
			return true;
	return false;
}

/* The jump at index j goes to the next instruction (clang -O0's `b .+4`
 * after a cbnz): a fall-through. */
static bool jumps_next(const struct dis_func *f, size_t j)
{
	const struct dis_insn *in = &f->in[j];
	return in->kind == K_JMP && !in->callee && j + 1 < f->n && in->target == f->in[j + 1].addr;
}

/* Is an instruction after index from, up to index to, the target of a
 * jump (or maybe of an indirect one)?  Then it is reached other ways too. */
static bool entered_between(const struct dis_func *f, size_t from, size_t to)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t m = from + 1; m <= to; m++) {
		lo = f->in[m].addr < lo ? f->in[m].addr : lo;
		hi = f->in[m].addr > hi ? f->in[m].addr : hi;
	}
	for (size_t j = 0; j < f->n; j++) {
		const struct dis_insn *in = &f->in[j];
		if (in->kind == K_IJMP)
			return true;
		if ((in->kind != K_CJMP && (in->kind != K_JMP || in->callee)) || in->target < lo ||
		    in->target > hi || (jumps_next(f, j) && j >= from))
			continue;
		for (size_t m = from + 1; m <= to; m++)
			if (f->in[m].addr == in->target)
				return true;
	}
	return false;
}

/* Was the register reg, as the jump at index j tests it, loaded from the
 * stack slot a just before, the slot then unchanged (-O0: `ldr w8, [sp,
 * #12]; cbnz w8`, then `ldr w0, [sp, #12]` for the call)? */
static bool loaded_from(const struct dis_func *f, size_t j, struct dis_loc reg, struct dis_loc a)
{
	if (reg.kind != L_REG || a.kind != L_STACK || (f->in[j].cc_flags && !j))
		return false;
	size_t from = f->in[j].cc_flags ? j - 1 : j;   /* the value before the flags' setter */
	for (size_t m = from; m-- > 0 && m + 4 >= from; ) {
		const struct dis_insn *d = &f->in[m];
		if (d->sp_adj || d->sp_lost || d->kind != K_OTHER ||
		    (d->dst.kind != L_NONE && same_loc(&d->dst, &a)))
			return false;
		if (d->dst.kind != L_NONE && same_loc(&d->dst, &reg))
			return d->src == S_STACK && d->src_reg == a.reg && d->src_disp == a.disp;
	}
	return false;
}

/* The conditional jump at index j, not taken, leaves want equal to a
 * constant (`cmp r4, #0; bne` then `setgid(r4)`: gid 0), *k: the code
 * after it up to the site (index to) is reached only through it. */
static bool fallthrough_const(const struct dis_func *f, size_t j, size_t to, struct dis_loc want,
                              int64_t *k)
{
	const struct dis_insn *in = &f->in[j];
	if (in->kind != K_CJMP || in->cc != CC_NE ||
	    !(same_loc(&in->cc_loc, &want) || loaded_from(f, j, in->cc_loc, want)))
		return false;
	/* the value tested is the one before the flags' setter (or the delay
	 * slot), which must then leave it as it was */
	if (in->cc_flags && (!j || same_loc(&f->in[j - 1].dst, &want) ||
	                     (want.kind == L_REG && want.reg < 64 &&
	                      (f->in[j - 1].clobber & DIS_BIT(want.reg)))))
		return false;
	if (entered_between(f, j, to))
		return false;
	*k = in->value;
	return true;
}

/* A walk back that reached the first instruction of a function, wanting
 * the value of want there: argument n of the function's caller when want
 * is the n-th argument register and the instruction is the function's
 * entry, which no jump inside the function goes back to. */
static struct ds_argsrc at_entry(const struct ds_site *site, struct dis_loc want)
{
	const struct dis_func *f = site->f;
	const struct dis_arch *a = site->c->arch;
	size_t fi = dis_func_of(site->c, f->start), from;
	if (want.kind != L_REG || !f->n || f->in[0].addr != f->start || fi == (size_t)-1 ||
	    site->c->starts[fi] != f->start || jumps_to(f, f->start, &from, 1))
		return argsrc(DS_SRC_UNKNOWN, 0, NULL);
	for (unsigned n = 0; n < a->nargs; n++)
		if (a->args[n] == want.reg)
			return argsrc(DIS_SRC_PARAM, n, NULL);
	return argsrc(DS_SRC_UNKNOWN, 0, NULL);
}

/* pushes: i386 pushes met; crossed: a call a stack slot was live across */
static struct ds_argsrc walk_from(struct walk *w, size_t i, struct dis_loc want, unsigned pushes,
                                  const char *crossed)
{
	const struct dis_func *f = w->site->f;
	const struct dis_arch *arch = w->site->c->arch;
	struct ds_argsrc out = { .kind = DS_SRC_UNKNOWN };
	while (i > 0 && w->steps++ < WALK_MAX) {
		const struct dis_insn *in = &f->in[--i];
		/* where the slot asked about is before this instruction */
		if (w->inner && arch->sp_tracked && w->target.reg == arch->sp)
			w->target.disp += in->sp_adj;
		size_t only;
		if (jumps_next(f, i) && jumps_to(f, f->in[i + 1].addr, &only, 1) == 1)
			continue;   /* no other way in: a fall-through */
		if (in->kind == K_JMP || in->kind == K_IJMP || in->kind == K_RET ||
		    (in->kind == K_CALL && (dis_noreturn(in) ||
		                            (!in->callee && in->target &&
		                             dis_local_noreturn(w->site->c, in->target)))))
			return from_jumps(w, i + 1, want, pushes, crossed);
		if (in->kind == K_CALL || in->kind == K_ICALL) {
			if (want.kind == L_PUSH)
				break;
			if (want.kind == L_STACK) {
				/* the latest call given the slot's address wrote it,
				 * as far as the walk can tell */
				if (!w->inner && slot_arg(w, i, want))
					return argsrc(DS_SRC_RESULT, 0, in->callee);
				crossed = crossed ? crossed : (in->callee ? in->callee : "");
				continue;
			}
			if (want.reg == arch->ret) {
				w->call = i;
				return argsrc(DS_SRC_RESULT, 0, in->callee);
			}
			if (caller_saved(arch, want.reg))
				return out;
			continue;
		}
		if (want.kind == L_PUSH) {
			/* i386: argument n is the n-th push going backwards, or a
			 * store to n*4(%esp) when the frame was reserved up front */
			bool def = in->dst.kind == L_PUSH ? pushes++ == (unsigned)want.disp / 4
			         : in->dst.kind == L_STACK && in->dst.reg == 4 && !pushes &&
			           in->dst.disp == want.disp;
			if (def && follow(w, in, &want, &out))
				return out;
			continue;
		}
		/* the value the jump's condition gives on the way to the site,
		 * the straight way from it (a walk's first stretch) */
		int64_t k;
		if (in->kind == K_CJMP && !w->hops && !w->inner &&
		    fallthrough_const(f, i, w->site->i, want, &k)) {
			w->tested = false;   /* this constant is the path's */
			return argsrc(DS_SRC_CONST, k, NULL);
		}
		/* a test of the value on the way (`if (gid) setgid(gid)`): the
		 * jump itself (cbz) or the instruction setting its condition */
		if (in->kind == K_CJMP && want.kind == L_REG && want.reg < 64 &&
		    ((in->uses | (i ? f->in[i - 1].uses : 0)) & DIS_BIT(want.reg)))
			w->tested = true;
		if (in->dst.kind != L_NONE && same_loc(&in->dst, &want)) {
			if (follow(w, in, &want, &out))
				return out;
			crossed = NULL;
			continue;
		}
		if (want.kind == L_REG && want.reg < 64 && (in->clobber & (1ull << want.reg)))
			return out;
		/* a push or pop between: the same slot at another offset */
		if (want.kind == L_STACK && arch->sp_tracked && want.reg == arch->sp)
			want.disp += in->sp_adj;
	}
	if (i == 0 && w->params)
		return at_entry(w->site, want);
	return given_up(want, crossed);
}

/* Does a jump of relation cc against k take its branch for the value v? */
static bool cc_holds(uint8_t cc, int64_t v, int64_t k)
{
	switch (cc) {
	case CC_EQ: return v == k;
	case CC_NE: return v != k;
	case CC_LT: return v < k;
	case CC_GE: return v >= k;
	case CC_GT: return v > k;
	case CC_LE: return v <= k;
	default: return false;
	}
}

/* Where the value the conditional jump at->i compares comes from: its
 * condition's location before the jump, or before the instruction setting
 * the flags when that may overwrite it (cc_flags).  DS_SRC_UNKNOWN for
 * anything but a conditional jump the lifter gave a condition. */
static struct ds_argsrc tested_src(const struct ds_site *at, struct walk *w)
{
	const struct dis_insn *in = &at->f->in[at->i];
	if (in->kind != K_CJMP || in->cc == CC_NONE || (in->cc_flags && !at->i))
		return argsrc(DS_SRC_UNKNOWN, 0, NULL);
	if (in->cc_loc.kind == L_MEM) {   /* the setter read a fixed address */
		size_t s = at->i - in->cc_back;
		if (!in->cc_flags || !in->cc_back || in->cc_back > at->i ||
		    at->f->in[s].ref_kind != R_READ)
			return argsrc(DS_SRC_UNKNOWN, 0, NULL);
		w->src_at = s;
		return argsrc(DS_SRC_LOAD, at->f->in[s].ref, NULL);
	}
	return walk_from(w, in->cc_flags ? at->i - 1 : at->i, in->cc_loc, 0, NULL);
}

bool ds_site_only_after_success(const struct ds_site *site, uint64_t from, uint64_t to,
                                const char *const *names, ds_caller_pred same, void *ctx)
{
	const struct dis_func *f = site->f;
	size_t goal = to ? dis_index_of(f, to) : site->i;
	size_t start = from ? dis_index_of(f, from) : 0;
	if (goal >= f->n || start >= f->n)
		return false;
	if (from)
		start++;   /* after the call at from */
	size_t j = 0;
	while (j < f->n && (j == goal || !dis_named(&f->in[j], names)))
		j++;
	if (j == f->n)
		return false;   /* no such call in the function: the common case */
	unsigned char *cut = ds_xcalloc(f->n, 1), *seen = ds_xcalloc(f->n, 1);
	bool any = false;
	for (size_t k = 0; k < f->n; k++) {
		const struct dis_insn *in = &f->in[k];
		if (k + 1 >= f->n)
			continue;
		struct ds_site at = { site->c, f, k };
		struct walk w = { .site = &at, .call = (size_t)-1 };
		struct ds_argsrc r = tested_src(&at, &w);
		if (r.kind != DS_SRC_RESULT || w.deref || w.call == (size_t)-1 ||
		    !dis_named(&f->in[w.call], names))
			continue;
		struct ds_site call = { site->c, f, w.call };
		if (same && !same(&call, ctx))
			continue;
		/* failure is -1, success 0 (mknod, mkdir) or more (open) */
		bool ok = cc_holds(in->cc, 0, in->value), bad = cc_holds(in->cc, -1, in->value);
		if (ok == bad)
			continue;
		/* a failure branch out of the function (gcc's cold part: lmbench's
		 * mknod, perror, exit) ends the path only where it runs straight
		 * into exit(): a cold part may also jump back */
		if ((in->target < f->start || in->target >= f->end) &&
		    (ok || !dis_tail_noreturn(site->c, in->target)))
			continue;
		cut[k] = ok ? 1 : 2;
		any = true;
	}
	bool only = false;
	if (any) {
		/* the instructions reached without a success edge */
		struct reach r = { .goal = (size_t)-1, .cut = cut, .noreturn_ends = true };
		reach(f, start, &r, seen);
		only = !seen[goal];
	}
	if (only) {
		/* and some success leads there */
		struct reach r = { .goal = (size_t)-1, .noreturn_ends = true };
		memset(seen, 0, f->n);
		for (size_t k = 0; k < f->n; k++)
			if (cut[k])
				reach(f, cut[k] == 1 ? dis_index_of(f, f->in[k].target) : k + 1, &r, seen);
		only = seen[goal];
	}
	free(cut);
	free(seen);
	return only;
}

int dis_zero_test(const struct ds_site *at, const char *const *names, bool *zero_taken)
{
	const struct dis_func *f = at->f;
	const struct dis_insn *in = &f->in[at->i];
	if ((in->cc != CC_EQ && in->cc != CC_NE) || in->value != 0)
		return -1;
	struct walk w = { .site = at, .call = (size_t)-1 };
	struct ds_argsrc r = tested_src(at, &w);
	if (r.kind != DS_SRC_RESULT || w.deref || w.call == (size_t)-1 || w.call >= at->i)
		return -1;
	/* the value tested is what the call returned just now: a result kept
	 * across another call may be from before that call changed it */
	for (size_t j = w.call + 1; j < at->i; j++)
		if (f->in[j].kind == K_CALL || f->in[j].kind == K_ICALL)
			return -1;
	const char *hit = dis_named(&f->in[w.call], names);
	for (int n = 0; hit && names[n]; n++)
		if (names[n] == hit) {
			*zero_taken = in->cc == CC_EQ;
			return n;
		}
	return -1;
}

bool dis_cut_off(const struct ds_site *site, dis_edge_fn *cut, void *ctx)
{
	const struct dis_func *f = site->f;
	if (!f->n || site->i >= f->n)
		return false;
	unsigned char *seen = ds_xcalloc(f->n, 1);
	size_t *stack = ds_xmalloc(f->n * sizeof *stack), top = 0;
	bool skipped = false, reached = false;
	stack[top++] = 0;
	seen[0] = 1;
	while (top && !reached) {
		size_t i = stack[--top], next[2];
		bool all;
		unsigned nn = dis_succ(f, i, next, &all);
		size_t skip = cut(site, i, ctx);
		reached = i == site->i || all;   /* a switch: anywhere, on any doubt */
		for (unsigned k = 0; k < nn; k++) {
			bool cut_here = next[k] == skip || skip == DIS_CUT_BOTH;
			skipped |= cut_here;
			if (next[k] < f->n && !cut_here && !seen[next[k]]) {
				seen[next[k]] = 1;
				stack[top++] = next[k];
			}
		}
	}
	free(seen);
	free(stack);
	return skipped && !reached;
}

bool dis_cond_global(const struct ds_site *at, uint64_t *addr, unsigned *size)
{
	const struct dis_func *f = at->f;
	const struct dis_insn *in = &f->in[at->i];
	if (in->cc != CC_EQ && in->cc != CC_NE)
		return false;
	struct walk w = { .site = at, .call = (size_t)-1, .src_at = (size_t)-1 };
	struct ds_argsrc r = tested_src(at, &w);
	if (r.kind != DS_SRC_LOAD || w.deref || w.src_at >= f->n)
		return false;
	const struct dis_insn *ld = &f->in[w.src_at];
	if (ld->ref_kind != R_READ || ld->ref != (uint64_t)r.value || !ld->ref_size || ld->ref_size > 8)
		return false;
	*addr = ld->ref;
	*size = ld->ref_size;
	return true;
}

bool dis_cond_param(const struct ds_site *at, unsigned *n)
{
	const struct dis_insn *in = &at->f->in[at->i];
	if (in->cc != CC_EQ && in->cc != CC_NE)
		return false;
	struct walk w = { .site = at, .call = (size_t)-1, .src_at = (size_t)-1, .params = true };
	struct ds_argsrc r = tested_src(at, &w);
	if (r.kind != DIS_SRC_PARAM || w.deref)
		return false;
	*n = (unsigned)r.value;
	return true;
}

bool ds_site_path(const struct ds_site *site, uint64_t from, uint64_t to)
{
	static const char *const none[] = { NULL };
	const struct dis_func *f = site->f;
	size_t a = dis_index_of(f, from), b = dis_index_of(f, to);
	if (a == (size_t)-1 || b == (size_t)-1)
		return true;
	return dis_reach(f, a + 1, none, b, NULL, NULL) != NULL;
}
