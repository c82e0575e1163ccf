/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading distsec JSON reports (report.h): --baseline's old report, the
 * sides of `distsec diff`, the shards of `distsec merge`.  A report may
 * come from anywhere (another machine, an attacker), so:
 *   - json-c never sees the whole document: parsed at once, a 200 MB
 *     report became 7.6 GB of objects.  The top object, "summary" and
 *     the arrays are walked here; each array element (a finding, an
 *     input, a warning) is at most RECORD_MAX bytes and is parsed alone
 *     by json-c, checked, turned into a C record and freed.  Strings are
 *     interned (messages, owners and details repeat), so the records
 *     take less than the file;
 *   - every field is checked for the type the json output writes before
 *     it is used; a wrong one is an error naming it ("findings[3].owner:
 *     not an object"), never a crash or a silent default;
 *   - numbers are range-checked (counts, shard K/N as --shard takes it).
 * Unknown keys are skipped (their brackets and strings matched), so a
 * newer writer's additions do not stop an older reader.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/output.h"
#include "report.h"

/* Larger than any report distsec writes for a whole distribution. */
#define REPORT_MAX (1024ull << 20)
/* One array element or scalar: a finding record is a few hundred bytes. */
#define RECORD_MAX (1u << 20)
/* Values in one finding's details (the checks write a handful): bounds
 * what json-c makes of one record. */
#define DETAILS_MAX 1024
/* Nesting of the skipped values and of one element. */
#define DEPTH_MAX 64
/* The largest count a report may give (2^53: exact in a double). */
#define COUNT_MAX (1ll << 53)

struct rd {
	const char *p, *end;
	struct ds_report *r;
	json_tokener *tok;
	struct ds_error *err;
	bool failed;
};

static int bad(struct rd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct rd *c, const char *fmt, ...)
{
	if (!c->failed) {   /* the first reason is the one worth telling */
		va_list ap;
		va_start(ap, fmt);
		ds_error_vset(c->err, DS_ERR_PARSE, fmt, ap);
		va_end(ap);
		c->failed = true;
	}
	return -1;
}

static const char *intern(struct ds_report *r, const char *s)
{
	return s ? ds_strmap_key(r->strings, s) : NULL;
}

static void skip_ws(struct rd *c)
{
	while (c->p < c->end && strchr(" \t\r\n", *c->p) && *c->p)
		c->p++;
}

/* The end of the JSON value at p: brackets matched, strings skipped
 * whole, scalars as runs of their characters (json-c judges those of the
 * values it parses); NULL when it is not well-formed. */
static const char *value_end(const char *p, const char *end)
{
	char stack[DEPTH_MAX];
	size_t depth = 0;
	bool want_value = true;
	while (p < end) {
		char ch = *p;
		if (strchr(" \t\r\n", ch) && ch) {
			p++;
			continue;
		}
		if (want_value) {
			if (ch == '{' || ch == '[') {
				if (depth == DEPTH_MAX)
					return NULL;
				stack[depth++] = ch == '{' ? '}' : ']';
				p++;
				continue;   /* a value, or the closing bracket */
			}
			if ((ch == '}' || ch == ']') && depth && stack[depth - 1] == ch) {
				depth--;    /* empty, or after a trailing comma (json-c refuses those) */
				p++;
			} else if (ch == '"') {
				for (p++; p < end && *p != '"'; p++)
					if (*p == '\\' && ++p == end)
						return NULL;
				if (p == end)
					return NULL;
				p++;
			} else {
				const char *s = p;
				while (p < end && (strchr("+-.", *p) || (*p >= '0' && *p <= '9') ||
				                   (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) && *p)
					p++;
				if (p == s)
					return NULL;
			}
			want_value = false;
		} else if (!depth) {
			return p;
		} else if (ch == ',') {
			want_value = true;
			p++;
		} else if (ch == ':' && stack[depth - 1] == '}') {
			want_value = true;
			p++;
		} else if (ch == stack[depth - 1]) {
			depth--;
			p++;
		} else {
			return NULL;
		}
		if (!depth && !want_value)
			return p;
	}
	return NULL;
}

/* The value at the cursor, parsed by json-c (JSON null: *out NULL). */
static int parse_value(struct rd *c, const char *what, size_t max, json_object **out)
{
	*out = NULL;
	skip_ws(c);
	const char *e = value_end(c->p, c->end);
	if (!e)
		return bad(c, "%s: not JSON", what);
	size_t n = (size_t)(e - c->p);
	if (n > max)
		return bad(c, "%s: over %zu bytes", what, max);
	json_tokener_reset(c->tok);
	json_object *o = json_tokener_parse_ex(c->tok, c->p, (int)n);
	enum json_tokener_error je = json_tokener_get_error(c->tok);
	if (je == json_tokener_continue) {   /* a number ends where its text does */
		o = json_tokener_parse_ex(c->tok, " ", 1);
		je = json_tokener_get_error(c->tok);
	}
	if (je != json_tokener_success) {
		json_object_put(o);
		return bad(c, "%s: not JSON (%s)", what, json_tokener_error_desc(je));
	}
	c->p = e;
	*out = o;
	return 0;
}

static int skip_value(struct rd *c, const char *what)
{
	skip_ws(c);
	const char *e = value_end(c->p, c->end);
	if (!e)
		return bad(c, "%s: not JSON", what);
	c->p = e;
	return 0;
}

static bool next_is(struct rd *c, char ch)
{
	skip_ws(c);
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return true;
	}
	return false;
}

typedef int (*member_fn)(struct rd *c, const char *key, void *ctx);
typedef int (*element_fn)(struct rd *c, size_t i, void *ctx);

/* Calls member for each key of the object at the cursor, the cursor on
 * its value (which member consumes). */
static int walk_object(struct rd *c, const char *what, member_fn member, void *ctx)
{
	if (!next_is(c, '{'))
		return bad(c, "%s: not an object", what);
	if (next_is(c, '}'))
		return 0;
	for (;;) {
		json_object *k;
		if (parse_value(c, what, 4096, &k) != 0)
			return -1;
		if (!json_object_is_type(k, json_type_string)) {
			json_object_put(k);
			return bad(c, "%s: not JSON (a key is not a string)", what);
		}
		int rc = next_is(c, ':') ? member(c, json_object_get_string(k), ctx)
		                         : bad(c, "%s: not JSON (no ':' after a key)", what);
		json_object_put(k);
		if (rc != 0)
			return -1;
		if (next_is(c, '}'))
			return 0;
		if (!next_is(c, ','))
			return bad(c, "%s: not JSON (no ',' or '}' after a member)", what);
	}
}

static int walk_array(struct rd *c, const char *what, element_fn element, void *ctx)
{
	if (!next_is(c, '['))
		return bad(c, "%s: not an array", what);
	if (next_is(c, ']'))
		return 0;
	for (size_t i = 0;; i++) {
		if (element(c, i, ctx) != 0)
			return -1;
		if (next_is(c, ']'))
			return 0;
		if (!next_is(c, ','))
			return bad(c, "%s: not JSON (no ',' or ']' after element %zu)", what, i);
	}
}

/* ---- fields of one parsed element ---- */

/* key's string (NULL when absent or null, an error then if required). */
static int get_str(struct rd *c, json_object *o, const char *where, const char *key,
                   bool required, const char **out)
{
	json_object *v = NULL;
	*out = NULL;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return required ? bad(c, "%s.%s: missing", where, key) : 0;
	if (!json_object_is_type(v, json_type_string))
		return bad(c, "%s.%s: not a string", where, key);
	*out = intern(c->r, json_object_get_string(v));
	return 0;
}

static int as_count(struct rd *c, json_object *v, const char *where, const char *key, size_t *out)
{
	int64_t n = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -1;
	if (n < 0 || n > COUNT_MAX)
		return bad(c, "%s%s%s: not a count (an integer from 0 to 2^53)", where,
		           key ? "." : "", key ? key : "");
	*out = (size_t)n;
	return 0;
}

/* key's count (0 when absent). */
static int get_count(struct rd *c, json_object *o, const char *where, const char *key, size_t *out)
{
	json_object *v;
	*out = 0;
	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	return as_count(c, v, where, key, out);
}

static int get_object(struct rd *c, json_object *o, const char *where, const char *key,
                      bool required, json_object **out)
{
	*out = NULL;
	if (!json_object_object_get_ex(o, key, out) || !*out)
		return required ? bad(c, "%s.%s: missing", where, key) : 0;
	if (!json_object_is_type(*out, json_type_object))
		return bad(c, "%s.%s: not an object", where, key);
	return 0;
}

/* A package record: its fields interned, one struct ds_pkg per distinct
 * set of them. */
static int pkg_of(struct rd *c, json_object *o, const char *where, const struct ds_pkg **out)
{
	static const char *const keys[] = { "name", "version", "arch", "source", "maintainer",
	                                     "origin", "candidate" };
	enum { N = sizeof keys / sizeof keys[0] };
	const char *v[N];
	size_t len = 1;
	for (size_t i = 0; i < N; i++) {
		if (get_str(c, o, where, keys[i], false, &v[i]) != 0)
			return -1;
		len += (v[i] ? strlen(v[i]) : 1) + 1;
	}
	char *key = ds_xmalloc(len), *k = key;
	for (size_t i = 0; i < N; i++) {
		/* \036 for none: not the empty string */
		const char *s = v[i] ? v[i] : "\036";
		size_t n = strlen(s);
		memcpy(k, s, n);
		k[n] = '\037';
		k += n + 1;
	}
	*k = '\0';
	uintptr_t *slot = ds_strmap_put(c->r->pkgmap, key);
	free(key);
	if (!*slot) {
		struct ds_pkg *p = ds_xcalloc(1, sizeof *p);
		p->name = v[0], p->version = v[1], p->arch = v[2], p->source = v[3];
		p->maintainer = v[4], p->origin = v[5], p->candidate = v[6];
		ds_push(c->r->pkgs, c->r->npkgs, c->r->pkgcap, p);
		*slot = (uintptr_t)p;
	}
	*out = (const struct ds_pkg *)*slot;
	return 0;
}

static int owner_of(struct rd *c, json_object *o, const char *where, struct ds_owner *out)
{
	const char *status;
	memset(out, 0, sizeof *out);
	if (get_str(c, o, where, "status", true, &status) != 0)
		return -1;
	if (!strcmp(status, "not-owned")) {
		out->status = DS_OWNER_NOT_OWNED;
		return 0;
	}
	if (!strcmp(status, "unknown")) {
		out->status = DS_OWNER_UNKNOWN;
		return 0;
	}
	if (strcmp(status, "package"))
		return bad(c, "%s.status: not package, not-owned or unknown", where);
	out->status = DS_OWNER_PACKAGE;
	out->npkgs = 1;
	if (pkg_of(c, o, where, &out->pkgs[0]) != 0)
		return -1;
	json_object *also;
	if (!json_object_object_get_ex(o, "also_owned_by", &also) || !also)
		return 0;
	if (!json_object_is_type(also, json_type_array))
		return bad(c, "%s.also_owned_by: not an array", where);
	for (size_t i = 0; i < json_object_array_length(also); i++) {
		json_object *p = json_object_array_get_idx(also, i);
		char at[128];
		snprintf(at, sizeof at, "%s.also_owned_by[%zu]", where, i);
		if (!json_object_is_type(p, json_type_object))
			return bad(c, "%s: not an object", at);
		const struct ds_pkg *pkg;
		if (pkg_of(c, p, at, &pkg) != 0)
			return -1;
		if (out->npkgs < DS_OWNER_MAX)
			out->pkgs[out->npkgs] = pkg;
		out->npkgs++;
	}
	return 0;
}

static size_t values_in(json_object *o)
{
	size_t n = 1;
	if (json_object_is_type(o, json_type_array))
		for (size_t i = 0; i < json_object_array_length(o); i++)
			n += values_in(json_object_array_get_idx(o, i));
	else if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v) {
			(void)k;
			n += values_in(v);
		}
	}
	return n;
}

static int finding_of(struct rd *c, json_object *d, const char *where, bool absent,
                      struct ds_report_finding *f)
{
	const char *sev, *state;
	json_object *owner, *details, *waived = NULL;
	memset(f, 0, sizeof *f);
	if (!json_object_is_type(d, json_type_object))
		return bad(c, "%s: not an object", where);
	if (get_str(c, d, where, "check", true, &f->check_id) ||
	    get_str(c, d, where, "severity", true, &sev) ||
	    get_str(c, d, where, "path", true, &f->path) ||
	    get_str(c, d, where, "message", true, &f->message) ||
	    get_str(c, d, where, "rule", false, &f->rule) ||
	    get_str(c, d, where, "waiver", false, &f->waiver) ||
	    get_str(c, d, where, "input", false, &f->input) ||
	    get_str(c, d, where, "baseline", false, &state) ||
	    get_object(c, d, where, "owner", true, &owner) ||
	    get_object(c, d, where, "details", false, &details))
		return -1;
	int s = ds_severity_parse(sev);
	if (s < 0)
		return bad(c, "%s.severity: not error, warning, info or pass", where);
	f->severity = (enum ds_severity)s;
	f->check = ds_check_find(f->check_id);
	if (state && !strcmp(state, "new"))
		f->baseline = DS_BASELINE_NEW;
	else if (state && !strcmp(state, "unchanged"))
		f->baseline = DS_BASELINE_UNCHANGED;
	else if (state && !(absent && !strcmp(state, "absent")))
		return bad(c, "%s.baseline: not new or unchanged", where);
	if (json_object_object_get_ex(d, "waived", &waived) && waived &&
	    !json_object_is_type(waived, json_type_boolean))
		return bad(c, "%s.waived: not true or false", where);
	f->waived = waived && json_object_get_boolean(waived);
	char at[80];
	snprintf(at, sizeof at, "%s.owner", where);
	if (owner_of(c, owner, at, &f->owner) != 0)
		return -1;
	if (details && values_in(details) > DETAILS_MAX)
		return bad(c, "%s.details: over %d values", where, DETAILS_MAX);
	f->details = intern(c->r, details ? json_object_to_json_string_ext(details,
		JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE) : "{}");
	return 0;
}

/* ---- the arrays ---- */

/* The element at the cursor, which must be of type t. */
static int element(struct rd *c, const char *what, size_t i, json_type t, json_object **out)
{
	if (parse_value(c, what, RECORD_MAX, out) != 0)
		return -1;
	if (!json_object_is_type(*out, t)) {
		json_object_put(*out);
		static const char *const names[] = {
			[json_type_object] = "an object", [json_type_string] = "a string",
		};
		return bad(c, "%s[%zu]: not %s", what, i, names[t]);
	}
	return 0;
}

static int finding_element(struct rd *c, size_t i, void *ctx)
{
	bool absent = ctx != NULL;
	const char *what = absent ? "absent" : "findings";
	json_object *d;
	if (parse_value(c, what, RECORD_MAX, &d) != 0)
		return -1;
	char where[48];
	snprintf(where, sizeof where, "%s[%zu]", what, i);
	struct ds_report_finding f;
	int rc = finding_of(c, d, where, absent, &f);
	json_object_put(d);
	if (rc != 0)
		return -1;
	struct ds_report *r = c->r;
	if (absent)
		ds_push(r->absent, r->nabsent, r->absentcap, f);
	else
		ds_push(r->findings, r->nfindings, r->findcap, f);
	return 0;
}

static int input_element(struct rd *c, size_t i, void *ctx)
{
	(void)ctx;
	json_object *o, *pkg, *size;
	if (element(c, "inputs", i, json_type_object, &o) != 0)
		return -1;
	char where[48];
	snprintf(where, sizeof where, "inputs[%zu]", i);
	struct ds_report_input in = { 0 };
	int rc = get_str(c, o, where, "path", true, &in.path) ||
	         get_str(c, o, where, "sha256", true, &in.sha256) ||
	         get_str(c, o, where, "format", false, &in.format) ||
	         get_str(c, o, where, "via", false, &in.via) ||
	         get_object(c, o, where, "package", true, &pkg) ? -1 : 0;
	if (rc == 0 && (strlen(in.sha256) != 64 || strspn(in.sha256, "0123456789abcdef") != 64))
		rc = bad(c, "%s.sha256: not 64 lowercase hex digits", where);
	size_t n = 0;
	if (rc == 0 && json_object_object_get_ex(o, "size", &size))
		rc = as_count(c, size, where, "size", &n);
	in.size = (long long)n;
	char at[64];
	snprintf(at, sizeof at, "%s.package", where);
	if (rc == 0)
		rc = pkg_of(c, pkg, at, &in.pkg);
	json_object_put(o);
	if (rc == 0)
		ds_push(c->r->inputs, c->r->ninputs, c->r->inputcap, in);
	return rc;
}

struct strlist { const char *what; const char ***v; size_t *n, *cap; };

static int string_element(struct rd *c, size_t i, void *ctx)
{
	struct strlist *l = ctx;
	json_object *o;
	if (element(c, l->what, i, json_type_string, &o) != 0)
		return -1;
	const char *s = intern(c->r, json_object_get_string(o));
	json_object_put(o);
	ds_push(*l->v, *l->n, *l->cap, s);
	return 0;
}

static int skip_element(struct rd *c, size_t i, void *ctx)
{
	(void)ctx;
	json_object *o;
	struct ds_report *r = c->r;
	if (element(c, "summary.skipped_checks", i, json_type_object, &o) != 0)
		return -1;
	char where[64];
	snprintf(where, sizeof where, "summary.skipped_checks[%zu]", i);
	struct ds_report_skip k;
	int rc = get_str(c, o, where, "check", true, &k.check) ||
	         get_str(c, o, where, "reason", false, &k.reason) ? -1 : 0;
	json_object_put(o);
	if (rc == 0)
		ds_push(r->sum.skipped, r->sum.nskipped, r->sum.skipc, k);
	return rc;
}

/* ---- the summary and the top object ---- */

/* A member that may appear once: bit's place in *seen. */
static int once(struct rd *c, unsigned *seen, unsigned bit, const char *what)
{
	if (*seen & bit)
		return bad(c, "%s: given twice", what);
	*seen |= bit;
	return 0;
}

static int summary_findings(struct rd *c, json_object *o)
{
	struct ds_report *r = c->r;
	if (!json_object_is_type(o, json_type_object))
		return bad(c, "summary.findings: not an object");
	for (int i = DS_SEV_INFO; i <= DS_SEV_ERROR; i++)
		if (get_count(c, o, "summary.findings", ds_severity_name(i), &r->sum.by_severity[i]))
			return -1;
	return 0;
}

static int summary_baseline(struct rd *c, json_object *o)
{
	struct ds_report *r = c->r;
	if (!json_object_is_type(o, json_type_object))
		return bad(c, "summary.baseline: not an object");
	r->sum.baseline = true;
	return get_str(c, o, "summary.baseline", "file", false, &r->sum.baseline_file) ||
	       get_count(c, o, "summary.baseline", "new", &r->sum.new_findings) ||
	       get_count(c, o, "summary.baseline", "unchanged", &r->sum.unchanged) ||
	       get_count(c, o, "summary.baseline", "absent", &r->sum.absent) ? -1 : 0;
}

static int summary_member(struct rd *c, const char *key, void *ctx)
{
	unsigned *seen = ctx;
	struct ds_report *r = c->r;
	json_object *v = NULL;
	static const char *const counts[] = { "files", "elf_files", "elf_not_judged", "scripts",
	                                      "waived", "packages" };
	size_t *to[] = { &r->sum.files, &r->sum.elf_files, &r->sum.elf_not_judged,
	                 &r->sum.scripts, &r->sum.waived, NULL };
	static const char *const lists[] = { "checks_run", "warnings", "unused_waivers" };
	struct strlist l[] = {
		{ "summary.checks_run", &r->sum.checks_run, &r->sum.nchecks_run, &r->sum.ranc },
		{ "summary.warnings", &r->sum.warnings, &r->sum.nwarnings, &r->sum.warnc },
		{ "summary.unused_waivers", &r->sum.unused_waivers, &r->sum.nunused, &r->sum.unusedc },
	};
	char what[48];
	snprintf(what, sizeof what, "summary.%.32s", key);
	for (unsigned i = 0; i < sizeof lists / sizeof lists[0]; i++)
		if (!strcmp(key, lists[i]))
			return once(c, seen, 1u << i, what) ||
			       walk_array(c, what, string_element, &l[i]) ? -1 : 0;
	if (!strcmp(key, "skipped_checks"))
		return once(c, seen, 1u << 3, what) || walk_array(c, what, skip_element, NULL) ? -1 : 0;
	for (unsigned i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		if (strcmp(key, counts[i]))
			continue;
		size_t ignored;
		if (once(c, seen, 1u << (4 + i), what) || parse_value(c, what, 64, &v))
			return -1;
		int rc = as_count(c, v, what, NULL, to[i] ? to[i] : &ignored);
		json_object_put(v);
		return rc;
	}
	int rc = 0;
	if (!strcmp(key, "findings") || !strcmp(key, "baseline")) {
		if (once(c, seen, 1u << (key[0] == 'f' ? 10 : 11), what) ||
		    parse_value(c, what, 4096, &v))
			return -1;
		rc = key[0] == 'f' ? summary_findings(c, v) : summary_baseline(c, v);
	} else if (!strcmp(key, "seconds")) {
		if (once(c, seen, 1u << 12, what) || parse_value(c, what, 64, &v))
			return -1;
		double d = json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)
		           ? json_object_get_double(v) : -1;
		if (!(d >= 0 && d < 1e12))
			rc = bad(c, "summary.seconds: not a number of seconds");
		r->sum.seconds = d;
	} else {
		return skip_value(c, what);   /* by_package (merge makes its own), newer keys */
	}
	json_object_put(v);
	return rc;
}

static int top_tool(struct rd *c, json_object *v, bool *distsec)
{
	const char *name = NULL;
	if (!json_object_is_type(v, json_type_object) ||
	    get_str(c, v, "tool", "name", false, &name) != 0)
		return bad(c, "tool: not an object naming the tool");
	*distsec = name && !strcmp(name, "distsec");
	return 0;
}

static int top_shard(struct rd *c, json_object *v)
{
	size_t k, n;
	if (!json_object_is_type(v, json_type_object))
		return bad(c, "shard: not an object");
	if (get_count(c, v, "shard", "index", &k) || get_count(c, v, "shard", "count", &n))
		return -1;
	/* the bounds --shard takes */
	if (n < 1 || n > 1000000 || k < 1 || k > n)
		return bad(c, "shard: index %zu of count %zu (1 <= index <= count <= 1000000)", k, n);
	c->r->shard_k = (unsigned)k;
	c->r->shard_n = (unsigned)n;
	return 0;
}

struct top { unsigned seen, summary_seen; bool distsec; };

static int top_member(struct rd *c, const char *key, void *ctx)
{
	struct top *t = ctx;
	struct ds_report *r = c->r;
	static const char *const keys[] = { "tool", "root", "backend", "profile", "shard",
	                                    "findings", "absent", "inputs", "summary" };
	unsigned i = 0;
	while (i < sizeof keys / sizeof keys[0] && strcmp(key, keys[i]))
		i++;
	if (i == sizeof keys / sizeof keys[0])
		return skip_value(c, "a member of the report");
	if (once(c, &t->seen, 1u << i, keys[i]) != 0)
		return -1;
	switch (i) {
	case 5: return walk_array(c, "findings", finding_element, NULL);
	case 6: return walk_array(c, "absent", finding_element, r);
	case 7: return walk_array(c, "inputs", input_element, NULL);
	case 8:
		r->has_summary = true;
		return walk_object(c, "summary", summary_member, &t->summary_seen);
	}
	json_object *v;
	if (parse_value(c, keys[i], 1u << 16, &v) != 0)
		return -1;
	int rc = 0;
	bool null_ok = i == 1 || i == 3;
	if (i == 0)
		rc = top_tool(c, v, &t->distsec);
	else if (i == 4)
		rc = top_shard(c, v);
	else if (v && !json_object_is_type(v, json_type_string))
		rc = bad(c, "%s: not a string", keys[i]);
	else if (!v && !null_ok)
		rc = bad(c, "%s: not a string", keys[i]);
	else if (i == 1)
		r->has_root = true, r->root = intern(r, v ? json_object_get_string(v) : NULL);
	else if (i == 2)
		r->backend = intern(r, json_object_get_string(v));
	else
		r->profile = intern(r, v ? json_object_get_string(v) : NULL);
	json_object_put(v);
	return rc;
}

struct ds_report *ds_report_parse(const char *buf, size_t len, struct ds_error *err)
{
	struct ds_report *r = ds_xcalloc(1, sizeof *r);
	r->strings = ds_strmap_new();
	r->pkgmap = ds_strmap_new();
	struct rd c = { .p = buf, .end = buf + len, .r = r, .err = err,
	                .tok = json_tokener_new_ex(DEPTH_MAX) };
	/* distsec writes valid UTF-8 (cleaned) and plain JSON */
	json_tokener_set_flags(c.tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	struct top t = { 0 };
	skip_ws(&c);
	int rc;
	if (c.p == c.end || *c.p != '{')
		rc = bad(&c, "not a distsec JSON report (--format json)");
	else
		rc = walk_object(&c, "the report", top_member, &t);
	skip_ws(&c);
	if (rc == 0 && c.p != c.end)
		rc = bad(&c, "not JSON (data after the report)");
	if (rc == 0 && (!t.distsec || !(t.seen & 1u << 5)))
		rc = bad(&c, "not a distsec JSON report (--format json)");
	json_tokener_free(c.tok);
	if (rc != 0) {
		ds_report_free(r);
		return NULL;
	}
	return r;
}

struct ds_report *ds_report_read(const char *path, struct ds_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		ds_error_errno(err, errno, "%s", path);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size > REPORT_MAX) {
		if (S_ISREG(st.st_mode))
			ds_error_set(err, DS_ERR_LIMIT, "%s: larger than 1 GiB", path);
		else
			ds_error_set(err, DS_ERR_USAGE, "%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	char *buf = ds_xmalloc((size_t)st.st_size + 1);
	size_t got = 0;
	ssize_t n = 0;
	while (got < (size_t)st.st_size && (n = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	int read_errno = n < 0 ? errno : 0;
	close(fd);
	struct ds_report *r = NULL;
	if (read_errno)
		ds_error_errno(err, read_errno, "%s", path);
	else if (!(r = ds_report_parse(buf, got, err)))
		ds_error_prefix(err, "%s: ", path);
	free(buf);
	return r;
}

void ds_report_free(struct ds_report *r)
{
	if (!r)
		return;
	free(r->findings);
	free(r->absent);
	free(r->inputs);
	free(r->sum.checks_run);
	free(r->sum.warnings);
	free(r->sum.unused_waivers);
	free(r->sum.skipped);
	for (size_t i = 0; i < r->npkgs; i++)
		free(r->pkgs[i]);
	free(r->pkgs);
	ds_strmap_free(r->pkgmap);
	ds_strmap_free(r->strings);
	free(r);
}

json_object *ds_report_details(const struct ds_report_finding *f)
{
	json_object *d = json_tokener_parse(f->details);
	return d ? d : json_object_new_object();   /* it was an object when read */
}

json_object *ds_report_record(const struct ds_report_finding *f)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "check", json_object_new_string(f->check_id));
	json_object_object_add(o, "severity", json_object_new_string(ds_severity_name(f->severity)));
	json_object_object_add(o, "path", json_object_new_string(f->path));
	json_object_object_add(o, "owner", ds_owner_json(&f->owner));
	json_object_object_add(o, "message", json_object_new_string(f->message));
	json_object_object_add(o, "details", ds_report_details(f));
	if (f->rule)
		json_object_object_add(o, "rule", json_object_new_string(f->rule));
	if (f->waived)
		json_object_object_add(o, "waived", json_object_new_boolean(1));
	if (f->waiver)
		json_object_object_add(o, "waiver", json_object_new_string(f->waiver));
	if (f->input)
		json_object_object_add(o, "input", json_object_new_string(f->input));
	if (f->baseline)
		json_object_object_add(o, "baseline", json_object_new_string(
			f->baseline == DS_BASELINE_NEW ? "new" : "unchanged"));
	return o;
}

void ds_absent_add(struct ds_absent **a, const struct ds_report_finding *f)
{
	if (!*a)
		*a = ds_xcalloc(1, sizeof **a);
	ds_push((*a)->f, (*a)->n, (*a)->cap, f);
}

void ds_absent_free(struct ds_absent *a)
{
	if (a)
		free(a->f);
	free(a);
}

size_t ds_scan_absent_count(const struct ds_scan *s)
{
	return s->absent ? s->absent->n : 0;
}

json_object *ds_scan_absent(const struct ds_scan *s, size_t i)
{
	json_object *d = ds_report_record(s->absent->f[i]);
	json_object_object_add(d, "baseline", json_object_new_string("absent"));
	return d;
}
