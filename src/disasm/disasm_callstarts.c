/* Function starts from the targets of direct calls, for code whose
 * symbols and unwind tables name too few: a stripped program built without
 * unwind tables (Alpine's musl busybox on x86-64 and aarch64, GCC's C on
 * armhf, whose .ARM.exidx names only what can throw).  Without starts, the
 * code reads as one function past every cap and is judged by its imports. */
#include <stdlib.h>

#include "disasm_int.h"
#include "distsec/util.h"

#define CALL_SITES_MAX (1u << 20)   /* call sites looked at */

struct call_site {
	uint64_t target, site;
};

struct call_scan {
	dis_call_at_fn *at;
	unsigned step;
	struct call_site *v;
	size_t n, cap;
};

static int cmp_site(const void *a, const void *b)
{
	const struct call_site *x = a, *y = b;
	if (x->target != y->target)
		return x->target < y->target ? -1 : 1;
	return x->site < y->site ? -1 : x->site > y->site;
}

static void sites_in(struct ds_code *c, const unsigned char *b, size_t len, uint64_t addr,
                     void *arg)
{
	struct call_scan *cs = arg;
	for (size_t i = 0; i < len && cs->n < CALL_SITES_MAX; i += cs->step) {
		uint64_t t = cs->at(b + i, len - i, addr + i);
		const struct dis_span *sp = t ? dis_span_of(c, t) : NULL;
		if (sp && !sp->plt)
			ds_push(cs->v, cs->n, cs->cap, ((struct call_site){ t, addr + i }));
	}
}

void dis_starts_from_calls(struct ds_code *c, size_t *cap, dis_call_at_fn *at, unsigned step,
                           unsigned min_sites, bool (*keep)(const struct ds_code *, uint64_t))
{
	struct call_scan cs = { at, step, NULL, 0, 0 };
	(void)dis_each_chunk(c, sites_in, &cs);   /* a failed read: what was found */
	if (cs.n)
		qsort(cs.v, cs.n, sizeof *cs.v, cmp_site);
	for (size_t i = 0; i < cs.n; ) {
		/* the distinct sites calling this target (a chunk's overlap is
		 * seen twice) */
		size_t j = i + 1, sites = 1;
		for (; j < cs.n && cs.v[j].target == cs.v[i].target; j++)
			sites += cs.v[j].site != cs.v[j - 1].site;
		if (sites >= min_sites && (!keep || keep(c, cs.v[i].target)))
			dis_add_start(c, cs.v[i].target, cap);
		i = j;
	}
	free(cs.v);
}
