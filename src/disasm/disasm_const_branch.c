/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Branches a global decides once for all (ds_site_const_dead,
 * include/distsec/disasm.h): mafft's initFiles prints /tmp/pre.%d only
 * `if (ppid)`, and the one store to ppid in the program is `ppid = 0`.  A
 * global's values are its initial bytes and the constant each store
 * ds_code_each_store finds writes; a store of anything else, its address
 * taken, or a dynamic symbol naming it (a library's variable copied into
 * the program, an export a plugin may set) and it may hold anything.
 * One level up (ds_site_callers_const_dead): mafft's addsingle tests
 * `rnaprediction == 'r'` before calling the function that prints
 * /tmp/_rnaalifoldin.%d, and addsingle never sets it to 'r'.
 * An argument is such a global when only direct calls name its function:
 * its values are the constants they pass (`if (debug) dump()`, every call
 * passing debug = 0).
 */
#include <elf.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "disasm_int.h"
#include "distsec/elfview.h"

#define VALUES_MAX DIS_VALUES_MAX   /* distinct values of one global, kept */
#define GLOBALS_MAX 4       /* globals asked about per site */
#define CONST_INSNS 32768   /* larger functions are not walked */
/* How far into a record (whose address a stripped program may pass to a
 * function that sets the global as its member) a global may lie: an
 * address computed up to this far below it, and it may hold anything. */
#define RECORD_BELOW 512

struct values {
	uint64_t addr;      /* the global's, or the function's whose argument */
	unsigned size;      /* the global's, 0 for an argument */
	unsigned arg;       /* the argument's index */
	bool known;   /* every value it may hold is in v */
	int64_t v[VALUES_MAX];
	size_t n;
};

/* What a function's caller passes it, the same way whatever the width
 * the function reads it at. */
static bool small(int64_t x)
{
	return x >= 0 && x < 128;
}

/* A value of size bytes (0: an argument's, of a width not known) that
 * reads the same zero- or sign-extended, so that a compare with it means
 * the same whatever load read it. */
static bool plain(int64_t x, unsigned size)
{
	if (!size)
		return small(x);
	return x >= 0 && (size >= 8 || (uint64_t)x < (1ull << (size * 8 - 1)));
}

static void add_value(struct values *g, int64_t x)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->v[i] == x)
			return;
	if (g->n == VALUES_MAX || !plain(x, g->size))
		g->known = false;
	else
		g->v[g->n++] = x;
}

static int on_store(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	(void)c;
	struct values *g = ctx;
	struct ds_argsrc a = ds_site_stored(site);
	if (a.kind != DS_SRC_CONST)
		g->known = false;
	else if (g->size < 8)
		add_value(g, (int64_t)((uint64_t)a.value & ((1ull << (g->size * 8)) - 1)));
	else
		add_value(g, a.value);
	return !g->known;   /* stop at the first value not known */
}

/* Does a defined dynamic symbol cover [addr, addr + size)? */
static bool dynamic_name(const struct ds_code *c, uint64_t addr, unsigned size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(c->v->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = d ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 1; i < n; i++) {
			GElf_Sym s;
			if (gelf_getsym(d, (int)i, &s) && s.st_shndx != SHN_UNDEF &&
			    s.st_value < addr + size && addr < s.st_value + (s.st_size ? s.st_size : 1))
				return true;
		}
	}
	return false;
}

/* The bytes the global starts with: a NOBITS section's zeros, or read. */
static bool initial_value(const struct ds_code *c, uint64_t addr, unsigned size, int64_t *x)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(c->v->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || addr < sh.sh_addr ||
		    addr - sh.sh_addr >= sh.sh_size || size > sh.sh_size - (addr - sh.sh_addr))
			continue;
		if (sh.sh_type == SHT_NOBITS) {
			*x = 0;
			return true;
		}
		unsigned char b[8];
		if (sh.sh_type != SHT_PROGBITS ||
		    !dis_read_at(c, sh.sh_offset + (addr - sh.sh_addr), b, size))
			return false;
		uint64_t u = 0;
		for (unsigned k = 0; k < size; k++)
			u |= (uint64_t)b[c->arch->data == ELFDATA2MSB ? size - 1 - k : k] << (8 * k);
		*x = (int64_t)u;
		return true;
	}
	return false;
}

static void search_values(struct ds_code *c, struct values *g)
{
	int64_t x;
	g->known = !dynamic_name(c, g->addr, g->size) && initial_value(c, g->addr, g->size, &x);
	if (!g->known)
		return;
	add_value(g, x);
	if (g->known && dis_each_store_in(c, g->addr, g->size, RECORD_BELOW, on_store, g) < 0)
		g->known = false;
}

/* The global's values: the file's memo, else searched and remembered
 * (a store search decodes every function that may name it). */
static void find_values(struct ds_code *c, struct values *g)
{
	for (size_t i = 0; i < c->nvalue_memo; i++) {
		const struct dis_global_values *m = &c->value_memo[i];
		if (m->addr == g->addr && m->size == g->size) {
			g->known = m->known;
			g->n = m->n;
			memcpy(g->v, m->v, sizeof g->v);
			return;
		}
	}
	search_values(c, g);
	struct dis_global_values *m = &c->value_memo[c->value_memo_next];
	*m = (struct dis_global_values){ .addr = g->addr, .size = g->size, .known = g->known, .n = g->n };
	memcpy(m->v, g->v, sizeof m->v);
	c->value_memo_next = (c->value_memo_next + 1) % DIS_VALUE_MEMO;
	if (c->nvalue_memo < DIS_VALUE_MEMO)
		c->nvalue_memo++;
}

#define DIRECT_MAX 32   /* direct calls of one function judged */

/* The direct calls and tail jumps dis_site_only_direct listed, each
 * marked once a walk of the callers (ds_site_callers_all) has judged it. */
struct direct_calls {
	uint64_t at[DIRECT_MAX];
	bool seen[DIRECT_MAX];
	size_t n;
};

static void judged(struct direct_calls *k, const struct ds_site *call)
{
	for (size_t j = 0; j < k->n; j++)
		if (k->at[j] == call->f->in[call->i].addr)
			k->seen[j] = true;
}

/* Did the walk judge every call the dead-code query listed, not only
 * those it found itself? */
static bool all_judged(const struct direct_calls *k)
{
	for (size_t j = 0; j < k->n; j++)
		if (!k->seen[j])
			return false;
	return true;
}

struct arg_values {
	struct direct_calls k;
	unsigned n;
	struct values *g;
};

static bool on_arg(const struct ds_site *call, void *ctx)
{
	struct arg_values *a = ctx;
	struct ds_argsrc v = ds_site_arg(call, a->n);
	if (v.kind != DS_SRC_CONST || v.guarded || !plain(v.value, 0))
		return false;
	add_value(a->g, v.value);
	judged(&a->k, call);
	return a->g->known;
}

/* The values argument n of the function holding the site may hold: the
 * constants its callers pass, when nothing but direct calls names it. */
static void find_arg_values(const struct ds_site *site, unsigned n, struct values *g)
{
	struct arg_values a = { .n = n, .g = g };
	/* known while on_arg collects (add_value clears it past VALUES_MAX,
	 * and on_arg then stops the walk, which makes the answer no) */
	g->known = true;
	bool all = n < 6 && dis_site_only_direct(site, a.k.at, DIRECT_MAX, &a.k.n) && a.k.n &&
	           ds_site_callers_all(site, on_arg, &a) && all_judged(&a.k);
	g->known = all;
}

/* The globals and arguments the tests on the way are of, and their
 * values.  An argument's key is the function's start, size 0. */
struct globals {
	struct values g[GLOBALS_MAX];
	size_t n;
};

/* What the conditional jump at i tests, as a key of struct values: a
 * global (its address and size) or the function's argument (the
 * function's start, size 0, the argument's index); false for anything
 * else, or a constant the values would not compare the same at. */
static bool tested(const struct ds_site *site, size_t i, struct values *key)
{
	const struct dis_func *f = site->f;
	const struct dis_insn *in = &f->in[i];
	struct ds_site at = { site->c, f, i };
	*key = (struct values){ .addr = f->start };
	if (in->kind != K_CJMP)
		return false;
	if (dis_cond_global(&at, &key->addr, &key->size))
		return plain(in->value, key->size);
	return dis_cond_param(&at, &key->arg) && plain(in->value, 0);
}

/* A first pass: both edges out of every jump a value could decide cut.
 * If the site is still reached, no value decides it. */
static size_t any_test(const struct ds_site *site, size_t i, void *ctx)
{
	(void)ctx;
	struct values key;
	return tested(site, i, &key) ? DIS_CUT_BOTH : (size_t)-1;
}

/* The successor of the conditional jump at i that no value of the global
 * or argument it tests takes, or (size_t)-1. */
static size_t never_taken(const struct ds_site *site, size_t i, void *ctx)
{
	struct globals *gs = ctx;
	struct values *g = gs->g, key;
	const struct dis_func *f = site->f;
	const struct dis_insn *in = &f->in[i];
	if (!tested(site, i, &key))
		return (size_t)-1;
	size_t k = 0;
	while (k < gs->n && (g[k].addr != key.addr || g[k].size != key.size || g[k].arg != key.arg))
		k++;
	if (k == gs->n) {
		if (gs->n == GLOBALS_MAX)
			return (size_t)-1;
		g[k] = key;
		if (key.size) {
			find_values(site->c, &g[k]);
		} else {
			struct ds_site at = { site->c, f, i };
			find_arg_values(&at, key.arg, &g[k]);
		}
		gs->n++;
	}
	if (!g[k].known)
		return (size_t)-1;
	bool taken = false, not_taken = false;
	for (size_t j = 0; j < g[k].n; j++) {
		bool eq = g[k].v[j] == in->value;
		if (eq == (in->cc == CC_EQ))
			taken = true;
		else
			not_taken = true;
	}
	if (taken == not_taken)
		return (size_t)-1;
	return taken ? i + 1 : dis_index_of(f, in->target);
}

/* The lifters that give conditional jumps their condition. */
static bool lifted_conditions(const struct ds_code *c)
{
	unsigned m = c->arch->machine;
	return m == EM_X86_64 || m == EM_386 || m == EM_AARCH64;
}

static bool cut_in_function(const struct ds_site *site)
{
	if (site->f->n > CONST_INSNS)
		return false;
	struct globals gs = { .n = 0 };
	return dis_cut_off(site, any_test, NULL) && dis_cut_off(site, never_taken, &gs);
}

bool ds_site_const_dead(const struct ds_site *site)
{
	return lifted_conditions(site->c) && cut_in_function(site);
}

/* A caller's call (ds_site_callers_all): cut off in its function, and
 * marked as such when it is one of those the dead-code query listed. */
static bool call_cut(const struct ds_site *call, void *ctx)
{
	if (!cut_in_function(call))
		return false;
	judged(ctx, call);
	return true;
}

bool ds_site_callers_const_dead(const struct ds_site *site)
{
	struct direct_calls k = { .n = 0 };
	return lifted_conditions(site->c) &&
	       dis_site_only_direct(site, k.at, DIRECT_MAX, &k.n) && k.n > 0 &&
	       ds_site_callers_all(site, call_cut, &k) && all_judged(&k);
}
