/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One scan: collect the paths (walk, or a package's contents), then let
 * --jobs worker threads open, classify and check each file, then merge
 * the workers' findings in a deterministic order.
 *
 * Nothing scanned is ever followed through a symlink, executed or written.
 * Non-regular files are never opened for reading (opening a device can
 * have side effects): every path is first opened O_PATH and fstat()ed,
 * and only a regular file is re-opened, through its own O_PATH fd.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "distsec/elfview.h"
#include "internal.h"

bool ds_warn_silent;

void ds_warn(const char *fmt, ...)
{
	if (ds_warn_silent)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("distsec: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

bool ds_scan_enabled(const struct ds_scan *s, const struct ds_check *c)
{
	for (size_t i = 0; i < ds_nchecks; i++)
		if (ds_checks[i] == c)
			return s->enabled[i];
	return false;
}

void ds_scan_skip(struct ds_scan *s, const struct ds_check *c, const char *why)
{
	struct ds_skip k = { c, ds_xstrdup(why) };
	ds_push(&s->skipped, &s->nskipped, &s->priv->skipped_cap, &k, sizeof k);
	if (!s->opt->quiet)
		ds_warn("%s skipped: %s", c->id, why);
}

/* ---- owners -------------------------------------------------------- */

static enum ds_owner_status lookup(const struct ds_scan *s, const char *path,
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

/* Tries the path, then its spellings through the root's top-level
 * directory symlinks (merged /usr: /usr/bin/ls is /bin/ls to dpkg). */
void ds_scan_owner(const struct ds_scan *s, const char *path, struct ds_owner *out)
{
	memset(out, 0, sizeof *out);
	if (ds_scan_backend_wait(s) != 0) {
		out->status = DS_OWNER_UNKNOWN;
		return;
	}
	if (lookup(s, path, out) != DS_OWNER_NOT_OWNED)
		return;
	const struct ds_scan_private *p = s->priv;
	for (size_t i = 0; i < p->naliases; i++) {
		const char *from[2] = { p->aliases[i].target, p->aliases[i].link };
		const char *to[2] = { p->aliases[i].link, p->aliases[i].target };
		for (int k = 0; k < 2; k++) {
			size_t len = strlen(from[k]);
			if (strncmp(path, from[k], len) != 0 || path[len] != '/')
				continue;
			char *alt = ds_xasprintf("%s%s", to[k], path + len);
			enum ds_owner_status st = lookup(s, alt, out);
			free(alt);
			if (st == DS_OWNER_PACKAGE)
				return;
		}
	}
	out->status = DS_OWNER_NOT_OWNED;
}

static void load_aliases(struct ds_scan *s)
{
	int dfd = ds_open_beneath(s->rootfd, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	struct ds_scan_private *p = s->priv;
	size_t cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_type != DT_LNK)
			continue;
		char *link = ds_xasprintf("/%s", e->d_name);
		char *target = ds_resolve_in_root(s->rootfd, link);
		struct stat st;
		int fd = target ? ds_open_beneath(s->rootfd, target, O_PATH | O_CLOEXEC) : -1;
		if (fd >= 0 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) &&
		    strcmp(target, "/") != 0 && strcmp(target, link) != 0) {
			struct ds_alias a = { link, target };
			ds_push(&p->aliases, &p->naliases, &cap, &a, sizeof a);
			link = target = NULL;
		}
		if (fd >= 0)
			close(fd);
		free(link);
		free(target);
	}
	closedir(d);
}

/* ---- collecting paths ---------------------------------------------- */

/* The paths to scan: a bounded ring the walk fills while the workers
 * drain it, so memory does not grow with the tree.  Paths are deduplicated
 * only when several arguments or package lists may name one twice. */
#define JOBS_MAX 4096

struct job {
	char *path;
	unsigned char type;     /* d_type from readdir, DT_UNKNOWN if none */
};

struct jobs {
	struct job ring[JOBS_MAX];
	size_t head, count;     /* next to take; queued */
	size_t total;           /* queued so far, for the progress line */
	struct ds_strmap *seen; /* the walking thread's only; NULL: no dedup */
	pthread_mutex_t lock;   /* guards everything above but seen */
	pthread_cond_t not_empty, not_full;
	bool closed;            /* the walk is over */
	bool no_workers;        /* no thread started: the walker scans itself */
	struct ds_worker *self; /* ... with this worker */
};

static void scan_path(struct ds_worker *w, const char *path, unsigned char type);

static void add_job(struct jobs *j, const char *path, unsigned char type)
{
	if (j->seen) {
		uintptr_t *v = ds_strmap_put(j->seen, path);
		if (*v)
			return;
		*v = 1;
	}
	if (j->no_workers) {
		scan_path(j->self, path, type);
		return;
	}
	char *p = ds_xstrdup(path);
	pthread_mutex_lock(&j->lock);
	while (j->count == JOBS_MAX)
		pthread_cond_wait(&j->not_full, &j->lock);
	j->ring[(j->head + j->count) % JOBS_MAX] = (struct job){ p, type };
	j->count++;
	j->total++;
	pthread_cond_signal(&j->not_empty);
	pthread_mutex_unlock(&j->lock);
}

static void close_jobs(struct jobs *j)
{
	pthread_mutex_lock(&j->lock);
	j->closed = true;
	pthread_cond_broadcast(&j->not_empty);
	pthread_mutex_unlock(&j->lock);
}

/* The next path to scan (the caller frees it), waiting for the walk if
 * need be; false when the walk is over and the ring is empty.  *total:
 * paths found so far. */
static bool take_job(struct jobs *j, struct job *out, size_t *total)
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

static char *join(const char *dir, const char *name)
{
	return ds_xasprintf("%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
}

static bool is_pseudo_fs(const char *path)
{
	return !strcmp(path, "/proc") || !strcmp(path, "/sys") || !strcmp(path, "/dev");
}

static void unreadable(struct ds_scan *s, const char *path, const char *what, int err)
{
	struct ds_finding *d = ds_scan_report(s, &ds_check_scan_unreadable, path,
	                                      DS_SEV_INFO, "%s: %s", what, strerror(err));
	ds_detail_str(d, "reason", strerror(err));
}

/* Walks the directory tree at start (already a job) without following
 * symlinks and without crossing into other file systems. */
static void walk(struct ds_scan *s, struct jobs *j, const char *start, dev_t dev,
                 bool whole_root)
{
	char **stack = NULL;
	size_t n = 0, cap = 0;
	char *first = ds_xstrdup(start);
	ds_push(&stack, &n, &cap, &first, sizeof first);
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
			char *child = join(dir, e->d_name);
			add_job(j, child, e->d_type);
			unsigned char type = e->d_type;
			if (type == DT_UNKNOWN) {
				struct stat cs;
				if (fstatat(dirfd(d), e->d_name, &cs, AT_SYMLINK_NOFOLLOW) == 0 &&
				    S_ISDIR(cs.st_mode))
					type = DT_DIR;
			}
			if (type == DT_DIR && !(whole_root && is_pseudo_fs(child)))
				ds_push(&stack, &n, &cap, &child, sizeof child);
			else
				free(child);
		}
		closedir(d);
		free(dir);
	}
	free(stack);
}

/* A user-named path: resolved inside the root, walked if a directory. */
static int add_argument(struct ds_scan *s, struct jobs *j, const char *arg)
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
	struct jobs *j = ((void **)ctx)[0];
	struct ds_scan *s = ((void **)ctx)[1];
	char *canon = ds_resolve_in_root(s->rootfd, path);
	/* Listed but missing on disk (e.g. excluded by dpkg path-exclude):
	 * nothing to scan. */
	if (canon)
		add_job(j, canon, DT_UNKNOWN);
	free(canon);
	return 0;
}

static int add_packages(struct ds_scan *s, struct jobs *j)
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
		ds_pkgid id;
		if (s->backend->find(s->bh, s->opt->packages[i], &id) != 0) {
			ds_warn("package '%s': not installed in %s (backend %s)",
			        s->opt->packages[i], s->root, s->backend->name);
			return -1;
		}
		s->backend->contents(s->bh, id, add_package_path, ctx);
	}
	return 0;
}

/* ---- scanning one path --------------------------------------------- */

static unsigned applies_mask(enum ds_kind k)
{
	switch (k) {
	case DS_KIND_ELF: return DS_ON_ELF | DS_ON_REGULAR;
	case DS_KIND_SHELL: return DS_ON_SHELL | DS_ON_REGULAR;
	case DS_KIND_PYTHON: return DS_ON_PYTHON | DS_ON_REGULAR;
	case DS_KIND_OTHER: return DS_ON_REGULAR;
	case DS_KIND_DIR: return DS_ON_DIR;
	case DS_KIND_DEVICE: return DS_ON_DEVICE;
	case DS_KIND_SPECIAL: return DS_ON_SPECIAL;
	}
	return 0;
}

static enum ds_kind kind_of_mode(mode_t m)
{
	if (S_ISDIR(m))
		return DS_KIND_DIR;
	if (S_ISCHR(m) || S_ISBLK(m))
		return DS_KIND_DEVICE;
	return S_ISREG(m) ? DS_KIND_OTHER : DS_KIND_SPECIAL;
}

/* Runs every enabled check that applies to f (shared with package files). */
void ds_scan_file(struct ds_worker *w, struct ds_file *f)
{
	struct ds_scan *s = w->scan;
	w->file = f;
	w->owner_done = false;
	f->worker = w;
	/* Reading the first bytes costs an open: only when a check wants kinds */
	if (f->kind == DS_KIND_OTHER && s->priv->classify && (f->mem || ds_file_fd(f) >= 0)) {
		ssize_t r = f->mem ? (ssize_t)(f->size < DS_HEAD_MAX ? f->size : DS_HEAD_MAX)
		                   : pread(f->fd, f->head, DS_HEAD_MAX, 0);
		if (f->mem && r > 0)
			memcpy(f->head, f->mem, (size_t)r);
		f->head_len = r > 0 ? (size_t)r : 0;
		ds_classify(f);
	}
	switch (f->kind) {
	case DS_KIND_ELF: w->stats.elf++; break;
	case DS_KIND_SHELL: case DS_KIND_PYTHON: w->stats.scripts++; break;
	case DS_KIND_DIR: w->stats.dirs++; break;
	default: break;
	}
	if (S_ISREG(f->mode))
		w->stats.files++;
	unsigned mask = applies_mask(f->kind);
	for (size_t i = 0; i < ds_nchecks; i++) {
		const struct ds_check *c = ds_checks[i];
		if (!s->enabled[i] || !c->run || !(c->applies & mask))
			continue;
		w->current = c;
		c->run(f);
	}
	ds_file_release(f);
}

/* A file readdir called regular, when its contents will be read: opened
 * for reading at once (O_NONBLOCK, no controlling terminal) and confirmed
 * with fstat, two syscalls fewer than the O_PATH way.  If something else
 * took its place it is closed unread; -1 then, and for any error. */
static int open_regular(struct ds_scan *s, const char *path, struct stat *st)
{
	int fd = ds_open_beneath(s->rootfd, path,
	                         O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, st) != 0 || !S_ISREG(st->st_mode))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void scan_path(struct ds_worker *w, const char *path, unsigned char type)
{
	struct ds_scan *s = w->scan;
	struct ds_file f = { .path = path, .fd = -1, .pfd = -1, .worker = w };
	struct stat st;
	if (type == DT_REG && s->priv->classify && (f.fd = open_regular(s, path, &st)) >= 0) {
		f.fd_state = 1;
	} else {
		/* Anything else is opened O_PATH: a device node is never opened,
		 * a read fd is made from it only once fstat says regular. */
		f.pfd = ds_open_beneath(s->rootfd, path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (f.pfd < 0 || fstat(f.pfd, &st) != 0) {
			int err = errno;
			if (f.pfd >= 0)
				close(f.pfd);
			f.pfd = -1;
			w->file = &f;
			w->owner_done = false;
			ds_report_unreadable(&f, err == ENOENT ? "vanished during the scan" : "cannot open",
			                     strerror(err));
			return;
		}
	}
	f.mode = st.st_mode;
	f.uid = st.st_uid;
	f.gid = st.st_gid;
	f.size = st.st_size;
	f.kind = kind_of_mode(st.st_mode);
	f.ino = st.st_ino;
	ds_scan_file(w, &f);
}

struct pool {
	struct ds_worker *workers;
	struct worker_arg *args;
	pthread_t *tids;
	bool *running;           /* tids[i] was created */
	int n;
	struct jobs *jobs;
	atomic_size_t done;
	bool progress;           /* stderr is a terminal and not --quiet */
	struct timespec last;
};

/* One line on stderr, rewritten at most five times a second by the first
 * worker: files done, files found so far, findings, the directory. */
static void show_progress(struct pool *p, const char *path, size_t total)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	long ms = (now.tv_sec - p->last.tv_sec) * 1000 + (now.tv_nsec - p->last.tv_nsec) / 1000000;
	if (ms < 200)
		return;
	p->last = now;
	const char *slash = strrchr(path, '/');
	int dirlen = slash && slash > path ? (int)(slash - path) : 1;
	if (dirlen > 50)
		dirlen = 50;
	fprintf(stderr, "\r\033[Kdistsec: %zu/%zu files, %zu findings  %.*s",
	        atomic_load(&p->done), total,
	        atomic_load(&p->workers[0].scan->priv->reported), dirlen, path);
}

struct worker_arg {
	struct pool *pool;
	struct ds_worker *w;
};

static void *worker_main(void *arg)
{
	struct worker_arg *a = arg;
	struct job job;
	size_t total;
	while (take_job(a->pool->jobs, &job, &total)) {
		scan_path(a->w, job.path, job.type);
		size_t done = atomic_fetch_add(&a->pool->done, 1);
		if (a->pool->progress && a->w == &a->pool->workers[0] && (done & 63) == 0)
			show_progress(a->pool, job.path, total);
		free(job.path);
	}
	return NULL;
}

void ds_worker_init(struct ds_worker *w, struct ds_scan *s)
{
	memset(w, 0, sizeof *w);
	w->scan = s;
	w->magic = magic_open(MAGIC_NO_CHECK_COMPRESS | MAGIC_NO_CHECK_TAR |
	                      MAGIC_NO_CHECK_CDF | MAGIC_NO_CHECK_ELF | MAGIC_ERROR);
	if (w->magic && magic_load(w->magic, NULL) != 0) {
		magic_close(w->magic);
		w->magic = NULL;
	}
}

/* The workers start before the walk, which feeds them as it goes. */
static void start_workers(struct ds_scan *s, struct jobs *j, struct pool *p)
{
	int n = s->opt->jobs > 0 ? s->opt->jobs : 1;
	*p = (struct pool){ .jobs = j, .n = n,
	                    .progress = !s->opt->quiet && isatty(STDERR_FILENO) };
	p->workers = ds_xcalloc((size_t)n, sizeof *p->workers);
	p->args = ds_xcalloc((size_t)n, sizeof *p->args);
	p->tids = ds_xcalloc((size_t)n, sizeof *p->tids);
	p->running = ds_xcalloc((size_t)n, sizeof *p->running);
	atomic_init(&p->done, 0);
	bool any = false;
	for (int i = 0; i < n; i++) {
		ds_worker_init(&p->workers[i], s);
		p->args[i] = (struct worker_arg){ p, &p->workers[i] };
		p->running[i] = pthread_create(&p->tids[i], NULL, worker_main, &p->args[i]) == 0;
		any = any || p->running[i];
	}
	j->no_workers = !any;
	j->self = &p->workers[0];
}

/* After close_jobs: waits for the workers and merges what they found. */
static void join_workers(struct ds_scan *s, struct pool *p)
{
	for (int i = 0; i < p->n; i++)
		if (p->running[i])
			pthread_join(p->tids[i], NULL);
	if (p->progress)
		fputs("\r\033[K", stderr);
	struct ds_worker *m = &s->priv->main;
	for (int i = 0; i < p->n; i++) {
		struct ds_worker *w = &p->workers[i];
		for (size_t k = 0; k < w->nfindings; k++)
			ds_worker_add(m, w->findings[k]);
		m->stats.files += w->stats.files;
		m->stats.elf += w->stats.elf;
		m->stats.scripts += w->stats.scripts;
		m->stats.dirs += w->stats.dirs;
		free(w->findings);
		if (w->magic)
			magic_close(w->magic);
	}
	free(p->workers);
	free(p->args);
	free(p->tids);
	free(p->running);
}

/* Keeps the findings of enabled checks (and passes), sorted; counts. */
static void finish(struct ds_scan *s)
{
	struct ds_worker *m = &s->priv->main;
	size_t w = 0;
	struct ds_strmap *pkgs = ds_strmap_new();
	for (size_t i = 0; i < m->nfindings; i++) {
		struct ds_finding *d = m->findings[i];
		if (!ds_scan_enabled(s, d->check)) {
			ds_finding_free(d);
			continue;
		}
		m->findings[w++] = d;
		if (d->severity != DS_SEV_PASS && (d->waiver = ds_waiver_for(s->priv->waivers, d)))
			s->stats.waived++;
		else if (d->severity != DS_SEV_PASS)
			s->stats.by_severity[d->severity]++;
		if (d->owner.status == DS_OWNER_PACKAGE && d->owner.pkgs[0] &&
		    d->owner.pkgs[0]->name)
			*ds_strmap_put(pkgs, d->owner.pkgs[0]->name) = 1;
	}
	s->stats.packages = ds_strmap_size(pkgs);
	ds_strmap_free(pkgs);
	if (w)
		qsort(m->findings, w, sizeof *m->findings, ds_finding_cmp);
	s->findings = m->findings;
	s->nfindings = w;
	s->stats.files = m->stats.files;
	s->stats.elf = m->stats.elf;
	s->stats.scripts = m->stats.scripts;
	s->stats.dirs = m->stats.dirs;
	m->findings = NULL;
	m->nfindings = m->cap = 0;
}

static int open_root(struct ds_scan *s)
{
	const char *root = s->opt->root ? s->opt->root : "/";
	s->rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	if (s->rootfd < 0 || fstat(s->rootfd, &st) != 0) {
		ds_warn("root %s: %s", root, strerror(errno));
		return -1;
	}
	s->rootdev = st.st_dev;
	s->root = realpath(root, NULL);
	if (!s->root)
		s->root = ds_xstrdup(root);
	return 0;
}

static void *open_backend(void *arg)
{
	struct ds_scan *s = arg;
	char err[512] = "";
	/* text without grouping never shows origins; the other reports do */
	unsigned flags = strcmp(s->opt->format, "text") || s->opt->group_by ? DS_OPEN_ORIGINS : 0;
	s->bh = s->backend->open(s->root, flags, err, sizeof err);
	if (!s->bh) {
		ds_warn("backend %s: cannot open the database in %s: %s",
		        s->backend->name, s->root, err[0] ? err : "unknown error");
		s->priv->backend_rc = -1;
	}
	return NULL;
}

/* The database loads while the tree is walked: libdpkg reads every file
 * list (~0.1 s on a small system), the apt shim builds its cache in memory
 * (~0.5 s).  The backend is chosen here, synchronously; only opening it
 * runs in a thread, and every use of s->bh waits for it. */
static int start_backend(struct ds_scan *s)
{
	s->backend = ds_backend_select(s->opt->backend ? s->opt->backend : "auto",
	                               s->root, s->backend_why, sizeof s->backend_why);
	if (!s->backend)
		return -1;
	struct ds_scan_private *p = s->priv;
	if (pthread_create(&p->backend_thread, NULL, open_backend, s) == 0)
		atomic_store(&p->backend_pending, true);
	else
		open_backend(s);
	return 0;
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

int ds_scan_open(struct ds_scan *s)
{
	s->priv = ds_xcalloc(1, sizeof *s->priv);
	pthread_mutex_init(&s->priv->backend_lock, NULL);
	s->rootfd = -1;
	if (s->opt->waivers && !(s->priv->waivers = ds_waivers_load(s->opt->waivers)))
		return -1;
	if (open_root(s) != 0 || start_backend(s) != 0)
		return -1;
	ds_worker_init(&s->priv->main, s);
	load_aliases(s);
	s->priv->daemons = ds_daemons_load(s->rootfd);
	/* Whole-system checks (no files of their own: /dev labels, running
	 * daemons) belong to whole-root scans, unless named with --check. */
	bool partial = s->opt->npaths || s->opt->npackages || s->opt->all_packages;
	for (size_t i = 0; i < ds_nchecks; i++) {
		if (partial && !s->opt->checks && !ds_checks[i]->applies && ds_checks[i]->scan_end)
			s->enabled[i] = false;
		if (s->enabled[i] && (ds_checks[i]->applies & (DS_ON_ELF | DS_ON_SHELL | DS_ON_PYTHON)))
			s->priv->classify = true;
	}
	for (size_t i = 0; i < ds_nchecks; i++)
		if (s->enabled[i] && ds_checks[i]->scan_begin &&
		    ds_checks[i]->scan_begin(s) != 0)
			return -1;
	return 0;
}

int ds_scan_run(struct ds_scan *s)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ds_scan_open(s) != 0)
		return -1;

	/* one tree never yields a path twice (symlinks are not followed) */
	bool dedup = s->opt->npaths > 1 || s->opt->npackages || s->opt->all_packages;
	struct jobs *j = ds_xcalloc(1, sizeof *j);
	j->seen = dedup ? ds_strmap_new() : NULL;
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->not_empty, NULL);
	pthread_cond_init(&j->not_full, NULL);
	struct pool pool;
	start_workers(s, j, &pool);
	int rc = 0;
	if (s->opt->npackages || s->opt->all_packages)
		rc = add_packages(s, j);
	/* A broken package file is reported and the scan goes on; it is fatal
	 * only when nothing else was named. */
	size_t usable = 0, broken = 0;
	for (size_t i = 0; rc == 0 && i < s->opt->npaths; i++) {
		int p = ds_scan_package_file(s, s->opt->paths[i]);
		if (p > 0)
			usable++;
		else if (p < 0)
			broken++;
		else if (add_argument(s, j, s->opt->paths[i]) != 0)
			rc = -1;
		else
			usable++;
	}
	if (rc == 0 && broken && !usable)
		rc = -1;
	if (rc == 0 && !s->opt->npaths && !s->opt->npackages && !s->opt->all_packages)
		rc = add_argument(s, j, "/");
	close_jobs(j);
	join_workers(s, &pool);
	if (rc == 0 && ds_scan_backend_wait(s) != 0)
		rc = -1;
	for (size_t i = 0; i < ds_nchecks; i++)
		if (s->enabled[i] && ds_checks[i]->scan_end)
			ds_checks[i]->scan_end(s);
	ds_strmap_free(j->seen);
	pthread_mutex_destroy(&j->lock);
	pthread_cond_destroy(&j->not_empty);
	pthread_cond_destroy(&j->not_full);
	free(j);
	if (rc != 0)
		return -1;
	finish(s);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s->stats.seconds = (double)(t1.tv_sec - t0.tv_sec) +
	                   (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return 0;
}

void ds_scan_free(struct ds_scan *s)
{
	for (size_t i = 0; i < s->nfindings; i++)
		ds_finding_free(s->findings[i]);
	free(s->findings);
	if (s->priv) {
		ds_scan_backend_wait(s);
		pthread_mutex_destroy(&s->priv->backend_lock);
		struct ds_worker *m = &s->priv->main;
		for (size_t i = 0; i < m->nfindings; i++)
			ds_finding_free(m->findings[i]);
		free(m->findings);
		if (m->magic)
			magic_close(m->magic);
		for (size_t i = 0; i < s->priv->naliases; i++) {
			free(s->priv->aliases[i].link);
			free(s->priv->aliases[i].target);
		}
		free(s->priv->aliases);
		ds_strmap_free(s->priv->daemons);
		ds_waivers_free(s->priv->waivers);
		ds_pkgfiles_close(s);
		free(s->priv);
	}
	for (size_t i = 0; i < s->nskipped; i++)
		free(s->skipped[i].why);
	free(s->skipped);
	if (s->bh)
		s->backend->close(s->bh);
	if (s->rootfd >= 0)
		close(s->rootfd);
	free(s->root);
}
