/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Collecting the paths to scan: the walk of a tree (never through a
 * symlink, never into another file system unless asked), the paths a user
 * names, or the contents of packages, fed to the workers through a
 * bounded ring.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "internal.h"

/* The paths to scan: a bounded ring the walk fills while the workers
 * drain it, so memory does not grow with the tree.  Paths are deduplicated
 * only when several arguments or package lists may name one twice. */
#define JOBS_MAX 4096

struct ds_jobs {
	struct ds_job ring[JOBS_MAX];
	size_t head, count;     /* next to take; queued */
	size_t total;           /* queued so far, for the progress line */
	struct ds_strmap *seen; /* the walking thread's only; NULL: no dedup */
	pthread_mutex_t lock;   /* guards everything above but seen */
	pthread_cond_t not_empty, not_full;
	bool closed;            /* the walk is over */
	bool no_workers;        /* no thread started: the walker scans itself */
	struct ds_worker *self; /* ... with this worker */
};

static void push_job(struct ds_jobs *j, const char *path, unsigned char type,
                     struct ds_expect *e)
{
	if (j->no_workers) {
		struct ds_job job = { (char *)path, type, e };
		ds_scan_job(j->self, &job);
		ds_expect_free(e);
		return;
	}
	char *p = ds_xstrdup(path);
	pthread_mutex_lock(&j->lock);
	while (j->count == JOBS_MAX)
		pthread_cond_wait(&j->not_full, &j->lock);
	j->ring[(j->head + j->count) % JOBS_MAX] = (struct ds_job){ p, type, e };
	j->count++;
	j->total++;
	pthread_cond_signal(&j->not_empty);
	pthread_mutex_unlock(&j->lock);
}

static void add_job(struct ds_jobs *j, const char *path, unsigned char type)
{
	if (j->seen) {
		uintptr_t *v = ds_strmap_put(j->seen, path);
		if (*v)
			return;
		*v = 1;
	}
	push_job(j, path, type, NULL);
}

/* Package files are host paths: deduplicated apart from the root's. */
void ds_jobs_add_pkgfile(struct ds_jobs *j, const char *path, struct ds_expect *e)
{
	if (j->seen) {
		char *key = ds_xasprintf("pkgfile:%s", path);
		uintptr_t *v = ds_strmap_put(j->seen, key);
		free(key);
		if (*v) {
			ds_expect_free(e);
			return;
		}
		*v = 1;
	}
	push_job(j, path, DS_JOB_PKGFILE, e);
}

void ds_jobs_add_context(struct ds_jobs *j, const char *path)
{
	if (j->seen) {
		uintptr_t *v = ds_strmap_put(j->seen, path);
		if (*v)
			return;
		*v = 1;
	}
	push_job(j, path, DS_JOB_PKGCTX, NULL);
}

void ds_jobs_close(struct ds_jobs *j)
{
	pthread_mutex_lock(&j->lock);
	j->closed = true;
	pthread_cond_broadcast(&j->not_empty);
	pthread_mutex_unlock(&j->lock);
}

/* The next path to scan (the caller frees it), waiting for the walk if
 * need be; false when the walk is over and the ring is empty.  *total:
 * paths found so far. */
bool ds_jobs_take(struct ds_jobs *j, struct ds_job *out, size_t *total)
{
	pthread_mutex_lock(&j->lock);
	while (j->count == 0 && !j->closed)
		pthread_cond_wait(&j->not_empty, &j->lock);
	bool got = j->count > 0;
	if (got) {
		*out = j->ring[j->head];
		j->head = (j->head + 1) % JOBS_MAX;
		j->count--;
		pthread_cond_signal(&j->not_full);
	}
	*total = j->total;
	pthread_mutex_unlock(&j->lock);
	return got;
}


/* The root's /proc, /sys or /dev with a file system mounted on it (a live
 * system's: skipped even with --cross-mounts).  An image's plain
 * directories of those names are scanned like any other: a payload there
 * must not be hidden by its name. */
static bool is_pseudo_fs_mount(int dirfd, const char *name, const char *path, dev_t parent)
{
	if (strcmp(path, "/proc") && strcmp(path, "/sys") && strcmp(path, "/dev"))
		return false;
	struct statx sx;
	if (statx(dirfd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, STATX_BASIC_STATS, &sx) != 0)
		return false;  /* walked: opening it says what is wrong */
	if (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)
		return (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
	return makedev(sx.stx_dev_major, sx.stx_dev_minor) != parent;  /* before Linux 5.8 */
}

static void unreadable(struct ds_scan *s, const char *path, const char *what, int err)
{
	struct ds_finding *d = ds_scan_report(s, &ds_check_scan_unreadable, path,
	                                      DS_SEV_INFO, "%s: %s", what, strerror(err));
	ds_detail_str(d, "reason", strerror(err));
}

/* Walks the directory tree at start (already a job) without following
 * symlinks and without crossing into other file systems. */
static void walk(struct ds_scan *s, struct ds_jobs *j, const char *start, dev_t dev,
                 bool whole_root)
{
	char **stack = NULL;
	size_t n = 0, cap = 0;
	char *first = ds_xstrdup(start);
	ds_push(stack, n, cap, first);
	while (n) {
		char *dir = stack[--n];
		int dfd = ds_open_beneath(s->rootfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		struct stat st;
		DIR *d = NULL;
		if (dfd < 0 || fstat(dfd, &st) != 0 || !(d = fdopendir(dfd))) {
			unreadable(s, dir, "cannot read directory", errno);
			if (dfd >= 0)
				close(dfd);
			free(dir);
			continue;
		}
		if (st.st_dev != dev && !s->opt->cross_mounts) {
			closedir(d);
			free(dir);
			continue;
		}
		struct dirent *e;
		while ((e = readdir(d)) != NULL) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char *child = ds_path_join(dir, e->d_name);
			unsigned char type = e->d_type;
			if (type == DT_UNKNOWN) { /* a file system without d_type */
				struct stat cs;
				if (fstatat(dirfd(d), e->d_name, &cs, AT_SYMLINK_NOFOLLOW) == 0)
					type = IFTODT(cs.st_mode);
			}
			add_job(j, child, type);
			if (type == DT_DIR &&
			    !(whole_root && is_pseudo_fs_mount(dirfd(d), e->d_name, child, st.st_dev)))
				ds_push(stack, n, cap, child);
			else
				free(child);
		}
		closedir(d);
		free(dir);
	}
	free(stack);
}

/* A user-named path: resolved inside the root, walked if a directory. */
int ds_walk_argument(struct ds_scan *s, struct ds_jobs *j, const char *arg)
{
	char *canon = ds_resolve_in_root(s->rootfd, arg);
	if (!canon) {
		ds_warn("%s: %s (inside root %s)", arg, strerror(errno), s->root);
		return -1;
	}
	struct stat st;
	int fd = ds_open_beneath(s->rootfd, canon, O_PATH | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		ds_warn("%s: %s", arg, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(canon);
		return -1;
	}
	close(fd);
	add_job(j, canon, DT_UNKNOWN);
	if (S_ISDIR(st.st_mode))
		walk(s, j, canon, st.st_dev, strcmp(canon, "/") == 0);
	free(canon);
	return 0;
}

static int add_package_path(const char *path, void *ctx)
{
	struct ds_jobs *j = ((void **)ctx)[0];
	struct ds_scan *s = ((void **)ctx)[1];
	/* The directories are resolved (merged /usr: /bin is usr/bin), not the
	 * file itself: a symlink the package owns is scanned as a symlink, not
	 * as the file of another package it points to. */
	const char *slash = strrchr(path, '/');
	char *dir = slash && slash != path ? ds_xasprintf("%.*s", (int)(slash - path), path)
	                                   : ds_xstrdup("/");
	char *cdir = slash && slash[1] ? ds_resolve_in_root(s->rootfd, dir) : NULL;
	char *canon = cdir ? ds_path_join(cdir, slash + 1)
	                   : ds_resolve_in_root(s->rootfd, path);
	/* Listed but missing on disk (e.g. excluded by dpkg path-exclude):
	 * nothing to scan. */
	struct stat st;
	int fd = canon ? ds_open_beneath(s->rootfd, canon, O_PATH | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (fd >= 0 && fstat(fd, &st) == 0)
		add_job(j, canon, DT_UNKNOWN);
	if (fd >= 0)
		close(fd);
	free(dir);
	free(cdir);
	free(canon);
	return 0;
}

int ds_walk_packages(struct ds_scan *s, struct ds_jobs *j)
{
	if (ds_scan_backend_wait(s) != 0)
		return -1;
	void *ctx[2] = { j, s };
	if (s->opt->all_packages) {
		size_t n = s->backend->count(s->bh);
		for (ds_pkgid id = 0; id < n; id++)
			s->backend->contents(s->bh, id, add_package_path, ctx);
		return 0;
	}
	for (size_t i = 0; i < s->opt->npackages; i++) {
		ds_pkgid id = 0;
		size_t found = 0;
		for (; s->backend->find(s->bh, s->opt->packages[i], &id) == 0; id++, found++)
			s->backend->contents(s->bh, id, add_package_path, ctx);
		if (!found) {
			ds_warn("package '%s': not installed in %s (backend %s)",
			        s->opt->packages[i], s->root, s->backend->name);
			return -1;
		}
	}
	return 0;
}

struct ds_jobs *ds_jobs_new(bool dedup)
{
	struct ds_jobs *j = ds_xcalloc(1, sizeof *j);
	j->seen = dedup ? ds_strmap_new() : NULL;
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->not_empty, NULL);
	pthread_cond_init(&j->not_full, NULL);
	return j;
}

void ds_jobs_scan_inline(struct ds_jobs *j, struct ds_worker *w)
{
	j->no_workers = true;
	j->self = w;
}

void ds_jobs_free(struct ds_jobs *j)
{
	for (size_t i = 0; i < j->count; i++) {
		free(j->ring[(j->head + i) % JOBS_MAX].path);
		ds_expect_free(j->ring[(j->head + i) % JOBS_MAX].expect);
	}
	ds_strmap_free(j->seen);
	pthread_mutex_destroy(&j->lock);
	pthread_cond_destroy(&j->not_empty);
	pthread_cond_destroy(&j->not_full);
	free(j);
}
