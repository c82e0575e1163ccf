/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The `pacman` backend (a module: libalpm is a shared library): Arch
 * Linux's local database and .pkg.tar.* package files.
 *
 * The database (var/lib/pacman/local/NAME-VERSION/{desc,files}) is read by
 * libalpm, from a private copy: libalpm opens the files of its dbpath by
 * name and follows symlinks, so each one is first opened below the root
 * (no symlink, a regular file, capped) and copied into a temporary
 * directory, which is removed again, on a signal too.  A package file is a
 * tar archive (zstd, xz or gzip) whose first members are .PKGINFO,
 * .BUILDINFO, .MTREE and .INSTALL; libalpm's alpm_pkg_load reads the
 * package's metadata, and the payload comes through the shared member
 * reader (archive-members.c) after the dot-members.
 */
#include <alpm.h>
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive-members.h"
#include "distsec/backend.h"
#include "distsec/pkgtable.h"
#include "distsec/rootfile.h"
#include "distsec/util.h"

#define LOCAL_DIR "var/lib/pacman/local"
#define FILE_MAX (64u << 20)          /* one desc or files file */
#define COPY_MAX (1024ull << 20)      /* the whole copy */
#define INSTALL_MAX (8u << 20)

/* The program's signal cleanup, given once when the module is loaded and
 * the same for every handle after. */
static const struct ds_host *host;

__attribute__((visibility("default"))) void distsec_backend_host(const struct ds_host *h)
{
	host = h;
}

/* ---- the private copy of the database ------------------------------ */

struct db_copy {
	char *dir;
	int slot;   /* in the program's signal cleanup, or -1 */
	bool pre42; /* no ALPM_DB_VERSION beside packages: pacman 4.1 or older made it */
};

static void remove_tree(int parent, const char *name, int depth)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) != 0 && depth > 0)
			remove_tree(dirfd(d), e->d_name, depth - 1);
	}
	if (d)
		closedir(d);
	else if (fd >= 0)
		close(fd);
	unlinkat(parent, name, AT_REMOVEDIR);
}

static void remove_copy(struct db_copy *c)
{
	if (!c->dir)
		return;
	remove_tree(AT_FDCWD, c->dir, 2);
	if (host)
		host->cleanup_done(c->slot);
	free(c->dir);
	c->dir = NULL;
}

/* Copies name of from_dir (a regular file, not a symlink) into to_dir;
 * 0 when copied or absent, -1 with err. */
static int copy_file(int from_dir, int to_dir, const char *pkg, const char *name,
                     unsigned long long *budget, struct ds_error *err)
{
	int in = openat(from_dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (in < 0 && errno == ENOENT)
		return 0;
	if (in < 0 || fstat(in, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > FILE_MAX ||
	    (unsigned long long)st.st_size > *budget) {
		ds_error_set(err, DS_ERR_IO, "cannot read %s/%s/%s: %s", LOCAL_DIR, pkg, name,
		             in < 0 ? ds_root_strerror(errno)
		             : (uint64_t)st.st_size > FILE_MAX || (unsigned long long)st.st_size > *budget
		               ? "larger than distsec reads" : "not a regular file");
		if (in >= 0)
			close(in);
		return -1;
	}
	*budget -= (unsigned long long)st.st_size;
	int out = openat(to_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int rc = out >= 0 ? ds_copy_fd(in, out, (uint64_t)st.st_size) : -1;
	if (out >= 0 && close(out) != 0)
		rc = -1;
	if (rc != 0)
		ds_error_set(err, DS_ERR_IO, "cannot copy %s/%s/%s to a temporary directory: %s",
		             LOCAL_DIR, pkg, name, strerror(errno));
	close(in);
	return rc;
}

/* One package's directory: desc and files (mtree is not read). */
static int copy_package(int local, int to_local, const char *pkg, unsigned long long *budget,
                        struct ds_error *err)
{
	int from = openat(local, pkg, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (from < 0)
		return 0;   /* a stray file or symlink: no package of pacman's */
	int rc = mkdirat(to_local, pkg, 0700);
	int to = rc == 0 ? openat(to_local, pkg, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (to < 0) {
		ds_error_set(err, DS_ERR_IO, "cannot copy %s/%s: %s", LOCAL_DIR, pkg, strerror(errno));
		rc = -1;
	} else {
		rc = copy_file(from, to, pkg, "desc", budget, err);
		if (rc == 0)
			rc = copy_file(from, to, pkg, "files", budget, err);
		close(to);
	}
	close(from);
	return rc;
}

static int copy_db(const char *root, struct db_copy *c, struct ds_error *err)
{
	const char *tmp = getenv("TMPDIR");
	c->dir = ds_xasprintf("%s/distsec-pacmandb-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	/* registered before it exists: no signal finds it unregistered */
	if (ds_mktemp_registered(c->dir, true, host ? host->cleanup_add : NULL,
	                         host ? host->cleanup_done : NULL, &c->slot) != 0) {
		ds_error_set(err, DS_ERR_IO, "cannot read %s: no temporary directory for a copy: %s",
		             LOCAL_DIR, strerror(errno));
		free(c->dir);
		c->dir = NULL;
		return -1;
	}
	char *src = ds_root_resolve(root, LOCAL_DIR);
	int local = src ? open(src, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	free(src);
	char *dst = ds_xasprintf("%s/local", c->dir);
	int to_local = mkdir(dst, 0700) == 0 ? open(dst, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	free(dst);
	int rc = local >= 0 && to_local >= 0 ? 0 : -1;
	if (rc != 0)
		ds_error_set(err, DS_ERR_IO, "cannot read %s: %s", LOCAL_DIR, strerror(errno));
	unsigned long long budget = COPY_MAX;
	DIR *d = rc == 0 ? fdopendir(dup(local)) : NULL;
	struct dirent *e;
	bool versioned = false, entries = false;
	while (rc == 0 && d && (e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		bool version = !strcmp(e->d_name, "ALPM_DB_VERSION");
		versioned |= version;
		entries |= !version;
		rc = version ? copy_file(local, to_local, ".", e->d_name, &budget, err)
		             : copy_package(local, to_local, e->d_name, &budget, err);
	}
	if (d)
		closedir(d);
	/* pacman before 4.2 wrote no version file, and libalpm refuses such a
	 * database ("incorrect version") until pacman-db-upgrade adds one; its
	 * desc and files are the format libalpm reads, so the copy gets the
	 * version of the database libalpm knows */
	if (rc == 0 && !versioned && entries) {
		int v = openat(to_local, "ALPM_DB_VERSION", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (v < 0 || write(v, "9\n", 2) != 2) {
			rc = ds_error_set(err, DS_ERR_IO, "cannot write to a temporary directory: %s",
			                  strerror(errno));
		}
		if (v >= 0)
			close(v);
		c->pre42 = true;
	}
	if (local >= 0)
		close(local);
	if (to_local >= 0)
		close(to_local);
	if (rc != 0)
		remove_copy(c);
	return rc;
}

/* ---- the database --------------------------------------------------- */

static void pkg_from_alpm(alpm_pkg_t *ap, struct ds_pkg *p)
{
	p->name = ds_field_dup(alpm_pkg_get_name(ap));
	p->version = ds_field_dup(alpm_pkg_get_version(ap));
	p->arch = ds_field_dup(alpm_pkg_get_arch(ap));
	p->source = ds_field_dup(alpm_pkg_get_base(ap));
	p->maintainer = ds_field_dup(alpm_pkg_get_packager(ap));
	if (p->name && p->version)
		p->label = ds_xasprintf("%s-%s", p->name, p->version);
}

static void add_package(struct ds_pkgtable *t, alpm_pkg_t *ap)
{
	struct ds_pkg p = { 0 };
	pkg_from_alpm(ap, &p);
	if (!p.name) {
		ds_pkg_free(&p);
		return;
	}
	if (strcmp(p.arch ? p.arch : "any", "any"))
		ds_pkgtable_add_arch(t, p.arch);
	ds_pkgid id = ds_pkgtable_add(t, &p);
	alpm_filelist_t *fl = alpm_pkg_get_files(ap);
	for (size_t i = 0; fl && i < fl->count; i++) {
		char *path = ds_xasprintf("/%s", fl->files[i].name);
		size_t n = strlen(path);
		if (n > 1 && path[n - 1] == '/')
			path[n - 1] = '\0';   /* directories are listed with a slash */
		ds_pkgtable_add_file(t, id, path);
		free(path);
	}
}

static struct ds_pkgtable *load(const char *root, bool *pre42, struct ds_error *err)
{
	struct db_copy c = { 0 };
	if (copy_db(root, &c, err) != 0)
		return NULL;
	if (pre42)
		*pre42 = c.pre42;
	alpm_errno_t aerr = 0;
	alpm_handle_t *h = alpm_initialize("/", c.dir, &aerr);
	if (!h) {
		ds_error_set(err, DS_ERR_IO, "cannot read %s: libalpm: %s", LOCAL_DIR, alpm_strerror(aerr));
		remove_copy(&c);
		return NULL;
	}
	struct ds_pkgtable *t = ds_pkgtable_new();
	for (alpm_list_t *l = alpm_db_get_pkgcache(alpm_get_localdb(h)); l; l = alpm_list_next(l))
		add_package(t, l->data);
	alpm_release(h);
	remove_copy(&c);
	return t;
}

static int pacman_probe(const char *root, struct ds_probe *out)
{
	memset(out, 0, sizeof *out);
	char *dir = ds_root_resolve(root, LOCAL_DIR);
	struct stat sb;
	bool present = dir && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
	free(dir);
	if (!present) {
		out->detail = ds_xstrdup("no " LOCAL_DIR);
		return 0;
	}
	struct ds_error err = DS_ERROR_INIT;
	bool pre42 = false;
	struct ds_pkgtable *t = load(root, &pre42, &err);
	if (!t) {
		out->detail = ds_xstrdup(ds_error_msg(&err));
		out->unreadable = 1;
		ds_error_clear(&err);
		return 0;
	}
	ds_pkgtable_probe(t, root, "etc/arch-release", out);
	out->detail = ds_xasprintf("pacman database %s: %zu packages%s", LOCAL_DIR, t->npkgs,
	                           pre42 ? " (no ALPM_DB_VERSION: made by pacman before 4.2, read as it is)"
	                                 : "");
	out->notice = pre42;
	ds_pkgtable_close(t);
	return 0;
}

static void *pacman_open(const char *root, unsigned flags, void *started, struct ds_error *err)
{
	(void)flags; /* the local database names no repository */
	(void)started; /* no start(): the load is one pass over small files */
	return load(root, NULL, err);
}

/* ---- package files --------------------------------------------------- */

struct pacman_file {
	struct ds_pkg pkg;
	struct ds_payload payload;
	unsigned char *install; /* .INSTALL: functions bash sources around each step */
	size_t install_len;
	struct ds_error install_why; /* with install NULL: unset when the package has no .INSTALL */
	bool install_done, payload_only, have_payload;
	char *path;             /* the package file, for reading the payload again */
};

/* The members makepkg puts before the payload (in C collation order, so
 * .BUILDINFO usually comes first). */
static bool dot_member(const char *name)
{
	static const char *const names[] = { ".BUILDINFO", ".CHANGELOG", ".INSTALL", ".MTREE",
	                                     ".PKGINFO", NULL };
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* A compressed tar (zstd, xz, gzip) or a plain one whose first member is
 * one of makepkg's dot-members; the head is read through libarchive as far
 * as it goes (-1: not far enough to tell). */
static int pacman_pkgfile_sniff(const unsigned char *head, size_t len)
{
	static const unsigned char zstd[] = { 0x28, 0xb5, 0x2f, 0xfd }, xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	bool compressed = (len >= 4 && !memcmp(head, zstd, 4)) || (len >= 6 && !memcmp(head, xz, 6)) ||
	                  (len >= 2 && head[0] == 0x1f && head[1] == 0x8b);
	if (!compressed && !(len >= 1 && head[0] == '.'))
		return 0;
	struct archive *a = archive_read_new();
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	struct archive_entry *e;
	int r = archive_read_open_memory(a, head, len) == ARCHIVE_OK
	      ? archive_read_next_header(a, &e) : ARCHIVE_FATAL;
	int hit = r == ARCHIVE_OK && archive_entry_pathname(e) && dot_member(archive_entry_pathname(e));
	archive_read_free(a);
	/* a header not reached in a compressed head: its first block is not
	 * whole yet */
	return r != ARCHIVE_OK && compressed ? -1 : hit;
}

static void free_pacman_file(struct pacman_file *pf)
{
	if (pf->payload.a)
		archive_read_free(pf->payload.a);
	pf->payload.a = NULL;
	ds_payload_free(&pf->payload);
	ds_pkg_free(&pf->pkg);
	free(pf->install);
	ds_error_clear(&pf->install_why);
	free(pf->path);
	free(pf);
}

/* The package's metadata through libalpm (a handle on an empty dbpath:
 * alpm_pkg_load reads only the file it is given). */
static int load_metadata(struct pacman_file *pf, const char *path, struct ds_error *err)
{
	const char *tmp = getenv("TMPDIR");
	alpm_errno_t aerr = 0;
	alpm_handle_t *h = alpm_initialize("/", tmp && *tmp ? tmp : "/tmp", &aerr);
	if (!h) {
		ds_error_set(err, DS_ERR_PARSE, "libalpm: %s", alpm_strerror(aerr));
		return -1;
	}
	alpm_pkg_t *ap = NULL;
	int rc = alpm_pkg_load(h, path, 0, 0, &ap);
	if (rc != 0 || !ap)
		ds_error_set(err, DS_ERR_PARSE, "libalpm: %s", alpm_strerror(alpm_errno(h)));
	else
		pkg_from_alpm(ap, &pf->pkg);
	if (ap)
		alpm_pkg_free(ap);
	alpm_release(h);
	return rc != 0 || !ap ? -1 : 0;
}

/* Takes the dot-members out (the header of the first is read already);
 * stops at the first payload member.  1 when none was .PKGINFO. */
static int read_dot_members(struct pacman_file *pf, struct archive_entry *e, struct ds_error *err)
{
	bool pkginfo = false;
	int r = ARCHIVE_OK;
	for (; r == ARCHIVE_OK; r = archive_read_next_header(pf->payload.a, &e)) {
		const char *name = archive_entry_pathname(e);
		if (!name || !dot_member(name)) {
			pf->have_payload = true;
			pf->payload.peeked = e;
			break;
		}
		pkginfo |= !strcmp(name, ".PKGINFO");
		if (strcmp(name, ".INSTALL"))
			continue;
		free(pf->install);
		ds_error_clear(&pf->install_why);
		pf->install = ds_member_text(pf->payload.a, e, INSTALL_MAX, &pf->install_len,
		                             &pf->install_why);
	}
	if (r != ARCHIVE_OK && r != ARCHIVE_EOF) {
		ds_error_set(err, DS_ERR_PARSE, "%s", ds_archive_why(pf->payload.a));
		return -1;
	}
	return pkginfo ? 0 : 1;
}

/* The package file as a tar, its first header read: NULL when that is
 * not one of makepkg's dot-members. */
static struct archive *open_pkg(const char *path, struct archive_entry **e)
{
	struct archive *a = archive_read_new();
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK ||
	    archive_read_next_header(a, e) != ARCHIVE_OK || !archive_entry_pathname(*e) ||
	    !dot_member(archive_entry_pathname(*e))) {
		archive_read_free(a);
		return NULL;
	}
	return a;
}

/* The payload again from its first member (peeked), for the data of its
 * tar hard links (archive-members.h). */
static struct archive *reopen_payload(void *ctx)
{
	struct pacman_file *pf = ctx;
	struct archive_entry *e;
	struct archive *a = open_pkg(pf->path, &e);
	int r = a ? ARCHIVE_OK : ARCHIVE_FATAL;
	for (; r == ARCHIVE_OK; r = archive_read_next_header(a, &e))
		if (!archive_entry_pathname(e) || !dot_member(archive_entry_pathname(e))) {
			pf->payload.peeked = e;
			return a;
		}
	if (a)
		archive_read_free(a);
	return NULL;
}

static void *pacman_pkgfile_open(const char *path, const struct ds_pkg **pkg, struct ds_error *err)
{
	unsigned char head[512];
	FILE *fp = fopen(path, "rbe");
	size_t n = fp ? fread(head, 1, sizeof head, fp) : 0;
	if (fp)
		fclose(fp);
	if (n < 4 || !((head[0] == 0x28 && head[1] == 0xb5) || head[0] == 0xfd || head[0] == 0x1f ||
	               head[0] == '.'))
		return NULL;
	struct pacman_file *pf = ds_xcalloc(1, sizeof *pf);
	pf->path = ds_xstrdup(path);
	pf->payload.reopen = reopen_payload;
	pf->payload.reopen_ctx = pf;
	struct archive_entry *e;
	if (!(pf->payload.a = open_pkg(path, &e))) {
		free_pacman_file(pf);
		return NULL;   /* not a pacman package: another backend's, or plain data */
	}
	int r = read_dot_members(pf, e, err);
	if (r > 0)
		ds_error_set(err, DS_ERR_PARSE, "no .PKGINFO among the package's first members");
	if (r != 0 || load_metadata(pf, path, err) != 0) {
		free_pacman_file(pf);
		return NULL;
	}
	*pkg = &pf->pkg;
	return pf;
}

static int pacman_pkgfile_next(void *h, struct ds_member *m, struct ds_error *err)
{
	struct pacman_file *pf = h;
	if (!pf->payload_only && !pf->install_done) {
		pf->install_done = true;
		if (pf->install || pf->install_why.msg) {
			/* sourced by bash (makepkg's scriptlet functions) */
			ds_member_script(m, ".INSTALL", pf->install, pf->install_len,
			                 ds_error_msg(&pf->install_why), "/bin/bash");
			return 1;
		}
	}
	if (!pf->have_payload)
		return 0;
	return ds_payload_next(&pf->payload, m, err);
}

static void pacman_pkgfile_close(void *h)
{
	free_pacman_file(h);
}

static void pacman_pkgfile_want(void *h, int (*want)(const char *path, void *ctx), void *ctx)
{
	struct pacman_file *pf = h;
	pf->payload_only = true;
	pf->payload.want = want;
	pf->payload.want_ctx = ctx;
}

static void pacman_pkgfile_limit(void *h, uint64_t max_bytes)
{
	struct pacman_file *pf = h;
	pf->payload.max_bytes = max_bytes;
}

static const struct ds_backend pacman_backend = {
	.abi = DS_BACKEND_ABI,
	.name = "pacman",
	.summary = "Arch Linux pacman database (libalpm) and .pkg.tar.* files",
	.order = 40,
	.profile = "arch",
	.probe = pacman_probe,
	.open = pacman_open,
	.owner_of = ds_pkgtable_owner_of,
	.count = ds_pkgtable_count,
	.find = ds_pkgtable_find_named,   /* NAME, or NAME-VERSION (pacman's file names) */
	.info = ds_pkgtable_info,
	.contents = ds_pkgtable_contents,
	.close = ds_pkgtable_close,
	.pkgfile_open = pacman_pkgfile_open,
	.pkgfile_next = pacman_pkgfile_next,
	.pkgfile_close = pacman_pkgfile_close,
	.arches = ds_pkgtable_arches,
	.pkgfile_sniff = pacman_pkgfile_sniff,
	.pkgfile_suffixes = (const char *const[]){ ".pkg.tar.zst", ".pkg.tar.xz", ".pkg.tar.gz",
	                                           ".pkg.tar.bz2", ".pkg.tar", NULL },
	.pkgfile_want = pacman_pkgfile_want,
	.pkgfile_limit = pacman_pkgfile_limit,
	.root_files = (const char *const[]){ "var/lib/pacman/local/", "etc/arch-release", NULL },
};

__attribute__((visibility("default"))) const struct ds_backend *distsec_backend_entry(void)
{
	return &pacman_backend;
}
