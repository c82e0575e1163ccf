/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A check's documentation, rendered from its descriptor (include/distsec/
 * check.h): `distsec explain`, `distsec checks --format json` and the SARIF
 * rules all read it here, so they cannot drift apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distsec/check.h"
#include "distsec/util.h"

static const char *const labels[] = { "What", "How it is detected", "Severity", "Limits",
                                      "How to fix" };

char *ds_check_severity_policy(const struct ds_check *c)
{
	if (c->severity_policy)
		return ds_xstrdup(c->severity_policy);
	return ds_xasprintf("always %s", ds_severity_name(c->severity));
}

char *ds_check_help(const struct ds_check *c, bool markdown)
{
	char *policy = ds_check_severity_policy(c);
	const char *part[] = { c->help.what, c->help.detect, policy, c->help.limits, c->help.fix };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		abort();
	fprintf(m, markdown ? "**%s**: %s\n" : "%s: %s\n", c->id, c->summary);
	for (size_t i = 0; i < sizeof part / sizeof part[0]; i++)
		if (part[i])
			fprintf(m, markdown ? "\n**%s.** %s\n" : "\n%s: %s\n", labels[i], part[i]);
	if (c->cwe)
		fprintf(m, markdown ? "\n**CWE:** [CWE-%u](https://cwe.mitre.org/data/definitions/%u.html)\n"
		                    : "\nCWE: CWE-%u (https://cwe.mitre.org/data/definitions/%u.html)\n",
		        c->cwe, c->cwe);
	if (c->precision)
		fprintf(m, markdown ? "\n**Precision:** %s\n" : "\nPrecision: %s\n", c->precision);
	if (c->opt_in)
		fputs(markdown ? "\nOpt-in: runs only when named by `--check`.\n"
		               : "\nOpt-in: runs only when named by --check.\n", m);
	fclose(m);
	free(policy);
	return buf;
}

json_object *ds_check_json(const struct ds_check *c)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_string(c->id));
	json_object_object_add(o, "severity", json_object_new_string(ds_severity_name(c->severity)));
	char *policy = ds_check_severity_policy(c);
	json_object_object_add(o, "severity_policy", json_object_new_string(policy));
	free(policy);
	json_object_object_add(o, "cwe", c->cwe ? json_object_new_int((int)c->cwe) : NULL);
	json_object_object_add(o, "precision", c->precision ? json_object_new_string(c->precision)
	                                                    : NULL);
	json_object_object_add(o, "opt_in", json_object_new_boolean(c->opt_in));
	json_object_object_add(o, "summary", json_object_new_string(c->summary));
	json_object *help = json_object_new_object();
	const char *keys[] = { "what", "detect", "limits", "fix" };
	const char *vals[] = { c->help.what, c->help.detect, c->help.limits, c->help.fix };
	for (size_t i = 0; i < 4; i++)
		json_object_object_add(help, keys[i], vals[i] ? json_object_new_string(vals[i]) : NULL);
	json_object_object_add(o, "help", help);
	return o;
}

/* docs/checks.md: a table of every check, then each one's help. */
void ds_checks_markdown(FILE *out)
{
	fputs("# Checks\n\n"
	      "Written by `distsec checks --format markdown` from each check's descriptor, the\n"
	      "text `distsec explain ID` prints; do not edit by hand. How often each check is\n"
	      "right on real packages is measured in [bench/PRECISION.md](../bench/PRECISION.md).\n\n"
	      "| id | severity | finds |\n|---|---|---|\n", out);
	for (size_t i = 0; i < ds_nchecks; i++) {
		const struct ds_check *c = ds_checks[i];
		fprintf(out, "| [`%s`](#%s) | %s%s | %s |\n", c->id, c->id, ds_severity_name(c->severity),
		        c->opt_in ? ", opt-in" : "", c->summary);
	}
	for (size_t i = 0; i < ds_nchecks; i++) {
		char *help = ds_check_help(ds_checks[i], true);
		fprintf(out, "\n## %s\n\n%s", ds_checks[i]->id, help);
		free(help);
	}
}

/* roff text: a backslash and a minus escaped, a line never starting with
 * a control character. */
static void roff_text(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

/* The man page's CHECKS list (meson puts it into distsec.1 at build time). */
void ds_checks_man(FILE *out)
{
	for (size_t i = 0; i < ds_nchecks; i++) {
		const struct ds_check *c = ds_checks[i];
		char *policy = ds_check_severity_policy(c);
		fputs(".TP\n.B ", out);
		roff_text(out, c->id);
		fputs("\n", out);
		roff_text(out, c->summary);
		fputs(".\nSeverity: ", out);
		roff_text(out, policy);
		fputs(c->opt_in ? ".\nOpt-in: runs only when named by \\-\\-check.\n" : ".\n", out);
		free(policy);
	}
}
