/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * distsec merge REPORT.json...: the JSON reports of the shards of one scan
 * (scan --shard K/N, run on one machine or many) back into one scan
 * result, which main.c renders through the same outputs as a scan: any
 * format, -o, --group-by, --summary, --fail-on.  The result is the one an
 * unsharded run gives, apart from summary.seconds (here the slowest
 * shard's):
 *   - findings: every report's (pass records too: --shard writes them, the
 *     per-package table and -v need them), each rebuilt as a ds_finding
 *     with its owner, input and details, then sorted as finish() sorts;
 *   - inputs: every report's; one package file in two reports means the
 *     shards overlap, an error;
 *   - summary counts added (packages counted again, by name, as finish()
 *     does: one package's versions may be in two shards); skipped checks, warnings and the checks that
 *     ran joined; a waiver is unused when no shard used it;
 *   - root, backend and profile must agree; with "shard" records, every
 *     share K of N must be there exactly once;
 *   - against a --baseline, each shard compared its findings with the
 *     whole old report, so an old finding another shard still has is
 *     "absent" in this one: an old finding (check, path, rule, severity)
 *     is absent as many times as the old report has it (a shard's absent
 *     plus unchanged copies) less every shard's unchanged ones.
 * Reports are read with ds_report_read (report.c), as --baseline and
 * diff read them.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct ds_merged {
	struct ds_report **reports;   /* the strings of the result point into them */
	size_t nreports, repcap;
	struct ds_strmap *details;    /* details text -> one json_object * for all its findings */
	struct ds_backend backend;    /* only its name: nothing is opened */
	size_t inputcap, findcap, warncap;
};

struct merge {
	struct ds_scan *s;
	struct ds_merged *m;
	struct ds_options *opt;
	struct ds_strmap *inputs;  /* path -> struct ds_input * */
	struct ds_strmap *unused;  /* waiver -> reports that did not use it */
	struct ds_strmap *warned;  /* the warnings kept */
	bool *shards;              /* [K-1]: share K seen */
	size_t nshard;             /* N of the "shard" records, 0 none */
	size_t sharded;            /* reports with a "shard" record */
	struct ds_strmap *unchanged; /* finding key -> unchanged findings of every report */
	struct ds_strmap *absent_at; /* finding key -> index + 1 in absent */
	struct absent_key {
		char *key;
		size_t copies;     /* in the old report */
		struct ds_absent *records; /* the first report's absent ones of the key */
	} *absent;
	size_t nabsent, absentcap;
	const char *file;          /* the report being read */
	struct ds_error *err;
};

static int fail(struct merge *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct merge *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ds_error_vset(g->err, DS_ERR_USAGE, fmt, ap);
	va_end(ap);
	return -1;
}

/* The same root, backend and profile in every report. */
static int same_run(struct merge *g, const struct ds_report *r)
{
	struct ds_scan *s = g->s;
	/* null: only package files were read */
	const char *root = r->has_root && !r->root ? "" : r->root, *backend = r->backend;
	const char *profile = r->profile;
	if (!root || !backend)
		return fail(g, "no root or backend");
	if (!s->root) {
		s->root = ds_xstrdup(root[0] ? root : "/");
		s->root_unread = !root[0];
		g->m->backend.name = backend;
		s->profile = profile;
		return 0;
	}
	if (s->root_unread != !root[0] || (root[0] && strcmp(s->root, root)) ||
	    strcmp(s->backend->name, backend))
		return fail(g, "root %s, backend %s, where the first report has root %s, backend %s: "
		            "not shards of one scan", root[0] ? root : "(none)", backend,
		            s->root_unread ? "(none)" : s->root, s->backend->name);
	if ((s->profile == NULL) != (profile == NULL) || (profile && strcmp(s->profile, profile)))
		return fail(g, "profile %s, where the first report has %s: not shards of one scan",
		            profile ? profile : "none", s->profile ? s->profile : "none");
	return 0;
}

static int shard(struct merge *g, const struct ds_report *r)
{
	size_t k = r->shard_k, n = r->shard_n;   /* in range: report.c */
	if (!n)
		return 0;
	if (g->sharded++ == 0) {
		g->nshard = n;
		g->shards = ds_xcalloc(n, sizeof *g->shards);
	} else if (n != g->nshard) {
		return fail(g, "shard %zu/%zu, where the others are of %zu", k, n, g->nshard);
	}
	if (g->shards[k - 1])
		return fail(g, "shard %zu/%zu is in two reports", k, n);
	g->shards[k - 1] = true;
	return 0;
}

static int add_inputs(struct merge *g, const struct ds_report *r)
{
	struct ds_scan *s = g->s;
	for (size_t i = 0; i < r->ninputs; i++) {
		const struct ds_report_input *ri = &r->inputs[i];
		uintptr_t *slot = ds_strmap_put(g->inputs, ri->path);
		if (*slot)
			return fail(g, "package file %s is in another report too: the shards overlap",
			            ri->path);
		struct ds_input *in = ds_xcalloc(1, sizeof *in);
		in->path = ds_xstrdup(ri->path);
		in->format = ri->format ? ri->format : "unknown";
		in->size = ri->size;
		memcpy(in->sha256, ri->sha256, 65);
		in->via = ri->via ? ds_xstrdup(ri->via) : NULL;
		in->pkg = *ri->pkg;   /* its strings are the report's */
		*slot = (uintptr_t)in;
		ds_push(s->inputs, s->ninputs, g->m->inputcap, in);
	}
	return 0;
}

/* One json-c object per distinct details text, shared by reference. */
static json_object *details_of(struct ds_merged *m, const struct ds_report_finding *f)
{
	uintptr_t *slot = ds_strmap_put(m->details, f->details);
	if (!*slot)
		*slot = (uintptr_t)ds_report_details(f);
	return json_object_get((json_object *)*slot);
}

static char *finding_key(const struct ds_report_finding *d)
{
	return ds_finding_key(d->check_id, d->path, d->rule, ds_severity_name(d->severity));
}

/* A report's absent findings, counted per key with its unchanged ones
 * (mine: key -> this report's unchanged copies). */
static void add_absent(struct merge *g, const struct ds_report *r, struct ds_strmap *mine)
{
	struct ds_strmap *seen = ds_strmap_new();   /* the keys this report brought */
	for (size_t i = 0; i < r->nabsent; i++) {
		char *key = finding_key(&r->absent[i]);
		uintptr_t *at = ds_strmap_put(g->absent_at, key);
		if (!*at) {
			uintptr_t *u = ds_strmap_get(mine, key);
			struct absent_key a = { ds_xstrdup(key), u ? *u : 0, NULL };
			ds_push(g->absent, g->nabsent, g->absentcap, a);
			*at = g->nabsent;
			*ds_strmap_put(seen, key) = 1;
		}
		if (ds_strmap_get(seen, key)) {
			struct absent_key *a = &g->absent[*at - 1];
			ds_absent_add(&a->records, &r->absent[i]);
			a->copies++;
		}
		free(key);
	}
	ds_strmap_free(seen);
}

/* s->absent and its count from every report's (see the top). */
static void seal_absent(struct merge *g)
{
	struct ds_scan *s = g->s;
	s->stats.absent = 0;
	for (size_t k = 0; k < g->nabsent; k++) {
		const struct absent_key *a = &g->absent[k];
		uintptr_t *u = ds_strmap_get(g->unchanged, a->key);
		size_t left = u && *u >= a->copies ? 0 : a->copies - (u ? *u : 0);
		for (size_t i = 0; i < left && i < a->records->n; i++) {
			ds_absent_add(&s->absent, a->records->f[i]);
			s->stats.absent++;
		}
	}
}

static int add_findings(struct merge *g, const struct ds_report *r, bool *passes)
{
	struct ds_scan *s = g->s;
	for (size_t i = 0; i < r->nfindings; i++) {
		const struct ds_report_finding *d = &r->findings[i];
		if (!d->check)
			return fail(g, "finding %zu: unknown check %s (a report of another distsec "
			            "version?)", i, d->check_id);
		/* a scan records these only with -v (workers.c), and they
		 * count towards summary.packages */
		if (d->check == &ds_check_elf_not_judged && !g->opt->verbose &&
		    d->severity == DS_SEV_PASS)
			continue;
		uintptr_t *in = d->input ? ds_strmap_get(g->inputs, d->input) : NULL;
		if (d->input && !in)
			return fail(g, "finding %zu names input %s, which the report does not list",
			            i, d->input);
		struct ds_finding *f = ds_xcalloc(1, sizeof *f);
		f->check = d->check;
		f->severity = d->severity;
		*passes |= f->severity == DS_SEV_PASS;
		f->path = ds_xstrdup(d->path);
		f->message = ds_xstrdup(d->message);
		f->details = details_of(g->m, d);
		f->rule = d->rule ? ds_xstrdup(d->rule) : NULL;
		f->waiver = d->waiver;
		f->owner = d->owner;
		f->input = in ? (const struct ds_input *)*in : NULL;
		f->baseline = d->baseline;
		ds_push(s->findings, s->nfindings, g->m->findcap, f);
	}
	struct ds_strmap *mine = ds_strmap_new();
	for (size_t i = 0; i < r->nfindings; i++)
		if (r->findings[i].baseline == DS_BASELINE_UNCHANGED) {
			char *key = finding_key(&r->findings[i]);
			++*ds_strmap_put(mine, key);
			++*ds_strmap_put(g->unchanged, key);
			free(key);
		}
	add_absent(g, r, mine);
	ds_strmap_free(mine);
	return 0;
}

static void add_summary(struct merge *g, const struct ds_report *r, size_t nth)
{
	struct ds_scan *s = g->s;
	struct ds_stats *st = &s->stats;
	st->files += r->sum.files;
	st->elf += r->sum.elf_files;
	st->elf_not_judged += r->sum.elf_not_judged;
	st->scripts += r->sum.scripts;
	st->waived += r->sum.waived;
	for (int i = DS_SEV_INFO; i <= DS_SEV_ERROR; i++)
		st->by_severity[i] += r->sum.by_severity[i];
	if (r->sum.seconds > st->seconds)
		st->seconds = r->sum.seconds;
	if (r->sum.baseline) {
		if (!g->opt->baseline)
			g->opt->baseline = r->sum.baseline_file ? r->sum.baseline_file : "";
		st->new_findings += r->sum.new_findings;
		st->unchanged += r->sum.unchanged;
	}
	for (size_t i = 0; i < r->sum.nchecks_run; i++)
		for (size_t k = 0; k < ds_nchecks; k++)
			if (!strcmp(ds_checks[k]->id, r->sum.checks_run[i]))
				s->enabled[k] = true;
	for (size_t i = 0; i < r->sum.nskipped; i++) {
		const struct ds_check *c = ds_check_find(r->sum.skipped[i].check);
		bool seen = false;
		for (size_t k = 0; c && k < s->nskipped; k++)
			seen |= s->skipped[k].check == c;
		if (!c || seen)
			continue;
		for (size_t k = 0; k < ds_nchecks; k++)
			if (ds_checks[k] == c)
				s->enabled[k] = true;
		const char *why = r->sum.skipped[i].reason;
		struct ds_skip sk = { c, ds_xstrdup(why ? why : "") };
		ds_push(s->skipped, s->nskipped, s->priv->skipped_cap, sk);
	}
	for (size_t i = 0; i < r->sum.nwarnings; i++) {
		uintptr_t *seen = ds_strmap_put(g->warned, r->sum.warnings[i]);
		if (!*seen) {
			*seen = 1;
			char *copy = ds_xstrdup(r->sum.warnings[i]);
			ds_push(s->warnings, s->nwarnings, g->m->warncap, copy);
		}
	}
	/* a waiver is unused when no report used it: counted down per report */
	for (size_t i = 0; i < r->sum.nunused; i++) {
		uintptr_t *c = ds_strmap_put(g->unused, r->sum.unused_waivers[i]);
		if (*c == nth)
			++*c;
	}
}

/* The unused waivers: in every report's list, in the first report's order. */
static void seal_unused(struct merge *g)
{
	const struct ds_report *first = g->m->reports[0];
	const char **keep = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < first->sum.nunused; i++) {
		const char *w = first->sum.unused_waivers[i];
		uintptr_t *c = ds_strmap_get(g->unused, w);
		if (c && *c == g->m->nreports) {
			*c = 0;   /* listed once */
			ds_push(keep, n, cap, w);
		}
	}
	g->s->priv->waivers = ds_waivers_unused_only(keep, n);
	free(keep);
}

static int read_report(struct merge *g, const struct ds_report *r, size_t nth)
{
	bool passes = false;
	if (same_run(g, r) || shard(g, r) || add_inputs(g, r) || add_findings(g, r, &passes))
		return -1;
	add_summary(g, r, nth);
	if (!passes && r->sum.elf_files && !g->opt->quiet)
		ds_note("distsec merge: note: %s has no pass records (a scan without --shard or "
		        "-v): the per-package table lacks the packages that passed", g->file);
	return 0;
}

struct ds_scan *ds_merge_reports(struct ds_options *opt, const char *const *files, size_t n,
                                 struct ds_error *err)
{
	struct ds_scan *s = ds_xcalloc(1, sizeof *s);
	s->opt = opt;
	s->rootfd = -1;
	s->priv = ds_xcalloc(1, sizeof *s->priv);
	s->priv->merged = ds_xcalloc(1, sizeof *s->priv->merged);
	s->enabled = ds_xcalloc(ds_nchecks, sizeof *s->enabled);
	struct ds_merged *m = s->priv->merged;
	m->details = ds_strmap_new();
	s->backend = &m->backend;
	struct merge g = { .s = s, .m = m, .opt = opt, .inputs = ds_strmap_new(),
	                   .unused = ds_strmap_new(), .warned = ds_strmap_new(),
	                   .unchanged = ds_strmap_new(), .absent_at = ds_strmap_new(), .err = err };
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		g.file = files[i];
		struct ds_report *r = ds_report_read(files[i], err);
		if (r)
			ds_push(m->reports, m->nreports, m->repcap, r);
		if (!r) {
			ds_error_prefix(err, "merge: ");
			rc = -1;
		} else if (read_report(&g, r, i) != 0) {
			ds_error_prefix(err, "merge: %s: ", files[i]);
			rc = -1;
		}
	}
	if (rc == 0 && g.sharded && g.sharded != n)
		rc = ds_error_set(err, DS_ERR_USAGE, "merge: %zu of the %zu reports are shards (--shard): "
		                  "not one scan's shards", g.sharded, n);
	for (size_t k = 0; rc == 0 && k < g.nshard; k++)
		if (!g.shards[k])
			rc = ds_error_set(err, DS_ERR_USAGE, "merge: shard %zu/%zu is missing", k + 1, g.nshard);
	if (rc == 0) {
		seal_unused(&g);
		seal_absent(&g);
		s->stats.packages = ds_count_packages(s, s->findings, s->nfindings);
		if (s->nfindings)
			qsort(s->findings, s->nfindings, sizeof *s->findings, ds_finding_cmp);
		ds_inputs_sort(s);
	}
	free(g.shards);
	ds_strmap_free(g.inputs);
	ds_strmap_free(g.unused);
	ds_strmap_free(g.warned);
	ds_strmap_free(g.unchanged);
	ds_strmap_free(g.absent_at);
	for (size_t k = 0; k < g.nabsent; k++) {
		free(g.absent[k].key);
		ds_absent_free(g.absent[k].records);
	}
	free(g.absent);
	if (rc != 0) {
		ds_scan_free(s);
		return NULL;
	}
	return s;
}

void ds_merge_free(struct ds_scan *s)
{
	struct ds_merged *m = s->priv->merged;
	for (size_t i = 0; i < s->ninputs; i++) {
		free(s->inputs[i]->path);
		free(s->inputs[i]->via);
		free(s->inputs[i]);
	}
	free(s->inputs);
	size_t pos = 0;
	uintptr_t d;
	while (ds_strmap_next(m->details, &pos, &d))
		json_object_put((json_object *)d);
	ds_strmap_free(m->details);
	for (size_t i = 0; i < m->nreports; i++)
		ds_report_free(m->reports[i]);
	free(m->reports);
	ds_waivers_free(s->priv->waivers);
	free(m);
	free(s->priv);
	s->priv = NULL;
}
