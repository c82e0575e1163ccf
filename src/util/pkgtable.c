/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The installed-package table shared by the database backends. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "distsec/pkgtable.h"
#include "distsec/rootfile.h"
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
	for (size_t i = 0; i < t->narches; i++)
		free((char *)t->arches[i]);
	free(t->arches);
	memset(t, 0, sizeof *t);
}

struct ds_pkgtable *ds_pkgtable_new(void)
{
	struct ds_pkgtable *t = ds_xmalloc(sizeof *t);
	ds_pkgtable_init(t);
	return t;
}

void ds_pkgtable_close(void *h)
{
	if (!h)
		return;
	ds_pkgtable_free(h);
	free(h);
}

void ds_pkgtable_add_arch(struct ds_pkgtable *t, const char *arch)
{
	if (!arch)
		return;
	for (size_t i = 0; i < t->narches; i++)
		if (strcmp(t->arches[i], arch) == 0)
			return;
	char *copy = ds_xstrdup(arch);
	ds_push(t->arches, t->narches, t->arch_cap, copy);
}

const char *ds_pkgtable_common_arch(const struct ds_pkgtable *t, const char *skip)
{
	struct ds_strmap *count = ds_strmap_new();
	const char *best = NULL;
	uintptr_t most = 0;
	for (size_t i = 0; i < t->npkgs; i++) {
		const char *a = t->pkgs[i].arch;
		if (!a || (skip && strcmp(a, skip) == 0))
			continue;
		uintptr_t *n = ds_strmap_put(count, a);
		if (++*n > most) {
			most = *n;
			best = a;
		}
	}
	ds_strmap_free(count);
	return best;
}

void ds_pkgtable_arches(void *h, const char *const **names, size_t *n)
{
	const struct ds_pkgtable *t = h;
	*names = t->arches;
	*n = t->narches;
}

bool ds_pkg_named(const struct ds_pkg *p, const char *spec)
{
	return p->name && (strcmp(spec, p->name) == 0 || (p->label && strcmp(spec, p->label) == 0));
}

int ds_pkgtable_find_named(void *h, const char *spec, ds_pkgid *id)
{
	return ds_pkgtable_find(h, spec, id, ds_pkg_named);
}

void ds_pkgtable_probe(const struct ds_pkgtable *t, const char *root, const char *marker,
                       struct ds_probe *out)
{
	out->packages = t->npkgs;
	out->usable = t->npkgs > 0;
	out->owns_bin_sh = ds_pkgtable_owns_bin_sh(t);
	int fd = ds_root_open(root, marker, 4096);
	out->native = fd >= 0;
	if (fd >= 0)
		close(fd);
}
