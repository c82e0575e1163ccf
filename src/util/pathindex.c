/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Path → owners: a string map to small owner lists (most paths have one). */
#include <stdlib.h>

#include "distsec/pathindex.h"
#include "distsec/util.h"

struct owners {
	ds_pkgid *ids;     /* ids[0..n) ; points at `one` while n <= 1 */
	ds_pkgid one;
	size_t n, cap;
};

struct ds_pathindex {
	struct ds_strmap *map;  /* path → 1 + index into lists */
	struct owners *lists;
	size_t n, cap;
};

struct ds_pathindex *ds_pathindex_new(void)
{
	struct ds_pathindex *x = ds_xcalloc(1, sizeof *x);
	x->map = ds_strmap_new();
	return x;
}

void ds_pathindex_free(struct ds_pathindex *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->n; i++)
		if (x->lists[i].cap)
			free(x->lists[i].ids);
	free(x->lists);
	ds_strmap_free(x->map);
	free(x);
}

void ds_pathindex_add(struct ds_pathindex *x, const char *path, ds_pkgid id)
{
	uintptr_t *slot = ds_strmap_put(x->map, path);
	if (!*slot) {
		struct owners o = { .one = id, .n = 1 };
		ds_push(x->lists, x->n, x->cap, o);
		*slot = x->n;
		return;
	}
	struct owners *o = &x->lists[*slot - 1];
	const ds_pkgid *cur = o->cap ? o->ids : &o->one;
	for (size_t i = 0; i < o->n; i++)
		if (cur[i] == id)
			return;
	if (!o->cap) {   /* the one inline id moves to a small array */
		o->cap = 4;
		o->ids = ds_xmalloc(o->cap * sizeof *o->ids);
		o->ids[0] = o->one;
	}
	ds_push(o->ids, o->n, o->cap, id);
}

size_t ds_pathindex_get(const struct ds_pathindex *x, const char *path, const ds_pkgid **ids)
{
	const uintptr_t *slot = ds_strmap_get(x->map, path);
	if (!slot)
		return 0;
	const struct owners *o = &x->lists[*slot - 1];
	*ids = o->cap ? o->ids : &o->one;
	return o->n;
}

size_t ds_pathindex_size(const struct ds_pathindex *x)
{
	return ds_strmap_size(x->map);
}
