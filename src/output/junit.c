/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * junit: what Jenkins, GitLab and Testing Farm read.  One <testsuite> per
 * package (name, version, architecture; files without one in "(not-owned)"
 * or "(unknown)"), one <testcase> per check that was enabled, clean ones
 * included, so a clean scan is a list of passed tests, not an empty file.
 * A testcase fails when findings of its check in its package count against
 * --fail-on, exactly as the exit status does: one <failure> listing every
 * one of them (GitLab keeps only one per testcase).  Findings below
 * --fail-on and waived ones go to <system-out>; a check that could not run
 * here is <skipped> with the reason.  Validated against Jenkins' junit-10.xsd
 * (tests/schema).
 */
#include <stdlib.h>
#include <string.h>

#include "output.h"

/* XML 1.0 character data: markup escaped; invalid UTF-8 bytes written as
 * \xNN and code points XML forbids (C0 controls but tab and newline,
 * U+FFFE, U+FFFF) as \xNN or \uNNNN, so a hostile file name cannot make
 * the document ill-formed.  In attributes, tab and newline are references
 * (a parser would fold them into spaces); in a finding's line they are
 * written \t and \n (and a backslash \\) so a name cannot forge lines. */
enum xml_mode { XML_TEXT, XML_ATTR, XML_LINE };

static void put_xml(FILE *out, const char *s, enum xml_mode mode)
{
	ds_markup_put(out, s, mode == XML_ATTR ? DS_MARKUP_REFS : mode == XML_LINE ? DS_MARKUP_SHOWN : 0);
}

static void put_finding(FILE *out, const struct ds_finding *d)
{
	fprintf(out, "%s: ", ds_severity_name(d->severity));
	put_xml(out, d->path, XML_LINE);
	fputs(": ", out);
	if (d->rule) {
		put_xml(out, d->rule, XML_LINE);
		fputs(": ", out);
	}
	put_xml(out, d->message, XML_LINE);
	if (d->waiver) {
		fputs(" (waived: ", out);
		put_xml(out, d->waiver, XML_LINE);
		fputc(')', out);
	}
	fputc('\n', out);
}

struct counts { size_t tests, failures, skipped; };

static void testcase(FILE *out, const struct ds_scan *s, const struct ds_group *g, size_t c)
{
	const struct ds_check *check = ds_checks[c];
	size_t failing = 0, other = 0;
	for (size_t i = 0; i < g->n; i++)
		if (g->f[i]->check == check && g->f[i]->severity != DS_SEV_PASS)
			ds_finding_gates(s, g->f[i]) ? failing++ : other++;
	const char *why = ds_check_skipped(s, check);
	fputs("    <testcase classname=\"", out);
	put_xml(out, g->key, XML_ATTR);
	fprintf(out, "\" name=\"%s\"%s>\n", check->id, why || failing || other ? "" : "/");
	if (!why && !failing && !other)
		return;
	if (why) {
		fputs("      <skipped message=\"", out);
		put_xml(out, why, XML_ATTR);
		fputs("\"/>\n", out);
	}
	if (failing) {
		fprintf(out, "      <failure type=\"%s\" message=\"%zu finding%s at or above %s\">",
		        check->id, failing, failing == 1 ? "" : "s", ds_severity_name(s->opt->fail_on));
		for (size_t i = 0; i < g->n; i++)
			if (g->f[i]->check == check && ds_finding_gates(s, g->f[i]))
				put_finding(out, g->f[i]);
		fputs("</failure>\n", out);
	}
	if (other) {
		fputs("      <system-out>", out);
		for (size_t i = 0; i < g->n; i++) {
			const struct ds_finding *d = g->f[i];
			if (d->check == check && d->severity != DS_SEV_PASS && !ds_finding_gates(s, d))
				put_finding(out, d);
		}
		fputs("</system-out>\n", out);
	}
	fputs("    </testcase>\n", out);
}

static void suite(FILE *out, const struct ds_scan *s, const struct ds_group *g,
                  struct counts *total)
{
	/* the totals come first in the element: count before writing */
	struct counts k = { 0 };
	for (size_t c = 0; c < ds_nchecks; c++) {
		if (!s->enabled[c])
			continue;
		k.tests++;
		k.skipped += ds_check_skipped(s, ds_checks[c]) != NULL;
		for (size_t i = 0; i < g->n; i++)
			if (g->f[i]->check == ds_checks[c] && ds_finding_gates(s, g->f[i])) {
				k.failures++;
				break;
			}
	}
	fputs("  <testsuite name=\"", out);
	put_xml(out, g->key, XML_ATTR);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
	        k.tests, k.failures, k.skipped);
	for (size_t c = 0; c < ds_nchecks; c++)
		if (s->enabled[c])
			testcase(out, s, g, c);
	fputs("  </testsuite>\n", out);
	total->tests += k.tests;
	total->failures += k.failures;
	total->skipped += k.skipped;
}

static int render(const struct ds_scan *s, FILE *out)
{
	struct ds_group *g;
	size_t ng = ds_groups_make(s, DS_GROUP_PACKAGE, true, &g);
	/* nothing judged at all: one suite for the root, so a clean scan is a
	 * set of passed tests (Jenkins refuses a report without any) */
	struct ds_group whole = { .key = s->root };
	char *body = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&body, &len);
	if (!mem) {
		ds_groups_free(g, ng);
		return -1;
	}
	struct counts total = { 0 };
	for (size_t i = 0; i < ng; i++)
		suite(mem, s, &g[i], &total);
	if (!ng)
		suite(mem, s, &whole, &total);
	fclose(mem);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<testsuites name=\"distsec\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n",
	        total.tests, total.failures);
	fwrite(body, 1, len, out);
	fputs("</testsuites>\n", out);
	free(body);
	ds_groups_free(g, ng);
	return ferror(out) ? -1 : 0;
}

const struct ds_output ds_output_junit = {
	.name = "junit",
	.summary = "JUnit XML: a testsuite per package, a testcase per check, failures as --fail-on",
	.ext = "xml",
	.wants_origins = true,
	.render = render,
};
