/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sarif: SARIF 2.1.0, one run.  tool.driver.rules are the checks this scan
 * ran; each result names its rule, level (error/warning/note), the file
 * as a URI relative to the scanned root (uriBaseId ROOT), and carries the
 * owner, details and STIG rule in properties.  Waived findings carry a
 * suppression with the waiver's justification.
 */
#include <stdlib.h>
#include <string.h>

#include "output.h"

/* RFC 3986: unreserved characters and '/' stay, every other byte is %XX. */
static char *uri_encode(const char *s)
{
	char *out = ds_xmalloc(strlen(s) * 3 + 1), *o = out;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			*o++ = (char)*p;
		else
			o += sprintf(o, "%%%02X", *p);
	}
	*o = '\0';
	return out;
}

static const char *level_of(enum ds_severity s)
{
	return s == DS_SEV_ERROR ? "error" : s == DS_SEV_WARNING ? "warning"
	     : s == DS_SEV_INFO ? "note" : "none";
}

static json_object *text_obj(const char *text)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "text", ds_json_string(text));
	return o;
}

static json_object *rules(const struct ds_scan *s, int *index)
{
	json_object *arr = json_object_new_array();
	int n = 0;
	for (size_t i = 0; i < ds_nchecks; i++) {
		index[i] = -1;
		if (!s->enabled[i])
			continue;
		const struct ds_check *c = ds_checks[i];
		json_object *r = json_object_new_object();
		json_object_object_add(r, "id", json_object_new_string(c->id));
		json_object_object_add(r, "shortDescription", text_obj(c->summary));
		json_object_object_add(r, "help", text_obj(c->summary));
		json_object *cfg = json_object_new_object();
		json_object_object_add(cfg, "level", json_object_new_string(level_of(c->severity)));
		json_object_object_add(r, "defaultConfiguration", cfg);
		json_object_array_add(arr, r);
		index[i] = n++;
	}
	return arr;
}

static json_object *location(const char *path)
{
	char *uri = uri_encode(path[0] == '/' ? path + 1 : path);
	json_object *art = json_object_new_object();
	json_object_object_add(art, "uri", json_object_new_string(uri));
	json_object_object_add(art, "uriBaseId", json_object_new_string("ROOT"));
	free(uri);
	json_object *phys = json_object_new_object();
	json_object_object_add(phys, "artifactLocation", art);
	json_object *loc = json_object_new_object();
	json_object_object_add(loc, "physicalLocation", phys);
	json_object *arr = json_object_new_array();
	json_object_array_add(arr, loc);
	return arr;
}

static json_object *result(const struct ds_finding *d, int rule_index)
{
	json_object *r = json_object_new_object();
	json_object_object_add(r, "ruleId", json_object_new_string(d->check->id));
	if (rule_index >= 0)
		json_object_object_add(r, "ruleIndex", json_object_new_int(rule_index));
	if (d->severity == DS_SEV_PASS)
		json_object_object_add(r, "kind", json_object_new_string("pass"));
	json_object_object_add(r, "level", json_object_new_string(level_of(d->severity)));
	json_object_object_add(r, "message", text_obj(d->message));
	json_object_object_add(r, "locations", location(d->path));
	json_object *props = json_object_new_object();
	json_object_object_add(props, "owner", ds_owner_json(&d->owner));
	json_object_object_add(props, "details", json_object_get(d->details));
	if (d->rule)
		json_object_object_add(props, "stigRule", json_object_new_string(d->rule));
	json_object_object_add(r, "properties", props);
	if (d->waiver) {
		json_object *sup = json_object_new_object();
		json_object_object_add(sup, "kind", json_object_new_string("external"));
		json_object_object_add(sup, "justification", ds_json_string(d->waiver));
		json_object *arr = json_object_new_array();
		json_object_array_add(arr, sup);
		json_object_object_add(r, "suppressions", arr);
	}
	return r;
}

static int render(const struct ds_scan *s, FILE *out)
{
	int *index = ds_xcalloc(ds_nchecks, sizeof *index);
	json_object *driver = json_object_new_object();
	json_object_object_add(driver, "name", json_object_new_string("distsec"));
	json_object_object_add(driver, "version", json_object_new_string(DS_VERSION));
	json_object_object_add(driver, "rules", rules(s, index));
	json_object *tool = json_object_new_object();
	json_object_object_add(tool, "driver", driver);

	json_object *results = json_object_new_array();
	for (size_t i = 0; i < s->nfindings; i++) {
		const struct ds_finding *d = s->findings[i];
		if (d->severity == DS_SEV_PASS && !s->opt->verbose)
			continue;
		int idx = -1;
		for (size_t k = 0; k < ds_nchecks; k++)
			if (ds_checks[k] == d->check)
				idx = index[k];
		json_object_array_add(results, result(d, idx));
	}
	char *root_uri = uri_encode(s->root);
	char *base = ds_xasprintf("file://%s%s", root_uri,
	                          root_uri[strlen(root_uri) - 1] == '/' ? "" : "/");
	json_object *root = json_object_new_object();
	json_object_object_add(root, "uri", json_object_new_string(base));
	json_object *bases = json_object_new_object();
	json_object_object_add(bases, "ROOT", root);
	free(root_uri);
	free(base);

	json_object *run = json_object_new_object();
	json_object_object_add(run, "tool", tool);
	json_object_object_add(run, "originalUriBaseIds", bases);
	json_object_object_add(run, "results", results);
	json_object *props = json_object_new_object();
	json_object_object_add(props, "backend", json_object_new_string(s->backend->name));
	json_object_object_add(run, "properties", props);
	json_object *runs = json_object_new_array();
	json_object_array_add(runs, run);
	json_object *doc = json_object_new_object();
	json_object_object_add(doc, "$schema", json_object_new_string(
		"https://json.schemastore.org/sarif-2.1.0.json"));
	json_object_object_add(doc, "version", json_object_new_string("2.1.0"));
	json_object_object_add(doc, "runs", runs);
	fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
	                                     JSON_C_TO_STRING_NOSLASHESCAPE), out);
	fputc('\n', out);
	json_object_put(doc);
	free(index);
	return ferror(out) ? -1 : 0;
}

const struct ds_output ds_output_sarif = {
	.name = "sarif",
	.summary = "SARIF 2.1.0 (one run; rules from the check registry)",
	.ext = "sarif",
	.wants_origins = true,
	.render = render,
};
