/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bounded interprocedural steps (include/distsec/disasm.h): a direct call
 * to a local function, on a path from or to a call site, that reaches a
 * call of given imports itself or through a few more levels of direct
 * calls; and a function's direct callers.  Every walk has its own caps
 * (functions and calls looked at, bytes decoded per query and per file)
 * and finds nothing once over one: the file's own caps, which make the
 * checks fall back to imports, are never touched.
 */
#include <stdlib.h>
#include <string.h>

#include "disasm_int.h"
#include "distsec/util.h"

#define DEEP_FUNCS 32             /* functions decoded per query */
#define DEEP_CALLS 64             /* local calls of the site's function tried */
#define DEEP_QUERY (512u << 10)   /* bytes decoded per query */

struct deep {
	struct ds_code *c;
	const char *const *names;
	uint64_t seen[DEEP_FUNCS];
	size_t nseen;
	size_t budget;                /* the c->deep_decoded this query may reach */
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

/* Does the function at fn call one of d->names, itself or through direct
 * calls up to depth levels down (1: itself)?  Any call in its code counts
 * (a function's code is reachable from its entry but for dead code). */
static const char *fn_calls(struct deep *d, uint64_t fn, unsigned depth)
{
	uint64_t level[DEEP_FUNCS], next[DEEP_FUNCS];
	size_t n = 0;
	if (first_visit(d, fn))
		level[n++] = fn;
	for (unsigned l = 0; l < depth && n; l++) {
		size_t nn = 0;
		for (size_t k = 0; k < n; k++) {
			struct dis_func f;
			if (!dis_decode_deep(d->c, level[k], d->budget, &f))
				continue;
			const char *hit = NULL;
			for (size_t i = 0; i < f.n && !hit; i++) {
				hit = dis_named(&f.in[i], d->names);
				uint64_t to = hit ? 0 : local_callee(d->c, &f, &f.in[i]);
				if (to && l + 1 < depth && nn < DEEP_FUNCS && first_visit(d, to))
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

static void deep_init(struct deep *d, const struct ds_site *site, const char *const *names)
{
	struct ds_code *c = site->c;
	*d = (struct deep){ .c = c, .names = names };
	d->budget = c->deep_decoded + DEEP_QUERY < DEEP_FILE ? c->deep_decoded + DEEP_QUERY : DEEP_FILE;
	first_visit(d, site->f->start);   /* its own calls were looked at */
}

const char *ds_site_calls_after_deep(const struct ds_site *site, const char *const *names,
                                     unsigned depth, uint64_t *via)
{
	const struct dis_func *f = site->f;
	if (site->i + 1 >= f->n || !depth)
		return NULL;
	unsigned char *mark = ds_xcalloc(f->n, 1);
	const char *hit = dis_reach(f, site->i + 1, names, (size_t)-1, NULL, mark);
	struct deep d;
	deep_init(&d, site, names);
	size_t tried = 0;
	for (size_t i = 0; !hit && i < f->n && tried < DEEP_CALLS; i++) {
		uint64_t to = mark[i] ? local_callee(site->c, f, &f->in[i]) : 0;
		if (!to)
			continue;
		tried++;
		if ((hit = fn_calls(&d, to, depth)) != NULL && via)
			*via = to;
	}
	free(mark);
	return hit;
}

const char *ds_site_calls_before_deep(const struct ds_site *site, const char *const *names,
                                      unsigned depth, uint64_t *via)
{
	const struct dis_func *f = site->f;
	if (!depth)
		return NULL;
	struct deep d;
	deep_init(&d, site, names);
	size_t tried = 0;
	const char *hit = NULL;
	for (size_t j = 0; !hit && j < f->n && tried < DEEP_CALLS; j++) {
		uint64_t to = f->in[j].kind == K_CALL ? local_callee(site->c, f, &f->in[j]) : 0;
		if (!to || j == site->i)
			continue;
		tried++;
		if (!dis_reach(f, j + 1, NULL, site->i, NULL, NULL))
			continue;
		if ((hit = fn_calls(&d, to, depth)) != NULL && via)
			*via = to;
	}
	return hit;
}
