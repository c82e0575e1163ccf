/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --baseline OLD.json: the findings of this scan against those of an older
 * JSON report (the last build's).  A finding is the same when its check,
 * path (ds_path_same_file's name), STIG rule and severity are: the package's name and version may
 * change between builds, the message may name a version.  Each old finding
 * matches at most one new one (a multiset), so a second copy of a problem
 * is new.  Findings with no match are new; old ones with no match are
 * absent (fixed, or their file is gone).  Only new findings gate
 * (ds_finding_gates).  The same identity is what `distsec diff` compares.
 * A privilege the old report's files lacked (diff's new-setuid, wider-caps
 * ... from the same records) is a new error finding of the check whose
 * records say it, its message naming the regression, so that a gate on
 * --baseline and one on diff agree.
 */
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>

#include "report.h"

/* path is matched by the name ds_path_same_file gives: a versioned file
 * name (libisc-9.18.49-1~deb12u3-Debian.so) is the same file next build. */
char *ds_finding_key(const char *check, const char *path, const char *rule, const char *severity)
{
	char *same = ds_path_same_file(path);
	char *key = ds_xasprintf("%s\037%s\037%s\037%s", check, same, rule ? rule : "", severity);
	free(same);
	return key;
}

int ds_baseline_load(struct ds_scan *s, struct ds_error *err)
{
	s->priv->baseline = ds_report_read(s->opt->baseline, err);
	if (!s->priv->baseline) {
		ds_error_prefix(err, "--baseline ");
		return -1;
	}
	return 0;
}

int ds_history_load(struct ds_scan *s, struct ds_error *err)
{
	s->history = ds_xcalloc(s->opt->nhistory + 1, sizeof *s->history);
	for (size_t i = 0; i < s->opt->nhistory; i++) {
		struct ds_report *r = ds_report_read(s->opt->history[i], err);
		if (!r) {
			ds_error_prefix(err, "--history ");
			return -1;
		}
		struct ds_history *h = &s->history[s->nhistory++];
		h->label = s->opt->history[i];
		h->n = ds_xcalloc(ds_nchecks + 1, sizeof *h->n);
		for (size_t k = 0; k < r->nfindings; k++) {
			const struct ds_report_finding *d = &r->findings[k];
			/* a check this version no longer has counts nowhere */
			for (size_t j = 0; d->check && !d->waived && d->severity >= DS_SEV_WARNING &&
			                   j < ds_nchecks; j++)
				if (ds_checks[j] == d->check)
					h->n[j][d->severity == DS_SEV_ERROR]++;
		}
		ds_report_free(r);
	}
	return 0;
}

static char *record_key(const struct ds_report_finding *d)
{
	return ds_finding_key(d->check_id, d->path, d->rule, ds_severity_name(d->severity));
}

struct gained {
	struct ds_scan *s;
	struct ds_finding ***f;
	size_t *n, *cap;
};

static struct ds_finding *finding_of(const struct ds_regression *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static struct ds_finding *finding_of(const struct ds_regression *g, const char *fmt, ...)
{
	struct ds_owner none = { .status = DS_OWNER_UNKNOWN };
	va_list ap;
	va_start(ap, fmt);
	struct ds_finding *d = ds_finding_new(g->check, g->severity, g->path,
	                                      g->owner ? g->owner : &none, fmt, ap);
	va_end(ap);
	return d;
}

/* A privilege regression as a new finding of the check that states it. */
static void gained(void *arg, const struct ds_regression *g)
{
	struct gained *c = arg;
	if (!g->check)
		return;   /* facts come from a check's records: not reached */
	struct ds_finding *d = finding_of(g, "%s: %s%s%s%s", g->kind, g->text,
	                                  g->old_path ? " (was " : "",
	                                  g->old_path ? g->old_path : "", g->old_path ? ")" : "");
	ds_detail_str(d, "regression", g->kind);
	if (g->old_path)
		ds_detail_str(d, "old_path", g->old_path);
	d->baseline = DS_BASELINE_NEW;
	if (g->waived) {
		const char *why = ds_waiver_for(c->s->priv->waivers, d);
		d->waiver = why ? why : "the check's finding on the file is waived";
		c->s->stats.waived++;
	} else
		c->s->stats.by_severity[d->severity]++;
	c->s->stats.new_findings++;
	ds_push(*c->f, *c->n, *c->cap, d);
}

/* The scan's findings as the records of a report (strings borrowed). */
static struct ds_report *records_of(struct ds_finding *const *f, size_t n)
{
	struct ds_report *r = ds_xcalloc(1, sizeof *r);
	r->findings = ds_xcalloc(n + 1, sizeof *r->findings);
	for (size_t i = 0; i < n; i++)
		r->findings[r->nfindings++] = (struct ds_report_finding){
			.check_id = f[i]->check->id, .check = f[i]->check,
			.severity = f[i]->severity, .path = f[i]->path, .message = f[i]->message,
			.rule = f[i]->rule, .waiver = f[i]->waiver, .waived = f[i]->waiver != NULL,
			.owner = f[i]->owner,
			.details = json_object_to_json_string_ext(f[i]->details, JSON_C_TO_STRING_PLAIN),
		};
	return r;
}

static void mark(struct ds_scan *s, struct ds_finding **f, size_t n)
{
	const struct ds_report *old = s->priv->baseline;
	struct ds_strmap *left = ds_strmap_new();   /* key -> old findings not yet matched */
	for (size_t i = 0; i < old->nfindings; i++) {
		if (old->findings[i].severity == DS_SEV_PASS)
			continue;
		char *key = record_key(&old->findings[i]);
		++*ds_strmap_put(left, key);
		free(key);
	}
	for (size_t i = 0; i < n; i++) {
		if (f[i]->severity == DS_SEV_PASS)
			continue;
		char *key = ds_finding_key(f[i]->check->id, f[i]->path, f[i]->rule,
		                           ds_severity_name(f[i]->severity));
		uintptr_t *c = ds_strmap_get(left, key);
		free(key);
		f[i]->baseline = c && *c ? DS_BASELINE_UNCHANGED : DS_BASELINE_NEW;
		if (c && *c)
			--*c;
		if (f[i]->baseline == DS_BASELINE_NEW)
			s->stats.new_findings++;
		else
			s->stats.unchanged++;
	}
	s->absent = ds_xcalloc(1, sizeof *s->absent);   /* listed, if empty */
	for (size_t i = 0; i < old->nfindings; i++) {
		char *key = record_key(&old->findings[i]);
		uintptr_t *c = ds_strmap_get(left, key);
		free(key);
		if (c && *c) {
			--*c;
			ds_absent_add(&s->absent, &old->findings[i]);
			s->stats.absent++;
		}
	}
	ds_strmap_free(left);
}

void ds_baseline_apply(struct ds_scan *s, struct ds_finding ***f, size_t *n, size_t *cap)
{
	mark(s, *f, *n);
	struct ds_report *now = records_of(*f, *n);
	size_t had = *n;
	struct gained c = { s, f, n, cap };
	ds_diff_privileges(s->priv->baseline, now, s->priv->waivers, gained, &c);
	free(now->findings);
	free(now);
	if (*n > had)
		qsort(*f, *n, sizeof **f, ds_finding_cmp);
}
