/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text: `SEVERITY  check-id  path  [package]  message`, one line a finding,
 * severity coloured, then a summary line.  With --group-by, a header per
 * package (or maintainer) and its findings under it.  Control characters
 * and invalid UTF-8 in paths are escaped so a hostile name cannot forge
 * lines or terminal sequences.
 */
#include <stdlib.h>
#include <string.h>

#include "output.h"

static const char *const colours[] = { "\033[32m", "\033[34m", "\033[33m", "\033[31m" };

static void put_escaped(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n;
		if (*p == '\\') {
			fputs("\\\\", out);
			p++;
		} else if (*p == '\n') {
			fputs("\\n", out);
			p++;
		} else if (*p == '\t') {
			fputs("\\t", out);
			p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(out, "\\x%02x", *p++);
		} else if (*p < 0x80) {
			fputc(*p++, out);
		} else if ((n = ds_utf8_len(p)) != 0) {
			fwrite(p, 1, n, out);
			p += n;
		} else {
			fprintf(out, "\\x%02x", *p++);
		}
	}
}

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
		put_escaped(out, p->maintainer ? p->maintainer : "(no maintainer)");
		fputs(" ==\n", out);
		return;
	}
	put_escaped(out, p->name);
	fprintf(out, " %s", p->version ? p->version : "");
	if (p->arch)
		fprintf(out, " %s", p->arch);
	if (p->source && strcmp(p->source, p->name) != 0)
		fprintf(out, " (source %s)", p->source);
	if (p->maintainer) {
		fputs(" - ", out);
		put_escaped(out, p->maintainer);
	}
	if (p->origin) {
		fputs(" from ", out);
		put_escaped(out, p->origin);
	}
	if (p->candidate && p->version && strcmp(p->candidate, p->version) != 0) {
		fputs(" (candidate ", out);
		put_escaped(out, p->candidate);
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
	put_escaped(out, d->path);
	if (with_pkg) {
		fputs("  [", out);
		put_escaped(out, ds_owner_label(&d->owner, buf, sizeof buf));
		fputc(']', out);
	}
	fputs("  ", out);
	if (d->rule)
		fprintf(out, "%s: ", d->rule);
	put_escaped(out, d->message);
	if (d->waiver) {
		fputs("  (waived: ", out);
		put_escaped(out, d->waiver);
		fputc(')', out);
	}
	fputc('\n', out);
}

static void print_summary(FILE *out, const struct ds_scan *s, bool any)
{
	const struct ds_stats *st = &s->stats;
	fprintf(out, "%s%zu files (%zu ELF", any ? "\n" : "", st->files, st->elf);
	if (st->elf_not_judged)
		fprintf(out, ", %zu not run here", st->elf_not_judged);
	fprintf(out, ", %zu scripts), %zu packages, backend %s: "
	        "%zu errors, %zu warnings, %zu info",
	        st->scripts, st->packages, s->backend->name,
	        st->by_severity[DS_SEV_ERROR], st->by_severity[DS_SEV_WARNING],
	        st->by_severity[DS_SEV_INFO]);
	if (st->waived)
		fprintf(out, ", %zu waived", st->waived);
	fputc('\n', out);
}

static int render(const struct ds_scan *s, FILE *out)
{
	bool grouped = s->opt->group_by != DS_GROUP_NONE;
	struct ds_group *g = NULL;
	size_t ng = grouped ? ds_groups_make(s, s->opt->group_by, s->opt->verbose, &g) : 0;
	size_t n = 0;
	if (grouped) {
		for (size_t i = 0; i < ng; i++) {
			print_header(out, s, g[i].first);
			for (size_t j = 0; j < g[i].n; j++)
				print_line(out, s, g[i].f[j], false);
			n += g[i].n;
		}
	} else {
		for (size_t i = 0; i < s->nfindings; i++)
			if (s->findings[i]->severity != DS_SEV_PASS || s->opt->verbose) {
				print_line(out, s, s->findings[i], true);
				n++;
			}
	}
	ds_groups_free(g, ng);
	print_summary(out, s, n > 0);
	return ferror(out) ? -1 : 0;
}

const struct ds_output ds_output_text = {
	.name = "text",
	.summary = "one line per finding, severity coloured on a terminal",
	.ext = "txt",
	.render = render,
};
