/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The `none` backend: a bare, unpackaged tree.  It knows no packages, so
 * every owner is `unknown` (never "not owned": nobody asked a database).
 * It has no probe: selection falls back to it when no other backend bids.
 */
#include <stdlib.h>

#include "distsec/backend.h"
#include "distsec/util.h"

/* A handle of its own, though it holds nothing: close() frees it as any
 * backend's. */
static void *none_open(const char *root, unsigned flags, void *started, struct ds_error *err)
{
	(void)root, (void)flags, (void)started, (void)err;
	return ds_xcalloc(1, 1);
}

static enum ds_owner_status none_owner_of(void *h, const char *path,
                                          const ds_pkgid **ids, size_t *n)
{
	(void)h, (void)path;
	*ids = NULL;
	*n = 0;
	return DS_OWNER_UNKNOWN;
}

static size_t none_count(void *h)
{
	(void)h;
	return 0;
}

static int none_find(void *h, const char *name, ds_pkgid *id)
{
	(void)h, (void)name, (void)id;
	return -1;
}

static const struct ds_pkg *none_info(void *h, ds_pkgid id)
{
	(void)h, (void)id;
	return 0;
}

static int none_contents(void *h, ds_pkgid id, ds_path_cb cb, void *ctx)
{
	(void)h, (void)id, (void)cb, (void)ctx;
	return 0;
}

static void none_close(void *h)
{
	free(h);
}

const struct ds_backend ds_backend_none = {
	.abi = DS_BACKEND_ABI,
	.name = "none",
	.summary = "no package database: owners are unknown",
	.order = 1000,
	.probe = 0,
	.open = none_open,
	.owner_of = none_owner_of,
	.count = none_count,
	.find = none_find,
	.info = none_info,
	.contents = none_contents,
	.close = none_close,
};
