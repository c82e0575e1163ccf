/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Owners: which package owns a path, from the database the scan opens in
 * a thread (scan.c starts it).  The files, the walk and the findings ask
 * here, not scan.c, which drives them: the core's files call each other
 * in one direction only (tests/e2e/layering.sh).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "internal.h"

bool ds_scan_backend_ready(const struct ds_scan *s)
{
	return atomic_load(&s->priv->backend_ready);
}

int ds_scan_backend_wait(const struct ds_scan *s)
{
	struct ds_scan_private *p = s->priv;
	if (atomic_load(&p->backend_pending)) {
		pthread_mutex_lock(&p->backend_lock);
		if (atomic_load(&p->backend_pending)) {
			pthread_join(p->backend_thread, NULL);
			atomic_store(&p->backend_pending, false);
		}
		pthread_mutex_unlock(&p->backend_lock);
	}
	return p->backend_rc;
}

enum ds_owner_status ds_scan_owner_as(const struct ds_scan *s, const char *path,
                                      struct ds_owner *out)
{
	const ds_pkgid *ids = NULL;
	size_t n = 0;
	enum ds_owner_status st = s->backend->owner_of(s->bh, path, &ids, &n);
	if (st == DS_OWNER_PACKAGE) {
		out->npkgs = n;
		for (size_t i = 0; i < n && i < DS_OWNER_MAX; i++)
			out->pkgs[i] = s->backend->info(s->bh, ids[i]);
	}
	out->status = st;
	return st;
}

struct respelled {
	const struct ds_scan *s;
	struct ds_owner *out;
};

static bool owned_as(const char *alt, void *ctx)
{
	struct respelled *r = ctx;
	return ds_scan_owner_as(r->s, alt, r->out) == DS_OWNER_PACKAGE;
}

/* Tries the path, then its spellings through the root's top-level
 * directory symlinks (merged /usr: /usr/bin/ls is /bin/ls to dpkg). */
void ds_scan_owner(const struct ds_scan *s, const char *path, struct ds_owner *out)
{
	memset(out, 0, sizeof *out);
	if (ds_scan_backend_wait(s) != 0) {
		out->status = DS_OWNER_UNKNOWN;
		return;
	}
	if (ds_scan_owner_as(s, path, out) != DS_OWNER_NOT_OWNED)
		return;
	struct respelled r = { s, out };
	if (!ds_aliases_each(s->priv->aliases, path, owned_as, &r))
		out->status = DS_OWNER_NOT_OWNED;
}
