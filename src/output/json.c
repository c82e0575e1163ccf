/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json: one document, built with json-c (docs/DESIGN.md, "Result schema"):
 * {"tool", "root", "backend", "profile", "findings": [...], "summary": {...}};
 * "shard" {index, count} with --shard; "image" {name, format, digest,
 * tags, platform, user, command, program} for a container image, whose
 * files' findings name their "layer".  "root" is null when only package
 * files were read (the findings' paths are their members').
 * summary.checks_run names the checks that ran, so a converter can tell a
 * clean result from one never looked for.  With --baseline each finding
 * says whether it is new or unchanged, "absent" lists the old report's
 * findings this scan no longer has, and summary.baseline counts them.
 * Passes are included only with --verbose, or --shard (distsec merge
 * rebuilds the per-package table and -v from them).  summary.by_package is
 * rpm-chksec --all's table (src/core/verdict.c).
 */
#include <stdlib.h>
#include <string.h>

#include "distsec/verdict.h"
#include "output.h"

json_object *ds_finding_json(const struct ds_finding *d)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "check", json_object_new_string(d->check->id));
	json_object_object_add(o, "severity", json_object_new_string(ds_severity_name(d->severity)));
	json_object_object_add(o, "path", ds_json_string(d->path));
	json_object_object_add(o, "owner", ds_owner_json(&d->owner));
	json_object_object_add(o, "message", ds_json_string(d->message));
	json_object_object_add(o, "details", json_object_get(d->details));
	if (d->rule)
		json_object_object_add(o, "rule", ds_json_string(d->rule));
	if (d->waiver) {
		json_object_object_add(o, "waived", json_object_new_boolean(1));
		json_object_object_add(o, "waiver", ds_json_string(d->waiver));
	}
	if (d->input)
		json_object_object_add(o, "input", ds_json_string(d->input->path));
	if (d->layer)
		json_object_object_add(o, "layer", json_object_new_string(d->layer));
	if (d->baseline)
		json_object_object_add(o, "baseline", json_object_new_string(
			d->baseline == DS_BASELINE_NEW ? "new" : "unchanged"));
	return o;
}

/* Provenance: each package file read, as findings name it in "input". */
static json_object *inputs(const struct ds_scan *s)
{
	json_object *list = json_object_new_array();
	for (size_t i = 0; i < s->ninputs; i++) {
		const struct ds_input *in = s->inputs[i];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "path", ds_json_string(in->path));
		json_object_object_add(o, "size", json_object_new_int64(in->size));
		json_object_object_add(o, "sha256", json_object_new_string(in->sha256));
		json_object_object_add(o, "format", json_object_new_string(in->format));
		json_object_object_add(o, "package", ds_owner_json(&(struct ds_owner){
			.status = DS_OWNER_PACKAGE, .npkgs = 1, .pkgs = { &in->pkg } }));
		if (in->via)
			json_object_object_add(o, "via", ds_json_string(in->via));
		json_object_array_add(list, o);
	}
	return list;
}

/* The image scanned: what it is, what it runs and as whom. */
static json_object *image(const struct ds_image_info *im)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "name", ds_json_string(im->name));
	json_object_object_add(o, "format", json_object_new_string(im->format));
	json_object_object_add(o, "digest", im->digest ? json_object_new_string(im->digest) : NULL);
	json_object *tags = json_object_new_array();
	for (size_t i = 0; i < im->ntags; i++)
		json_object_array_add(tags, ds_json_string(im->tags[i]));
	json_object_object_add(o, "tags", tags);
	json_object_object_add(o, "platform", ds_json_string(im->platform));
	json_object_object_add(o, "user", im->user ? ds_json_string(im->user) : NULL);
	json_object *cmd = json_object_new_array();
	for (size_t i = 0; i < im->ncommand; i++)
		json_object_array_add(cmd, ds_json_string(im->command[i]));
	json_object_object_add(o, "command", cmd);
	json_object_object_add(o, "program", im->program ? ds_json_string(im->program) : NULL);
	return o;
}

/* rpm-chksec's per-package table (src/core/verdict.c), keyed NAME.ARCH. */
static json_object *package_summary(const struct ds_scan *s)
{
	json_object *pkgs = json_object_new_object();
	struct ds_verdict *v;
	size_t n = ds_verdicts(s, &v);
	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_new_object();
		json_object_object_add(p, "relro", json_object_new_string(v[i].relro));
		json_object_object_add(p, "pie", json_object_new_string(v[i].pie));
		if (v[i].cls)
			json_object_object_add(p, "class", json_object_new_string(v[i].cls));
		/* a key is a string of the document too: valid UTF-8 */
		char *key = ds_utf8_clean(v[i].package);
		json_object_object_add(pkgs, key, p);
		free(key);
	}
	ds_verdicts_free(v, n);
	return pkgs;
}

static json_object *summary(const struct ds_scan *s)
{
	const struct ds_stats *st = &s->stats;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "files", json_object_new_int64((int64_t)st->files));
	json_object_object_add(o, "elf_files", json_object_new_int64((int64_t)st->elf));
	json_object_object_add(o, "elf_not_judged", json_object_new_int64((int64_t)st->elf_not_judged));
	json_object_object_add(o, "scripts", json_object_new_int64((int64_t)st->scripts));
	json_object_object_add(o, "packages", json_object_new_int64((int64_t)st->packages));
	json_object *sev = json_object_new_object();
	for (int i = DS_SEV_ERROR; i >= DS_SEV_INFO; i--)
		json_object_object_add(sev, ds_severity_name(i),
		                       json_object_new_int64((int64_t)st->by_severity[i]));
	json_object_object_add(o, "findings", sev);
	json_object_object_add(o, "waived", json_object_new_int64((int64_t)st->waived));
	json_object_object_add(o, "seconds", json_object_new_double(st->seconds));
	json_object_object_add(o, "by_package", package_summary(s));
	json_object *skipped = json_object_new_array();
	for (size_t i = 0; i < s->nskipped; i++) {
		json_object *k = json_object_new_object();
		json_object_object_add(k, "check", json_object_new_string(s->skipped[i].check->id));
		json_object_object_add(k, "reason", json_object_new_string(s->skipped[i].why));
		json_object_array_add(skipped, k);
	}
	json_object_object_add(o, "skipped_checks", skipped);
	json_object *warnings = json_object_new_array();
	for (size_t i = 0; i < s->nwarnings; i++)
		json_object_array_add(warnings, ds_json_string(s->warnings[i]));
	json_object_object_add(o, "warnings", warnings);
	json_object *ran = json_object_new_array();
	for (size_t i = 0; i < ds_nchecks; i++)
		if (ds_check_ran(s, i))
			json_object_array_add(ran, json_object_new_string(ds_checks[i]->id));
	json_object_object_add(o, "checks_run", ran);
	const char *const *unused;
	size_t nunused = ds_scan_unused_waivers(s, &unused);
	json_object *uw = json_object_new_array();
	for (size_t i = 0; i < nunused; i++)
		json_object_array_add(uw, ds_json_string(unused[i]));
	json_object_object_add(o, "unused_waivers", uw);
	if (s->opt->baseline) {
		json_object *b = json_object_new_object();
		json_object_object_add(b, "file", ds_json_string(s->opt->baseline));
		json_object_object_add(b, "new", json_object_new_int64((int64_t)st->new_findings));
		json_object_object_add(b, "unchanged", json_object_new_int64((int64_t)st->unchanged));
		json_object_object_add(b, "absent", json_object_new_int64((int64_t)st->absent));
		json_object_object_add(o, "baseline", b);
	}
	return o;
}

/* v as json-c writes it at depth level of a pretty-printed document:
 * its own lines indented two spaces per level (a JSON text holds no raw
 * newline but between tokens). */
static void put_at(FILE *out, json_object *v, int level)
{
	const char *t = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PRETTY |
	                                               JSON_C_TO_STRING_NOSLASHESCAPE);
	for (const char *nl; (nl = strchr(t, '\n')); t = nl + 1) {
		fwrite(t, 1, (size_t)(nl - t + 1), out);
		fprintf(out, "%*s", 2 * level, "");
	}
	fputs(t, out);
}

/* One member of the document, v put. */
static void member(FILE *out, const char *key, json_object *v)
{
	fprintf(out, ",\n  \"%s\":", key);
	put_at(out, v, 1);
	json_object_put(v);
}

/* The document is written as it is made, a record at a time: as one
 * json-c tree it took many times the report's size (a 200 MB merge). */
static int render(const struct ds_scan *s, FILE *out)
{
	json_object *tool = json_object_new_object();
	json_object_object_add(tool, "name", json_object_new_string("distsec"));
	json_object_object_add(tool, "version", json_object_new_string(DS_VERSION));
	fputs("{\n  \"tool\":", out);
	put_at(out, tool, 1);
	json_object_put(tool);
	/* null: only package files were read, nothing of a root */
	member(out, "root", s->root_unread ? NULL : ds_json_string(s->root));
	member(out, "backend", ds_json_string(s->backend->name));
	member(out, "profile", ds_json_string(s->profile));
	if (s->image)
		member(out, "image", image(s->image));
	if (s->opt->shard_n) {   /* distsec merge checks that every share is there once */
		json_object *sh = json_object_new_object();
		json_object_object_add(sh, "index", json_object_new_int64(s->opt->shard_k));
		json_object_object_add(sh, "count", json_object_new_int64(s->opt->shard_n));
		member(out, "shard", sh);
	}
	/* arrays as json-c writes them: "[", each element on its own line */
	fputs(",\n  \"findings\":[", out);
	for (size_t i = 0, n = 0; i < s->nfindings; i++)
		if (s->findings[i]->severity != DS_SEV_PASS || s->opt->verbose || s->opt->shard_n) {
			fputs(n++ ? ",\n    " : "\n    ", out);
			json_object *d = ds_finding_json(s->findings[i]);
			put_at(out, d, 2);
			json_object_put(d);
		}
	fputs("\n  ]", out);
	if (s->absent) {   /* --baseline: old findings this scan no longer has */
		fputs(",\n  \"absent\":[", out);
		for (size_t i = 0; i < ds_scan_absent_count(s); i++) {
			fputs(i ? ",\n    " : "\n    ", out);
			json_object *d = ds_scan_absent(s, i);
			put_at(out, d, 2);
			json_object_put(d);
		}
		fputs("\n  ]", out);
	}
	if (s->ninputs)
		member(out, "inputs", inputs(s));
	member(out, "summary", summary(s));
	fputs("\n}\n", out);
	return ferror(out) ? -1 : 0;
}

const struct ds_output ds_output_json = {
	.name = "json",
	.summary = "one JSON document (json-c), the result record of docs/DESIGN.md",
	.ext = "json",
	.wants_origins = true,
	.render = render,
};
