/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The installed-package table shared by the database backends. */
#include <stdlib.h>
#include <string.h>

#include "distsec/pkgtable.h"
#include "distsec/util.h"

void ds_pkgtable_init(struct ds_pkgtable *t)
{
	memset(t, 0, sizeof *t);
	t->index = ds_pathindex_new();
}

ds_pkgid ds_pkgtable_add(struct ds_pkgtable *t, const struct ds_pkg *p)
{
	size_t cap = t->cap;
	ds_push(t->pkgs, t->npkgs, t->cap, *p);
	if (t->cap != cap) {
		t->files = ds_xrealloc(t->files, ds_st_mult(t->cap, sizeof *t->files));
		memset(t->files + cap, 0, (t->cap - cap) * sizeof *t->files);
	}
	return (ds_pkgid)(t->npkgs - 1);
}

void ds_pkgtable_add_file(struct ds_pkgtable *t, ds_pkgid id, const char *path)
{
	struct ds_pkgfiles *f = &t->files[id];
	char *copy = ds_xstrdup(path);
	ds_push(f->paths, f->n, f->cap, copy);
	ds_pathindex_add(t->index, path, id);
}

int ds_pkgtable_find(const struct ds_pkgtable *t, const char *spec, ds_pkgid *id,
                     bool (*names)(const struct ds_pkg *p, const char *spec))
{
	for (size_t i = *id; i < t->npkgs; i++)
		if (names(&t->pkgs[i], spec)) {
			*id = (ds_pkgid)i;
			return 0;
		}
	return -1;
}

enum ds_owner_status ds_pkgtable_owner_of(void *h, const char *path, const ds_pkgid **ids,
                                          size_t *n)
{
	const struct ds_pkgtable *t = h;
	*n = ds_pathindex_get(t->index, path, ids);
	return *n ? DS_OWNER_PACKAGE : DS_OWNER_NOT_OWNED;
}

size_t ds_pkgtable_count(void *h)
{
	return ((const struct ds_pkgtable *)h)->npkgs;
}

const struct ds_pkg *ds_pkgtable_info(void *h, ds_pkgid id)
{
	const struct ds_pkgtable *t = h;
	return id < t->npkgs ? &t->pkgs[id] : NULL;
}

int ds_pkgtable_contents(void *h, ds_pkgid id, ds_path_cb cb, void *ctx)
{
	const struct ds_pkgtable *t = h;
	if (id >= t->npkgs)
		return -1;
	for (size_t i = 0; i < t->files[id].n; i++)
		if (cb(t->files[id].paths[i], ctx))
			break;
	return 0;
}

bool ds_pkgtable_owns_bin_sh(const struct ds_pkgtable *t)
{
	const ds_pkgid *ids;
	return ds_pathindex_get(t->index, "/bin/sh", &ids) > 0 ||
	       ds_pathindex_get(t->index, "/usr/bin/sh", &ids) > 0;
}

void ds_pkg_free(struct ds_pkg *p)
{
	free((char *)p->name);
	free((char *)p->version);
	free((char *)p->arch);
	free((char *)p->source);
	free((char *)p->maintainer);
	free((char *)p->origin);
	free((char *)p->candidate);
	free((char *)p->label);
	memset(p, 0, sizeof *p);
}

void ds_pkgtable_free(struct ds_pkgtable *t)
{
	for (size_t i = 0; i < t->npkgs; i++) {
		ds_pkg_free(&t->pkgs[i]);
		for (size_t k = 0; k < t->files[i].n; k++)
			free(t->files[i].paths[k]);
		free(t->files[i].paths);
	}
	free(t->pkgs);
	free(t->files);
	ds_pathindex_free(t->index);
	memset(t, 0, sizeof *t);
}
