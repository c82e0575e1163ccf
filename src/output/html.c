/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html: a report a person opens in a browser, self-contained (styles
 * inline, the chart inline SVG, no script, nothing fetched; a
 * Content-Security-Policy forbids both): the run's counts, findings not
 * judged, a chart of findings per check and severity, the findings grouped
 * by package (or maintainer, with --group-by maintainer) with owner,
 * version and maintainer, and each check's documentation in a <details>
 * its findings link to.  Waived findings are listed, marked; passes only
 * with -v.
 *
 * With --report-dir (write_dir), a site: index.html (the counts, the
 * chart, the packages and the checks worst first), a page per package or
 * maintainer named as --report-dir names its reports, and checks/ID.html
 * per check listing every finding of it across the run; the pages link to
 * each other both ways.
 *
 * Package names, versions, maintainers, paths and messages are written by
 * package authors: every such string goes through ds_html_put, the one
 * escape for text and attribute values.  The markup is well-formed XML as
 * well (every element closed, attributes quoted, only the references XML
 * predefines or numeric ones), so a test can parse it strictly.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

enum { COL_WAIVED = DS_SEV_ERROR + 1, NCOLS };

static const char *const col_name[NCOLS] = { "passes", "info", "warnings", "errors", "waived" };
static const char *const col_fill[NCOLS] = { "#2e7d32", "#1565c0", "#ef6c00", "#c62828", "#9e9e9e" };
/* the chart's and the tables' order: the worst first */
static const int cols[] = { DS_SEV_ERROR, DS_SEV_WARNING, DS_SEV_INFO, COL_WAIVED };
enum { NSHOWN = sizeof cols / sizeof cols[0] };

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"table.counts{display:inline-table;margin-right:1.5em;vertical-align:top}"
	"th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}"
	"td.n{text-align:right}code{font-size:90%;word-break:break-all}"
	"pre{white-space:pre-wrap;max-width:60em;background:#f6f6f6;padding:.5em}"
	"tr.error td:first-child{color:#c62828;font-weight:bold}"
	"tr.warning td:first-child{color:#ef6c00;font-weight:bold}"
	"tr.info td:first-child{color:#1565c0}tr.waived{color:#777}"
	".tag{border:1px solid #999;border-radius:3px;padding:0 .3em;margin-left:.4em;font-size:85%}"
	".meta{color:#555}details{margin:.3em 0}summary{cursor:pointer}";

void ds_html_put(FILE *out, const char *s, bool lines)
{
	ds_markup_put(out, s, lines ? 0 : DS_MARKUP_SHOWN | DS_MARKUP_HIDE);
}

struct page {
	FILE *out;
	const struct ds_scan *s;
	const char *doc_pre, *doc_post; /* a check's documentation: pre ID post */
	const char *top;                /* the site's directory from this page; NULL: one page */
};

static void put(struct page *p, const char *s)
{
	ds_html_put(p->out, s, false);
}

static size_t check_index(const struct ds_check *c)
{
	size_t i = 0;
	while (i < ds_nchecks && ds_checks[i] != c)
		i++;
	return i;
}

static bool shown(const struct ds_scan *s, const struct ds_finding *d)
{
	return s->opt->verbose || d->severity != DS_SEV_PASS;
}

/* Findings per column (severity, or waived), passes not counted. */
struct tally { size_t n[NCOLS]; };

static void add(struct tally *t, const struct ds_finding *d)
{
	if (d->severity != DS_SEV_PASS)
		t->n[d->waiver ? COL_WAIVED : (int)d->severity]++;
}

static size_t total(const struct tally *t)
{
	size_t n = 0;
	for (size_t i = 0; i < NSHOWN; i++)
		n += t->n[cols[i]];
	return n;
}

/* A line of a "worst first" list: a check or a group, and its counts. */
struct row { size_t i; struct tally t; };

static int worst_first(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	for (size_t i = 0; i < NSHOWN; i++)
		if (x->t.n[cols[i]] != y->t.n[cols[i]])
			return x->t.n[cols[i]] > y->t.n[cols[i]] ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The checks this report speaks of (enabled, or with findings), worst
 * first; *n of them. */
static struct row *check_rows(const struct ds_scan *s, struct ds_finding *const *f, size_t nf,
                              bool listed_only, size_t *n)
{
	struct row *r = ds_xcalloc(ds_nchecks + 1, sizeof *r);
	bool *any = ds_xcalloc(ds_nchecks + 1, sizeof *any);
	for (size_t i = 0; i < nf; i++) {
		size_t c = check_index(f[i]->check);
		add(&r[c].t, f[i]);
		any[c] = true;
	}
	size_t k = 0;
	for (size_t c = 0; c < ds_nchecks; c++)
		if (listed_only ? total(&r[c].t) > 0 : any[c] || s->enabled[c])
			r[k++] = (struct row){ c, r[c].t };
	free(any);
	qsort(r, k, sizeof *r, worst_first);
	*n = k;
	return r;
}

static void head(struct page *p, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	      "<title>distsec", p->out);
	if (title) {
		fputs(": ", p->out);
		put(p, title);
	}
	fprintf(p->out, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
}

static int tail(struct page *p)
{
	fputs("</body>\n</html>\n", p->out);
	return ferror(p->out) ? -1 : 0;
}

static void check_link(struct page *p, const struct ds_check *c)
{
	fprintf(p->out, "<a href=\"%s%s%s\">%s</a>", p->doc_pre, c->id, p->doc_post, c->id);
}

static void meta(struct page *p)
{
	const struct ds_scan *s = p->s;
	fputs("<p class=\"meta\">distsec " DS_VERSION ", ", p->out);
	if (s->root_unread) {
		fputs("package files only", p->out);
	} else {
		fputs("root <code>", p->out);
		put(p, s->root);
		fputs("</code>", p->out);
	}
	fputs(", backend ", p->out);
	put(p, s->backend->name);
	fputs(", profile ", p->out);
	put(p, s->profile ? s->profile : "none");
	fputs("</p>\n", p->out);
}

static void count_row(struct page *p, const char *what, size_t n)
{
	fprintf(p->out, "<tr><th>%s</th><td class=\"n\">%zu</td></tr>\n", what, n);
}

/* The counts of v (the whole run, or one group's view: whole false). */
static void counts(struct page *p, const struct ds_scan *v, bool whole)
{
	const struct ds_stats *st = &v->stats;
	size_t unreadable = 0;
	for (size_t i = 0; i < v->nfindings; i++)
		unreadable += v->findings[i]->check == &ds_check_scan_unreadable &&
		              v->findings[i]->severity != DS_SEV_PASS;
	/* side by side: what was read, the findings, what was not judged */
	static const char open[] = "<table class=\"counts\">\n<tbody>\n";
	static const char close[] = "</tbody>\n</table>\n";
	if (whole) {
		fputs(open, p->out);
		count_row(p, "files", st->files);
		count_row(p, "ELF files", st->elf);
		count_row(p, "scripts", st->scripts);
		count_row(p, "packages", st->packages);
		fputs(close, p->out);
	}
	fputs(open, p->out);
	count_row(p, "errors", st->by_severity[DS_SEV_ERROR]);
	count_row(p, "warnings", st->by_severity[DS_SEV_WARNING]);
	count_row(p, "info", st->by_severity[DS_SEV_INFO]);
	count_row(p, "waived", st->waived);
	fputs(close, p->out);
	fputs(open, p->out);
	count_row(p, "not judged: unreadable files", unreadable);
	if (whole) {
		count_row(p, "not judged: ELF files this system would not run", st->elf_not_judged);
		count_row(p, "not judged: checks skipped", v->nskipped);
		const char *const *unused;
		count_row(p, "unused waivers", ds_scan_unused_waivers(v, &unused));
	}
	fputs(close, p->out);
	if (v->opt->baseline) {
		fputs(open, p->out);
		count_row(p, "new against the baseline", st->new_findings);
		count_row(p, "unchanged against the baseline", st->unchanged);
		if (whole)
			count_row(p, "absent against the baseline", st->absent);
		fputs(close, p->out);
	}
}

/* Horizontal bars, one per check with findings, stacked by severity. */
enum { LABEL_W = 230, BAR_W = 420, ROW_H = 22, CHART_W = LABEL_W + BAR_W + 70 };

static void chart(struct page *p, const struct row *r, size_t n)
{
	FILE *out = p->out;
	size_t max = 0;
	for (size_t i = 0; i < n; i++)
		if (total(&r[i].t) > max)
			max = total(&r[i].t);
	if (!max) {
		fputs("<p>No findings.</p>\n", out);
		return;
	}
	size_t h = 30 + n * ROW_H;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" "
	        "height=\"%zu\" viewBox=\"0 0 %d %zu\" role=\"img\" "
	        "aria-label=\"findings per check and severity\">\n", CHART_W, h, CHART_W, h);
	for (size_t k = 0; k < NSHOWN; k++)
		fprintf(out, "<rect x=\"%zu\" y=\"4\" width=\"12\" height=\"12\" fill=\"%s\"/>"
		        "<text x=\"%zu\" y=\"15\" font-size=\"13\">%s</text>\n",
		        LABEL_W + k * 95, col_fill[cols[k]], LABEL_W + k * 95 + 16, col_name[cols[k]]);
	for (size_t i = 0; i < n; i++) {
		const struct ds_check *c = ds_checks[r[i].i];
		size_t y = 30 + i * ROW_H;
		fprintf(out, "<text x=\"%d\" y=\"%zu\" font-size=\"13\" text-anchor=\"end\" "
		        "font-family=\"monospace\">%s</text>\n", LABEL_W - 8, y + 14, c->id);
		double x = LABEL_W;
		for (size_t k = 0; k < NSHOWN; k++) {
			size_t v = r[i].t.n[cols[k]];
			if (!v)
				continue;
			double w = (double)v * BAR_W / (double)max;
			fprintf(out, "<rect x=\"%.1f\" y=\"%zu\" width=\"%.1f\" height=\"16\" fill=\"%s\">"
			        "<title>%s, %s: %zu</title></rect>\n",
			        x, y + 2, w < 1 ? 1 : w, col_fill[cols[k]], c->id, col_name[cols[k]], v);
			x += w < 1 ? 1 : w;
		}
		fprintf(out, "<text x=\"%.1f\" y=\"%zu\" font-size=\"12\">%zu</text>\n",
		        x + 4, y + 14, total(&r[i].t));
	}
	fputs("</svg>\n", out);
}

/* The trend: errors and warnings per check in each --history report, in
 * the --baseline report (the findings this scan still has and those it no
 * longer has), then now; waived findings left out everywhere. */
struct point { const char *label; size_t (*n)[2]; };   /* [check][0 warnings, 1 errors] */

static void count_then(size_t (*n)[2], json_object *d)
{
	json_object *v;
	const struct ds_check *c = json_object_object_get_ex(d, "check", &v)
	                           ? ds_check_find(json_object_get_string(v)) : NULL;
	int sev = json_object_object_get_ex(d, "severity", &v)
	          ? ds_severity_parse(json_object_get_string(v)) : -1;
	bool waived = json_object_object_get_ex(d, "waived", &v) && json_object_get_boolean(v);
	if (c && !waived && sev >= DS_SEV_WARNING)
		n[check_index(c)][sev == DS_SEV_ERROR]++;
}

static void trend_bar(struct page *p, const struct point *pt, size_t c, size_t y, size_t max)
{
	const size_t *k = pt->n[c];
	double x = LABEL_W;
	for (int e = 1; e >= 0; e--) {
		if (!k[e])
			continue;
		double w = (double)k[e] * BAR_W / (double)max;
		fprintf(p->out, "<rect x=\"%.1f\" y=\"%zu\" width=\"%.1f\" height=\"9\" fill=\"%s\">"
		        "<title>%s, ", x, y, w < 1 ? 1 : w, col_fill[e ? DS_SEV_ERROR : DS_SEV_WARNING],
		        ds_checks[c]->id);
		put(p, pt->label);
		fprintf(p->out, ": %zu %s</title></rect>\n", k[e], e ? "errors" : "warnings");
		x += w < 1 ? 1 : w;
	}
	fprintf(p->out, "<text x=\"%.1f\" y=\"%zu\" font-size=\"10\">%zu/%zu</text>\n",
	        x + 4, y + 8, k[1], k[0]);
}

static bool trend_row(const struct point *pt, size_t np, size_t c)
{
	for (size_t i = 0; i < np; i++)
		if (pt[i].n[c][0] + pt[i].n[c][1])
			return true;
	return false;
}

static void trend_chart(struct page *p, const struct point *pt, size_t np)
{
	FILE *out = p->out;
	size_t rows = 0, max = 0;
	for (size_t c = 0; c < ds_nchecks; c++) {
		rows += trend_row(pt, np, c);
		for (size_t i = 0; i < np; i++)
			if (pt[i].n[c][0] + pt[i].n[c][1] > max)
				max = pt[i].n[c][0] + pt[i].n[c][1];
	}
	if (!rows) {
		fputs("<p>No errors or warnings, then or now.</p>\n", out);
		return;
	}
	size_t step = np * 11 + 8, h = 30 + rows * step;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" "
	        "height=\"%zu\" viewBox=\"0 0 %d %zu\" role=\"img\" aria-label=\"errors and warnings "
	        "per check over time\">\n", CHART_W, h, CHART_W, h);
	for (int e = 1; e >= 0; e--)
		fprintf(out, "<rect x=\"%d\" y=\"4\" width=\"12\" height=\"12\" fill=\"%s\"/>"
		        "<text x=\"%d\" y=\"15\" font-size=\"13\">%s</text>\n", LABEL_W + (1 - e) * 95,
		        col_fill[e ? DS_SEV_ERROR : DS_SEV_WARNING], LABEL_W + (1 - e) * 95 + 16,
		        e ? "errors" : "warnings");
	fprintf(out, "<text x=\"%d\" y=\"15\" font-size=\"12\">a bar per report, the oldest "
	        "first</text>\n", LABEL_W + 2 * 95);
	size_t y = 30;
	for (size_t c = 0; c < ds_nchecks; c++) {
		if (!trend_row(pt, np, c))
			continue;
		const char *id = ds_checks[c]->id;
		fprintf(out, "<text x=\"%d\" y=\"%zu\" font-size=\"13\" text-anchor=\"end\" "
		        "font-family=\"monospace\">%s</text>\n", LABEL_W - 8, y + 12, id);
		for (size_t i = 0; i < np; i++)
			trend_bar(p, &pt[i], c, y + i * 11, max);
		y += step;
	}
	fputs("</svg>\n<table class=\"trend\">\n<thead><tr><th>errors/warnings</th>", out);
	for (size_t i = 0; i < np; i++) {
		fputs("<th>", out);
		put(p, pt[i].label);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t c = 0; c < ds_nchecks; c++) {
		if (!trend_row(pt, np, c))
			continue;
		fputs("<tr><td>", out);
		check_link(p, ds_checks[c]);
		fputs("</td>", out);
		for (size_t i = 0; i < np; i++)
			fprintf(out, "<td class=\"n\">%zu/%zu</td>", pt[i].n[c][1], pt[i].n[c][0]);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

static void trend(struct page *p)
{
	const struct ds_scan *s = p->s;
	if (!s->nhistory && !s->opt->baseline)
		return;
	struct point *pt = ds_xcalloc(s->nhistory + 2, sizeof *pt);
	size_t np = 0;
	for (size_t i = 0; i < s->nhistory; i++)
		pt[np++] = (struct point){ s->history[i].label, s->history[i].n };
	size_t (*then)[2] = NULL, (*now)[2] = ds_xcalloc(ds_nchecks + 1, sizeof *now);
	if (s->opt->baseline) {
		then = ds_xcalloc(ds_nchecks + 1, sizeof *then);
		pt[np++] = (struct point){ s->opt->baseline, then };
	}
	pt[np++] = (struct point){ "now", now };
	for (size_t i = 0; i < s->nfindings; i++) {
		const struct ds_finding *d = s->findings[i];
		if (d->waiver || d->severity < DS_SEV_WARNING)
			continue;
		size_t c = check_index(d->check);
		now[c][d->severity == DS_SEV_ERROR]++;
		if (then && d->baseline == DS_BASELINE_UNCHANGED)
			then[c][d->severity == DS_SEV_ERROR]++;
	}
	for (size_t i = 0; then && i < ds_scan_absent_count(s); i++) {
		json_object *d = ds_scan_absent(s, i);
		count_then(then, d);
		json_object_put(d);
	}
	fputs("<h2 id=\"trend\">Errors and warnings per check over time</h2>\n", p->out);
	trend_chart(p, pt, np);
	free(then);
	free(now);
	free(pt);
}

static void tally_cells(struct page *p, const struct tally *t)
{
	for (size_t k = 0; k < NSHOWN; k++)
		fprintf(p->out, "<td class=\"n\">%zu</td>", t->n[cols[k]]);
}

static void tally_heads(struct page *p)
{
	for (size_t k = 0; k < NSHOWN; k++)
		fprintf(p->out, "<th>%s</th>", col_name[cols[k]]);
}

static const struct ds_pkg *group_pkg(const struct ds_group *g)
{
	const struct ds_owner *o = &g->first->owner;
	return o->status == DS_OWNER_PACKAGE ? o->pkgs[0] : NULL;
}

/* What a group is called: its key, or what its owner status means. */
static const char *group_title(const struct ds_group *g)
{
	if (group_pkg(g))
		return g->key;
	return g->first->owner.status == DS_OWNER_NOT_OWNED ? "files no package owns"
	       : "files of unknown owner";
}

static void field(struct page *p, const char *label, const char *value, bool *first)
{
	if (!value)
		return;
	fprintf(p->out, "%s%s ", *first ? "<p class=\"owner\">" : "; ", label);
	put(p, value);
	*first = false;
}

/* The package's own fields under its heading (grouped by package). */
static void owner_fields(struct page *p, const struct ds_group *g)
{
	const struct ds_pkg *k = group_pkg(g);
	if (!k || p->s->opt->group_by == DS_GROUP_MAINTAINER)
		return;
	bool first = true;
	field(p, "package", k->name, &first);
	field(p, "version", k->version, &first);
	field(p, "architecture", k->arch, &first);
	field(p, "source", k->source, &first);
	field(p, "maintainer", k->maintainer ? k->maintainer : "(none)", &first);
	field(p, "from", k->origin, &first);
	if (k->candidate && k->version && strcmp(k->candidate, k->version) != 0)
		field(p, "candidate", k->candidate, &first);
	fputs("</p>\n", p->out);
}

static void table_open(struct page *p, bool owner_col)
{
	fprintf(p->out, "<table class=\"findings\">\n<thead><tr><th>severity</th><th>check</th>"
	        "<th>path</th>%s<th>message</th></tr></thead>\n<tbody>\n",
	        owner_col ? "<th>package</th>" : "");
}

static void table_close(struct page *p)
{
	fputs("</tbody>\n</table>\n", p->out);
}

/* One finding; owner_href (the owner's page) links the package column. */
static void finding_row(struct page *p, const struct ds_finding *d, bool owner_col,
                        const char *owner_href)
{
	FILE *out = p->out;
	fprintf(out, "<tr class=\"%s%s\"><td>%s</td><td>", ds_severity_name(d->severity),
	        d->waiver ? " waived" : "", ds_severity_name(d->severity));
	check_link(p, d->check);
	fputs("</td><td><code>", out);
	put(p, d->path);
	fputs("</code>", out);
	if (d->pkg_path) {
		fputs(" (in the package: <code>", out);
		put(p, d->pkg_path);
		fputs("</code>)", out);
	}
	fputs("</td>", out);
	if (owner_col) {
		char buf[256];
		fputs("<td>", out);
		if (owner_href) {
			fputs("<a href=\"", out);
			put(p, owner_href);
			fputs("\">", out);
		}
		put(p, ds_owner_label(&d->owner, buf, sizeof buf));
		fputs(owner_href ? "</a></td>" : "</td>", out);
	}
	fputs("<td>", out);
	if (d->rule) {
		put(p, d->rule);
		fputs(": ", out);
	}
	put(p, d->message);
	if (d->waiver) {
		fputs(" <span class=\"tag\">waived: ", out);
		put(p, d->waiver);
		fputs("</span>", out);
	}
	if (d->baseline == DS_BASELINE_NEW)
		fputs(" <span class=\"tag\">new</span>", out);
	fputs("</td></tr>\n", out);
}

/* A group's findings as a table; false when it has none to show. */
static bool group_table(struct page *p, const struct ds_group *g)
{
	bool owner_col = p->s->opt->group_by == DS_GROUP_MAINTAINER, any = false;
	for (size_t i = 0; i < g->n; i++) {
		if (!shown(p->s, g->f[i]))
			continue;
		if (!any)
			table_open(p, owner_col);
		any = true;
		finding_row(p, g->f[i], owner_col, NULL);
	}
	if (any)
		table_close(p);
	return any;
}

static void check_doc(struct page *p, const struct ds_check *c)
{
	char *text = ds_check_help(c, false);
	fputs("<pre>", p->out);
	ds_html_put(p->out, text, true);
	fputs("</pre>\n", p->out);
	free(text);
}

/* Why check c did not run here, as a tag; nothing when it ran. */
static void skipped_tag(struct page *p, const struct ds_check *c)
{
	const char *why = ds_check_skipped(p->s, c);
	if (!why)
		return;
	fputs(" <span class=\"tag\">skipped: ", p->out);
	put(p, why);
	fputs("</span>", p->out);
}

/* The run's warnings and the waivers nothing matched. */
static void notes(struct page *p)
{
	const struct ds_scan *s = p->s;
	const char *const *unused;
	size_t nunused = ds_scan_unused_waivers(s, &unused);
	if (!s->nwarnings && !nunused)
		return;
	fputs("<h2 id=\"notes\">Notes</h2>\n<ul>\n", p->out);
	for (size_t i = 0; i < s->nwarnings; i++) {
		fputs("<li>", p->out);
		put(p, s->warnings[i]);
		fputs("</li>\n", p->out);
	}
	for (size_t i = 0; i < nunused; i++) {
		fputs("<li>unused waiver: ", p->out);
		put(p, unused[i]);
		fputs("</li>\n", p->out);
	}
	fputs("</ul>\n", p->out);
}

static enum ds_group_by grouping(const struct ds_scan *s)
{
	return s->opt->group_by == DS_GROUP_MAINTAINER ? DS_GROUP_MAINTAINER : DS_GROUP_PACKAGE;
}

static int render(const struct ds_scan *s, FILE *out)
{
	struct page p = { out, s, "#check-", "", NULL };
	head(&p, s->root_unread ? NULL : s->root);
	fputs("<h1>distsec report</h1>\n", out);
	meta(&p);
	fputs("<h2 id=\"summary\">Summary</h2>\n", out);
	counts(&p, s, true);
	size_t nr;
	struct row *r = check_rows(s, s->findings, s->nfindings, false, &nr);
	size_t nbar = 0;
	while (nbar < nr && total(&r[nbar].t))
		nbar++;
	fputs("<h2 id=\"chart\">Findings per check and severity</h2>\n", out);
	chart(&p, r, nbar);
	trend(&p);
	fprintf(out, "<h2 id=\"findings\">Findings by %s</h2>\n",
	        grouping(s) == DS_GROUP_MAINTAINER ? "maintainer" : "package");
	struct ds_group *g;
	size_t ng = ds_groups_make(s, grouping(s), s->opt->verbose, &g), listed = 0;
	for (size_t i = 0; i < ng; i++) {
		fprintf(out, "<section id=\"g%zu\">\n<h3>", i + 1);
		put(&p, group_title(&g[i]));
		fputs("</h3>\n", out);
		owner_fields(&p, &g[i]);
		listed += group_table(&p, &g[i]);
		fputs("</section>\n", out);
	}
	if (!listed)
		fputs("<p>No findings.</p>\n", out);
	ds_groups_free(g, ng);
	fputs("<h2 id=\"checks\">Checks</h2>\n", out);
	for (size_t i = 0; i < nr; i++) {
		const struct ds_check *c = ds_checks[r[i].i];
		fprintf(out, "<details id=\"check-%s\"><summary><code>%s</code> %zu finding%s: ",
		        c->id, c->id, total(&r[i].t), total(&r[i].t) == 1 ? "" : "s");
		put(&p, c->summary);
		skipped_tag(&p, c);
		fputs("</summary>\n", out);
		check_doc(&p, c);
		fputs("</details>\n", out);
	}
	free(r);
	notes(&p);
	return tail(&p);
}

/* --report-dir: the site.  Pages are written whole, then closed; the
 * first write error ends the site. */
struct site {
	const struct ds_scan *s;
	struct ds_group *g;
	size_t ng;
	char **names;              /* g[i]'s page */
	struct row *checks;        /* the checks with a page, worst first */
	size_t nchecks;
};

static int close_page(FILE *fp, int rc)
{
	return fclose(fp) != 0 || rc != 0 ? -1 : 0;
}

static void back_link(struct page *p)
{
	fprintf(p->out, "<p><a href=\"%sindex.html\">index</a></p>\n", p->top);
}

static int group_page(const struct site *w, size_t i, FILE *out)
{
	const struct ds_group *g = &w->g[i];
	struct ds_scan v = ds_group_view(w->s, g->f, g->n);
	struct page p = { out, &v, "checks/", ".html", "" };
	head(&p, group_title(g));
	back_link(&p);
	fputs("<h1>", out);
	put(&p, group_title(g));
	fputs("</h1>\n", out);
	owner_fields(&p, g);
	counts(&p, &v, false);
	size_t nr;
	struct row *r = check_rows(&v, g->f, g->n, true, &nr);
	fputs("<h2>Findings per check and severity</h2>\n", out);
	chart(&p, r, nr);
	free(r);
	fputs("<h2>Findings</h2>\n", out);
	if (!group_table(&p, g))
		fputs("<p>No findings.</p>\n", out);
	return tail(&p);
}

static int check_page(const struct site *w, const struct row *r, FILE *out)
{
	const struct ds_check *c = ds_checks[r->i];
	struct page p = { out, w->s, "", ".html", "../" };
	head(&p, c->id);
	back_link(&p);
	fprintf(out, "<h1>%s</h1>\n<p>", c->id);
	put(&p, c->summary);
	skipped_tag(&p, c);
	fputs("</p>\n<table class=\"counts\">\n<thead><tr>", out);
	tally_heads(&p);
	fputs("</tr></thead>\n<tbody><tr>", out);
	tally_cells(&p, &r->t);
	fputs("</tr></tbody>\n</table>\n", out);
	check_doc(&p, c);
	fputs("<h2>Findings</h2>\n", out);
	bool any = false;
	for (size_t i = 0; i < w->ng; i++) {
		char *href = ds_xasprintf("../%s", w->names[i]);
		for (size_t j = 0; j < w->g[i].n; j++) {
			const struct ds_finding *d = w->g[i].f[j];
			if (d->check != c || !shown(w->s, d))
				continue;
			if (!any)
				table_open(&p, true);
			any = true;
			finding_row(&p, d, true, href);
		}
		free(href);
	}
	if (any)
		table_close(&p);
	else
		fputs("<p>No findings.</p>\n", out);
	return tail(&p);
}

static int index_page(const struct site *w, FILE *out)
{
	const struct ds_scan *s = w->s;
	struct page p = { out, s, "checks/", ".html", "" };
	bool by_pkg = s->opt->group_by != DS_GROUP_MAINTAINER;
	head(&p, s->root_unread ? NULL : s->root);
	fputs("<h1>distsec report</h1>\n", out);
	meta(&p);
	counts(&p, s, true);
	size_t nbar = 0;
	while (nbar < w->nchecks && total(&w->checks[nbar].t))
		nbar++;
	fputs("<h2 id=\"chart\">Findings per check and severity</h2>\n", out);
	chart(&p, w->checks, nbar);
	trend(&p);

	struct row *r = ds_xcalloc(w->ng + 1, sizeof *r);
	for (size_t i = 0; i < w->ng; i++) {
		r[i].i = i;
		for (size_t j = 0; j < w->g[i].n; j++)
			add(&r[i].t, w->g[i].f[j]);
	}
	qsort(r, w->ng, sizeof *r, worst_first);
	fprintf(out, "<h2 id=\"groups\">%s, the worst first</h2>\n<table class=\"groups\">\n"
	        "<thead><tr><th>%s</th>%s", by_pkg ? "Packages" : "Maintainers",
	        by_pkg ? "package" : "maintainer", by_pkg ? "<th>maintainer</th>" : "");
	tally_heads(&p);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t k = 0; k < w->ng; k++) {
		const struct ds_group *g = &w->g[r[k].i];
		const struct ds_pkg *pkg = group_pkg(g);
		fputs("<tr><td><a href=\"", out);
		put(&p, w->names[r[k].i]);
		fputs("\">", out);
		put(&p, group_title(g));
		fputs("</a></td>", out);
		if (by_pkg) {
			fputs("<td>", out);
			put(&p, pkg && pkg->maintainer ? pkg->maintainer : "");
			fputs("</td>", out);
		}
		tally_cells(&p, &r[k].t);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	free(r);

	fputs("<h2 id=\"checks\">Checks, the worst first</h2>\n<table class=\"checks\">\n"
	      "<thead><tr><th>check</th>", out);
	tally_heads(&p);
	fputs("<th>what it finds</th></tr></thead>\n<tbody>\n", out);
	for (size_t k = 0; k < w->nchecks; k++) {
		const struct ds_check *c = ds_checks[w->checks[k].i];
		fputs("<tr><td>", out);
		check_link(&p, c);
		fputs("</td>", out);
		tally_cells(&p, &w->checks[k].t);
		fputs("<td>", out);
		put(&p, c->summary);
		skipped_tag(&p, c);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	notes(&p);
	return tail(&p);
}

static int write_dir(const struct ds_scan *s, int dfd)
{
	if (mkdirat(dfd, "checks", 0755) != 0 && errno != EEXIST)
		return -1;
	int cfd = openat(dfd, "checks", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cfd < 0)
		return -1;
	struct site w = { .s = s };
	w.ng = ds_groups_make(s, s->opt->group_by, true, &w.g);
	w.names = ds_xcalloc(w.ng + 1, sizeof *w.names);
	struct ds_strmap *used = ds_report_names("html");
	for (size_t i = 0; i < w.ng; i++)
		w.names[i] = ds_report_name(w.g[i].key, "html", used);
	ds_strmap_free(used);
	w.checks = check_rows(s, s->findings, s->nfindings, false, &w.nchecks);
	int rc = 0;
	FILE *fp;
	for (size_t i = 0; i < w.ng && rc == 0; i++)
		rc = (fp = ds_report_create(dfd, w.names[i])) ? close_page(fp, group_page(&w, i, fp)) : -1;
	for (size_t k = 0; k < w.nchecks && rc == 0; k++) {
		char *name = ds_xasprintf("%s.html", ds_checks[w.checks[k].i]->id);
		rc = (fp = ds_report_create(cfd, name)) ? close_page(fp, check_page(&w, &w.checks[k], fp))
		     : -1;
		free(name);
	}
	if (rc == 0)
		rc = (fp = ds_report_create(dfd, "index.html")) ? close_page(fp, index_page(&w, fp)) : -1;
	int saved = errno;
	for (size_t i = 0; i < w.ng; i++)
		free(w.names[i]);
	free(w.names);
	free(w.checks);
	ds_groups_free(w.g, w.ng);
	close(cfd);
	errno = saved;
	return rc;
}

const struct ds_output ds_output_html = {
	.name = "html",
	.summary = "one self-contained page (chart in inline SVG, no script); with --report-dir "
	           "a site: index, a page per package or maintainer and per check",
	.ext = "html",
	.wants_origins = true,
	.render = render,
	.write_dir = write_dir,
};
