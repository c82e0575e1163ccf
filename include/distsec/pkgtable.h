/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The installed-package table a database backend builds once in open():
 * packages, each one's paths, and the path → owners index.  Read-only (and
 * so safe from any thread) once built.
 */
#ifndef DISTSEC_PKGTABLE_H
#define DISTSEC_PKGTABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"
#include "pathindex.h"

struct ds_pkgfiles {
	char **paths;
	size_t n, cap;
};

struct ds_pkgtable {
	struct ds_pkg *pkgs;          /* strings malloc()ed, owned by the table */
	struct ds_pkgfiles *files;    /* per package */
	size_t npkgs, cap;
	struct ds_pathindex *index;
};

void ds_pkgtable_init(struct ds_pkgtable *t);
/* Adds a package (the table takes its strings); returns its id. */
ds_pkgid ds_pkgtable_add(struct ds_pkgtable *t, const struct ds_pkg *p);
/* Records that package id owns path. */
void ds_pkgtable_add_file(struct ds_pkgtable *t, ds_pkgid id, const char *path);
/* A backend's owner_of, count, info and contents, as they are: h is the
 * backend's handle, whose first member is its struct ds_pkgtable. */
enum ds_owner_status ds_pkgtable_owner_of(void *h, const char *path, const ds_pkgid **ids,
                                          size_t *n);
size_t ds_pkgtable_count(void *h);
const struct ds_pkg *ds_pkgtable_info(void *h, ds_pkgid id);
int ds_pkgtable_contents(void *h, ds_pkgid id, ds_path_cb cb, void *ctx);
/* A backend's find(): the first package from *id on that names(p, spec)
 * accepts; 0 with *id set, -1 when none. */
int ds_pkgtable_find(const struct ds_pkgtable *t, const char *spec, ds_pkgid *id,
                     bool (*names)(const struct ds_pkg *p, const char *spec));
/* Does some package own bin/sh under either /usr spelling? (probe tie-break) */
bool ds_pkgtable_owns_bin_sh(const struct ds_pkgtable *t);
void ds_pkgtable_free(struct ds_pkgtable *t);
/* Frees every string of p. */
void ds_pkg_free(struct ds_pkg *p);

#endif
