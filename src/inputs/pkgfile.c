/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Package files (.deb, .rpm, whatever a backend recognises by content)
 * named on the command line.  Each is one job for the worker pool: opened
 * once, hashed, its members streamed through the checks on that worker,
 * and closed before the worker takes its next job, so memory and
 * descriptors do not grow with the number of package files.  What outlives
 * the file is its ds_input (path, size, sha256, the package's own
 * metadata), which the findings of its members point at.  Nothing is
 * written to disk; the root's package database is not needed.  Before
 * that, a context pass (ds_pkgfile_context_job) reads only the units and
 * init scripts of every package file, for the daemon class.
 */
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "distsec/pkgtable.h"
#include "image.h"
#include "internal.h"
#include "profile.h"

/* Backends' package-file readers are not assumed thread-safe while they
 * open a file (librpm reads its configuration and keyring on first use,
 * process-wide); reading members afterwards uses per-file state only. */
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

/* A package's maintainer script or scriptlet: its kind from the
 * interpreter the package manager runs it with (from its own #! line when
 * the manager runs it directly).  -1: not a script any check reads, said
 * when that is not obvious. */
static int script_kind(struct ds_worker *w, struct ds_file *f, const char *interpreter)
{
	f->pkg_script = true;
	if (!interpreter)
		return 0;   /* classified from its first bytes */
	if (!strcmp(interpreter, "<lua>")) {
		f->worker = w;
		w->owner_done = false;
		w->current = &ds_check_scan_unreadable;
		const char *why = "runs in the package manager's built-in Lua, which no check reads";
		struct ds_finding *d = ds_report(f, DS_SEV_INFO, "not checked: %s", why);
		ds_detail_str(d, "reason", why);
		ds_detail_str(d, "interpreter", interpreter);
		return -1;
	}
	const char *base = strrchr(interpreter, '/');
	base = base ? base + 1 : interpreter;
	snprintf(f->interp, sizeof f->interp, "%s", base);
	f->interp_given = true;
	/* another language (perl, ...): no check reads it; never classified
	 * from its text, which that interpreter runs whatever #! it shows */
	f->kind = ds_interp_kind(base, DS_KIND_SPECIAL);
	return 0;
}

static void member_on(struct ds_worker *w, const struct ds_member *m, const struct ds_owner *owner,
                      const struct ds_input *in, const struct ds_profile *spelling,
                      const char *layer)
{
	/* one spelling (#21): the merged-/usr path of the package's
	 * distribution, before any check sees the member */
	char *merged = ds_profile_merged_path(spelling, m->path);
	struct ds_file f = {
		.path = merged ? merged : m->path, .pkg_path = merged ? m->path : NULL,
		.mode = m->mode, .uid = m->uid, .gid = m->gid,
		.user = m->user, .group = m->group,
		.size = (off_t)m->size, .fd = -1, .pfd = -1, .mem = m->data, .preset_owner = owner,
		.input = in, .profile = spelling, .layer = layer, .has_caps = m->has_caps, .caps = m->caps, .symlink = m->symlink, .pkg_script = m->script,
	};
	if (m->unreadable) {
		/* a QA gate must not pass what it did not read */
		f.worker = w;
		w->owner_done = false;
		w->current = &ds_check_scan_unreadable;
		struct ds_finding *d = ds_report(&f, DS_SEV_ERROR, "cannot read: %s", m->unreadable);
		ds_detail_str(d, "reason", m->unreadable);
		free(merged);
		return;
	}
	if (m->script && script_kind(w, &f, m->interpreter) != 0) {
		free(merged);
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
	free(merged);
}

void ds_scan_member(struct ds_scan *s, const struct ds_member *m, const struct ds_owner *owner)
{
	member_on(&s->priv->main, m, owner, NULL, NULL, NULL);
}

static struct ds_finding *unreadable_finding(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static struct ds_finding *unreadable_finding(const char *path, const char *fmt, ...)
{
	struct ds_owner none = { .status = DS_OWNER_UNKNOWN };
	va_list ap;
	va_start(ap, fmt);
	struct ds_finding *d = ds_finding_new(&ds_check_scan_unreadable, DS_SEV_ERROR, path, &none,
	                                      fmt, ap);
	va_end(ap);
	return d;
}

/* A package file that cannot be used: an error (it fails the gate: its
 * contents went unchecked) naming the file, on stderr and in the report. */
void ds_report_input_error(struct ds_worker *w, const char *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *why = ds_xvasprintf(fmt, ap);
	va_end(ap);
	ds_warn("%s: %s", path, why);
	/* a finding's path is absolute; the message keeps the name as given */
	char *abs = path[0] == '/' ? NULL : realpath(path, NULL);
	char *cwd = path[0] == '/' || abs ? NULL : getcwd(NULL, 0);
	char *joined = cwd ? ds_xasprintf("%s/%s", cwd, path) : NULL;
	char *norm = joined ? ds_path_normalize(joined) : NULL;
	struct ds_finding *d = unreadable_finding(abs ? abs : norm ? norm : path,
	                                          "package file unreadable: %s", why);
	free(abs);
	free(cwd);
	free(joined);
	free(norm);
	ds_detail_str(d, "reason", why);
	ds_worker_add(w, d);
	atomic_fetch_add(&w->scan->priv->pkg_broken, 1);
	free(why);
}

void ds_report_image_error(struct ds_worker *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *why = ds_xvasprintf(fmt, ap);
	va_end(ap);
	const char *name = w->scan->image->name;
	ds_warn("%s: %s", name, why);
	struct ds_finding *d = unreadable_finding("/", "image unreadable: %s", why);
	ds_detail_str(d, "reason", why);
	ds_detail_str(d, "image", name);
	ds_worker_add(w, d);
	free(why);
}

static void layer_member(const struct ds_member *m, const char *layer, void *ctx)
{
	member_on(ctx, m, NULL, NULL, NULL, layer);
}

void ds_scan_layer_job(struct ds_worker *w, size_t i)
{
	struct ds_error err = DS_ERROR_INIT;
	if (ds_image_layer_members(w->scan->priv->image, i, layer_member, w, &err) != 0)
		ds_report_image_error(w, "%s", ds_error_msg(&err));
	ds_error_clear(&err);
}

/* Size and sha256 of the whole file, read through fd. */
static int hash_file(int fd, struct ds_input *in, struct ds_error *err)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(ctx);
		return ds_error_set(err, DS_ERR_UNSUPPORTED, "sha256 unavailable");
	}
	static __thread unsigned char buf[1 << 16];
	off_t off = 0;
	ssize_t n;
	while ((n = pread(fd, buf, sizeof buf, off)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ds_error_errno(err, errno, "cannot read");
			EVP_MD_CTX_free(ctx);
			return -1;
		}
		EVP_DigestUpdate(ctx, buf, (size_t)n);
		off += n;
	}
	unsigned char md[32];
	EVP_DigestFinal_ex(ctx, md, NULL);
	EVP_MD_CTX_free(ctx);
	for (int i = 0; i < 32; i++)
		snprintf(in->sha256 + 2 * i, 3, "%02x", md[i]);
	in->size = (long long)off;
	return 0;
}

static void copy_pkg(struct ds_pkg *to, const struct ds_pkg *from)
{
	const char **dst[] = { &to->name, &to->version, &to->arch, &to->source,
	                       &to->maintainer, &to->origin, &to->candidate, &to->label };
	const char *const src[] = { from->name, from->version, from->arch, from->source,
	                            from->maintainer, from->origin, from->candidate, from->label };
	for (size_t i = 0; i < sizeof dst / sizeof dst[0]; i++)
		*dst[i] = src[i] ? ds_xstrdup(src[i]) : NULL;
}

/* The input record findings will point at, kept by the scan. */
static struct ds_input *keep_input(struct ds_scan *s, struct ds_input *in)
{
	struct ds_scan_private *p = s->priv;
	struct ds_input *kept = ds_xmalloc(sizeof *kept);
	*kept = *in;
	pthread_mutex_lock(&p->inputs_lock);
	ds_push(s->inputs, s->ninputs, p->inputs_cap, kept);
	pthread_mutex_unlock(&p->inputs_lock);
	return kept;
}

/* The --max-decompressed cap on the payload of pf, where b takes one. */
static void limit_payload(const struct ds_scan *s, const struct ds_backend *b, void *pf)
{
	if (b->pkgfile_limit)
		b->pkgfile_limit(pf, s->opt->max_decompressed ? s->opt->max_decompressed
		                                              : DS_DECOMPRESSED_MAX);
}

/* Offers the file to each backend's reader: its handle, with *bp the
 * backend, *slot its index among ds_backends_available; NULL with err
 * unset when none knows the file, NULL with err set when one does but
 * cannot read it. */
static void *open_package(const char *via, const struct ds_backend **bp, size_t *slot,
                          const struct ds_pkg **pkg, struct ds_error *err)
{
	const struct ds_backend_slot *slots;
	size_t n = ds_backends_available(&slots);
	for (size_t i = 0; i < n; i++) {
		const struct ds_backend *b = slots[i].b;
		if (!b->pkgfile_open)
			continue;
		pthread_mutex_lock(&open_lock);
		void *pf = b->pkgfile_open(via, pkg, err);
		pthread_mutex_unlock(&open_lock);
		if (pf || err->msg) {
			*bp = b;
			*slot = i;
			return pf;
		}
	}
	return NULL;
}

/* Offers the file to each backend's reader; 1 read, 0 none knows it,
 * -1 broken (reported). */
static int read_members(struct ds_worker *w, const char *path, const char *via,
                        struct ds_input *in)
{
	const struct ds_backend *b = NULL;
	const struct ds_pkg *pkg = NULL;
	struct ds_error err = DS_ERROR_INIT;
	size_t i = 0;
	void *pf = open_package(via, &b, &i, &pkg, &err);
	if (pf) {
		limit_payload(w->scan, b, pf);
		in->format = b->name;
		copy_pkg(&in->pkg, pkg);
		struct ds_input *kept = keep_input(w->scan, in);
		in->path = in->via = NULL; /* the scan's now */
		struct ds_owner owner = { .status = DS_OWNER_PACKAGE, .npkgs = 1, .pkgs = { &kept->pkg } };
		struct ds_member m;
		int r;
		const struct ds_scan_private *p = w->scan->priv;
		const struct ds_profile *spelling = w->scan->opt->profile ? p->profile
		                                  : p->spelling ? p->spelling[i] : NULL;
		while ((r = b->pkgfile_next(pf, &m, &err)) == 1)
			member_on(w, &m, &owner, kept, spelling, NULL);
		b->pkgfile_close(pf);
		if (r < 0)
			ds_report_input_error(w, path, "%s", ds_error_msg(&err));
		ds_error_clear(&err);
		return r < 0 ? -1 : 1;
	}
	if (err.msg) {
		ds_report_input_error(w, path, "%s", ds_error_msg(&err));
		ds_error_clear(&err);
		return -1;
	}
	ds_report_input_error(w, path, "not a package file any backend reads");
	return 0;
}

/* The package file of a job, open for reading once fstat says regular;
 * -1 with err set.  One a .changes lists (e) is opened below the directory of
 * the .changes, first O_PATH (a device node is never opened): a symlink
 * may lead to another file of the upload, never out of it (x.deb ->
 * /etc/shadow had its size and sha256 printed in the mismatch error). */
static int open_pkgfile(const char *path, const struct ds_expect *e, struct stat *st,
                        struct ds_error *err)
{
	int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	char *dir = slash ? ds_xstrndup(path, (size_t)(slash - path) + 1) : ds_xstrdup(".");
	int dfd = e && e->via ? open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC) : AT_FDCWD;
	int fd = -1;
	struct stat ps;
	if (dfd == AT_FDCWD)
		fd = open(path, flags);
	else if (dfd >= 0 && (fd = ds_open_inside(dfd, name, O_PATH | O_CLOEXEC)) >= 0 &&
	         fstat(fd, &ps) == 0 && S_ISREG(ps.st_mode)) {
		close(fd);
		fd = ds_open_inside(dfd, name, flags);
		/* the same file as the O_PATH look, not one put there since */
		if (fd >= 0 && fstat(fd, st) == 0 && (st->st_dev != ps.st_dev || st->st_ino != ps.st_ino)) {
			close(fd);
			fd = -1;
			errno = ESTALE;
		}
	}
	int saved = errno;
	if (fd >= 0 && (fstat(fd, st) != 0 || !S_ISREG(st->st_mode))) {
		close(fd);
		fd = -1;
		ds_error_set(err, DS_ERR_USAGE, "not a regular file (a FIFO, device, directory or symlink)");
	} else if (fd < 0) {
		ds_error_set(err, DS_ERR_IO, "%s",
		             saved == EXDEV ? "a symlink leading out of the directory of the .changes"
		                            : strerror(saved));
	}
	if (dfd >= 0 && dfd != AT_FDCWD)
		close(dfd);
	free(dir);
	return fd;
}

/* ctx: non-NULL for a debug package, whose debug files are read too */
static int context_wants(const char *path, void *ctx)
{
	return ds_unitset_wants(path) || (ctx && ds_debug_member(path));
}

void ds_pkgfile_context_job(struct ds_worker *w, const char *path, const struct ds_expect *e)
{
	struct stat st;
	/* (what is wrong with it is said when it is scanned) */
	int fd = open_pkgfile(path, e, &st, NULL);
	if (fd < 0)
		return;
	if (e && st.st_size != e->size) {
		close(fd);
		return;
	}
	char via[64];
	snprintf(via, sizeof via, "/proc/self/fd/%d", fd);
	const struct ds_backend *b = NULL;
	const struct ds_pkg *pkg = NULL;
	struct ds_error err = DS_ERROR_INIT;   /* what is wrong is said when the file is scanned */
	size_t slot;
	void *pf = open_package(access(via, R_OK) == 0 ? via : path, &b, &slot, &pkg, &err);
	if (pf) {
		atomic_store(&w->scan->priv->named_formats[slot], true);
		limit_payload(w->scan, b, pf);
		struct ds_debugset *debug = w->scan->priv->debug;
		void *debug_pkg = debug && pkg && ds_debug_package(pkg->name) ? debug : NULL;
		if (b->pkgfile_want)
			b->pkgfile_want(pf, context_wants, debug_pkg);
		struct ds_member m;
		while (b->pkgfile_next(pf, &m, &err) == 1) {
			if (m.script)
				continue;
			if (debug_pkg && S_ISREG(m.mode) && ds_debug_member(m.path))
				ds_debugset_add_member(debug, pkg->name, &m);
			if (S_ISREG(m.mode) && m.data && !m.unreadable && ds_unitset_wants(m.path))
				ds_unitset_add(w->scan->priv->unitset, m.path, m.data, m.size);
			if (m.hardlink || (S_ISLNK(m.mode) && m.symlink))
				ds_unitset_link(w->scan->priv->unitset, m.path, m.hardlink,
				                S_ISLNK(m.mode) ? m.symlink : NULL);
		}
		b->pkgfile_close(pf);
	}
	ds_error_clear(&err);
	close(fd);
}

static bool expected(struct ds_worker *w, const char *path, const struct ds_input *in,
                     const struct ds_expect *e)
{
	if (!e)
		return true;
	if (e->size != in->size) {
		ds_report_input_error(w, path, "size %lld, %s lists %lld", in->size, e->via, e->size);
		return false;
	}
	if (strcmp(e->sha256, in->sha256) != 0) {
		ds_report_input_error(w, path, "sha256 %s, %s lists %s", in->sha256, e->via, e->sha256);
		return false;
	}
	return true;
}

int ds_scan_pkgfile_job(struct ds_worker *w, const char *path, const struct ds_expect *e)
{
	struct stat st;
	struct ds_error err = DS_ERROR_INIT;
	int fd = open_pkgfile(path, e, &st, &err);
	if (fd < 0) {
		ds_report_input_error(w, path, "%s", ds_error_msg(&err));
		ds_error_clear(&err);
		return -1;
	}
	/* sizes first: a listed 10-byte .deb beside an 8 GiB file is not
	 * hashed (28-45 s) to find they differ */
	if (e && st.st_size != e->size) {
		ds_report_input_error(w, path, "size %lld, %s lists %lld", (long long)st.st_size,
		                      e->via, e->size);
		close(fd);
		return -1;
	}
	/* The backends read the very file opened here, not whatever the name
	 * points at by then. */
	char via[64];
	snprintf(via, sizeof via, "/proc/self/fd/%d", fd);
	if (access(via, R_OK) != 0)
		snprintf(via, sizeof via, "%s", "");
	struct ds_input in = { .path = ds_xstrdup(path), .via = e && e->via ? ds_xstrdup(e->via) : NULL };
	int r = -1;
	if (hash_file(fd, &in, &err) != 0)
		ds_report_input_error(w, path, "%s", ds_error_msg(&err));
	else if (expected(w, path, &in, e))
		r = read_members(w, path, via[0] ? via : path, &in);
	ds_error_clear(&err);
	if (r != 1) {
		free(in.path);
		free(in.via);
	}
	close(fd);
	if (r == 1)
		atomic_fetch_add(&w->scan->priv->pkg_read, 1);
	return r;
}

int ds_scan_package_file(struct ds_scan *s, const char *path)
{
	return ds_scan_pkgfile_job(&s->priv->main, path, NULL);
}

static int cmp_input(const void *a, const void *b)
{
	const struct ds_input *x = *(struct ds_input *const *)a, *y = *(struct ds_input *const *)b;
	return strcmp(x->path, y->path);
}

void ds_inputs_sort(struct ds_scan *s)
{
	if (s->ninputs)
		qsort(s->inputs, s->ninputs, sizeof *s->inputs, cmp_input);
}

void ds_inputs_free(struct ds_scan *s)
{
	for (size_t i = 0; i < s->ninputs; i++) {
		free(s->inputs[i]->path);
		free(s->inputs[i]->via);
		ds_pkg_free(&s->inputs[i]->pkg);
		free(s->inputs[i]);
	}
	free(s->inputs);
	s->inputs = NULL;
	s->ninputs = s->priv->inputs_cap = 0;
}

const char *ds_pkgfile_suffix(const char *path)
{
	size_t n = strlen(path);
	const struct ds_backend_slot *slots;
	size_t nb = ds_backends_available(&slots);
	for (size_t i = 0; i < nb; i++)
		for (const char *const *x = slots[i].b->pkgfile_suffixes; x && *x; x++)
			if (n > strlen(*x) && !strcmp(path + n - strlen(*x), *x))
				return *x;
	return NULL;
}

const char *ds_pkgfile_not_one(int fd)
{
	char head[512];
	ssize_t n = pread(fd, head, sizeof head, 0);
	if (n < 0)
		return "it cannot be read";
	if (n == 0)
		return "it is empty (a failed download?)";
	ssize_t i = 0;
	while (i < n && strchr(" \t\r\n", head[i]))
		i++;
	if (i < n && head[i] == '<')
		return "it is an HTML or XML page (a web server's error page?)";
	return "its first bytes are no package format any backend reads (truncated or damaged?)";
}

/* Do the backends' sniffs take head for a package file?  1, 0, or -1
 * when one of them needs more bytes to tell. */
static int sniff_head(const unsigned char *head, size_t n)
{
	const struct ds_backend_slot *slots;
	size_t nb = ds_backends_available(&slots);
	int r = 0;
	for (size_t i = 0; i < nb && r != 1; i++) {
		int one = slots[i].b->pkgfile_sniff ? slots[i].b->pkgfile_sniff(head, n) : 0;
		if (one != 0)
			r = one;
	}
	return r;
}

/* Is the host file at path (open as fd) a package file some backend
 * reads, going by its first bytes?  A page is enough for most; a backend
 * that must decompress a whole block first (a .pkg.tar.zst's, up to 128
 * KiB of tar) gets up to 256 KiB, and only for the files it asks it for:
 * every shard of a run sniffs every file named. */
bool ds_pkgfile_sniff(int fd)
{
	unsigned char page[4096];
	ssize_t n = pread(fd, page, sizeof page, 0);
	if (n <= 0)
		return false;
	int r = sniff_head(page, (size_t)n);
	if (r >= 0 || (size_t)n < sizeof page)
		return r > 0;
	enum { MORE = 256 << 10 };
	unsigned char *head = ds_xmalloc(MORE);
	n = pread(fd, head, MORE, 0);
	r = n > 0 ? sniff_head(head, (size_t)n) : 0;
	free(head);
	return r > 0;
}
