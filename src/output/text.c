/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text: `SEVERITY  check-id  path  [package]  message`, one line a finding,
 * severity coloured, then a summary line.  Against a --baseline only new
 * findings are listed (all with -v) and the summary counts them.  With --group-by, a header per
 * package (or maintainer) and its findings under it; a table of counts per
 * check and severity at the end.  Every string of a finding or a package
 * is escaped (ds_escape: control characters, bidi overrides, invalid
 * UTF-8) so a hostile name cannot forge lines, terminal sequences or its
 * own spelling.
 */
#include <stdlib.h>
#include <string.h>

#include "distsec/verdict.h"
#include "output.h"

static const char *const colours[] = { "\033[32m", "\033[34m", "\033[33m", "\033[31m" };

static void print_header(FILE *out, const struct ds_scan *s, const struct ds_finding *d)
{
	const struct ds_pkg *p = d->owner.status == DS_OWNER_PACKAGE ? d->owner.pkgs[0] : NULL;
	if (!p) {
		fprintf(out, "\n== %s ==\n", d->owner.status == DS_OWNER_NOT_OWNED
		        ? "files no package owns" : "files of unknown owner");
		return;
	}
	fputs("\n== ", out);
	if (s->opt->group_by == DS_GROUP_MAINTAINER) {
		ds_put_escaped(out, p->maintainer ? p->maintainer : "(no maintainer)");
		fputs(" ==\n", out);
		return;
	}
	ds_put_escaped(out, p->name ? p->name : "?");
	fputc(' ', out);
	ds_put_escaped(out, p->version ? p->version : "");
	if (p->arch) {
		fputc(' ', out);
		ds_put_escaped(out, p->arch);
	}
	if (p->source && (!p->name || strcmp(p->source, p->name) != 0)) {
		fputs(" (source ", out);
		ds_put_escaped(out, p->source);
		fputc(')', out);
	}
	if (p->maintainer) {
		fputs(" - ", out);
		ds_put_escaped(out, p->maintainer);
	}
	if (p->origin) {
		fputs(" from ", out);
		ds_put_escaped(out, p->origin);
	}
	if (p->candidate && p->version && strcmp(p->candidate, p->version) != 0) {
		fputs(" (candidate ", out);
		ds_put_escaped(out, p->candidate);
		fputc(')', out);
	}
	fputs(" ==\n", out);
}

static void print_line(FILE *out, const struct ds_scan *s, const struct ds_finding *d,
                       bool with_pkg)
{
	char buf[256];
	const char *sev = ds_severity_name(d->severity);
	if (s->use_color)
		fprintf(out, "%s%-7s\033[m  ", colours[d->severity], sev);
	else
		fprintf(out, "%-7s  ", sev);
	fprintf(out, "%-24s  ", d->check->id);
	ds_put_escaped(out, d->path);
	if (with_pkg) {
		fputs("  [", out);
		ds_put_escaped(out, ds_owner_label(&d->owner, buf, sizeof buf));
		fputc(']', out);
	}
	fputs("  ", out);
	if (d->rule) {
		ds_put_escaped(out, d->rule);
		fputs(": ", out);
	}
	ds_put_escaped(out, d->message);
	if (d->waiver) {
		fputs("  (waived: ", out);
		ds_put_escaped(out, d->waiver);
		fputc(')', out);
	}
	fputc('\n', out);
}

/* Counts per check and severity (waived apart), checks with findings only. */
static void print_table(FILE *out, const struct ds_scan *s)
{
	size_t (*n)[5] = ds_xcalloc(ds_nchecks + 1, sizeof *n);   /* pass unused, 4: waived */
	for (size_t i = 0; i < s->nfindings; i++) {
		const struct ds_finding *d = s->findings[i];
		if (d->severity == DS_SEV_PASS)
			continue;
		size_t c = 0;
		while (c < ds_nchecks && ds_checks[c] != d->check)
			c++;
		size_t col = d->waiver ? 4 : (size_t)d->severity;
		n[c][col]++;
		n[ds_nchecks][col]++;
	}
	if (n[ds_nchecks][1] + n[ds_nchecks][2] + n[ds_nchecks][3] + n[ds_nchecks][4]) {
		fprintf(out, "\n%-26s %7s %8s %5s %6s\n", "check", "errors", "warnings", "info", "waived");
		for (size_t c = 0; c <= ds_nchecks; c++)
			if (n[c][1] + n[c][2] + n[c][3] + n[c][4])
				fprintf(out, "%-26s %7zu %8zu %5zu %6zu\n",
				        c < ds_nchecks ? ds_checks[c]->id : "total",
				        n[c][DS_SEV_ERROR], n[c][DS_SEV_WARNING], n[c][DS_SEV_INFO], n[c][4]);
	}
	free(n);
}

static void print_summary(FILE *out, const struct ds_scan *s, bool any)
{
	const struct ds_stats *st = &s->stats;
	fprintf(out, "%s%zu files (%zu ELF", any ? "\n" : "", st->files, st->elf);
	if (st->elf_not_judged)
		fprintf(out, ", %zu not run here", st->elf_not_judged);
	fprintf(out, ", %zu scripts), %zu packages, backend ", st->scripts, st->packages);
	ds_put_escaped(out, s->backend->name);
	fputs(", profile ", out);
	ds_put_escaped(out, s->profile ? s->profile : "none");
	fprintf(out, ": %zu errors, %zu warnings, %zu info", st->by_severity[DS_SEV_ERROR],
	        st->by_severity[DS_SEV_WARNING], st->by_severity[DS_SEV_INFO]);
	if (st->waived)
		fprintf(out, ", %zu waived", st->waived);
	const char *const *unused;
	size_t nunused = ds_scan_unused_waivers(s, &unused);
	if (nunused)
		fprintf(out, ", %zu unused waiver%s", nunused, nunused == 1 ? "" : "s");
	if (s->opt->baseline)
		fprintf(out, "; against the baseline %zu new, %zu unchanged, %zu absent",
		        st->new_findings, st->unchanged, st->absent);
	fputc('\n', out);
	if (s->image) {   /* which image, as its registry and runtime name it */
		fputs("image ", out);
		ds_put_escaped(out, s->image->name);
		fprintf(out, " (%s, %s", s->image->digest ? s->image->digest : "no digest",
		        s->image->platform);
		for (size_t i = 0; i < s->image->ntags; i++) {
			fputs(i ? " " : ", ", out);
			ds_put_escaped(out, s->image->tags[i]);
		}
		fputs(")\n", out);
	}
}

/* Passes, waived findings (counted in the table and the summary) and,
 * against a --baseline, unchanged findings only with -v. */
static bool shown(const struct ds_scan *s, const struct ds_finding *d)
{
	return s->opt->verbose || (d->severity != DS_SEV_PASS && !d->waiver &&
	                           d->baseline != DS_BASELINE_UNCHANGED);
}

/* --summary: rpm-chksec --all's table (src/core/verdict.c); lines printed */
static size_t print_verdicts(FILE *out, const struct ds_scan *s)
{
	struct ds_verdict *v;
	size_t n = ds_verdicts(s, &v);
	fprintf(out, "%-50s  %-7s  %-4s  %s\n", "PACKAGE", "RELRO", "PIE", "CLASS");
	for (size_t i = 0; i < n; i++) {
		char *name = ds_escape(v[i].package);
		fprintf(out, "%-50s", name);
		free(name);
		if (v[i].cls)
			fprintf(out, "  %-7s  %-4s  %s\n", v[i].relro, v[i].pie, v[i].cls);
		else
			fprintf(out, "  %-7s  %s\n", v[i].relro, v[i].pie);
	}
	ds_verdicts_free(v, n);
	return n + 1;
}

static int render(const struct ds_scan *s, FILE *out)
{
	if (s->opt->summary) {
		size_t n = print_verdicts(out, s);
		print_table(out, s);
		print_summary(out, s, n > 0);
		return ferror(out) ? -1 : 0;
	}
	bool grouped = s->opt->group_by != DS_GROUP_NONE;
	struct ds_group *g = NULL;
	size_t ng = grouped ? ds_groups_make(s, s->opt->group_by, s->opt->verbose, &g) : 0;
	size_t n = 0;
	if (grouped) {
		for (size_t i = 0; i < ng; i++) {
			bool header = false;
			for (size_t j = 0; j < g[i].n; j++) {
				if (!shown(s, g[i].f[j]))
					continue;
				if (!header)
					print_header(out, s, g[i].first);
				header = true;
				print_line(out, s, g[i].f[j], false);
				n++;
			}
		}
	} else {
		for (size_t i = 0; i < s->nfindings; i++)
			if (shown(s, s->findings[i])) {
				print_line(out, s, s->findings[i], true);
				n++;
			}
	}
	ds_groups_free(g, ng);
	print_table(out, s);
	print_summary(out, s, n > 0);
	return ferror(out) ? -1 : 0;
}

const struct ds_output ds_output_text = {
	.name = "text",
	.summary = "one line per finding, severity coloured on a terminal",
	.ext = "txt",
	.render = render,
};
