/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * junit: the shape Jenkins and Testing Farm read.  One <testsuite> per
 * package (files without one in "(not-owned)" or "(unknown)"), one
 * <testcase> per check that ran, one <failure> per finding of that check
 * in that package.  Waived findings are not failures; they are listed in
 * <system-out>.
 */
#include <stdlib.h>
#include <string.h>

#include "distsec/check.h"
#include "distsec/output.h"
#include "../internal.h"

/* XML 1.0 text: markup escaped, control characters and invalid UTF-8
 * (not allowed in XML at all) written as \xNN. */
static void put_xml(FILE *out, const char *s)
{
	char *clean = ds_utf8_clean(s);
	for (const unsigned char *p = (const unsigned char *)clean; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			if (*p < 0x20 && *p != '\t' && *p != '\n')
				fprintf(out, "\\x%02x", *p);
			else
				fputc(*p, out);
		}
	}
	free(clean);
}

static int cmp_by_package(const void *a, const void *b)
{
	const struct ds_finding *x = *(struct ds_finding *const *)a;
	const struct ds_finding *y = *(struct ds_finding *const *)b;
	int c = strcmp(ds_group_key(DS_GROUP_PACKAGE, x), ds_group_key(DS_GROUP_PACKAGE, y));
	return c ? c : ds_finding_cmp(a, b);
}

static bool is_failure(const struct ds_finding *d)
{
	return d->severity != DS_SEV_PASS && !d->waiver;
}

static void suite(FILE *out, const struct ds_scan *s, struct ds_finding **f, size_t n)
{
	size_t tests = 0, failing = 0;
	for (size_t c = 0; c < ds_nchecks; c++) {
		if (!s->enabled[c])
			continue;
		tests++;
		for (size_t i = 0; i < n; i++)
			if (f[i]->check == ds_checks[c] && is_failure(f[i])) {
				failing++;
				break;
			}
	}
	fputs("  <testsuite name=\"", out);
	put_xml(out, ds_group_key(DS_GROUP_PACKAGE, f[0]));
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", tests, failing);
	for (size_t c = 0; c < ds_nchecks; c++) {
		if (!s->enabled[c])
			continue;
		fputs("    <testcase classname=\"", out);
		put_xml(out, ds_group_key(DS_GROUP_PACKAGE, f[0]));
		fprintf(out, "\" name=\"%s\">\n", ds_checks[c]->id);
		for (size_t i = 0; i < n; i++) {
			const struct ds_finding *d = f[i];
			if (d->check != ds_checks[c] || d->severity == DS_SEV_PASS)
				continue;
			fputs(d->waiver ? "      <system-out>waived: " : "      <failure type=\"", out);
			if (!d->waiver) {
				fprintf(out, "%s\" message=\"", ds_severity_name(d->severity));
				put_xml(out, d->message);
				fputs("\">", out);
			}
			put_xml(out, d->path);
			fputs(": ", out);
			if (d->rule)
				fprintf(out, "%s: ", d->rule);
			put_xml(out, d->message);
			if (d->waiver) {
				fputs(" (", out);
				put_xml(out, d->waiver);
				fputs(")", out);
			}
			fputs(d->waiver ? "</system-out>\n" : "</failure>\n", out);
		}
		fputs("    </testcase>\n", out);
	}
	fputs("  </testsuite>\n", out);
}

static int render(const struct ds_scan *s, FILE *out)
{
	struct ds_finding **list = ds_xcalloc(s->nfindings, sizeof *list);
	memcpy(list, s->findings, s->nfindings * sizeof *list);
	qsort(list, s->nfindings, sizeof *list, cmp_by_package);
	size_t failures = 0;
	for (size_t i = 0; i < s->nfindings; i++)
		failures += is_failure(list[i]);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<testsuites name=\"distsec\" failures=\"%zu\">\n", failures);
	for (size_t i = 0; i < s->nfindings;) {
		size_t j = i + 1;
		const char *key = ds_group_key(DS_GROUP_PACKAGE, list[i]);
		while (j < s->nfindings && !strcmp(ds_group_key(DS_GROUP_PACKAGE, list[j]), key))
			j++;
		suite(out, s, list + i, j - i);
		i = j;
	}
	fputs("</testsuites>\n", out);
	free(list);
	return ferror(out) ? -1 : 0;
}

const struct ds_output ds_output_junit = {
	.name = "junit",
	.summary = "JUnit XML: a testsuite per package, a testcase per check, a failure per finding",
	.render = render,
};
