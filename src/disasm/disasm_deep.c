/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bounded interprocedural steps (include/distsec/disasm.h): a call of
 * given imports on a path from or to a call site, made there or in a local
 * function called on that path, itself or a few more levels of direct
 * calls down; and a function's direct callers.
 *
 * The paths of a deep walk end at calls that do not return: the imports
 * that never do (exit, abort, __stack_chk_fail, _Unwind_Resume...) and the
 * small local functions with no way back (a die() or daemon_exit()
 * helper), since a compiler places unrelated code right after such a call
 * (ecryptfsd: daemon_exit(), then the daemonize() that runs before its
 * chroot).  Every walk has its own caps (functions and calls looked at,
 * bytes decoded per query and per file) and finds nothing once over one:
 * the file's own caps, which make the checks fall back to imports, are
 * never touched.
 */
#include <stdlib.h>
#include <string.h>

#include "disasm_int.h"
#include "distsec/elfview.h"
#include "distsec/util.h"

#define DEEP_FUNCS 32             /* functions looked at from one call */
#define DEEP_CALLS 64             /* calls of the site's function tried, nearest first */
#define DEEP_QUERY (512u << 10)   /* bytes decoded per query */
#define NORET_LEN  4096u          /* larger local functions are taken to return */
#define TAIL_LEN   256u           /* a cold part's straight run to exit() */
#define NORET_MEMO 128

struct deep {
	struct ds_code *c;
	const char *const *names;
	uint64_t seen[DEEP_FUNCS];    /* of the call being followed */
	size_t nseen;
	uint64_t home;                /* the site's function */
	size_t budget;                /* the c->deep_decoded this query may reach */
	bool cut;                     /* a function could not be looked at */
	uint64_t memo_fn[NORET_MEMO];
	bool memo_nr[NORET_MEMO];
	size_t nmemo;
};

/* The local function a call (or a tail jump out of f) goes to, or 0. */
static uint64_t local_callee(const struct ds_code *c, const struct dis_func *f,
                             const struct dis_insn *in)
{
	if (in->callee || !in->target)
		return 0;
	if (in->kind != K_CALL && (in->kind != K_JMP || (in->target >= f->start && in->target < f->end)))
		return 0;
	return dis_is_local_code(c, in->target) ? in->target : 0;
}

static bool first_visit(struct deep *d, uint64_t fn)
{
	for (size_t i = 0; i < d->nseen; i++)
		if (d->seen[i] == fn)
			return false;
	if (d->nseen == DEEP_FUNCS)
		return false;
	d->seen[d->nseen++] = fn;
	return true;
}

/* A small local function with no return, no tail call and no switch: every
 * path ends in a call that does not return (or a trap).  -1: not decoded
 * (too large, or over budget). */
static int func_never_returns(struct ds_code *c, uint64_t fn, size_t budget)
{
	struct dis_func f;
	if (!dis_decode_deep(c, fn, budget, NORET_LEN, &f))
		return -1;
	bool nr = true;
	for (size_t i = 0; i < f.n && nr; i++) {
		const struct dis_insn *in = &f.in[i];
		if (in->kind == K_RET || in->kind == K_IJMP ||
		    (in->kind == K_JMP && (in->callee ? !dis_noreturn(in)
		                                      : in->target < f.start || in->target >= f.end)))
			nr = false;
	}
	free(f.in);
	return nr;
}

static bool never_returns(struct deep *d, uint64_t fn)
{
	for (size_t i = 0; i < d->nmemo; i++)
		if (d->memo_fn[i] == fn)
			return d->memo_nr[i];
	int r = func_never_returns(d->c, fn, d->budget);
	bool nr = r == 1;
	if (r < 0 && d->c->deep_decoded + NORET_LEN > d->budget)
		d->cut = true;   /* not looked at for want of budget */
	if (d->nmemo < NORET_MEMO) {
		d->memo_fn[d->nmemo] = fn;
		d->memo_nr[d->nmemo++] = nr;
	}
	return nr;
}

/* The calls of f a path ends at. */
static unsigned char *stops_of(struct deep *d, const struct dis_func *f)
{
	unsigned char *st = ds_xcalloc(f->n ? f->n : 1, 1);
	for (size_t i = 0; i < f->n && !d->cut; i++) {
		const struct dis_insn *in = &f->in[i];
		uint64_t to = in->kind == K_CALL ? local_callee(d->c, f, in) : 0;
		if (in->kind == K_CALL && (dis_noreturn(in) || (to && never_returns(d, to))))
			st[i] = 1;
	}
	return st;
}

/* Does the function at fn call one of d->names, itself or through direct
 * calls up to depth levels down (1: itself)?  Any call in its code counts
 * (a function's code is reachable from its entry but for dead code). */
static const char *fn_calls(struct deep *d, uint64_t fn, unsigned depth)
{
	uint64_t level[DEEP_FUNCS], next[DEEP_FUNCS];
	size_t n = 0;
	d->nseen = 0;
	first_visit(d, d->home);   /* its own calls are looked at directly */
	if (first_visit(d, fn))
		level[n++] = fn;
	for (unsigned l = 0; l < depth && n; l++) {
		size_t nn = 0;
		for (size_t k = 0; k < n; k++) {
			struct dis_func f;
			if (!dis_decode_deep(d->c, level[k], d->budget, (size_t)-1, &f)) {
				d->cut = true;   /* not looked at: nothing found there */
				continue;
			}
			const char *hit = NULL;
			for (size_t i = 0; i < f.n && !hit; i++) {
				hit = dis_named(&f.in[i], d->names);
				uint64_t to = hit ? 0 : local_callee(d->c, &f, &f.in[i]);
				if (!to || l + 1 >= depth)
					continue;
				if (nn == DEEP_FUNCS || d->nseen == DEEP_FUNCS)
					d->cut = true;   /* over the cap: not looked at */
				else if (first_visit(d, to))
					next[nn++] = to;
			}
			free(f.in);
			if (hit)
				return hit;
		}
		memcpy(level, next, nn * sizeof *next);
		n = nn;
	}
	return NULL;
}

static unsigned char *deep_init(struct deep *d, const struct ds_site *site, const char *const *names)
{
	struct ds_code *c = site->c;
	*d = (struct deep){ .c = c, .names = names };
	d->budget = dis_deep_budget(c, DEEP_QUERY);
	d->home = site->f->start;
	unsigned char *st = stops_of(d, site->f);
	if (d->cut) {
		free(st);
		return NULL;
	}
	return st;
}

/* the walk of a query from its site, with the query's state and the stops
 * of the site's function (deep_init's) */
typedef const char *deep_walk(struct deep *d, const struct ds_site *site, const unsigned char *st,
                              unsigned depth, uint64_t *via);

static const char *deep_query(const struct ds_site *site, const char *const *names, unsigned depth,
                              uint64_t *via, deep_walk *walk)
{
	struct deep d;
	unsigned char *st;
	if (!depth || !(st = deep_init(&d, site, names)))
		return NULL;
	const char *hit = walk(&d, site, st, depth, via);
	free(st);
	/* hit is one of the caller's names (static strings), never d's */
	// cppcheck-suppress returnDanglingLifetime
	return hit;
}

static const char *walk_after(struct deep *d, const struct ds_site *site, const unsigned char *st,
                              unsigned depth, uint64_t *via)
{
	const struct dis_func *f = site->f;
	unsigned char *mark = ds_xcalloc(f->n, 1);
	const char *hit = dis_reach_stop(f, site->i + 1, d->names, (size_t)-1, NULL, st, mark);
	if (hit && via)
		*via = f->start;
	size_t tried = 0;
	for (size_t k = 1; !hit && k < f->n && tried < DEEP_CALLS; k++) {
		size_t i = (site->i + k) % f->n;   /* nearest first, then round a loop */
		uint64_t to = mark[i] ? local_callee(site->c, f, &f->in[i]) : 0;
		if (!to)
			continue;
		tried++;
		if ((hit = fn_calls(d, to, depth)) != NULL && via)
			*via = to;
	}
	free(mark);
	return hit;
}

const char *ds_site_calls_after_deep(const struct ds_site *site, const char *const *names,
                                     unsigned depth, uint64_t *via)
{
	if (site->i + 1 >= site->f->n)
		return NULL;
	return deep_query(site, names, depth, via, walk_after);
}

static const char *walk_before(struct deep *d, const struct ds_site *site, const unsigned char *st,
                               unsigned depth, uint64_t *via)
{
	const struct dis_func *f = site->f;
	size_t tried = 0;
	const char *hit = NULL;
	for (size_t k = 1; !hit && k < f->n && tried < DEEP_CALLS; k++) {
		size_t j = (site->i + f->n - k) % f->n;   /* nearest first, backwards */
		const char *direct = f->in[j].kind == K_CALL ? dis_named(&f->in[j], d->names) : NULL;
		uint64_t to = f->in[j].kind == K_CALL && !direct ? local_callee(site->c, f, &f->in[j]) : 0;
		if ((!direct && !to) || st[j])
			continue;
		tried++;
		if (!dis_reach_stop(f, j + 1, NULL, site->i, NULL, st, NULL))
			continue;
		hit = direct ? direct : fn_calls(d, to, depth);
		if (hit && via)
			*via = direct ? f->start : to;
	}
	return hit;
}

const char *ds_site_calls_before_deep(const struct ds_site *site, const char *const *names,
                                      unsigned depth, uint64_t *via)
{
	return deep_query(site, names, depth, via, walk_before);
}

bool dis_local_noreturn(struct ds_code *c, uint64_t fn)
{
	if (!dis_is_local_code(c, fn))
		return false;
	for (size_t i = 0; i < c->nnoret; i++)
		if (c->noret_fn[i] == fn)
			return c->noret[i];
	size_t budget = dis_deep_budget(c, NORET_LEN);
	bool nr = func_never_returns(c, fn, budget) == 1;
	if (c->nnoret < NORET_FILE_MEMO) {
		c->noret_fn[c->nnoret] = fn;
		c->noret[c->nnoret++] = nr;
	}
	return nr;
}

bool dis_tail_noreturn(struct ds_code *c, uint64_t addr)
{
	struct dis_func t;
	size_t budget = dis_deep_budget(c, TAIL_LEN);
	if (!dis_decode_tail(c, addr, budget, TAIL_LEN, &t))
		return false;
	bool nr = false;
	for (size_t i = 0; i < t.n; i++) {
		const struct dis_insn *in = &t.in[i];
		if (in->kind == K_CALL || (in->kind == K_JMP && in->callee)) {
			uint64_t to = local_callee(c, &t, in);
			if (dis_noreturn(in) || (to && dis_local_noreturn(c, to))) {
				nr = true;
				break;
			}
		}
		if (in->kind == K_JMP || in->kind == K_CJMP || in->kind == K_RET || in->kind == K_IJMP)
			break;
	}
	free(t.in);
	return nr;
}

uint64_t dis_main(struct ds_code *c)
{
	if (c->main_done)
		return c->main;
	c->main_done = true;
	GElf_Ehdr eh;
	struct dis_func f;
	size_t budget = dis_deep_budget(c, NORET_LEN);
	if (!gelf_getehdr(c->v->elf, &eh))
		return 0;
	/* ARM: bit 0 of the entry point says Thumb, not where it is */
	uint64_t entry = c->arch->mode_bit ? eh.e_entry & ~1ull : eh.e_entry;
	if (!dis_decode_deep(c, entry, budget, NORET_LEN, &f))
		return 0;
	for (size_t i = 0; i < f.n && !c->main; i++) {
		const struct dis_insn *in = &f.in[i];
		if ((in->kind != K_CALL && in->kind != K_JMP) || !in->callee ||
		    strcmp(in->callee, "__libc_start_main") != 0)
			continue;
		struct ds_site start = { c, &f, i };
		struct ds_argsrc a = ds_site_arg(&start, c->arch->main_arg);
		uint64_t v = (uint64_t)a.value;
		if (c->arch->main_word) {
			/* the table's word: a relative relocation, or the address */
			unsigned char w[8];
			uint64_t slot = v + (uint64_t)c->arch->main_word * c->arch->word;
			bool table = (a.kind == DS_SRC_ADDR || a.kind == DS_SRC_CONST) && v;
			c->main = table ? dis_local_target(c, slot) : 0;
			if (table && !c->main && dis_read_vaddr(c, slot, w, c->arch->word))
				c->main = dis_word(c, w);
		} else {
			c->main = a.kind == DS_SRC_ADDR || a.kind == DS_SRC_CONST ? v
			        : a.kind == DS_SRC_LOAD && v ? dis_local_target(c, v) : 0;
		}
		if (c->arch->mode_bit)
			c->main &= ~1ull;   /* Thumb's bit, as in the entry point */
		if (c->main && !dis_is_local_code(c, c->main))
			c->main = 0;
	}
	free(f.in);
	return c->main;
}

bool ds_site_in_main(const struct ds_site *site)
{
	uint64_t m = dis_main(site->c);
	return m && m == site->f->start;
}

#define EUID_TEST 4   /* instructions between geteuid()'s call and its test's jump */

/* The calls whose result tells whether the process is root. */
static const char *const id_calls[] = { "geteuid", "getuid", NULL };

/* Is the conditional jump at i a test of what geteuid() or getuid()
 * returned: the call at most EUID_TEST instructions before, nothing
 * between that branches or calls; or a register the jump or the
 * instruction setting its condition reads holding that result (kept in a
 * callee-saved register across other calls: hylafax's setupPermissions
 * calls getpwnam() between)? */
static bool tests_id(struct ds_code *c, const struct dis_func *f, size_t i)
{
	size_t k = i;
	while (k > 0 && i - k < EUID_TEST && f->in[k - 1].kind == K_OTHER)
		k--;
	if (k > 0 && f->in[k - 1].kind == K_CALL && dis_named(&f->in[k - 1], id_calls))
		return true;
	uint64_t regs = f->in[i].uses | (i ? f->in[i - 1].uses : 0);
	struct ds_site at = { c, f, i };
	/* the registers read, then a stack slot compared (x86 -O0) */
	for (unsigned r = 0; r <= DIS_REGS; r++) {
		struct dis_loc l = r < DIS_REGS ? (struct dis_loc){ L_REG, (uint8_t)r, 0 }
		                 : i ? f->in[i - 1].tested : (struct dis_loc){ L_NONE, 0, 0 };
		if (r < DIS_REGS && (!(regs & DIS_BIT(r)) || r == c->arch->sp))
			continue;
		if (l.kind == L_NONE)
			continue;
		struct ds_argsrc a = dis_loc_src(&at, l);
		for (size_t n = 0; a.kind == DS_SRC_RESULT && a.callee && id_calls[n]; n++)
			if (strcmp(a.callee, id_calls[n]) == 0)
				return true;
	}
	return false;
}

/* A conditional jump on what geteuid() or getuid() returned (tests_id):
 * the arm where the id was not 0, when the jump's condition says which
 * (dis_zero_test: the id just returned, compared with 0); else, when one
 * arm calls one of names and the other not, the other (setgroups() and
 * initgroups() need root, so that arm is root's).  That arm's first
 * instruction, or (size_t)-1.  prayer-accountd's main runs
 * `if (getuid() == 0) setgroups(0, NULL)` and then a getopt switch from
 * which every instruction counts as reachable, so only the condition
 * tells the arms apart. */
static size_t not_root_edge(struct ds_code *c, const struct dis_func *f, size_t i,
                            const char *const *names)
{
	const struct dis_insn *in = &f->in[i];
	if (in->kind != K_CJMP || in->target < f->start || in->target >= f->end)
		return (size_t)-1;
	size_t taken = dis_index_of(f, in->target);
	if (taken >= f->n || i + 1 >= f->n || !tests_id(c, f, i))
		return (size_t)-1;
	struct ds_site at = { c, f, i };
	bool zero_taken;
	if (dis_zero_test(&at, id_calls, &zero_taken) >= 0)
		return zero_taken ? i + 1 : taken;
	bool t = dis_reach(f, taken, names, (size_t)-1, NULL, NULL) != NULL;
	bool n = dis_reach(f, i + 1, names, (size_t)-1, NULL, NULL) != NULL;
	return t == n ? (size_t)-1 : t ? i + 1 : taken;
}

struct not_root {
	const char *const *names;
};

static size_t not_root_cut(const struct ds_site *site, size_t i, void *ctx)
{
	const struct not_root *q = ctx;
	return not_root_edge(site->c, site->f, i, q->names);
}

bool ds_site_not_root(const struct ds_site *site, const char *const *names)
{
	struct not_root q = { names };
	return dis_cut_off(site, not_root_cut, &q);
}

#define CONTRA_INSNS 32768   /* larger functions are not walked */

/* The walk of ds_site_contra_id: a path's state is, per id, which arms of
 * its tests it has taken since the last call that might change the id
 * (bit 0: the arm where it was 0, bit 1: not 0), so each instruction is
 * met in at most 16 states. */
const char *ds_site_contra_id(const struct ds_site *site)
{
	/* the calls that only read ids; any other call may change one: the
	 * set*uid() family, syscall(), a library's helper (libcap-ng's
	 * capng_change_id), a local function, a call through a pointer */
	static const char *const readers[] = { "geteuid", "getuid", "getegid", "getgid", NULL };
	const struct dis_func *f = site->f;
	if (!f->n || site->i >= f->n || f->n > CONTRA_INSNS)
		return NULL;
	/* per conditional jump on an id: 1 + its index, 4 when taken on 0 */
	unsigned char *arm = ds_xcalloc(f->n, 1);
	bool any = false;
	for (size_t i = 0; i < f->n; i++) {
		struct ds_site at = { site->c, f, i };
		bool zero;
		int n = dis_zero_test(&at, id_calls, &zero);
		if (n >= 0) {
			arm[i] = (unsigned char)((n + 1) | (zero ? 4 : 0));
			any = true;
		}
	}
	if (!any) {
		free(arm);
		return NULL;
	}
	unsigned char *seen = ds_xcalloc(f->n, 16);
	size_t *stack = ds_xmalloc(f->n * 16 * sizeof *stack), top = 0;
	unsigned pruned = 0;   /* bit per id: a path ended taking both arms */
	bool reached = false;
	stack[top++] = 0;
	seen[0] = 1;
	while (top && !reached) {
		size_t e = stack[--top], i = e >> 4, next[2];
		unsigned st = (unsigned)(e & 15);
		const struct dis_insn *in = &f->in[i];
		bool all;
		if (in->kind == K_CALL && dis_noreturn(in))
			continue;
		if ((in->kind == K_CALL && !dis_named(in, readers)) || in->kind == K_ICALL)
			st = 0;
		unsigned nn = dis_succ(f, i, next, &all);
		reached = i == site->i || all;   /* a switch: anywhere, on any doubt */
		for (unsigned k = 0; k < nn && !reached; k++) {
			unsigned ns = st;
			if (arm[i] && nn == 2) {
				unsigned id = (arm[i] & 3u) - 1, sh = 2 * id;
				/* dis_succ gives the jump's target first */
				bool zero = (k == 0) == ((arm[i] & 4) != 0);
				ns |= (zero ? 1u : 2u) << sh;
				if (((ns >> sh) & 3u) == 3u) {
					pruned |= 1u << id;
					continue;
				}
			}
			if (next[k] < f->n && !seen[next[k] * 16 + ns]) {
				seen[next[k] * 16 + ns] = 1;
				stack[top++] = next[k] << 4 | ns;
			}
		}
	}
	free(arm);
	free(seen);
	free(stack);
	if (reached || !pruned)
		return NULL;
	return pruned & 1 ? id_calls[0] : id_calls[1];
}

/* The walk of first_groups from a function's entry. */
struct first {
	struct deep *d;
	const char *const *names, *const *changes;
	unsigned depth;
	uint64_t home;        /* the site's function: calling it changes a gid */
	bool every_path;      /* a return (or a path leaving) before names fails */
};

static bool drops_first(struct first *w, uint64_t fn);

/* On every path from the entry of f on which the process runs as root
 * (not_root_edge), is one of w->names called before anything that may
 * call one of w->changes (such a call, a local function calling one
 * within depth levels or the site's own, an indirect call or jump)?
 * With every_path, also before the path returns or leaves f; paths ending
 * in a call that does not return need no call.  Otherwise a local
 * function that does so on every path of its own (drops_first: nscd's
 * nscd_init() from main) counts as such a call.  1: yes, with such a
 * call met; 0: yes, none met; -1: no. */
static int first_groups(struct first *w, const struct dis_func *f)
{
	struct ds_code *c = w->d->c;
	if (!f->n)
		return -1;
	unsigned char *seen = ds_xcalloc(f->n, 1);
	size_t *stack = ds_xmalloc(f->n * sizeof *stack), top = 0;
	bool ok = true, grouped = false;
	stack[top++] = 0;
	seen[0] = 1;
	while (top && ok) {
		size_t i = stack[--top];
		const struct dis_insn *in = &f->in[i];
		if ((in->kind == K_CALL || (w->every_path && in->kind == K_JMP)) &&
		    dis_named(in, w->names)) {
			grouped = true;   /* the path goes on with the groups dropped */
			continue;
		}
		if (dis_noreturn(in))
			continue;
		uint64_t to = in->kind == K_CALL || in->kind == K_JMP ? local_callee(c, f, in) : 0;
		if (to >= f->start && to < f->end)
			to = 0;   /* i386's `call .+5; pop %ebx`: no other function */
		if (to && to != w->home && !w->every_path && drops_first(w, to)) {
			grouped = true;
			continue;
		}
		if (in->kind == K_ICALL || in->kind == K_IJMP || dis_named(in, w->changes) ||
		    (to && (to == w->home || fn_calls(w->d, to, w->depth) || w->d->cut))) {
			ok = false;   /* may change a gid before the groups are dropped */
			break;
		}
		if (w->every_path && to && never_returns(w->d, to))
			continue;
		size_t next[2], skip = not_root_edge(c, f, i, w->names);
		bool all;
		unsigned nn = dis_succ(f, i, next, &all);
		/* a return, a tail call, a jump out of the function */
		if (w->every_path && (in->kind == K_RET || (in->kind == K_JMP && nn == 0) ||
		                      (in->kind == K_CJMP && nn < 2))) {
			ok = false;
			break;
		}
		for (unsigned k = 0; k < nn; k++)
			if (next[k] < f->n && next[k] != skip && !seen[next[k]]) {
				seen[next[k]] = 1;
				stack[top++] = next[k];
			}
	}
	free(seen);
	free(stack);
	return !ok ? -1 : grouped;
}

/* Does the local function at fn call one of w->names on every path from
 * its entry to its return, before anything that may change a gid? */
static bool drops_first(struct first *w, uint64_t fn)
{
	struct dis_func f;
	if (!dis_decode_deep(w->d->c, fn, w->d->budget, (size_t)-1, &f)) {
		w->d->cut = true;
		return false;
	}
	struct first in = *w;
	in.every_path = true;
	bool yes = first_groups(&in, &f) == 1;
	free(f.in);
	return yes;
}

bool ds_site_main_first(const struct ds_site *site, const char *const *names,
                        const char *const *changes, unsigned depth)
{
	struct ds_code *c = site->c;
	uint64_t m = dis_main(c);
	struct dis_func f;
	struct deep d = { .c = c, .names = changes, .home = m };
	d.budget = dis_deep_budget(c, DEEP_QUERY);
	if (!m || m == site->f->start || !dis_decode_deep(c, m, d.budget, (size_t)-1, &f))
		return false;
	struct first w = { &d, names, changes, depth, site->f->start, false };
	bool yes = first_groups(&w, &f) == 1;
	free(f.in);
	return yes;
}
