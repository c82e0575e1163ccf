/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hard-linked files of a tree: the content is analysed once.  The first
 * name of an inode runs every check; the findings of the checks that do
 * not look at the path (ds_check.by_path) are kept, and each later name
 * of the same inode gets copies of them sharing their details, then runs
 * only the path checks.  A name is reused only when the core classed it
 * alike (kind, checks that apply, program class): a unit may run one name
 * and not another, /usr/share may hold one.  65,000 names of one program
 * cost one analysis and a small record per finding, not 65,000 of each.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define INODES_MAX 65536u   /* hard-linked inodes remembered per scan */

struct kept {
	const struct ds_check *check;
	enum ds_severity severity;
	char *message, *rule;
	json_object *details;
};

struct ds_inode_entry {
	bool ready;              /* its first name's checks are done */
	bool unusable;           /* ... and their findings cannot stand for other names */
	enum ds_kind kind;
	unsigned mask;
	enum ds_class cls;
	struct kept *v;
	size_t n, cap;
};

struct ds_inodes {
	pthread_mutex_t lock;
	struct ds_strmap *map;   /* "dev:ino" -> entry */
	struct ds_inode_entry **all;
	size_t n, cap;
};

struct ds_inodes *ds_inodes_new(void)
{
	struct ds_inodes *c = ds_xcalloc(1, sizeof *c);
	pthread_mutex_init(&c->lock, NULL);
	c->map = ds_strmap_new();
	return c;
}

void ds_inodes_free(struct ds_inodes *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		struct ds_inode_entry *e = c->all[i];
		for (size_t k = 0; k < e->n; k++) {
			free(e->v[k].message);
			free(e->v[k].rule);
			json_object_put(e->v[k].details);
		}
		free(e->v);
		free(e);
	}
	free(c->all);
	ds_strmap_free(c->map);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static enum ds_class class_of(struct ds_file *f, unsigned mask)
{
	return (mask & DS_ON_ELF) ? ds_file_class(f) : DS_CLASS_NONE;
}

/* The entry of f's inode: NULL when f is no hard-linked file of the tree.
 * *first: f is the first name seen (its checks run and are kept). */
struct ds_inode_entry *ds_inodes_claim(struct ds_inodes *c, struct ds_file *f, bool *first)
{
	*first = false;
	if (!c || !S_ISREG(f->mode) || f->nlink < 2 || f->input || f->pkg_script)
		return NULL;
	char *key = ds_daemon_inode_key(f->dev, f->ino);
	pthread_mutex_lock(&c->lock);
	struct ds_inode_entry *e = NULL;
	uintptr_t *slot = ds_strmap_get(c->map, key);
	if (slot) {
		e = (struct ds_inode_entry *)*slot;
		if (!e->ready || e->unusable)
			e = NULL;   /* another worker is on it, or it cannot be reused */
	} else if (c->n < INODES_MAX) {
		e = ds_xcalloc(1, sizeof *e);
		*ds_strmap_put(c->map, key) = (uintptr_t)e;
		ds_push(c->all, c->n, c->cap, e);
		*first = true;
	}
	pthread_mutex_unlock(&c->lock);
	free(key);
	return e;
}

/* Keeps the findings a non-path check made on the first name:
 * w->findings from `from` on. */
void ds_inodes_add(struct ds_inode_entry *e, struct ds_worker *w, size_t from)
{
	for (size_t i = from; i < w->nfindings; i++) {
		struct ds_finding *d = w->findings[i];
		/* a read error is said once per name by whichever check asks */
		if (d->check == &ds_check_scan_unreadable || d->pkg_path)
			e->unusable = true;
		if (e->unusable)
			return;
		struct kept k = { d->check, d->severity, ds_xstrdup(d->message),
		                  d->rule ? ds_xstrdup(d->rule) : NULL, json_object_get(d->details) };
		d->details_shared = true;
		ds_push(e->v, e->n, e->cap, k);
	}
}

/* The first name's checks are done: later names may use the entry. */
void ds_inodes_done(struct ds_inodes *c, struct ds_inode_entry *e, struct ds_file *f, unsigned mask)
{
	e->kind = f->kind;
	e->mask = mask;
	e->cls = class_of(f, mask);
	pthread_mutex_lock(&c->lock);
	e->ready = true;
	pthread_mutex_unlock(&c->lock);
}

/* f is classed as the entry's first name was: its findings are copied
 * (details shared) and true is returned; the caller runs the path checks. */
bool ds_inodes_reuse(struct ds_inodes *c, const struct ds_inode_entry *e, struct ds_worker *w,
                     struct ds_file *f, unsigned mask)
{
	if (e->kind != f->kind || e->mask != mask || e->cls != class_of(f, mask))
		return false;
	for (size_t i = 0; i < e->n; i++) {
		const struct kept *k = &e->v[i];
		w->current = k->check;
		struct ds_finding *d = ds_report(f, k->severity, "%s", k->message);
		json_object_put(d->details);
		/* json-c's reference count is not atomic everywhere */
		pthread_mutex_lock(&c->lock);
		d->details = json_object_get(k->details);
		pthread_mutex_unlock(&c->lock);
		d->details_shared = true;
		if (k->rule)
			d->rule = ds_xstrdup(k->rule);
	}
	return true;
}
