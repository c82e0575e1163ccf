/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Path → owning package ids, built once by a backend's open() and read by
 * many threads afterwards (reads are lock-free; building is single-threaded).
 */
#ifndef DISTSEC_PATHINDEX_H
#define DISTSEC_PATHINDEX_H

#include <stddef.h>

#include "backend.h"

struct ds_pathindex;

struct ds_pathindex *ds_pathindex_new(void);
void ds_pathindex_free(struct ds_pathindex *x);
/* Records that package id owns path (a second add of the same pair is a no-op). */
void ds_pathindex_add(struct ds_pathindex *x, const char *path, ds_pkgid id);
/* Number of owners of path (0 = none); *ids points into the index. */
size_t ds_pathindex_get(const struct ds_pathindex *x, const char *path, const ds_pkgid **ids);
size_t ds_pathindex_size(const struct ds_pathindex *x);

#endif
