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
