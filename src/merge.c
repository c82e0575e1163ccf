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
 *     share K of N must be there exactly once.
 * Reports are read with ds_report_load (baseline.c), as --baseline and
 * diff read them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct ds_merged {
	json_object **docs;        /* the reports: the strings below point into them */
	size_t ndocs, doccap;
	struct ds_pkg **pkgs;      /* owners of the rebuilt findings */
	size_t npkgs, pkgcap;
	struct ds_backend backend; /* only its name: nothing is opened */
	size_t inputcap, findcap, warncap;
};

static size_t count(json_object *o, const char *key)
{
	json_object *v;
	int64_t n = o && json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : 0;
	return n > 0 ? (size_t)n : 0;
}

static json_object *array(json_object *o, const char *key)
{
	json_object *v;
	return o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_array)
	       ? v : NULL;
}

static size_t len(json_object *a)
{
	return a ? json_object_array_length(a) : 0;
}

struct merge {
	struct ds_scan *s;
	struct ds_merged *m;
	struct ds_options *opt;
	struct ds_strmap *inputs;  /* path -> struct ds_input * */
	struct ds_strmap *unused;  /* waiver -> reports that did not use it */
	bool *shards;              /* [K-1]: share K seen */
	size_t nshard;             /* N of the "shard" records, 0 none */
	size_t sharded;            /* reports with a "shard" record */
	const char *file;          /* the report being read */
	char err[256];
};

static int fail(struct merge *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct merge *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(g->err, sizeof g->err, fmt, ap);
	va_end(ap);
	return -1;
}

static const struct ds_pkg *pkg_of(struct ds_merged *m, json_object *o)
{
	struct ds_pkg *p = ds_xcalloc(1, sizeof *p);
	p->name = ds_report_str(o, "name");
	p->version = ds_report_str(o, "version");
	p->arch = ds_report_str(o, "arch");
	p->source = ds_report_str(o, "source");
	p->maintainer = ds_report_str(o, "maintainer");
	p->origin = ds_report_str(o, "origin");
	p->candidate = ds_report_str(o, "candidate");
	ds_push(m->pkgs, m->npkgs, m->pkgcap, p);
	return p;
}

static void owner_of(struct ds_merged *m, json_object *o, struct ds_owner *out)
{
	const char *status = ds_report_str(o, "status");
	memset(out, 0, sizeof *out);
	if (status && !strcmp(status, "package")) {
		out->status = DS_OWNER_PACKAGE;
		out->pkgs[out->npkgs++] = pkg_of(m, o);
		json_object *also = array(o, "also_owned_by");
		for (size_t i = 0; i < len(also) && out->npkgs < DS_OWNER_MAX; i++)
			out->pkgs[out->npkgs++] = pkg_of(m, json_object_array_get_idx(also, i));
	} else if (status && !strcmp(status, "not-owned")) {
		out->status = DS_OWNER_NOT_OWNED;
	}
}

/* The same root, backend and profile in every report. */
static int same_run(struct merge *g, json_object *doc)
{
	struct ds_scan *s = g->s;
	const char *root = ds_report_str(doc, "root"), *backend = ds_report_str(doc, "backend");
	const char *profile = ds_report_str(doc, "profile");
	json_object *r;
	if (!root && json_object_object_get_ex(doc, "root", &r) && !r)
		root = "";   /* null: only package files were read */
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

static int shard(struct merge *g, json_object *doc)
{
	json_object *sh;
	if (!json_object_object_get_ex(doc, "shard", &sh))
		return 0;
	size_t k = count(sh, "index"), n = count(sh, "count");
	if (!k || k > n)
		return fail(g, "a broken shard record");
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

static int add_inputs(struct merge *g, json_object *doc)
{
	struct ds_scan *s = g->s;
	json_object *list = array(doc, "inputs");
	for (size_t i = 0; i < len(list); i++) {
		json_object *o = json_object_array_get_idx(list, i), *pkg = NULL;
		const char *path = ds_report_str(o, "path"), *sha = ds_report_str(o, "sha256");
		if (!path || !sha || strlen(sha) != 64)
			return fail(g, "input %zu lacks a path or a sha256", i);
		uintptr_t *slot = ds_strmap_put(g->inputs, path);
		if (*slot)
			return fail(g, "package file %s is in another report too: the shards overlap",
			            path);
		struct ds_input *in = ds_xcalloc(1, sizeof *in);
		in->path = ds_xstrdup(path);
		in->format = ds_report_str(o, "format") ? ds_report_str(o, "format") : "unknown";
		json_object *size;
		in->size = json_object_object_get_ex(o, "size", &size) ? json_object_get_int64(size) : 0;
		memcpy(in->sha256, sha, 65);
		in->via = ds_report_str(o, "via") ? ds_xstrdup(ds_report_str(o, "via")) : NULL;
		json_object_object_get_ex(o, "package", &pkg);
		in->pkg = *pkg_of(g->m, pkg);   /* its strings are the report's */
		*slot = (uintptr_t)in;
		ds_push(s->inputs, s->ninputs, g->m->inputcap, in);
	}
	return 0;
}

static int add_findings(struct merge *g, json_object *doc, bool *passes)
{
	struct ds_scan *s = g->s;
	json_object *list = array(doc, "findings");
	for (size_t i = 0; i < len(list); i++) {
		json_object *d = json_object_array_get_idx(list, i), *owner = NULL, *details = NULL;
		const struct ds_check *c = ds_check_find(ds_report_str(d, "check"));
		if (!c)
			return fail(g, "finding %zu: unknown check %s (a report of another distsec "
			            "version?)", i, ds_report_str(d, "check"));
		/* a scan records these only with -v (workers.c), and they
		 * count towards summary.packages */
		if (c == &ds_check_elf_not_judged && !g->opt->verbose &&
		    !strcmp(ds_report_str(d, "severity"), "pass"))
			continue;
		const char *input = ds_report_str(d, "input");
		uintptr_t *in = input ? ds_strmap_get(g->inputs, input) : NULL;
		if (input && !in)
			return fail(g, "finding %zu names input %s, which the report does not list",
			            i, input);
		struct ds_finding *f = ds_xcalloc(1, sizeof *f);
		f->check = c;
		f->severity = (enum ds_severity)ds_severity_parse(ds_report_str(d, "severity"));
		*passes |= f->severity == DS_SEV_PASS;
		f->path = ds_xstrdup(ds_report_str(d, "path"));
		f->message = ds_xstrdup(ds_report_str(d, "message") ? ds_report_str(d, "message") : "");
		f->details = json_object_object_get_ex(d, "details", &details) &&
		             json_object_is_type(details, json_type_object)
		             ? json_object_get(details) : json_object_new_object();
		f->rule = ds_report_str(d, "rule") ? ds_xstrdup(ds_report_str(d, "rule")) : NULL;
		f->waiver = ds_report_str(d, "waiver");
		json_object_object_get_ex(d, "owner", &owner);
		owner_of(g->m, owner, &f->owner);
		f->input = in ? (const struct ds_input *)*in : NULL;
		const char *b = ds_report_str(d, "baseline");
		f->baseline = !b ? DS_BASELINE_NONE : !strcmp(b, "new") ? DS_BASELINE_NEW
		              : DS_BASELINE_UNCHANGED;
		ds_push(s->findings, s->nfindings, g->m->findcap, f);
	}
	json_object *absent = array(doc, "absent");
	for (size_t i = 0; i < len(absent); i++) {
		if (!s->absent)
			s->absent = json_object_new_array();
		json_object_array_add(s->absent, json_object_get(json_object_array_get_idx(absent, i)));
	}
	return 0;
}

static void add_summary(struct merge *g, json_object *doc, size_t nth)
{
	struct ds_scan *s = g->s;
	struct ds_stats *st = &s->stats;
	json_object *sum = NULL, *v;
	json_object_object_get_ex(doc, "summary", &sum);
	st->files += count(sum, "files");
	st->elf += count(sum, "elf_files");
	st->elf_not_judged += count(sum, "elf_not_judged");
	st->scripts += count(sum, "scripts");
	st->waived += count(sum, "waived");
	if (json_object_object_get_ex(sum, "findings", &v))
		for (int i = DS_SEV_INFO; i <= DS_SEV_ERROR; i++)
			st->by_severity[i] += count(v, ds_severity_name(i));
	double secs = json_object_object_get_ex(sum, "seconds", &v) ? json_object_get_double(v) : 0;
	if (secs > st->seconds)
		st->seconds = secs;
	if (json_object_object_get_ex(sum, "baseline", &v)) {
		if (!g->opt->baseline)
			g->opt->baseline = ds_report_str(v, "file");
		st->new_findings += count(v, "new");
		st->unchanged += count(v, "unchanged");
		st->absent += count(v, "absent");
	}
	json_object *ran = array(sum, "checks_run");
	for (size_t i = 0; i < len(ran); i++)
		for (size_t k = 0; k < ds_nchecks; k++)
			if (!strcmp(ds_checks[k]->id, json_object_get_string(json_object_array_get_idx(ran, i))))
				s->enabled[k] = true;
	json_object *skipped = array(sum, "skipped_checks");
	for (size_t i = 0; i < len(skipped); i++) {
		json_object *o = json_object_array_get_idx(skipped, i);
		const struct ds_check *c = ds_check_find(ds_report_str(o, "check"));
		bool seen = false;
		for (size_t k = 0; c && k < s->nskipped; k++)
			seen |= s->skipped[k].check == c;
		if (!c || seen)
			continue;
		for (size_t k = 0; k < ds_nchecks; k++)
			if (ds_checks[k] == c)
				s->enabled[k] = true;
		struct ds_skip sk = { c, ds_xstrdup(ds_report_str(o, "reason") ? ds_report_str(o, "reason") : "") };
		ds_push(s->skipped, s->nskipped, s->priv->skipped_cap, sk);
	}
	json_object *warnings = array(sum, "warnings");
	for (size_t i = 0; i < len(warnings); i++) {
		const char *w = json_object_get_string(json_object_array_get_idx(warnings, i));
		bool seen = false;
		for (size_t k = 0; k < s->nwarnings; k++)
			seen |= !strcmp(s->warnings[k], w);
		if (!seen) {
			char *copy = ds_xstrdup(w);
			ds_push(s->warnings, s->nwarnings, g->m->warncap, copy);
		}
	}
	/* a waiver is unused when no report used it: counted down per report */
	json_object *unused = array(sum, "unused_waivers");
	for (size_t i = 0; i < len(unused); i++) {
		uintptr_t *c = ds_strmap_put(g->unused, json_object_get_string(
			json_object_array_get_idx(unused, i)));
		if (*c == nth)
			++*c;
	}
}

/* The unused waivers: in every report's list, in the first report's order. */
static void seal_unused(struct merge *g)
{
	json_object *sum = NULL;
	json_object_object_get_ex(g->m->docs[0], "summary", &sum);
	json_object *unused = array(sum, "unused_waivers");
	const char **keep = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < len(unused); i++) {
		const char *w = json_object_get_string(json_object_array_get_idx(unused, i));
		uintptr_t *c = ds_strmap_get(g->unused, w);
		if (c && *c == g->m->ndocs) {
			*c = 0;   /* listed once */
			ds_push(keep, n, cap, w);
		}
	}
	g->s->priv->waivers = ds_waivers_unused_only(keep, n);
	free(keep);
}

static int read_report(struct merge *g, json_object *doc, size_t nth)
{
	bool passes = false;
	if (same_run(g, doc) || shard(g, doc) || add_inputs(g, doc) ||
	    add_findings(g, doc, &passes))
		return -1;
	add_summary(g, doc, nth);
	json_object *sum = NULL;
	json_object_object_get_ex(doc, "summary", &sum);
	if (!passes && count(sum, "elf_files") && !g->opt->quiet)
		fprintf(stderr, "distsec merge: note: %s has no pass records (a scan without "
		        "--shard or -v): the per-package table lacks the packages that passed\n",
		        g->file);
	return 0;
}

struct ds_scan *ds_merge_reports(struct ds_options *opt, const char *const *files, size_t n)
{
	struct ds_scan *s = ds_xcalloc(1, sizeof *s);
	s->opt = opt;
	s->rootfd = -1;
	s->priv = ds_xcalloc(1, sizeof *s->priv);
	s->priv->merged = ds_xcalloc(1, sizeof *s->priv->merged);
	s->enabled = ds_xcalloc(ds_nchecks, sizeof *s->enabled);
	struct ds_merged *m = s->priv->merged;
	s->backend = &m->backend;
	struct merge g = { .s = s, .m = m, .opt = opt, .inputs = ds_strmap_new(),
	                   .unused = ds_strmap_new() };
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		g.file = files[i];
		json_object *doc = ds_report_load(files[i], g.err, sizeof g.err);
		if (doc)
			ds_push(m->docs, m->ndocs, m->doccap, doc);
		if (!doc || read_report(&g, doc, i) != 0) {
			ds_warn("merge: %s: %s", files[i], g.err);
			rc = -1;
		}
	}
	if (rc == 0 && g.sharded && g.sharded != n) {
		ds_warn("merge: %zu of the %zu reports are shards (--shard): not one scan's shards",
		        g.sharded, n);
		rc = -1;
	}
	for (size_t k = 0; rc == 0 && k < g.nshard; k++)
		if (!g.shards[k]) {
			ds_warn("merge: shard %zu/%zu is missing", k + 1, g.nshard);
			rc = -1;
		}
	if (rc == 0) {
		seal_unused(&g);
		/* packages with a record, counted as finish() counts them */
		struct ds_strmap *pkgs = ds_strmap_new();
		for (size_t i = 0; i < s->nfindings; i++)
			if (s->findings[i]->owner.status == DS_OWNER_PACKAGE &&
			    s->findings[i]->owner.pkgs[0]->name)
				*ds_strmap_put(pkgs, s->findings[i]->owner.pkgs[0]->name) = 1;
		s->stats.packages = ds_strmap_size(pkgs);
		ds_strmap_free(pkgs);
		if (s->nfindings)
			qsort(s->findings, s->nfindings, sizeof *s->findings, ds_finding_cmp);
		ds_inputs_sort(s);
	}
	free(g.shards);
	ds_strmap_free(g.inputs);
	ds_strmap_free(g.unused);
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
	for (size_t i = 0; i < m->npkgs; i++)
		free(m->pkgs[i]);
	free(m->pkgs);
	for (size_t i = 0; i < m->ndocs; i++)
		json_object_put(m->docs[i]);
	free(m->docs);
	ds_waivers_free(s->priv->waivers);
	free(m);
	free(s->priv);
	s->priv = NULL;
}
