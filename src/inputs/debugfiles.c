/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pairing a program with its separate debug file by build-id (DESIGN.md,
 * The build's own flags).  Three places, tried in this order: the debug
 * files of the package files of the run (a -dbgsym, -debuginfo or -dbg
 * package, read by the context pass: only their records are kept, keyed
 * by the build-id note of each debug file), the --debug-dir directory,
 * and the scanned root's /usr/lib/debug/.build-id.  A root without that
 * directory costs nothing per file: it is looked for once.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "distsec/elfview.h"
#include "distsec/rootfile.h"
#include "internal.h"

/* A debug file read from disk: libelf reads only the sections libdw asks
 * for, but a size past this is no debug file of a program. */
#define DEBUG_FILE_MAX ((off_t)8 << 30)

struct debug_entry {
	struct ds_buildflags bf;
	char *why;              /* the debug file could not be read, else NULL */
};

struct ds_debugset {
	pthread_mutex_t lock;
	struct ds_strmap *pkgs;  /* hex build-id → struct debug_entry *, from package files */
	int dirfd;               /* --debug-dir, or -1 */
	const char *dir;         /* as given */
	const char *dir_sub;     /* where .build-id is below it */
	int rootfd;              /* the root, when it has /usr/lib/debug/.build-id, else -1 */
};

static void hex(const unsigned char *id, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * n] = '\0';
}

struct ds_debugset *ds_debugset_new(void)
{
	struct ds_debugset *d = ds_xcalloc(1, sizeof *d);
	pthread_mutex_init(&d->lock, NULL);
	d->pkgs = ds_strmap_new();
	d->dirfd = d->rootfd = -1;
	return d;
}

void ds_debugset_free(struct ds_debugset *d)
{
	if (!d)
		return;
	size_t pos = 0;
	uintptr_t v;
	while (ds_strmap_next(d->pkgs, &pos, &v)) {
		struct debug_entry *e = (struct debug_entry *)v;
		free(e->why);
		free(e);
	}
	ds_strmap_free(d->pkgs);
	if (d->dirfd >= 0)
		close(d->dirfd);
	if (d->rootfd >= 0)
		close(d->rootfd);
	pthread_mutex_destroy(&d->lock);
	free(d);
}

static bool is_dir_in(int dirfd, const char *rel)
{
	struct stat st;
	int fd = ds_open_inside(dirfd, rel, O_PATH | O_CLOEXEC);
	bool yes = fd >= 0 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
	if (fd >= 0)
		close(fd);
	return yes;
}

int ds_debugset_dir(struct ds_debugset *d, const char *dir, char *err, size_t len)
{
	d->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (d->dirfd < 0) {
		snprintf(err, len, "%s", strerror(errno));
		return -1;
	}
	d->dir = dir;
	/* laid out as /usr/lib/debug, or a root (an unpacked -debuginfo rpm),
	 * or the .build-id directory itself */
	d->dir_sub = is_dir_in(d->dirfd, ".build-id") ? ".build-id/"
	           : is_dir_in(d->dirfd, "usr/lib/debug/.build-id") ? "usr/lib/debug/.build-id/" : "";
	return 0;
}

void ds_debugset_root(struct ds_debugset *d, int rootfd)
{
	char *p = ds_resolve_in_root(rootfd, "/usr/lib/debug/.build-id");
	int fd = p ? ds_open_beneath(rootfd, p, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
	free(p);
	if (fd >= 0) {
		close(fd);
		d->rootfd = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
	}
}

bool ds_debugset_used(const struct ds_debugset *d)
{
	return d && (d->dirfd >= 0 || d->rootfd >= 0 || ds_strmap_size(d->pkgs));
}

bool ds_debug_package(const char *name)
{
	size_t n = name ? strlen(name) : 0;
	static const char *const ends[] = { "-dbgsym", "-debuginfo", "-dbg", NULL };
	for (const char *const *e = ends; *e; e++)
		if (n > strlen(*e) && strcmp(name + n - strlen(*e), *e) == 0)
			return true;
	return false;
}

bool ds_debug_member(const char *path)
{
	size_t n = strlen(path);
	return strncmp(path, "/usr/lib/debug/", 15) == 0 && n > 6 && strcmp(path + n - 6, ".debug") == 0;
}

/* The build-id a .build-id/xx/rest.debug path names, into id; its length,
 * or 0 when the path is no such name. */
static size_t id_of_path(const char *path, unsigned char *id)
{
	const char *p = strstr(path, "/.build-id/");
	if (!p)
		return 0;
	p += 11;
	size_t n = 0;
	for (int half = 0; *p && *p != '.'; p++) {
		if (*p == '/' && n == 1 && !half)
			continue;
		int v = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
		if (v < 0 || n == DS_BUILD_ID_MAX)
			return 0;
		id[n] = (unsigned char)(half ? id[n] | v : v << 4);
		n += half;
		half = !half;
	}
	return strcmp(p, ".debug") == 0 ? n : 0;
}

/* Reads the debug file behind elf into e; the build-id its note gives in
 * id (length *n), or, failing that, *n unchanged. */
static void read_debug(Elf *elf, struct debug_entry *e, unsigned char *id, size_t *n)
{
	char why[256];
	size_t got = 0;
	unsigned char note[DS_BUILD_ID_MAX];
	int r = ds_dwarf_read(elf, &e->bf, note, &got, why, sizeof why);
	if (got) {
		memcpy(id, note, got);
		*n = got;
	}
	if (r != 0)
		e->why = ds_xstrdup(why);
}

static Elf *elf_of(int fd, const unsigned char *mem, size_t size, char *why, size_t len)
{
	const char *bad = ds_elf_headers_check(fd, mem, size);
	Elf *elf = bad ? NULL : mem ? elf_memory((char *)mem, size) : elf_begin(fd, ELF_C_READ, NULL);
	if (!elf)
		snprintf(why, len, "%s", bad ? bad : elf_errmsg(-1));
	return elf;
}

void ds_debugset_add_member(struct ds_debugset *d, const char *label, const struct ds_member *m)
{
	struct debug_entry *e = ds_xcalloc(1, sizeof *e);
	unsigned char id[DS_BUILD_ID_MAX];
	size_t n = id_of_path(m->path, id);
	char why[256];
	Elf *elf = m->unreadable ? NULL
	         : elf_of(m->in_file ? m->fd : -1, m->in_file ? NULL : m->data, m->size, why, sizeof why);
	if (elf) {
		read_debug(elf, e, id, &n);
		elf_end(elf);
	} else {
		e->why = ds_xstrdup(m->unreadable ? m->unreadable : why);
	}
	snprintf(e->bf.debug_file, sizeof e->bf.debug_file, "%s:%s", label, m->path);
	char key[2 * DS_BUILD_ID_MAX + 1];
	hex(id, n, key);
	pthread_mutex_lock(&d->lock);
	uintptr_t *slot = n ? ds_strmap_put(d->pkgs, key) : NULL;
	if (slot && !*slot) {
		*slot = (uintptr_t)e;
		e = NULL;
	}
	pthread_mutex_unlock(&d->lock);
	if (e) {   /* no build-id to key it by, or a second copy: nothing pairs with it */
		free(e->why);
		free(e);
	}
}

/* Opens rel below base (the root: its symlinks resolved inside it; a
 * directory: followed while they stay below it) for reading, only when it
 * is a regular file of at most DEBUG_FILE_MAX bytes; 0 when it does not
 * exist, -1 with why, else the fd (> 0). */
static int open_debug(int base, bool root, const char *rel, struct stat *st, char *why, size_t len)
{
	char *res = root ? ds_resolve_in_root(base, rel) : ds_xstrdup(rel);
	int fd = res ? (root ? ds_open_beneath(base, res, O_PATH | O_CLOEXEC)
	                     : ds_open_inside(base, res, O_PATH | O_CLOEXEC)) : -1;
	int err = errno;
	int rd = -1;
	struct stat ps;
	if (fd < 0) {
		free(res);
		if (err == ENOENT || err == ENOTDIR)
			return 0;
		snprintf(why, len, "%s", err == EXDEV ? "a symlink leading out of its directory" : strerror(err));
		return -1;
	}
	if (fstat(fd, &ps) != 0 || !S_ISREG(ps.st_mode))
		snprintf(why, len, "not a regular file (a FIFO, device, directory or symlink)");
	else if (ps.st_size > DEBUG_FILE_MAX)
		snprintf(why, len, "%lld bytes, over the %lld GiB read", (long long)ps.st_size,
		         (long long)(DEBUG_FILE_MAX >> 30));
	else if ((rd = root ? ds_open_beneath(base, res, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
	                    : ds_open_inside(base, res, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		snprintf(why, len, "%s", strerror(errno));
	else if (fstat(rd, st) != 0 || st->st_dev != ps.st_dev || st->st_ino != ps.st_ino) {
		snprintf(why, len, "replaced while it was opened");
		close(rd);
		rd = -1;
	}
	close(fd);
	free(res);
	return rd;
}

/* Looks for the build-id's debug file below base; 1 read, 0 none, -1
 * found and not read (why). */
static int find_in(int base, bool root, const char *shown, const char *sub, const char *key,
                   const unsigned char *id, size_t n, struct ds_buildflags *bf,
                   char *why, size_t len)
{
	char rel[192];
	snprintf(rel, sizeof rel, "%s%.2s/%s.debug", sub, key, key + 2);
	snprintf(bf->debug_file, sizeof bf->debug_file, "%s%s%s", shown, *shown ? "/" : "", rel);
	struct stat st;
	char what[256];
	int fd = open_debug(base, root, rel, &st, what, sizeof what);
	if (fd == 0)
		return 0;
	Elf *elf = fd > 0 ? elf_of(fd, NULL, (size_t)st.st_size, what, sizeof what) : NULL;
	int r = -1;
	if (elf) {
		struct debug_entry e = { .why = NULL };
		unsigned char got[DS_BUILD_ID_MAX];
		size_t gotn = 0;
		read_debug(elf, &e, got, &gotn);
		elf_end(elf);
		if (e.why) {
			snprintf(what, sizeof what, "%s", e.why);
		} else if (gotn != n || memcmp(got, id, n) != 0) {
			snprintf(what, sizeof what, "its build-id note names another build");
		} else {
			char name[sizeof bf->debug_file];
			memcpy(name, bf->debug_file, sizeof name);
			*bf = e.bf;
			memcpy(bf->debug_file, name, sizeof name);
			r = 1;
		}
		free(e.why);
	}
	if (fd > 0)
		close(fd);
	if (r < 0)
		snprintf(why, len, "%s: %s", bf->debug_file, what);
	return r;
}

int ds_debugset_find(struct ds_debugset *d, const unsigned char *id, size_t n,
                     struct ds_buildflags *bf, char *why, size_t len)
{
	if (!n || n > DS_BUILD_ID_MAX)
		return 0;
	char key[2 * DS_BUILD_ID_MAX + 1];
	hex(id, n, key);
	pthread_mutex_lock(&d->lock);
	uintptr_t *slot = ds_strmap_get(d->pkgs, key);
	const struct debug_entry *e = slot ? (const struct debug_entry *)*slot : NULL;
	pthread_mutex_unlock(&d->lock);
	if (e && e->why) {
		snprintf(why, len, "%s: %s", e->bf.debug_file, e->why);
		return -1;
	}
	if (e) {
		*bf = e->bf;
		return 1;
	}
	int r = 0;
	if (d->dirfd >= 0)
		r = find_in(d->dirfd, false, d->dir, d->dir_sub, key, id, n, bf, why, len);
	if (!r && d->rootfd >= 0)
		r = find_in(d->rootfd, true, "", "/usr/lib/debug/.build-id/", key, id, n, bf, why, len);
	return r;
}
