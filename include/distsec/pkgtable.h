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
	const char **arches;          /* the root's architectures, native first; owned */
	size_t narches, arch_cap;
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
/* A new, empty table on the heap, and its freeing as a backend's close()
 * (for backends whose handle is the table itself). */
struct ds_pkgtable *ds_pkgtable_new(void);
void ds_pkgtable_close(void *h);
/* Adds arch to the root's architectures, once (NULL is ignored). */
void ds_pkgtable_add_arch(struct ds_pkgtable *t, const char *arch);
/* The architecture most packages have (skip, e.g. "all", left out; the
 * first to reach the highest count wins a tie); NULL when none. */
const char *ds_pkgtable_common_arch(const struct ds_pkgtable *t, const char *skip);
/* A backend's arches(): the list ds_pkgtable_add_arch built. */
void ds_pkgtable_arches(void *h, const char *const **names, size_t *n);
/* Does spec name p as its NAME or its label (apk's and pacman's
 * NAME-VERSION)?  And a backend's find() with that test. */
bool ds_pkg_named(const struct ds_pkg *p, const char *spec);
int ds_pkgtable_find_named(void *h, const char *spec, ds_pkgid *id);
/* A probe's counts from a loaded table: packages, usable, owns_bin_sh,
 * and native when the root holds the file marker (relative to root). */
void ds_pkgtable_probe(const struct ds_pkgtable *t, const char *root, const char *marker,
                       struct ds_probe *out);
/* Does some package own bin/sh under either /usr spelling? (probe tie-break) */
bool ds_pkgtable_owns_bin_sh(const struct ds_pkgtable *t);
void ds_pkgtable_free(struct ds_pkgtable *t);
/* Frees every string of p. */
void ds_pkg_free(struct ds_pkg *p);

#endif
