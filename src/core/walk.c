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
 * only when several arguments or package lists may name one twice.  A
 * walked entry comes with its own fd; at most JOB_FDS of those wait in
 * the ring, well under the usual limit of 1,024 open files. */
#define JOBS_MAX 4096
#define JOB_FDS 256
/* A waiting worker is woken once WAKE_BATCH paths wait (or the walk ends,
 * or the ring is full), not for each: a worker woken for every path the
 * walk found took it and slept again, a futex wait and wake per file (a
 * quarter of a /usr scan's syscalls, and the context switches).  A
 * package file, a layer or a context pass is a long job of its own: its
 * worker is woken at once.  The waiting walk likewise, once WAKE_BATCH
 * paths fit. */
#define WAKE_BATCH 16

struct ds_jobs {
	struct ds_job ring[JOBS_MAX];
	size_t head, count;     /* next to take; queued */
	size_t fds;             /* queued jobs holding an fd */
	size_t total;           /* queued so far, for the progress line */
	struct ds_strmap *seen; /* the walking thread's only; NULL: no dedup */
	pthread_mutex_t lock;   /* guards everything above but seen */
	pthread_cond_t not_empty, not_full;
	bool closed;            /* the walk is over */
	/* no thread started: the walker scans each job itself, with this */
	void (*scan_inline)(void *ctx, const struct ds_job *job);
	void *inline_ctx;
};

static void push_job(struct ds_jobs *j, const char *path, unsigned char type,
                     struct ds_expect *e, int fd, bool fd_reads)
{
	if (j->scan_inline) {
		struct ds_job job = { (char *)path, type, e, fd, fd_reads };
		j->scan_inline(j->inline_ctx, &job);
		ds_expect_free(e);
		return;
	}
	char *p = ds_xstrdup(path);
	pthread_mutex_lock(&j->lock);
	while (j->count == JOBS_MAX || (fd >= 0 && j->fds == JOB_FDS)) {
		pthread_cond_broadcast(&j->not_empty);   /* (waiting below WAKE_BATCH) */
		pthread_cond_wait(&j->not_full, &j->lock);
	}
	j->ring[(j->head + j->count) % JOBS_MAX] = (struct ds_job){ p, type, e, fd, fd_reads };
	j->count++;
	j->fds += fd >= 0;
	j->total++;
	if (j->count % WAKE_BATCH == 0 || type >= DS_JOB_PKGFILE)
		pthread_cond_signal(&j->not_empty);
	pthread_mutex_unlock(&j->lock);
}

/* fd: the entry's own (the ring takes it), or -1 */
static void add_job_fd(struct ds_jobs *j, const char *path, unsigned char type, int fd,
                       bool fd_reads)
{
	if (j->seen) {
		uintptr_t *v = ds_strmap_put(j->seen, path);
		if (*v) {
			if (fd >= 0)
				close(fd);
			return;
		}
		*v = 1;
	}
	push_job(j, path, type, NULL, fd, fd_reads);
}

static void add_job(struct ds_jobs *j, const char *path, unsigned char type)
{
	add_job_fd(j, path, type, -1, false);
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
	push_job(j, path, DS_JOB_PKGFILE, e, -1, false);
}

void ds_jobs_add_layer(struct ds_jobs *j, size_t i)
{
	char name[32];
	snprintf(name, sizeof name, "%zu", i);
	push_job(j, name, DS_JOB_LAYER, NULL, -1, false);
}

void ds_jobs_add_context(struct ds_jobs *j, const char *path, struct ds_expect *e)
{
	if (j->seen) {
		uintptr_t *v = ds_strmap_put(j->seen, path);
		if (*v) {
			ds_expect_free(e);
			return;
		}
		*v = 1;
	}
	push_job(j, path, DS_JOB_PKGCTX, e, -1, false);
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
		j->fds -= out->fd >= 0;
		/* the walk, when it waits, goes on once a batch fits */
		if (j->count <= JOBS_MAX - WAKE_BATCH && j->fds <= JOB_FDS - WAKE_BATCH)
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

/* One directory on the walk's current path: the path buffer up to len
 * spells it; the names of its subdirectories not yet walked are
 * subdirs[next..nsub). */
struct frame {
	size_t len;
	int fd;                  /* -1 once closed to bound the walk's fds */
	dev_t dev;
	ino_t ino;
	char **subdirs;
	size_t next, nsub, cap;
};

/* A chain 10,000 directories deep needs no 10,000 fds: only the deepest
 * directories keep theirs; a shallower one is reopened through ".." of
 * its child when the walk climbs back to it. */
#define WALK_FDS 32

struct walk {
	struct ds_scan *s;
	struct ds_jobs *j;
	dev_t dev;               /* the file system walked (unless --cross-mounts) */
	bool whole_root;
	char *path;              /* NUL-terminated at len */
	size_t len, cap;
	struct frame *frames;
	size_t n, fcap;
	size_t low, nopen;       /* frames below low hold no fd; nopen hold one */
};

static void path_cut(struct walk *w, size_t len)
{
	w->len = len;
	w->path[len] = '\0';
}

static void path_append(struct walk *w, const char *name)
{
	size_t n = strlen(name);
	ds_grow(w->path, w->len + n + 2, w->cap);
	w->path[w->len++] = '/';
	memcpy(w->path + w->len, name, n + 1);
	w->len += n;
}

/* The walk's path: "" (the root's spelling in the buffer) is "/". */
static const char *path_of(const struct walk *w)
{
	return w->len ? w->path : "/";
}

/* The entry's own fd for its job, opened from its directory's: a read fd
 * for a file readdir calls regular when its contents will be read (never
 * one for a device: O_NONBLOCK, no controlling terminal, and the worker
 * fstat()s it before reading), else O_PATH.  -1: the worker opens the
 * path itself and says why it could not. */
static int open_entry(struct walk *w, int dfd, const char *name, unsigned char type, bool *reads)
{
	*reads = type == DT_REG && w->s->priv->classify;
	int fd = -1;
	if (*reads)
		fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		*reads = false;
		fd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	}
	return fd;
}

/* Does an enabled check look at an entry of this d_type?  A directory,
 * symlink or device no check sees needs no job: its open, fstat and close
 * in a worker were a fifth of an ELF-checks-only /usr scan's syscalls.
 * (A regular file, or a type readdir does not know, always gets one.) */
static bool wanted(const struct walk *w, unsigned char type)
{
	unsigned a = w->s->priv->applies;
	switch (type) {
	case DT_DIR: return a & DS_ON_DIR;
	case DT_LNK: case DT_FIFO: case DT_SOCK: return a & DS_ON_SPECIAL;
	case DT_CHR: case DT_BLK: return a & DS_ON_DEVICE;
	default: return true;
	}
}

/* Queues every entry of the directory fr (the path buffer spells it) and
 * keeps the names of its subdirectories to walk.  Read with getdents64 on
 * the frame's own fd: fdopendir would cost a dup, an fstat, two fcntl and
 * a close per directory. */
static void list_dir(struct walk *w, struct frame *fr)
{
	char buf[32768] __attribute__((aligned(8)));
	for (;;) {
		ssize_t n = getdents64(fr->fd, buf, sizeof buf);
		if (n < 0) {
			unreadable(w->s, path_of(w), "cannot read directory", errno);
			return;
		}
		if (n == 0)
			return;
		for (ssize_t off = 0; off < n; ) {
			struct dirent64 *e = (struct dirent64 *)(void *)(buf + off);
			off += e->d_reclen;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			unsigned char type = e->d_type;
			if (type == DT_UNKNOWN) { /* a file system without d_type */
				struct stat cs;
				if (fstatat(fr->fd, e->d_name, &cs, AT_SYMLINK_NOFOLLOW) == 0)
					type = IFTODT(cs.st_mode);
			}
			path_append(w, e->d_name);
			if (wanted(w, type)) {
				bool reads;
				int fd = open_entry(w, fr->fd, e->d_name, type, &reads);
				add_job_fd(w->j, w->path, type, fd, reads);
			}
			if (type == DT_DIR &&
			    !(w->whole_root && is_pseudo_fs_mount(fr->fd, e->d_name, w->path, fr->dev)))
				ds_push(fr->subdirs, fr->nsub, fr->cap, ds_xstrdup(e->d_name));
			path_cut(w, fr->len);
		}
	}
}

/* Enters the directory opened as fd (-1: the open failed with errno),
 * which the path buffer spells: checked, listed, walked next. */
static void enter(struct walk *w, int fd)
{
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		unreadable(w->s, path_of(w), "cannot read directory", errno);
		if (fd >= 0)
			close(fd);
		return;
	}
	if (st.st_dev != w->dev && !w->s->opt->cross_mounts) {
		close(fd);
		return;
	}
	ds_grow(w->frames, w->n + 1, w->fcap);
	struct frame *fr = &w->frames[w->n++];
	*fr = (struct frame){ .len = w->len, .fd = fd, .dev = st.st_dev, .ino = st.st_ino };
	for (w->nopen++; w->nopen > WALK_FDS; w->low++) {
		if (w->frames[w->low].fd >= 0) {
			close(w->frames[w->low].fd);
			w->frames[w->low].fd = -1;
			w->nopen--;
		}
	}
	list_dir(w, fr);
}

/* The fd of fr, closed to bound the walk's fds, again: ".." of its child
 * (childfd) when that is still fr's inode, else by path inside the root
 * (the tree changed under the walk). */
static int reopen(struct walk *w, struct frame *fr, int childfd)
{
	struct stat st;
	int fd = childfd >= 0 ? openat(childfd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == fr->dev && st.st_ino == fr->ino)
		return fd;
	if (fd >= 0)
		close(fd);
	path_cut(w, fr->len);
	fd = ds_open_beneath(w->s->rootfd, path_of(w), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_dev != fr->dev || st.st_ino != fr->ino) {
		unreadable(w->s, path_of(w), "cannot read directory", fd < 0 ? errno : ESTALE);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static void leave(struct walk *w)
{
	struct frame *fr = &w->frames[--w->n];
	for (size_t i = fr->next; i < fr->nsub; i++)
		free(fr->subdirs[i]);
	free(fr->subdirs);
	/* (reopened even with nothing left to walk: its own parent may need
	 * its ".." in turn) */
	struct frame *parent = w->n ? &w->frames[w->n - 1] : NULL;
	if (parent && parent->fd < 0) {
		parent->fd = reopen(w, parent, fr->fd);
		if (parent->fd >= 0)
			w->nopen++;
		w->low = w->n - 1;
	}
	if (fr->fd >= 0) {
		close(fr->fd);
		w->nopen--;
	}
	if (w->low > w->n)
		w->low = w->n;
}

/* Walks the directory tree at start (already a job) without following
 * symlinks and without crossing into other file systems.  Each directory
 * and each entry is opened from its parent's fd: the cost of a level does
 * not grow with its depth (by path, every open resolved the whole path
 * again, one openat per component beyond PATH_MAX: 149 s for a chain
 * 10,000 deep). */
static void walk(struct ds_scan *s, struct ds_jobs *j, const char *start, dev_t dev,
                 bool whole_root)
{
	struct walk w = { .s = s, .j = j, .dev = dev, .whole_root = whole_root };
	w.len = strlen(start);
	while (w.len && start[w.len - 1] == '/')
		w.len--;
	ds_grow(w.path, w.len + 1, w.cap);
	memcpy(w.path, start, w.len);
	path_cut(&w, w.len);
	enter(&w, ds_open_beneath(s->rootfd, start, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	while (w.n) {
		struct frame *top = &w.frames[w.n - 1];
		if (top->next == top->nsub || top->fd < 0) {
			leave(&w);
			continue;
		}
		char *name = top->subdirs[top->next++];
		path_cut(&w, top->len);
		path_append(&w, name);
		int fd = openat(top->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		free(name);
		enter(&w, fd);
	}
	free(w.frames);
	free(w.path);
}

/* A user-named path: resolved inside the root, walked if a directory. */
int ds_walk_argument(struct ds_scan *s, struct ds_jobs *j, const char *arg, struct ds_error *err)
{
	char *canon = ds_resolve_in_root(s->rootfd, arg);
	if (!canon) {
		ds_error_errno(err, errno, "%s", arg);
		ds_error_append(err, " (inside root %s)", s->root);
		return -1;
	}
	struct stat st;
	int fd = ds_open_beneath(s->rootfd, canon, O_PATH | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		ds_error_errno(err, errno, "%s", arg);
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

int ds_walk_packages(struct ds_scan *s, struct ds_jobs *j, struct ds_error *err)
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
		if (!found)
			return ds_error_set(err, DS_ERR_USAGE, "package '%s': not installed in %s (backend %s)",
			                    s->opt->packages[i], s->root, s->backend->name);
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

void ds_jobs_scan_inline(struct ds_jobs *j, void (*scan)(void *ctx, const struct ds_job *job),
                         void *ctx)
{
	j->scan_inline = scan;
	j->inline_ctx = ctx;
}

void ds_jobs_free(struct ds_jobs *j)
{
	for (size_t i = 0; i < j->count; i++) {
		struct ds_job *job = &j->ring[(j->head + i) % JOBS_MAX];
		free(job->path);
		ds_expect_free(job->expect);
		if (job->fd >= 0)
			close(job->fd);
	}
	ds_strmap_free(j->seen);
	pthread_mutex_destroy(&j->lock);
	pthread_cond_destroy(&j->not_empty);
	pthread_cond_destroy(&j->not_full);
	free(j);
}
