/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmt: the custom results file of a tmt test with `result: custom`
 * (${TMT_TEST_DATA}/results.json; tmt's spec/results.fmf and
 * tmt/schemas/results.yaml): a list of results, one per package and check
 * that ran, named /PACKAGE/CHECK.  The outcome follows --fail-on as the
 * exit status does: "fail" when a finding counts against it ("error" for
 * scan-unreadable: a file not looked at needs a human), "warn" when a
 * warning or error stays below it, "info" (a soft pass) when only info
 * findings do or a check was skipped here, else "pass".  note lists the findings (tmt >= 1.41 reads a list of strings).
 * With --group-by package --report-dir DIR, log names the package's JSON
 * report in DIR, relative to the results file's directory as tmt wants.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

/* Findings listed in one note; the rest are counted. */
#define NOTE_MAX 50

/* The path of dir relative to the directory of file (the current one
 * when file is NULL: stdout), or NULL when either cannot be resolved. */
static char *relative_dir(const char *file, const char *dir)
{
	char *copy = ds_xstrdup(file ? file : "./-"), *slash = strrchr(copy, '/');
	if (slash)
		*slash = '\0';
	char *from = realpath(!slash ? "." : copy[0] ? copy : "/", NULL), *to = realpath(dir, NULL);
	free(copy);
	char *rel = NULL;
	if (from && to) {
		/* the longest common prefix that ends at a component boundary */
		size_t common = 0;
		for (size_t i = 0; from[i] && from[i] == to[i]; i++)
			if ((from[i + 1] == '/' || !from[i + 1]) && (to[i + 1] == '/' || !to[i + 1]))
				common = i + 1;
		size_t ups = 0;
		for (const char *p = from + common; *p; p++)
			ups += *p == '/';
		const char *down = to + common + (to[common] == '/');
		rel = ds_xstrdup(!ups && !*down ? "." : "");
		for (size_t i = 0; i < ups; i++) {
			char *n = ds_xasprintf("%s..%s", rel, i + 1 < ups || *down ? "/" : "");
			free(rel);
			rel = n;
		}
		char *n = ds_xasprintf("%s%s", rel, down);
		free(rel);
		rel = n;
	}
	free(from);
	free(to);
	return rel;
}

static const char *package_name(const struct ds_group *g)
{
	const struct ds_owner *o = g->first ? &g->first->owner : NULL;
	return o && o->status == DS_OWNER_PACKAGE && o->pkgs[0] && o->pkgs[0]->name
	       ? o->pkgs[0]->name : g->key;
}

/* "/PACKAGE/CHECK": a '/' in a (hostile) package name would make a level. */
static json_object *result_name(const char *pkg, const struct ds_check *c)
{
	char *clean = ds_utf8_clean(pkg);
	for (char *p = clean; *p; p++)
		if (*p == '/')
			*p = '_';
	char *name = ds_xasprintf("/%s/%s", clean, c->id);
	json_object *o = json_object_new_string(name);
	free(name);
	free(clean);
	return o;
}

static json_object *result(const struct ds_scan *s, const struct ds_group *g,
                           const struct ds_check *c, const char *log)
{
	size_t failing = 0, other = 0, warned = 0, listed = 0;
	json_object *note = json_object_new_array();
	const char *why = ds_check_skipped(s, c);
	if (why) {
		char *text = ds_xasprintf("skipped: %s", why);
		json_object_array_add(note, ds_json_string(text));
		free(text);
	}
	for (size_t i = 0; i < g->n; i++) {
		const struct ds_finding *d = g->f[i];
		if (d->check != c || d->severity == DS_SEV_PASS)
			continue;
		if (ds_finding_gates(s, d))
			failing++;
		else if (d->severity >= DS_SEV_WARNING && !d->waiver)
			warned++;
		else
			other++;
		if (listed++ >= NOTE_MAX)
			continue;
		char *text = ds_xasprintf("%s: %s: %s%s%s%s", ds_severity_name(d->severity), d->path,
		                          d->message, d->waiver ? " (waived: " : "",
		                          d->waiver ? d->waiver : "", d->waiver ? ")" : "");
		json_object_array_add(note, ds_json_string(text));
		free(text);
	}
	if (listed > NOTE_MAX) {
		char *text = ds_xasprintf("and %zu more", listed - NOTE_MAX);
		json_object_array_add(note, json_object_new_string(text));
		free(text);
	}
	const char *outcome = failing ? (c == &ds_check_scan_unreadable ? "error" : "fail")
	                    : warned ? "warn" : other || why ? "info" : "pass";
	json_object *r = json_object_new_object();
	json_object_object_add(r, "name", result_name(package_name(g), c));
	json_object_object_add(r, "result", json_object_new_string(outcome));
	json_object_object_add(r, "note", note);
	if (log) {
		json_object *logs = json_object_new_array();
		json_object_array_add(logs, json_object_new_string(log));
		json_object_object_add(r, "log", logs);
	}
	return r;
}

static int render(const struct ds_scan *s, FILE *out)
{
	struct ds_group *g;
	size_t ng = ds_groups_make(s, DS_GROUP_PACKAGE, true, &g);
	struct ds_group whole = { .key = s->root };
	/* the JSON reports reports.c wrote, named the same way in the same order */
	bool logs = s->opt->report_dir && s->opt->group_by == DS_GROUP_PACKAGE;
	char *rel = logs ? relative_dir(s->opt->output, s->opt->report_dir) : NULL;
	struct ds_strmap *used = ds_report_names("json");
	json_object *list = json_object_new_array();
	for (size_t i = 0; i < (ng ? ng : 1); i++) {
		const struct ds_group *gi = ng ? &g[i] : &whole;
		char *file = ng ? ds_report_name(gi->key, "json", used) : NULL;
		char *log = rel && file ? ds_xasprintf("%s/%s", rel, file) : NULL;
		for (size_t c = 0; c < ds_nchecks; c++)
			if (s->enabled[c])
				json_object_array_add(list, result(s, gi, ds_checks[c], log));
		free(log);
		free(file);
	}
	fputs(json_object_to_json_string_ext(list, JSON_C_TO_STRING_PRETTY |
	                                      JSON_C_TO_STRING_NOSLASHESCAPE), out);
	fputc('\n', out);
	json_object_put(list);
	ds_strmap_free(used);
	free(rel);
	ds_groups_free(g, ng);
	return ferror(out) ? -1 : 0;
}

const struct ds_output ds_output_tmt = {
	.name = "tmt",
	.summary = "tmt custom results (results.json): /PACKAGE/CHECK pass, info, warn, fail or error",
	.ext = "json",
	.wants_origins = true,
	.reports_as = "json",
	.render = render,
};
