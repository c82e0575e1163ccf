/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Package files named on the command line (.deb, .rpm, whatever a backend
 * recognises by content): every backend is asked, whichever one the root
 * uses.  Members are scanned from memory, owned by the package file's own
 * metadata; nothing is written to disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

void ds_scan_member(struct ds_scan *s, const struct ds_member *m, const struct ds_owner *owner)
{
	struct ds_worker *w = &s->priv->main;
	struct ds_file f = {
		.path = m->path, .mode = m->mode, .uid = m->uid, .gid = m->gid,
		.size = (off_t)m->size, .fd = -1, .pfd = -1, .mem = m->data, .preset_owner = owner,
	};
	if (m->unreadable) {
		/* a QA gate must not pass what it did not read */
		f.worker = w;
		w->owner_done = false;
		w->current = &ds_check_scan_unreadable;
		struct ds_finding *d = ds_report(&f, DS_SEV_ERROR, "cannot read: %s", m->unreadable);
		ds_detail_str(d, "reason", m->unreadable);
		return;
	}
	if (m->in_file) {   /* ds_file_release closes its own copy */
		f.fd = fcntl(m->fd, F_DUPFD_CLOEXEC, 0);
		f.fd_state = f.fd >= 0 ? 1 : -1;
	}
	if (S_ISDIR(m->mode))
		f.kind = DS_KIND_DIR;
	else if (S_ISCHR(m->mode) || S_ISBLK(m->mode))
		f.kind = DS_KIND_DEVICE;
	else if (!S_ISREG(m->mode) || (!m->data && !m->in_file))
		f.kind = DS_KIND_SPECIAL; /* symlinks, hard links to earlier members */
	ds_scan_file(w, &f);
}

static void report_broken(struct ds_scan *s, const char *arg, const char *why)
{
	ds_warn("%s: %s", arg, why);
	/* error: a gate must not pass a package it could not read */
	struct ds_finding *d = ds_scan_report(s, &ds_check_scan_unreadable, arg, DS_SEV_ERROR,
	                                      "package file unreadable: %s", why);
	ds_detail_str(d, "reason", why);
}

int ds_scan_package_file(struct ds_scan *s, const char *arg)
{
	struct stat st;
	if (stat(arg, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	/* backends' package-file readers may share library state with the
	 * database being opened (libdpkg is not thread-safe) */
	ds_scan_backend_wait(s);
	const struct ds_backend_slot *slots;
	size_t n = ds_backends_available(&slots);
	for (size_t i = 0; i < n; i++) {
		const struct ds_backend *b = slots[i].b;
		if (!b->pkgfile_open)
			continue;
		char err[512] = "";
		const struct ds_pkg *pkg = NULL;
		void *pf = b->pkgfile_open(arg, &pkg, err, sizeof err);
		if (!pf && !err[0])
			continue; /* not this backend's kind of file */
		if (!pf) {
			report_broken(s, arg, err);
			return -1;
		}
		struct ds_owner owner = { .status = DS_OWNER_PACKAGE, .npkgs = 1, .pkgs = { pkg } };
		struct ds_member m;
		int r;
		while ((r = b->pkgfile_next(pf, &m, err, sizeof err)) == 1)
			ds_scan_member(s, &m, &owner);
		/* findings point at pkg: keep the package file open until the end */
		ds_push(&s->priv->pkgfiles, &s->priv->npkgfiles, &s->priv->pkgfiles_cap,
		        &(struct ds_open_pkgfile){ b, pf }, sizeof(struct ds_open_pkgfile));
		if (r < 0) {
			report_broken(s, arg, err);
			return -1;
		}
		return 1;
	}
	return 0;
}

void ds_pkgfiles_close(struct ds_scan *s)
{
	for (size_t i = 0; i < s->priv->npkgfiles; i++)
		s->priv->pkgfiles[i].b->pkgfile_close(s->priv->pkgfiles[i].pf);
	free(s->priv->pkgfiles);
	s->priv->pkgfiles = NULL;
	s->priv->npkgfiles = s->priv->pkgfiles_cap = 0;
}
