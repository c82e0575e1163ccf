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

/* A unit whose producer is in a dwz supplementary file not read yet. */
struct pending {
	uint64_t producer;      /* offset in the supplementary .debug_str */
	uint64_t name_off;      /* the unit's name there, UINT64_MAX: in name */
	char *name;
};

struct debug_entry {
	struct ds_buildflags bf;
	char *why;              /* the debug file could not be read, else NULL */
	bool x86;
	unsigned char alt_id[DS_BUILD_ID_MAX]; /* its supplementary file */
	size_t alt_idlen;
	struct pending *pend;
	size_t npend, pendcap;
};

struct alt_strings {
	char *strs;
	size_t len;
};

struct ds_debugset {
	pthread_mutex_t lock;
	struct ds_strmap *pkgs;  /* hex build-id → struct debug_entry *, from package files */
	struct ds_strmap *alts;  /* hex build-id → struct alt_strings *: their dwz files,
	                          * until ds_debugset_resolve */
	int dirfd;               /* --debug-dir, or -1 */
	const char *dir;         /* as given */
	char *dir_real;          /* its canonical path */
	const char *dir_sub;     /* where .build-id is below it */
	int rootfd;              /* the root, when it has /usr/lib/debug/.build-id, else -1 */
};

static void entry_free(struct debug_entry *e)
{
	for (size_t i = 0; i < e->npend; i++)
		free(e->pend[i].name);
	free(e->pend);
	free(e->why);
	free(e);
}

static void free_alts(struct ds_strmap *m)
{
	size_t pos = 0;
	uintptr_t v;
	while (ds_strmap_next(m, &pos, &v)) {
		struct alt_strings *a = (struct alt_strings *)v;
		free(a->strs);
		free(a);
	}
	ds_strmap_free(m);
}

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
	d->alts = ds_strmap_new();
	d->dirfd = d->rootfd = -1;
	return d;
}

void ds_debugset_free(struct ds_debugset *d)
{
	if (!d)
		return;
	size_t pos = 0;
	uintptr_t v;
	while (ds_strmap_next(d->pkgs, &pos, &v))
		entry_free((struct debug_entry *)v);
	ds_strmap_free(d->pkgs);
	if (d->alts)
		free_alts(d->alts);
	free(d->dir_real);
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

int ds_debugset_dir(struct ds_debugset *d, const char *dir, struct ds_error *err)
{
	d->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (d->dirfd < 0) {
		return ds_error_set(err, DS_ERR_IO, "%s", strerror(errno));
	}
	d->dir = dir;
	d->dir_real = realpath(dir, NULL);
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

/* dwz's supplementary files: Debian's .dwz/TRIPLET/PACKAGE.debug,
 * Fedora's .dwz/NAME-VERSION-RELEASE.ARCH */
static bool dwz_member(const char *path)
{
	return strncmp(path, "/usr/lib/debug/.dwz/", 20) == 0;
}

bool ds_debug_member(const char *path)
{
	size_t n = strlen(path);
	return strncmp(path, "/usr/lib/debug/", 15) == 0 &&
	       ((n > 6 && strcmp(path + n - 6, ".debug") == 0) || dwz_member(path));
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

static void pend(void *ctx, uint64_t producer, const char *name, uint64_t name_off)
{
	struct debug_entry *e = ctx;
	struct pending p = { producer, name_off, name ? ds_xstrdup(name) : NULL };
	ds_push(e->pend, e->npend, e->pendcap, p);
}

/* Reads the debug file behind elf into e, the strings of its supplementary
 * file from alt (or, alt->strs NULL, its units left pending); the
 * build-id its note gives in id (length *n), or, failing that, *n
 * unchanged. */
static void read_debug(Elf *elf, struct debug_entry *e, struct ds_dwarf_alt *alt,
                       unsigned char *id, size_t *n)
{
	struct ds_error err = DS_ERROR_INIT;
	char altname[256];   /* only whether there is one matters here */
	size_t got = 0;
	unsigned char note[DS_BUILD_ID_MAX];
	GElf_Ehdr eh;
	e->x86 = gelf_getehdr(elf, &eh) && eh.e_machine == EM_X86_64;
	if (!alt->strs) {
		alt->pend = pend;
		alt->ctx = e;
	}
	int r = ds_dwarf_read(elf, alt, &e->bf, note, &got, &err);
	if (got) {
		memcpy(id, note, got);
		*n = got;
	}
	if (r != 0)
		e->why = ds_xstrdup(ds_error_msg(&err));
	else if (e->npend && ds_dwarf_altlink(elf, altname, sizeof altname, e->alt_id, &e->alt_idlen) != 0)
		e->alt_idlen = 0;
	ds_error_clear(&err);
}

static Elf *elf_of(int fd, const unsigned char *mem, size_t size, struct ds_error *err)
{
	const char *bad = ds_elf_headers_check(fd, mem, size);
	Elf *elf = bad ? NULL : mem ? elf_memory((char *)mem, size) : elf_begin(fd, ELF_C_READ, NULL);
	if (!elf)
		ds_error_set(err, DS_ERR_PARSE, "%s", bad ? bad : elf_errmsg(-1));
	return elf;
}

/* A supplementary file of a package of the run: its strings, by build-id. */
static void add_alt(struct ds_debugset *d, Elf *elf)
{
	unsigned char id[DS_BUILD_ID_MAX];
	struct ds_buildflags bf;
	size_t n = 0;
	struct alt_strings a = { NULL, 0 };
	/* its own build-id note names it; a file that gives none, or no
	 * strings, is no supplementary file, whatever the reason */
	ds_dwarf_read(elf, &(struct ds_dwarf_alt){ .strs = "", .len = 0 }, &bf, id, &n, NULL);
	if (!n || ds_dwarf_strings(elf, &a.strs, &a.len, NULL) != 0)
		return;
	char key[2 * DS_BUILD_ID_MAX + 1];
	hex(id, n, key);
	pthread_mutex_lock(&d->lock);
	uintptr_t *slot = ds_strmap_put(d->alts, key);
	bool taken = !*slot;
	if (taken)
		{
		struct alt_strings *c = ds_xmalloc(sizeof *c);
		*c = a;
		*slot = (uintptr_t)c;
	}
	pthread_mutex_unlock(&d->lock);
	if (!taken)
		free(a.strs);
}

void ds_debugset_add_member(struct ds_debugset *d, const char *label, const struct ds_member *m)
{
	struct debug_entry *e = ds_xcalloc(1, sizeof *e);
	unsigned char id[DS_BUILD_ID_MAX];
	size_t n = id_of_path(m->path, id);
	struct ds_error err = DS_ERROR_INIT;
	/* libelf takes a memory image as its own to write: libdw's
	 * decompression of a compressed debug section rewrites its section
	 * header in place.  The member's data is the backend's, read-only:
	 * libelf gets a copy (a member in memory is small; a large one comes
	 * as a file, which libelf reads into its own buffers). */
	unsigned char *copy = NULL;
	if (!m->unreadable && !m->in_file && m->data) {
		copy = ds_xmalloc(m->size ? m->size : 1);
		memcpy(copy, m->data, m->size);
	}
	Elf *elf = m->unreadable ? NULL
	         : elf_of(m->in_file ? m->fd : -1, copy, m->size, &err);
	if (elf && dwz_member(m->path)) {
		add_alt(d, elf);
		elf_end(elf);
		free(copy);
		entry_free(e);
		return;
	}
	if (elf) {
		struct ds_dwarf_alt alt = { .strs = NULL };
		read_debug(elf, e, &alt, id, &n);
		elf_end(elf);
	} else {
		e->why = ds_xstrdup(m->unreadable ? m->unreadable : ds_error_msg(&err));
	}
	ds_error_clear(&err);
	free(copy);
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
	if (e)   /* no build-id to key it by, or a second copy: nothing pairs with it */
		entry_free(e);
}

/* The string at off of a supplementary file's strings, NULL when off is
 * outside them or the string does not end inside. */
static const char *alt_string(const struct alt_strings *a, uint64_t off)
{
	return a && off < a->len && memchr(a->strs + off, '\0', a->len - off) ? a->strs + off : NULL;
}

void ds_debugset_resolve(struct ds_debugset *d)
{
	size_t pos = 0;
	uintptr_t v;
	while (ds_strmap_next(d->pkgs, &pos, &v)) {
		struct debug_entry *e = (struct debug_entry *)v;
		char key[2 * DS_BUILD_ID_MAX + 1];
		hex(e->alt_id, e->alt_idlen, key);
		uintptr_t *slot = e->alt_idlen ? ds_strmap_get(d->alts, key) : NULL;
		const struct alt_strings *a = slot ? (const struct alt_strings *)*slot : NULL;
		for (size_t i = 0; i < e->npend; i++) {
			const struct pending *p = &e->pend[i];
			/* without the supplementary file the producer is unknown: not judged */
			const char *name = p->name_off == UINT64_MAX ? p->name : alt_string(a, p->name_off);
			ds_buildflags_add(&e->bf, alt_string(a, p->producer), name, e->x86);
		}
		for (size_t i = 0; i < e->npend; i++)
			free(e->pend[i].name);
		free(e->pend);
		e->pend = NULL;
		e->npend = 0;
	}
	free_alts(d->alts);
	d->alts = NULL;
}

/* Opens rel below base (the root: its symlinks resolved inside it; a
 * directory: followed while they stay below it) for reading, only when it
 * is a regular file of at most DEBUG_FILE_MAX bytes; 0 when it does not
 * exist, -1 with the reason in err, else the fd (> 0); *real (freed by the caller) is
 * its path below base with the symlinks resolved, where known. */
static int open_debug(int base, bool root, const char *rel, struct stat *st, char **real,
                      struct ds_error *err)
{
	char *res = root ? ds_resolve_in_root(base, rel) : ds_xstrdup(rel);
	int fd = res ? (root ? ds_open_beneath(base, res, O_PATH | O_CLOEXEC)
	                     : ds_open_inside(base, res, O_PATH | O_CLOEXEC)) : -1;
	int e = errno;
	int rd = -1;
	struct stat ps;
	*real = NULL;
	if (fd < 0) {
		free(res);
		if (e == ENOENT || e == ENOTDIR)
			return 0;
		return ds_error_set(err, DS_ERR_IO, "%s",
		                    e == EXDEV ? "a symlink leading out of its directory" : strerror(e));
	}
	if (fstat(fd, &ps) != 0 || !S_ISREG(ps.st_mode))
		ds_error_set(err, DS_ERR_PARSE, "not a regular file (a FIFO, device, directory or symlink)");
	else if (ps.st_size > DEBUG_FILE_MAX)
		ds_error_set(err, DS_ERR_LIMIT, "%lld bytes, over the %lld GiB read", (long long)ps.st_size,
		             (long long)(DEBUG_FILE_MAX >> 30));
	else if ((rd = root ? ds_open_beneath(base, res, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
	                    : ds_open_inside(base, res, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		ds_error_set(err, DS_ERR_IO, "%s", strerror(errno));
	else if (fstat(rd, st) != 0 || st->st_dev != ps.st_dev || st->st_ino != ps.st_ino) {
		ds_error_set(err, DS_ERR_PARSE, "replaced while it was opened");
		close(rd);
		rd = -1;
	}
	close(fd);
	if (rd >= 0 && root)
		*real = res;
	else
		free(res);
	return rd;
}

/* name relative to the directory of file */
static char *join_dir(const char *file, const char *name)
{
	const char *slash = strrchr(file, '/');
	size_t n = slash ? (size_t)(slash - file) + 1 : 0;
	char *p = ds_xmalloc(n + strlen(name) + 1);
	memcpy(p, file, n);
	strcpy(p + n, name);
	return p;
}

/* Where a debug file's supplementary file is, below base: its altlink
 * name, absolute (Debian: /usr/lib/debug/.dwz/...) or relative to the
 * debug file's own directory (Fedora: ../../.dwz/...); NULL when it
 * cannot be placed. */
static char *alt_path(const struct ds_debugset *d, bool root, const char *real, int fd,
                      const char *name)
{
	if (root)
		return name[0] == '/' ? ds_xstrdup(name) : join_dir(real, name);
	if (name[0] == '/') {
		/* --debug-dir laid out as a root, or as /usr/lib/debug */
		if (!strcmp(d->dir_sub, "usr/lib/debug/.build-id/"))
			return ds_xstrdup(name + 1);
		return strncmp(name, "/usr/lib/debug/", 15) == 0 && d->dir_sub[0] ? ds_xstrdup(name + 15) : NULL;
	}
	/* the debug file's place below the directory, symlinks resolved */
	char link[64], host[4096];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, host, sizeof host - 1);
	size_t dl = d->dir_real ? strlen(d->dir_real) : 0;
	if (n <= 0 || !dl)
		return NULL;
	host[n] = '\0';
	if (strncmp(host, d->dir_real, dl) != 0 || host[dl] != '/')
		return NULL;
	return join_dir(host + dl + 1, name);
}

/* The strings of the supplementary file a debug file names, into a; 0
 * when it names none, 1 read, -1 named and not read (err). */
static int read_alt(const struct ds_debugset *d, int base, bool root, const char *real, int fd,
                    Elf *elf, struct alt_strings *a, struct ds_error *err)
{
	char name[1024];
	unsigned char id[DS_BUILD_ID_MAX];
	size_t n;
	if (ds_dwarf_altlink(elf, name, sizeof name, id, &n) != 0)
		return 0;
	char *path = alt_path(d, root, real, fd, name);
	struct stat st;
	char *alt_real = NULL;
	int afd = path ? open_debug(base, root, path, &st, &alt_real, err) : 0;
	free(path);
	free(alt_real);
	if (afd == 0)
		ds_error_set(err, DS_ERR_PARSE, "its dwz file %s is not there", name);
	if (afd <= 0)
		return -1;
	Elf *ae = elf_of(afd, NULL, (size_t)st.st_size, err);
	int r = ae && ds_dwarf_strings(ae, &a->strs, &a->len, err) == 0 ? 1 : -1;
	if (ae)
		elf_end(ae);
	close(afd);
	return r;
}

/* Looks for the build-id's debug file below base; 1 read, 0 none, -1
 * found and not read (err). */
static int find_in(const struct ds_debugset *d, int base, bool root, const char *shown,
                   const char *sub, const char *key, const unsigned char *id, size_t n,
                   struct ds_buildflags *bf, struct ds_error *err)
{
	char rel[192];
	snprintf(rel, sizeof rel, "%s%.2s/%s.debug", sub, key, key + 2);
	snprintf(bf->debug_file, sizeof bf->debug_file, "%s%s%s", shown, *shown ? "/" : "", rel);
	struct stat st;
	char *real;
	int fd = open_debug(base, root, rel, &st, &real, err);
	if (fd == 0)
		return 0;
	Elf *elf = fd > 0 ? elf_of(fd, NULL, (size_t)st.st_size, err) : NULL;
	struct alt_strings a = { NULL, 0 };
	int r = -1;
	if (elf && read_alt(d, base, root, real, fd, elf, &a, err) >= 0) {
		struct debug_entry e = { .why = NULL };
		/* a supplementary file read is the one asked for: a unit left
		 * pending has a string outside it, and is not judged */
		struct ds_dwarf_alt alt = { .strs = a.strs ? a.strs : "", .len = a.len };
		unsigned char got[DS_BUILD_ID_MAX];
		size_t gotn = 0;
		read_debug(elf, &e, &alt, got, &gotn);
		if (e.why) {
			ds_error_set(err, DS_ERR_PARSE, "%s", e.why);
		} else if (gotn != n || memcmp(got, id, n) != 0) {
			ds_error_set(err, DS_ERR_PARSE, "its build-id note names another build");
		} else if (!e.bf.units) {
			ds_error_set(err, DS_ERR_PARSE, "no compile unit in .debug_info");
		} else {
			char name[sizeof bf->debug_file];
			memcpy(name, bf->debug_file, sizeof name);
			*bf = e.bf;
			memcpy(bf->debug_file, name, sizeof name);
			r = 1;
		}
		free(e.why);
	}
	free(a.strs);
	if (elf)
		elf_end(elf);
	free(real);
	if (fd > 0)
		close(fd);
	if (r < 0)
		ds_error_prefix(err, "%s: ", bf->debug_file);
	return r;
}

int ds_debugset_find(struct ds_debugset *d, const unsigned char *id, size_t n,
                     struct ds_buildflags *bf, struct ds_error *err)
{
	if (!n || n > DS_BUILD_ID_MAX)
		return 0;
	char key[2 * DS_BUILD_ID_MAX + 1];
	hex(id, n, key);
	pthread_mutex_lock(&d->lock);
	uintptr_t *slot = ds_strmap_get(d->pkgs, key);
	const struct debug_entry *e = slot ? (const struct debug_entry *)*slot : NULL;
	pthread_mutex_unlock(&d->lock);
	if (e && (e->why || !e->bf.units)) {
		return ds_error_set(err, DS_ERR_PARSE, "%s: %s", e->bf.debug_file,
		                    e->why ? e->why : "no compile unit in .debug_info");
	}
	if (e) {
		*bf = e->bf;
		return 1;
	}
	int r = 0;
	if (d->dirfd >= 0)
		r = find_in(d, d->dirfd, false, d->dir, d->dir_sub, key, id, n, bf, err);
	if (!r && d->rootfd >= 0)
		r = find_in(d, d->rootfd, true, "", "/usr/lib/debug/.build-id/", key, id, n, bf, err);
	return r;
}
