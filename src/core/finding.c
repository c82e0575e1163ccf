/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Creating findings, attributing them to check and owner, ordering them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distsec/file.h"
#include "internal.h"

const char *ds_severity_name(enum ds_severity s)
{
	static const char *const names[] = { "pass", "info", "warning", "error" };
	return names[s];
}

int ds_severity_parse(const char *s)
{
	for (int i = DS_SEV_PASS; i <= DS_SEV_ERROR; i++)
		if (strcmp(s, ds_severity_name(i)) == 0)
			return i;
	return -1;
}

struct ds_finding *ds_finding_new(const struct ds_check *c, enum ds_severity sev,
                                  const char *path, const struct ds_owner *owner,
                                  const char *fmt, va_list ap)
{
	struct ds_finding *d = ds_xcalloc(1, sizeof *d);
	d->check = c;
	d->severity = sev;
	d->path = ds_xstrdup(path);
	if (owner)
		d->owner = *owner;
	d->message = ds_xvasprintf(fmt, ap);
	d->details = json_object_new_object();
	return d;
}

void ds_finding_free(struct ds_finding *d)
{
	if (!d)
		return;
	free(d->path);
	free(d->pkg_path);
	free(d->message);
	free(d->rule);
	json_object_put(d->details);
	free(d);
}

void ds_worker_add(struct ds_worker *w, struct ds_finding *d)
{
	ds_push(w->findings, w->nfindings, w->cap, d);
}

const struct ds_owner *ds_file_owner(struct ds_file *f)
{
	struct ds_worker *w = f->worker;
	if (f->preset_owner)
		return f->preset_owner;
	if (!w->owner_done && !ds_scan_backend_ready(w->scan))
		return NULL; /* no waiting for the database: looked up at the end */
	if (!w->owner_done) {
		ds_scan_owner(w->scan, f->path, &w->owner);
		w->owner_done = true;
	}
	return &w->owner;
}

struct ds_finding *ds_report(struct ds_file *f, enum ds_severity sev, const char *fmt, ...)
{
	struct ds_worker *w = f->worker;
	va_list ap;
	va_start(ap, fmt);
	const struct ds_owner *owner = ds_file_owner(f);
	struct ds_finding *d = ds_finding_new(w->current, sev, f->path, owner, fmt, ap);
	va_end(ap);
	d->owner_pending = !owner;
	d->input = f->input;
	d->layer = f->layer;
	if (f->pkg_path) {
		d->pkg_path = ds_xstrdup(f->pkg_path);
		ds_detail_str(d, "package_path", f->pkg_path);
	}
	if (sev != DS_SEV_PASS)
		atomic_fetch_add(&w->scan->priv->reported, 1);
	/* Findings of a disabled pseudo-check (scan-unreadable) are dropped
	 * when the workers' lists are merged. */
	ds_worker_add(w, d);
	return d;
}

struct ds_finding *ds_scan_report(struct ds_scan *s, const struct ds_check *c,
                                  const char *path, enum ds_severity sev,
                                  const char *fmt, ...)
{
	struct ds_owner owner;
	ds_scan_owner(s, path, &owner);
	va_list ap;
	va_start(ap, fmt);
	struct ds_finding *d = ds_finding_new(c, sev, path, &owner, fmt, ap);
	va_end(ap);
	ds_worker_add(&s->priv->main, d);
	return d;
}

/* Detail strings may come from scanned bytes: keep them valid UTF-8. */
static json_object *clean_string(const char *val)
{
	char *clean = ds_utf8_clean(val);
	json_object *o = json_object_new_string(clean);
	free(clean);
	return o;
}

void ds_detail_str(struct ds_finding *d, const char *key, const char *val)
{
	json_object_object_add(d->details, key, val ? clean_string(val) : NULL);
}

void ds_detail_int(struct ds_finding *d, const char *key, long long val)
{
	json_object_object_add(d->details, key, json_object_new_int64(val));
}

void ds_detail_bool(struct ds_finding *d, const char *key, bool val)
{
	json_object_object_add(d->details, key, json_object_new_boolean(val));
}

void ds_detail_append(struct ds_finding *d, const char *key, const char *val)
{
	json_object *arr;
	if (!json_object_object_get_ex(d->details, key, &arr)) {
		arr = json_object_new_array();
		json_object_object_add(d->details, key, arr);
	}
	json_object_array_add(arr, clean_string(val));
}

void ds_finding_set_rule(struct ds_finding *d, const char *rule)
{
	free(d->rule);
	d->rule = ds_xstrdup(rule);
}

/* Path, then check id, then message: runs diff cleanly whatever -j is. */
int ds_finding_cmp(const void *a, const void *b)
{
	const struct ds_finding *x = *(struct ds_finding *const *)a;
	const struct ds_finding *y = *(struct ds_finding *const *)b;
	int c = strcmp(x->path, y->path);
	if (c)
		return c;
	if ((c = strcmp(x->check->id, y->check->id)))
		return c;
	if ((c = strcmp(x->rule ? x->rule : "", y->rule ? y->rule : "")))
		return c;
	if ((c = strcmp(x->message, y->message)))
		return c;
	/* one path in two package files (two versions of a package): the
	 * order may not depend on which worker, or which shard, read it */
	if (x->severity != y->severity)
		return x->severity < y->severity ? -1 : 1;
	if ((c = strcmp(x->input ? x->input->path : "", y->input ? y->input->path : "")))
		return c;
	const struct ds_pkg *p = x->owner.status == DS_OWNER_PACKAGE ? x->owner.pkgs[0] : NULL;
	const struct ds_pkg *q = y->owner.status == DS_OWNER_PACKAGE ? y->owner.pkgs[0] : NULL;
	if (!p || !q)
		return (p != NULL) - (q != NULL);
	if ((c = strcmp(p->name ? p->name : "", q->name ? q->name : "")))
		return c;
	if ((c = strcmp(p->version ? p->version : "", q->version ? q->version : "")))
		return c;
	return strcmp(p->arch ? p->arch : "", q->arch ? q->arch : "");
}

bool ds_finding_gates(const struct ds_scan *s, const struct ds_finding *d)
{
	return d->severity != DS_SEV_PASS && !d->waiver && d->baseline != DS_BASELINE_UNCHANGED &&
	       s->opt->fail_on >= 0 &&
	       (int)d->severity >= s->opt->fail_on;
}
