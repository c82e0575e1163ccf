/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sarif: SARIF 2.1.0, one run, as GitHub code scanning and OpenScanHub read
 * it.  tool.driver.rules are the checks this scan enabled, each with its
 * documentation (src/core/checkdoc.c), CWE tag, security-severity and precision;
 * defaultConfiguration.level is the lowest level the check reports (its
 * findings carry their own).  Each result names its rule, its level, the
 * file as a URI relative to the scanned root (uriBaseId ROOT) with the line
 * when a script check knows it, a partialFingerprint from check, path,
 * package name and STIG rule (stable across runs and versions), and the
 * owner and details in properties.  A member of a package file is a
 * run.artifacts entry whose parentIndex is the package file's, its URI
 * relative to that parent (no ROOT: it is not a host file); when only
 * package files were scanned there is no ROOT at all, and a package file
 * that could not be read is its host file URI.  Waived findings carry a
 * suppression.
 * invocations[0] lists what the scan could not look at: skipped checks,
 * unreadable files, files a check could not judge, unused waivers.  With
 * --baseline every result has a baselineState (new, unchanged), and the
 * old report's findings this scan no longer has are results "absent".
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

static json_object *help_obj(const struct ds_check *c)
{
	json_object *o = json_object_new_object();
	char *text = ds_check_help(c, false), *md = ds_check_help(c, true);
	json_object_object_add(o, "text", json_object_new_string(text));
	json_object_object_add(o, "markdown", json_object_new_string(md));
	free(text);
	free(md);
	return o;
}

/* GitHub's scale: 9.0+ critical, 7.0+ high, 4.0+ medium, else low. */
static const char *security_severity(enum ds_severity s)
{
	return s == DS_SEV_ERROR ? "7.5" : s == DS_SEV_WARNING ? "5.0" : "2.0";
}

static json_object *rule_properties(const struct ds_check *c)
{
	json_object *p = json_object_new_object();
	json_object *tags = json_object_new_array();
	json_object_array_add(tags, json_object_new_string("security"));
	if (c->cwe) {
		char tag[40];
		snprintf(tag, sizeof tag, "external/cwe/cwe-%u", c->cwe);
		json_object_array_add(tags, json_object_new_string(tag));
		snprintf(tag, sizeof tag, "CWE-%u", c->cwe);
		json_object_object_add(p, "cwe", json_object_new_string(tag));
	}
	json_object_object_add(p, "tags", tags);
	json_object_object_add(p, "security-severity",
	                       json_object_new_string(security_severity(c->severity)));
	if (c->precision)
		json_object_object_add(p, "precision", json_object_new_string(c->precision));
	char *policy = ds_check_severity_policy(c);
	json_object_object_add(p, "severity-policy", json_object_new_string(policy));
	free(policy);
	return p;
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
		json_object_object_add(r, "name", json_object_new_string(c->id));
		json_object_object_add(r, "shortDescription", text_obj(c->summary));
		json_object_object_add(r, "fullDescription",
		                       text_obj(c->help.what ? c->help.what : c->summary));
		json_object_object_add(r, "help", help_obj(c));
		json_object *cfg = json_object_new_object();
		json_object_object_add(cfg, "level", json_object_new_string(
			level_of(c->least ? c->least : c->severity)));
		json_object_object_add(r, "defaultConfiguration", cfg);
		json_object_object_add(r, "properties", rule_properties(c));
		json_object_array_add(arr, r);
		index[i] = n++;
	}
	return arr;
}

/* The line a script check found it on: details.line, or details.lines[0]. */
static int line_of(json_object *details)
{
	json_object *v;
	if (json_object_object_get_ex(details, "line", &v))
		return json_object_get_int(v);
	if (json_object_object_get_ex(details, "lines", &v) &&
	    json_object_is_type(v, json_type_array) && json_object_array_length(v) > 0)
		return json_object_get_int(json_object_array_get_idx(v, 0));
	return 0;
}

/* Where a path is: inside the scanned root (relative to ROOT), a member of
 * the package file that is its artifact's parent (relative to it, SARIF's
 * nested artifacts), or a host file (only package files were scanned: the
 * root was not read, so ROOT is not claimed). */
enum where { IN_ROOT, IN_PARENT, ON_HOST };

static enum where where_of(const struct ds_scan *s, const struct ds_finding *d)
{
	return d->input ? IN_PARENT : s->root_unread ? ON_HOST : IN_ROOT;
}

static json_object *artifact_location(const char *path, int index, enum where where)
{
	char *abs = where == ON_HOST ? realpath(path, NULL) : NULL;
	char *enc = uri_encode(abs ? abs : path[0] == '/' && where != ON_HOST ? path + 1 : path);
	char *uri = ds_xasprintf("%s%s", abs ? "file://" : "", enc);
	json_object *art = json_object_new_object();
	json_object_object_add(art, "uri", json_object_new_string(uri));
	if (where == IN_ROOT)
		json_object_object_add(art, "uriBaseId", json_object_new_string("ROOT"));
	if (index >= 0)
		json_object_object_add(art, "index", json_object_new_int(index));
	free(abs);
	free(enc);
	free(uri);
	return art;
}

static json_object *location(const char *path, int line, int index, enum where where)
{
	json_object *art = artifact_location(path, index, where);
	json_object *phys = json_object_new_object();
	json_object_object_add(phys, "artifactLocation", art);
	if (line > 0) {
		json_object *region = json_object_new_object();
		json_object_object_add(region, "startLine", json_object_new_int(line));
		json_object_object_add(phys, "region", region);
	}
	json_object *loc = json_object_new_object();
	json_object_object_add(loc, "physicalLocation", phys);
	json_object *arr = json_object_new_array();
	json_object_array_add(arr, loc);
	return arr;
}

/* FNV-1a over check, path, package name and STIG rule: the same problem in
 * the next build (another version, another run) has the same print, so
 * code scanning updates an alert instead of opening a second one. */
/* The path as ds_path_same_file names it: an alert follows a file whose
 * name carries a version (a soname, python3.11/) into the next build. */
static json_object *fingerprint(const char *check, const char *path, const char *pkg,
                                const char *rule)
{
	char *same = ds_path_same_file(path);
	const char *part[] = { check, same, pkg ? pkg : "", rule ? rule : "" };
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < 4; i++)
		for (const unsigned char *c = (const unsigned char *)part[i]; ; c++) {
			h = (h ^ *c) * 0x100000001b3u;   /* the NUL separates the parts */
			if (!*c)
				break;
		}
	free(same);
	char hex[17];
	snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "distsecFinding/v1", json_object_new_string(hex));
	return o;
}

static json_object *result(const struct ds_finding *d, int rule_index, int artifact,
                           enum where where)
{
	json_object *r = json_object_new_object();
	json_object_object_add(r, "ruleId", json_object_new_string(d->check->id));
	if (rule_index >= 0)
		json_object_object_add(r, "ruleIndex", json_object_new_int(rule_index));
	if (d->severity == DS_SEV_PASS)
		json_object_object_add(r, "kind", json_object_new_string("pass"));
	json_object_object_add(r, "level", json_object_new_string(level_of(d->severity)));
	json_object_object_add(r, "message", text_obj(d->message));
	json_object_object_add(r, "locations", location(d->path, line_of(d->details), artifact, where));
	const struct ds_pkg *p = d->owner.status == DS_OWNER_PACKAGE ? d->owner.pkgs[0] : NULL;
	json_object_object_add(r, "partialFingerprints",
	                       fingerprint(d->check->id, d->path, p ? p->name : NULL, d->rule));
	if (d->baseline)
		json_object_object_add(r, "baselineState", json_object_new_string(
			d->baseline == DS_BASELINE_NEW ? "new" : "unchanged"));
	json_object *props = json_object_new_object();
	json_object_object_add(props, "owner", ds_owner_json(&d->owner));
	json_object_object_add(props, "details", json_object_get(d->details));
	if (d->rule)
		json_object_object_add(props, "stigRule", ds_json_string(d->rule));
	if (d->layer)
		json_object_object_add(props, "layer", json_object_new_string(d->layer));
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

static const char *str_of(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

/* A finding of the --baseline report this scan no longer has, from its
 * JSON record: baselineState "absent", the same fingerprint as before. */
static json_object *absent_result(json_object *d, const int *index)
{
	const char *check = str_of(d, "check"), *path = str_of(d, "path");
	json_object *r = json_object_new_object(), *owner = NULL, *details = NULL;
	json_object_object_add(r, "ruleId", json_object_new_string(check));
	const struct ds_check *c = ds_check_find(check);
	for (size_t k = 0; c && k < ds_nchecks; k++)
		if (ds_checks[k] == c && index[k] >= 0)
			json_object_object_add(r, "ruleIndex", json_object_new_int(index[k]));
	json_object_object_add(r, "level", json_object_new_string(
		level_of(ds_severity_parse(str_of(d, "severity")))));
	json_object_object_add(r, "message", text_obj(str_of(d, "message") ? str_of(d, "message") : check));
	json_object_object_get_ex(d, "details", &details);
	json_object_object_add(r, "locations", location(path, line_of(details), -1, IN_ROOT));
	json_object_object_get_ex(d, "owner", &owner);
	json_object_object_add(r, "partialFingerprints",
	                       fingerprint(check, path, str_of(owner, "name"), str_of(d, "rule")));
	json_object_object_add(r, "baselineState", json_object_new_string("absent"));
	return r;
}

static json_object *notification(const char *level, const char *rule, const char *text,
                                 const char *path, enum where where)
{
	json_object *n = json_object_new_object();
	json_object_object_add(n, "level", json_object_new_string(level));
	json_object_object_add(n, "message", text_obj(text));
	if (rule) {
		json_object *ref = json_object_new_object();
		json_object_object_add(ref, "id", json_object_new_string(rule));
		json_object_object_add(n, "associatedRule", ref);
	}
	if (path)
		json_object_object_add(n, "locations", location(path, 0, -1, where));
	return n;
}

/* Whatever the scan could not look at, so "no result" is never mistaken
 * for "clean": skipped checks, files that could not be read, files a check
 * could not judge (details.not_checked: a missing interpreter), and
 * waivers that matched nothing. */
static json_object *invocations(const struct ds_scan *s)
{
	json_object *notes = json_object_new_array();
	for (size_t i = 0; i < s->nskipped; i++) {
		char *text = ds_xasprintf("%s skipped: %s", s->skipped[i].check->id, s->skipped[i].why);
		json_object_array_add(notes, notification("note", s->skipped[i].check->id, text, NULL,
		                                                  IN_ROOT));
		free(text);
	}
	for (size_t i = 0; i < s->nfindings; i++) {
		const struct ds_finding *d = s->findings[i];
		json_object *v;
		if (d->check == &ds_check_scan_unreadable)
			json_object_array_add(notes, notification("warning", d->check->id, d->message,
			                                          d->path, where_of(s, d)));
		else if (json_object_object_get_ex(d->details, "not_checked", &v))
			json_object_array_add(notes, notification("warning", d->check->id, d->message,
			                                          NULL, IN_ROOT));
	}
	const char *const *unused;
	size_t nunused = ds_scan_unused_waivers(s, &unused);
	for (size_t i = 0; i < nunused; i++) {
		char *text = ds_xasprintf("unused waiver %s", unused[i]);
		json_object_array_add(notes, notification("note", NULL, text, NULL, IN_ROOT));
		free(text);
	}
	json_object *inv = json_object_new_object();
	json_object_object_add(inv, "executionSuccessful", json_object_new_boolean(1));
	json_object_object_add(inv, "toolExecutionNotifications", notes);
	json_object *arr = json_object_new_array();
	json_object_array_add(arr, inv);
	return arr;
}

/* run.artifacts: each package file a finding came from, and under it
 * (parentIndex) each member with a finding, so a consumer sees which
 * .deb or .rpm holds /usr/bin/x.  The member's location is the path
 * inside the root the results use; the package file's is its host path. */
struct artifacts {
	json_object *list;
	struct ds_strmap *index;        /* key -> index + 1 */
};

static int add_artifact(struct artifacts *a, const char *key, json_object *art)
{
	uintptr_t *slot = ds_strmap_put(a->index, key);
	if (*slot) {
		json_object_put(art);
		return (int)*slot - 1;
	}
	json_object_array_add(a->list, art);
	*slot = json_object_array_length(a->list);
	return (int)*slot - 1;
}

static int artifact_of(struct artifacts *a, const struct ds_finding *d)
{
	if (!d->input)
		return -1;
	const struct ds_input *in = d->input;
	char key[40];
	snprintf(key, sizeof key, "%p", (const void *)in);
	if (!ds_strmap_get(a->index, key)) {
		char *abs = realpath(in->path, NULL), *enc = uri_encode(abs ? abs : in->path);
		char *uri = ds_xasprintf("%s%s", abs ? "file://" : "", enc);
		json_object *loc = json_object_new_object(), *art = json_object_new_object();
		json_object_object_add(loc, "uri", json_object_new_string(uri));
		json_object_object_add(art, "location", loc);
		json_object *hashes = json_object_new_object();
		json_object_object_add(hashes, "sha-256", json_object_new_string(in->sha256));
		json_object_object_add(art, "hashes", hashes);
		add_artifact(a, key, art);
		free(abs);
		free(enc);
		free(uri);
	}
	int parent = (int)*ds_strmap_get(a->index, key) - 1;
	char *member = ds_xasprintf("%s\037%s", key, d->path);
	json_object *art = json_object_new_object();
	json_object_object_add(art, "location", artifact_location(d->path, -1, IN_PARENT));
	json_object_object_add(art, "parentIndex", json_object_new_int(parent));
	int idx = add_artifact(a, member, art);
	free(member);
	return idx;
}

/* GitHub keys a run on its category (the id up to the last '/'): two
 * scans of one commit (a root and a set of packages) need two. */
static json_object *automation(const struct ds_scan *s)
{
	const char *cat = s->opt->sarif_category ? s->opt->sarif_category : "distsec";
	char *id = ds_xasprintf("%s%s", cat, cat[0] && cat[strlen(cat) - 1] == '/' ? "" : "/");
	json_object *o = json_object_new_object();
	json_object_object_add(o, "id", ds_json_string(id));
	free(id);
	return o;
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
	struct artifacts arts = { json_object_new_array(), ds_strmap_new() };
	for (size_t i = 0; i < s->nfindings; i++) {
		const struct ds_finding *d = s->findings[i];
		if (d->severity == DS_SEV_PASS && !s->opt->verbose)
			continue;
		int idx = -1;
		for (size_t k = 0; k < ds_nchecks; k++)
			if (ds_checks[k] == d->check)
				idx = index[k];
		json_object_array_add(results, result(d, idx, artifact_of(&arts, d), where_of(s, d)));
	}
	for (size_t i = 0; i < ds_scan_absent_count(s); i++) {
		json_object *d = ds_scan_absent(s, i);
		json_object_array_add(results, absent_result(d, index));
		json_object_put(d);
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
	json_object_object_add(run, "automationDetails", automation(s));
	json_object_object_add(run, "invocations", invocations(s));
	if (!s->root_unread)   /* else no result is in a root */
		json_object_object_add(run, "originalUriBaseIds", bases);
	else
		json_object_put(bases);
	if (json_object_array_length(arts.list))
		json_object_object_add(run, "artifacts", json_object_get(arts.list));
	json_object_put(arts.list);
	ds_strmap_free(arts.index);
	json_object_object_add(run, "results", results);
	json_object *props = json_object_new_object();
	json_object_object_add(props, "backend", json_object_new_string(s->backend->name));
	json_object_object_add(props, "profile", ds_json_string(s->profile));
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
