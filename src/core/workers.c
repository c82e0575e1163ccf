/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The workers: --jobs threads, each with its own libmagic handle, take
 * paths from the ring and open, classify and check each file.  Non-regular
 * files are never opened for reading (opening a device can have side
 * effects): a path is opened O_PATH and fstat()ed, and only a regular file
 * is re-opened through its own fd; a file readdir already called regular
 * is opened for reading at once and fstat()ed before anything is read.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

struct worker_arg {
	struct ds_pool *pool;
	struct ds_worker *w;
};

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

/* Only ELF files the scanned system runs get hardening verdicts; the
 * others are counted, and with -v a pass says why (src/core/arch.c). */
static bool elf_judged(struct ds_worker *w, struct ds_file *f)
{
	char buf[160];
	const char *why = ds_elf_not_judged(f, buf, sizeof buf);
	if (!why)
		return ds_file_elf(f) != NULL;
	w->stats.elf_not_judged++;
	/* (a shard's JSON keeps its passes for distsec merge -v) */
	if (w->scan->opt->verbose || w->scan->opt->shard_n) {
		w->current = &ds_check_elf_not_judged;
		ds_detail_str(ds_report(f, DS_SEV_PASS, "not judged: %s", why), "reason", why);
	}
	return false;
}

/* Runs every enabled check that applies to f (shared with package files). */
void ds_scan_file(struct ds_worker *w, struct ds_file *f)
{
	struct ds_scan *s = w->scan;
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
	if (S_ISREG(f->mode) && !f->pkg_script)
		w->stats.files++;
	unsigned mask = applies_mask(f->kind);
	if (f->pkg_script)
		mask &= DS_ON_SHELL | DS_ON_PYTHON;
	if (f->kind == DS_KIND_ELF && s->priv->elf_checks && !elf_judged(w, f))
		mask &= ~(unsigned)DS_ON_ELF;
	/* another name of a hard-linked file already analysed: its findings */
	bool first;
	struct ds_inode_entry *e = ds_inodes_claim(s->priv->inodes, f, &first);
	bool reused = e && !first && ds_inodes_reuse(s->priv->inodes, e, w, f, mask);
	for (size_t i = 0; i < ds_nchecks; i++) {
		const struct ds_check *c = ds_checks[i];
		if (!s->enabled[i] || !c->run || !(c->applies & mask) || (reused && !c->by_path))
			continue;
		w->current = c;
		size_t from = w->nfindings;
		c->run(f, s->priv->states[i]);
		if (first && !c->by_path)
			ds_inodes_add(e, w, from);
	}
	if (first)
		ds_inodes_done(s->priv->inodes, e, f, mask);
	ds_file_release(f);
}

/* A file readdir called regular, when its contents will be read: opened
 * for reading at once (O_NONBLOCK, no controlling terminal) and confirmed
 * with fstat, two syscalls fewer than the O_PATH way.  If something else
 * took its place it is closed unread; -1 then, and for any error.  fd:
 * the walk's read fd of it, or -1 to open the path. */
static int open_regular(struct ds_scan *s, const char *path, int fd, struct stat *st)
{
	if (fd < 0)
		fd = ds_open_beneath(s->rootfd, path,
		                     O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, st) != 0 || !S_ISREG(st->st_mode))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

void ds_scan_path(struct ds_worker *w, const char *path, unsigned char type, int fd,
                  bool fd_reads)
{
	struct ds_scan *s = w->scan;
	struct ds_file f = { .path = path, .fd = -1, .pfd = -1, .worker = w };
	struct stat st;
	bool reads = type == DT_REG && s->priv->classify && (fd < 0 || fd_reads);
	if (reads && (f.fd = open_regular(s, path, fd, &st)) >= 0) {
		f.fd_state = 1;
	} else {
		/* Anything else is opened O_PATH: a device node is never opened,
		 * a read fd is made from it only once fstat says regular. */
		f.pfd = fd >= 0 && !reads ? fd
		      : ds_open_beneath(s->rootfd, path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (f.pfd < 0 || fstat(f.pfd, &st) != 0) {
			int err = errno;
			if (f.pfd >= 0)
				close(f.pfd);
			f.pfd = -1;
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
	f.dev = st.st_dev;
	f.nlink = st.st_nlink;
	ds_scan_file(w, &f);
}

void ds_scan_job(struct ds_worker *w, const struct ds_job *job)
{
	if (job->type == DS_JOB_PKGFILE)
		ds_scan_pkgfile_job(w, job->path, job->expect);
	else if (job->type == DS_JOB_PKGCTX)
		ds_pkgfile_context_job(w, job->path, job->expect);
	else if (job->type == DS_JOB_LAYER)
		ds_scan_layer_job(w, (size_t)strtoul(job->path, NULL, 10));
	else
		ds_scan_path(w, job->path, job->type, job->fd, job->fd_reads);
}

static void scan_inline(void *w, const struct ds_job *job)
{
	ds_scan_job(w, job);
}

/* One line on stderr, rewritten at most five times a second by the first
 * worker: files done, files found so far, findings, the directory. */
static void show_progress(struct ds_pool *p, const char *path, size_t total)
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
	ds_status("distsec: %zu/%zu files, %zu findings  %.*s",
	          atomic_load(&p->done), total,
	          atomic_load(&p->workers[0].scan->priv->reported), dirlen, path);
}

static void *worker_main(void *arg)
{
	struct worker_arg *a = arg;
	struct ds_job job;
	size_t total;
	while (ds_jobs_take(a->pool->jobs, &job, &total)) {
		ds_scan_job(a->w, &job);
		size_t done = atomic_fetch_add(&a->pool->done, 1);
		if (a->pool->progress && a->w == &a->pool->workers[0] && (done & 63) == 0)
			show_progress(a->pool, job.path, total);
		free(job.path);
		ds_expect_free(job.expect);
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
void ds_pool_start(struct ds_scan *s, struct ds_jobs *j, struct ds_pool *p)
{
	int n = s->opt->jobs > 0 ? s->opt->jobs : 1;
	*p = (struct ds_pool){ .jobs = j, .n = n,
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
	if (!any)
		ds_jobs_scan_inline(j, scan_inline, &p->workers[0]);
}

/* After ds_jobs_close: waits for the workers and merges what they found. */
void ds_pool_join(struct ds_scan *s, struct ds_pool *p)
{
	for (int i = 0; i < p->n; i++)
		if (p->running[i])
			pthread_join(p->tids[i], NULL);
	if (p->progress)
		ds_status_clear();
	struct ds_worker *m = &s->priv->main;
	for (int i = 0; i < p->n; i++) {
		struct ds_worker *w = &p->workers[i];
		for (size_t k = 0; k < w->nfindings; k++)
			ds_worker_add(m, w->findings[k]);
		m->stats.files += w->stats.files;
		m->stats.elf += w->stats.elf;
		m->stats.scripts += w->stats.scripts;
		m->stats.dirs += w->stats.dirs;
		m->stats.elf_not_judged += w->stats.elf_not_judged;
		free(w->findings);
		if (w->magic)
			magic_close(w->magic);
	}
	free(p->workers);
	free(p->args);
	free(p->tids);
	free(p->running);
}
