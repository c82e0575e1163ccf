/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What each PATH argument names.  A path inside --root is read through the
 * root only (never stat'ed or opened on the host); a package file is a file
 * on the host, named explicitly:
 *   --package-file FILE   always a package file (or a .changes/.buildinfo);
 *   ./X or ../X           a host path: a package file, a .changes/.buildinfo;
 *   --root other than /   any other PATH is the root's when it exists there,
 *                         else a host regular file that is a package file;
 *   --root / (the host)   a regular file whose first bytes a backend
 *                         recognises is a package file, anything else is
 *                         the root's own path (relative from the current
 *                         directory when it exists there).
 * A container image (oci:DIR, oci-archive:FILE, docker-archive:FILE, or a
 * host directory or file whose contents are one: image.c) is scanned as
 * the root it holds.
 * NAME.changes and NAME.buildinfo stand for the binary package files they
 * list (changes.c).  A host file that exists but cannot be opened is an
 * error naming it, never taken for a path inside the root.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image.h"
#include "internal.h"

static void add(struct ds_args *a, const char *path, enum ds_arg_kind kind, const char *error)
{
	struct ds_arg arg = { .path = ds_xstrdup(path), .kind = kind,
	                      .error = error ? ds_xstrdup(error) : NULL };
	ds_push(a->v, a->n, a->cap, arg);
	if (kind == DS_ARG_ROOT_PATH)
		a->nroot++;
	else if (kind == DS_ARG_PKGFILE)
		a->npkg++;
	else if (kind == DS_ARG_IMAGE)
		a->nimage++;
}

/* The host's own spelling of a path that exists, for the root "/". */
static void add_host_root_path(struct ds_args *a, const char *arg)
{
	char *real = arg[0] == '/' ? NULL : realpath(arg, NULL);
	add(a, real ? real : arg, DS_ARG_ROOT_PATH, NULL);
	free(real);
}

/* A regular file on the host: a package file, a .changes, or (when the
 * host is the root) the root's own file. */
static void host_file(struct ds_args *a, const char *arg, bool may_be_root_file)
{
	if (ds_changes_named(arg)) {
		struct ds_error err = DS_ERROR_INIT;
		if (ds_changes_expand(arg, a, &err) != 0)
			add(a, arg, DS_ARG_ERROR, ds_error_msg(&err));
		ds_error_clear(&err);
		return;
	}
	int fd = open(arg, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		add(a, arg, DS_ARG_ERROR, fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return;
	}
	if (ds_image_named(arg)) {   /* an image archive, by its contents */
		close(fd);
		add(a, arg, DS_ARG_IMAGE, NULL);
		return;
	}
	bool pkg = ds_pkgfile_sniff(fd);
	const char *suffix = pkg ? NULL : ds_pkgfile_suffix(arg);
	char *why = suffix ? ds_xasprintf("named %s but not a package file: %s", suffix,
	                                  ds_pkgfile_not_one(fd)) : NULL;
	close(fd);
	if (pkg)
		add(a, arg, DS_ARG_PKGFILE, NULL);
	else if (why)   /* a gate must not pass a download that failed */
		add(a, arg, DS_ARG_ERROR, why);
	else if (may_be_root_file)
		add_host_root_path(a, arg);
	else
		add(a, arg, DS_ARG_ERROR, "not a package file any backend reads");
	free(why);
}

static bool exists_in_root(const struct ds_scan *s, const char *arg)
{
	char *canon = ds_resolve_in_root(s->rootfd, arg);
	int fd = canon ? ds_open_beneath(s->rootfd, canon, O_PATH | O_NOFOLLOW | O_CLOEXEC) : -1;
	free(canon);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

static void classify(const struct ds_scan *s, struct ds_args *a, const char *arg, bool named_pkg)
{
	if (ds_image_prefixed(arg)) {
		add(a, arg, DS_ARG_IMAGE, NULL);
		return;
	}
	bool host_is_root = strcmp(s->root, "/") == 0;
	bool host_path = named_pkg || !strncmp(arg, "./", 2) || !strncmp(arg, "../", 3);
	struct stat st;
	if (host_path || host_is_root) {
		if (stat(arg, &st) != 0) {
			if (host_path)
				add(a, arg, DS_ARG_ERROR, strerror(errno));
			else
				add(a, arg, DS_ARG_ROOT_PATH, NULL); /* the walk says it is missing */
		} else if (S_ISREG(st.st_mode)) {
			host_file(a, arg, host_is_root && !named_pkg);
		} else if (S_ISDIR(st.st_mode) && ds_image_named(arg)) {
			add(a, arg, DS_ARG_IMAGE, NULL);
		} else if (host_is_root && !named_pkg) {
			add_host_root_path(a, arg);
		} else {
			add(a, arg, DS_ARG_ERROR, "not a regular file");
		}
		return;
	}
	if (exists_in_root(s, arg))
		add(a, arg, DS_ARG_ROOT_PATH, NULL);
	else if (stat(arg, &st) == 0 && S_ISREG(st.st_mode))
		host_file(a, arg, false);
	else
		add(a, arg, DS_ARG_ROOT_PATH, NULL);
}

void ds_args_add_tree(struct ds_args *a, const char *dir)
{
	char *control = ds_path_join(dir, "debian/control");
	struct stat st;
	bool tree = stat(control, &st) == 0 && S_ISREG(st.st_mode);
	free(control);
	char *real = tree ? realpath(dir, NULL) : NULL;
	for (size_t i = 0; real && i < a->ntrees; i++)
		if (!strcmp(a->trees[i], real)) {
			free(real);
			return;
		}
	if (real)
		ds_push(a->trees, a->ntrees, a->trees_cap, real);
}

void ds_args_classify(struct ds_scan *s, struct ds_args *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < s->opt->npackage_files; i++)
		classify(s, out, s->opt->package_files[i], true);
	for (size_t i = 0; i < s->opt->npaths; i++)
		classify(s, out, s->opt->paths[i], false);
	/* package files scanned from a source tree (dpkg-buildpackage leaves
	 * them in ..): its debian/ waivers apply, like lintian's overrides */
	if (out->npkg)
		ds_args_add_tree(out, ".");
}

/* --shard: FNV-1a (64-bit) of the name without its directories, modulo
 * n.  Only the name counts, so a shard's share does not move when the
 * files do (another directory, another machine's mount) or when the list
 * is reordered; a .changes' package files are shared out one by one. */
unsigned ds_shard_of(const char *path, unsigned n)
{
	const char *base = strrchr(path, '/');
	base = base && base[1] ? base + 1 : path;
	uint64_t h = 14695981039346656037ull;
	for (const unsigned char *p = (const unsigned char *)base; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	return (unsigned)(h % n);
}

void ds_args_shard(struct ds_args *a, unsigned k, unsigned n)
{
	for (size_t i = 0; i < a->n; i++)
		a->v[i].other_shard = ds_shard_of(a->v[i].path, n) != k - 1;
}

void ds_expect_free(struct ds_expect *e)
{
	if (!e)
		return;
	free(e->via);
	free(e);
}

struct ds_expect *ds_expect_dup(const struct ds_expect *e)
{
	if (!e)
		return NULL;
	struct ds_expect *c = ds_xmalloc(sizeof *c);
	*c = *e;
	c->via = e->via ? ds_xstrdup(e->via) : NULL;
	return c;
}

void ds_args_free(struct ds_args *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].path);
		free(a->v[i].error);
		ds_expect_free(a->v[i].expect);
	}
	free(a->v);
	for (size_t i = 0; i < a->ntrees; i++)
		free(a->trees[i]);
	free(a->trees);
	memset(a, 0, sizeof *a);
}
