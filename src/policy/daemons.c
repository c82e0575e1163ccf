/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The `daemon` program class: programs a service of the root's systemd
 * keeps running (unitfile.c reads each unit), or that its SysV init
 * scripts start (DAEMON=/path, the Debian skeleton's convention, or
 * exec=/path, the Red Hat one).  Units are looked up as systemd does: a
 * unit in etc/systemd/system hides the same name in lib/systemd/system, a
 * unit linked to /dev/null is masked, drop-ins (NAME.d/ *.conf, also the
 * "service.d" and "foo-.service.d" prefix forms) are applied in file-name
 * order, the one of the most important directory winning for a name.
 * Paths are canonicalised inside the root so /sbin/x and /usr/sbin/x meet.
 *
 * The same reading serves a set of package files (ds_unitset): their units
 * and init scripts, gathered before the set is scanned, stand in for the
 * root's directories, so a unit one package ships makes a daemon of a
 * program another package of the set ships.  There is no root to resolve
 * in: a program is recorded in its spelling and its merged-/usr twin, and a
 * bare ExecStart= name at every place of systemd's search path.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdbool.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "unitfile.h"

/* systemd's system unit search path, most important first. */
static const char *const unit_dirs[] = {
	"/etc/systemd/system", "/run/systemd/system", "/usr/local/lib/systemd/system",
	"/usr/lib/systemd/system", "/lib/systemd/system", NULL,
};

#define TEXT_MAX (1u << 20) /* a unit or init script larger than this is cut */
#define SET_MAX (64u << 20) /* a package set's units and init scripts, at most */

/* Where units and init scripts are read from: a root, or a package set. */
struct source {
	/* the names in a directory (files, and directories holding files) */
	size_t (*list)(const struct source *src, const char *dir, char ***names);
	/* a regular file's text, NULL for anything else (masked units too) */
	char *(*read)(const struct source *src, const char *path, size_t *len);
	/* records an ExecStart=/DAEMON= program */
	void (*add)(const struct source *src, struct ds_strmap *m, const char *prog);
	int rootfd;
	const struct ds_unitset *set;
};

/* A regular file's text inside the root, symlinks followed inside it;
 * NULL for anything else, and for a unit masked by a link to /dev/null.
 * Opened O_PATH first: a FIFO or a device is never opened for reading. */
static char *root_read(const struct source *src, const char *path, size_t *len)
{
	int rootfd = src->rootfd;
	char *canon = ds_resolve_in_root(rootfd, path);
	int pfd = canon && strcmp(canon, "/dev/null") ? ds_open_beneath(rootfd, canon, O_PATH | O_CLOEXEC) : -1;
	free(canon);
	struct stat st;
	if (pfd < 0 || fstat(pfd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (pfd >= 0)
			close(pfd);
		return NULL;
	}
	char proc[64];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", pfd);
	int fd = open(proc, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	close(pfd);
	if (fd < 0)
		return NULL;
	size_t cap = (size_t)st.st_size < TEXT_MAX ? (size_t)st.st_size : TEXT_MAX;
	char *buf = ds_xcalloc(cap + 1, 1);
	size_t n = 0;
	ssize_t r;
	while (n < cap && (r = read(fd, buf + n, cap - n)) > 0)
		n += (size_t)r;
	close(fd);
	*len = n;
	return buf;
}

/* Names in a directory of the root (sorted by the caller if it cares). */
static size_t root_list(const struct source *src, const char *dir, char ***names)
{
	int rootfd = src->rootfd;
	size_t n = 0, cap = 0;
	*names = NULL;
	int dfd = ds_open_beneath(rootfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char *name = ds_xstrdup(e->d_name);
		ds_push(*names, n, cap, name);
	}
	closedir(d);
	return n;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static void root_add(const struct source *src, struct ds_strmap *m, const char *prog)
{
	int rootfd = src->rootfd;
	char *canon = NULL;
	if (prog[0] == '/') {
		canon = ds_resolve_in_root(rootfd, prog);
		*ds_strmap_put(m, canon ? canon : prog) |= DS_NAMED_DAEMON;
	} else if (!strchr(prog, '/')) { /* a bare name: systemd's fixed search path */
		for (size_t i = 0; !canon && ds_unit_search_path[i]; i++) {
			char *p = ds_xasprintf("%s/%s", ds_unit_search_path[i], prog);
			canon = ds_resolve_in_root(rootfd, p);
			free(p);
		}
		if (canon)
			*ds_strmap_put(m, canon) |= DS_NAMED_DAEMON;
	}
	free(canon);
}

/* The drop-in directories of a unit, most specific first: "a-b-c.service.d",
 * "a-b-.service.d", "a-.service.d", "service.d". */
static size_t dropin_dirs(const char *unit, char ***out)
{
	size_t n = 0, cap = 0;
	*out = NULL;
	char *d = ds_xasprintf("%s.d", unit);
	ds_push(*out, n, cap, d);
	const char *dot = strrchr(unit, '.');
	for (const char *p = dot; p && p > unit; p--) {
		if (p[-1] != '-' || p == dot)
			continue;
		d = ds_xasprintf("%.*s%s.d", (int)(p - unit), unit, dot);
		ds_push(*out, n, cap, d);
	}
	d = ds_xasprintf("%s.d", dot ? dot + 1 : unit);
	ds_push(*out, n, cap, d);
	return n;
}

static int cmp_base(const void *a, const void *b)
{
	const char *x = strrchr(*(char *const *)a, '/'), *y = strrchr(*(char *const *)b, '/');
	return strcmp(x, y);
}

/* The drop-in files of a unit in the order systemd applies them: by file
 * name; for a name found twice, the most important directory's file.
 * present: "dir/name" of every entry of the unit directories, so only
 * drop-in directories that exist are opened. */
static size_t dropins(const struct source *src, const struct ds_strmap *present, const char *unit,
                      char ***out)
{
	struct ds_strmap *seen = ds_strmap_new();
	size_t n = 0, cap = 0;
	*out = NULL;
	char **sub;
	size_t nsub = dropin_dirs(unit, &sub);
	for (size_t i = 0; unit_dirs[i]; i++) {
		for (size_t k = 0; k < nsub; k++) {
			char *dir = ds_xasprintf("%s/%s", unit_dirs[i], sub[k]), **names = NULL;
			size_t nn = ds_strmap_get(present, dir) ? src->list(src, dir, &names) : 0;
			for (size_t j = 0; j < nn; j++) {
				size_t len = strlen(names[j]);
				uintptr_t *slot = ds_strmap_put(seen, names[j]);
				if (len > 5 && !strcmp(names[j] + len - 5, ".conf") && !*slot) {
					*slot = 1;
					char *p = ds_xasprintf("%s/%s", dir, names[j]);
					ds_push(*out, n, cap, p);
				}
			}
			free_names(names, nn);
			free(dir);
		}
	}
	free_names(sub, nsub);
	ds_strmap_free(seen);
	if (n)
		qsort(*out, n, sizeof **out, cmp_base);
	return n;
}

static void load_unit(const struct source *src, struct ds_strmap *m, const struct ds_strmap *present,
                      const char *dir, const char *name)
{
	char *path = ds_xasprintf("%s/%s", dir, name);
	size_t len = 0;
	char *text = src->read(src, path, &len);
	free(path);
	if (!text)
		return; /* masked, or not a file */
	struct ds_unit *u = ds_unit_new(name);
	ds_unit_read(u, text, len);
	free(text);
	char **files;
	size_t nf = dropins(src, present, name, &files);
	for (size_t i = 0; i < nf; i++) {
		if ((text = src->read(src, files[i], &len)) != NULL)
			ds_unit_read(u, text, len);
		free(text);
	}
	free_names(files, nf);
	const char *const *progs;
	size_t np = ds_unit_daemons(u, &progs);
	for (size_t i = 0; i < np; i++)
		src->add(src, m, progs[i]);
	ds_unit_free(u);
}

static void load_units(const struct source *src, struct ds_strmap *m)
{
	struct ds_strmap *seen = ds_strmap_new(), *present = ds_strmap_new();
	char **names[8];
	size_t n[8];
	for (size_t i = 0; unit_dirs[i]; i++) {
		n[i] = src->list(src, unit_dirs[i], &names[i]);
		for (size_t j = 0; j < n[i]; j++) {
			char *key = ds_xasprintf("%s/%s", unit_dirs[i], names[i][j]);
			*ds_strmap_put(present, key) = 1;
			free(key);
		}
	}
	for (size_t i = 0; unit_dirs[i]; i++) {
		for (size_t j = 0; j < n[i]; j++) {
			size_t len = strlen(names[i][j]);
			uintptr_t *slot = ds_strmap_put(seen, names[i][j]);
			if (len > 8 && !strcmp(names[i][j] + len - 8, ".service") && !*slot)
				load_unit(src, m, present, unit_dirs[i], names[i][j]);
			*slot = 1; /* a more important directory's unit hides this one */
		}
		free_names(names[i], n[i]);
	}
	ds_strmap_free(seen);
	ds_strmap_free(present);
}

/* DAEMON=/path or exec=/path at the start of an init script's line. */
static void parse_init_line(const struct source *src, struct ds_strmap *m, const char *line, size_t len)
{
	while (len && isspace((unsigned char)*line))
		line++, len--;
	size_t skip = len >= 7 && !strncmp(line, "DAEMON=", 7) ? 7
	            : len >= 5 && !strncmp(line, "exec=", 5) ? 5 : 0;
	if (!skip)
		return;
	line += skip, len -= skip;
	while (len && (*line == '"' || *line == '\''))
		line++, len--;
	size_t n = 0;
	while (n < len && !isspace((unsigned char)line[n]) && !strchr("\"';", line[n]))
		n++;
	char *prog = ds_xstrndup(line, n);
	if (prog[0] == '/')
		src->add(src, m, prog);
	free(prog);
}

static void load_init_scripts(const struct source *src, struct ds_strmap *m, const char *dir)
{
	char **names;
	size_t n = src->list(src, dir, &names);
	for (size_t i = 0; i < n; i++) {
		char *path = ds_xasprintf("%s/%s", dir, names[i]);
		size_t len = 0;
		char *text = src->read(src, path, &len);
		for (size_t at = 0; text && at < len;) {
			const char *nl = memchr(text + at, '\n', len - at);
			size_t end = nl ? (size_t)(nl - text) : len;
			parse_init_line(src, m, text + at, end - at);
			at = end + 1;
		}
		free(text);
		free(path);
	}
	free_names(names, n);
}

static void load_all(const struct source *src, struct ds_strmap *m)
{
	load_units(src, m);
	load_init_scripts(src, m, "/etc/init.d");
	load_init_scripts(src, m, "/etc/rc.d/init.d");
}

/* The directories of root's PATH (Debian's and Fedora's default), where a
 * symbolic link makes a command of a program kept in a data directory. */
static const char *const path_dirs[] = {
	"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin", NULL,
};

#define PATH_LINKS_MAX 65536u /* symbolic links of the PATH directories looked at */

bool ds_in_data_dir(const char *path)
{
	return !strncmp(path, "/usr/share/", 11) && path[11];
}

/* Programs in data directories the root's PATH directories link to. */
static void root_path_links(int rootfd, struct ds_strmap *m)
{
	struct ds_strmap *dirs = ds_strmap_new();
	size_t links = 0;
	for (size_t i = 0; path_dirs[i]; i++) {
		char *dir = ds_resolve_in_root(rootfd, path_dirs[i]);
		uintptr_t *seen = dir ? ds_strmap_put(dirs, dir) : NULL;
		int dfd = seen && !*seen ? ds_open_beneath(rootfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
		                         : -1;
		DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
		if (seen)
			*seen = 1;   /* merged /usr: /bin is /usr/bin, read once */
		if (!d && dfd >= 0)
			close(dfd);
		struct dirent *e;
		while (d && links < PATH_LINKS_MAX && (e = readdir(d)) != NULL) {
			struct stat st;
			if (e->d_type != DT_LNK && (e->d_type != DT_UNKNOWN ||
			    fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode)))
				continue;
			links++;
			char *link = ds_path_join(dir, e->d_name);
			char *target = ds_resolve_in_root(rootfd, link);
			if (target && ds_in_data_dir(target))
				*ds_strmap_put(m, target) |= DS_NAMED_PATH;
			free(target);
			free(link);
		}
		if (d)
			closedir(d);
		free(dir);
	}
	ds_strmap_free(dirs);
}

/* "ino:DEV:INO" of a daemon with other hard-linked names: any of them is
 * the daemon (ds_daemon_inode_key). */
static void root_daemon_inodes(int rootfd, struct ds_strmap *m)
{
	char **keys = NULL;
	size_t n = 0, cap = 0, pos = 0;
	uintptr_t v;
	const char *k;
	while ((k = ds_strmap_next(m, &pos, &v)) != NULL) {
		if (!(v & DS_NAMED_DAEMON) || k[0] != '/')
			continue;
		struct stat st;
		int fd = ds_open_beneath(rootfd, k, O_PATH | O_CLOEXEC);
		if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1) {
			char *key = ds_daemon_inode_key(st.st_dev, st.st_ino);
			ds_push(keys, n, cap, key);
		}
		if (fd >= 0)
			close(fd);
	}
	for (size_t i = 0; i < n; i++)   /* not while iterating the map */
		*ds_strmap_put(m, keys[i]) |= DS_NAMED_DAEMON;
	free_names(keys, n);
}

char *ds_daemon_inode_key(dev_t dev, ino_t ino)
{
	return ds_xasprintf("ino:%ju:%ju", (uintmax_t)dev, (uintmax_t)ino);
}

struct ds_strmap *ds_daemons_load(int rootfd)
{
	struct ds_strmap *m = ds_strmap_new();
	const struct source src = { root_list, root_read, root_add, rootfd, NULL };
	load_all(&src, m);
	root_daemon_inodes(rootfd, m);
	root_path_links(rootfd, m);
	return m;
}

/* ---- a package set's units and init scripts ------------------------ */

struct set_text {
	char *path;         /* one allocation with the text after it */
	const char *text;
	size_t len;
};

/* Two names of one file: a hard link, or a PATH symbolic link and its
 * target. */
struct set_pair {
	char *a, *b;
};

struct ds_unitset {
	pthread_mutex_t lock;
	struct set_text *v;
	size_t n, cap;
	size_t bytes;
	bool sorted;
	struct set_pair *hard, *sym;
	size_t nhard, hard_cap, nsym, sym_cap;
};

struct ds_unitset *ds_unitset_new(void)
{
	struct ds_unitset *u = ds_xcalloc(1, sizeof *u);
	pthread_mutex_init(&u->lock, NULL);
	return u;
}

static void free_pairs(struct set_pair *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].a);
		free(v[i].b);
	}
	free(v);
}

void ds_unitset_free(struct ds_unitset *u)
{
	for (size_t i = 0; i < u->n; i++)
		free(u->v[i].path);
	free(u->v);
	free_pairs(u->hard, u->nhard);
	free_pairs(u->sym, u->nsym);
	pthread_mutex_destroy(&u->lock);
	free(u);
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return !strncmp(path, dir, n) && path[n] == '/' && path[n + 1];
}

bool ds_unitset_wants(const char *path)
{
	for (size_t i = 0; unit_dirs[i]; i++)
		if (under(path, unit_dirs[i]))
			return true;
	return under(path, "/etc/init.d") || under(path, "/etc/rc.d/init.d");
}

void ds_unitset_add(struct ds_unitset *u, const char *path, const unsigned char *data, size_t len)
{
	if (len > TEXT_MAX)
		len = TEXT_MAX;
	pthread_mutex_lock(&u->lock);
	if (u->bytes + len <= SET_MAX) {
		size_t plen = strlen(path);
		char *both = ds_xmalloc(plen + len + 2);
		memcpy(both, path, plen + 1);
		memcpy(both + plen + 1, data, len);
		both[plen + 1 + len] = '\0';
		/* a NUL ends a unit's text, as it would systemd's parse */
		struct set_text t = { both, both + plen + 1, strlen(both + plen + 1) };
		u->bytes += len;
		ds_push(u->v, u->n, u->cap, t);
	}
	pthread_mutex_unlock(&u->lock);
}

/* A pair kept while the set's bytes stay under SET_MAX. */
static void add_pair(struct ds_unitset *u, struct set_pair **v, size_t *n, size_t *cap,
                     const char *a, const char *b)
{
	size_t len = strlen(a) + strlen(b);
	pthread_mutex_lock(&u->lock);
	if (u->bytes + len <= SET_MAX) {
		struct set_pair p = { ds_xstrdup(a), ds_xstrdup(b) };
		u->bytes += len;
		ds_push(*v, *n, *cap, p);
	}
	pthread_mutex_unlock(&u->lock);
}

void ds_unitset_link(struct ds_unitset *u, const char *path, const char *hardlink, const char *symlink)
{
	if (hardlink)
		add_pair(u, &u->hard, &u->nhard, &u->hard_cap, path, hardlink);
	const char *slash = strrchr(path, '/');
	bool in_path = false;
	for (size_t i = 0; slash && path_dirs[i]; i++)
		in_path |= strlen(path_dirs[i]) == (size_t)(slash - path) &&
		           !strncmp(path, path_dirs[i], (size_t)(slash - path));
	if (symlink && *symlink && in_path)
		add_pair(u, &u->sym, &u->nsym, &u->sym_cap, path, symlink);
}

static int cmp_text(const void *a, const void *b)
{
	return strcmp(((const struct set_text *)a)->path, ((const struct set_text *)b)->path);
}

/* The names directly in dir: files, and the directories on the way to
 * deeper ones (drop-in directories). */
static size_t set_list(const struct source *src, const char *dir, char ***names)
{
	const struct ds_unitset *u = src->set;
	size_t n = 0, cap = 0, dlen = strlen(dir);
	*names = NULL;
	for (size_t i = 0; i < u->n; i++) {
		const char *p = u->v[i].path;
		if (!under(p, dir))
			continue;
		const char *name = p + dlen + 1;
		size_t len = strcspn(name, "/");
		if (n && strlen((*names)[n - 1]) == len && !strncmp((*names)[n - 1], name, len))
			continue;   /* sorted: the same directory again */
		char *copy = ds_xstrndup(name, len);
		ds_push(*names, n, cap, copy);
	}
	return n;
}

static char *set_read(const struct source *src, const char *path, size_t *len)
{
	const struct ds_unitset *u = src->set;
	struct set_text key = { (char *)path, NULL, 0 };
	const struct set_text *t = bsearch(&key, u->v, u->n, sizeof *u->v, cmp_text);
	if (!t)
		return NULL;
	*len = t->len;
	return ds_xstrndup(t->text, t->len);
}

/* The merged-/usr twin of a path: /sbin/x and /usr/sbin/x, /lib/x and
 * /usr/lib/x; NULL when it has none. */
static char *usr_twin(const char *p)
{
	static const char *const tops[] = { "/bin/", "/sbin/", "/lib/", "/lib64/", "/lib32/", NULL };
	for (size_t i = 0; tops[i]; i++) {
		size_t n = strlen(tops[i]);
		if (!strncmp(p, tops[i], n))
			return ds_xasprintf("/usr%s", p);
		if (!strncmp(p, "/usr", 4) && !strncmp(p + 4, tops[i], n))
			return ds_xstrdup(p + 4);
	}
	return NULL;
}

static void set_put(struct ds_strmap *m, const char *prog, uintptr_t flag)
{
	char *norm = ds_path_normalize(prog);
	*ds_strmap_put(m, norm) |= flag;
	char *twin = usr_twin(norm);
	if (twin)
		*ds_strmap_put(m, twin) |= flag;
	free(twin);
	free(norm);
}

static void set_add(const struct source *src, struct ds_strmap *m, const char *prog)
{
	(void)src;
	if (prog[0] == '/') {
		set_put(m, prog, DS_NAMED_DAEMON);
	} else if (!strchr(prog, '/')) {
		/* which of the search path's places holds it is the installed
		 * system's business: each is a daemon here */
		for (size_t i = 0; ds_unit_search_path[i]; i++) {
			char *p = ds_xasprintf("%s/%s", ds_unit_search_path[i], prog);
			set_put(m, p, DS_NAMED_DAEMON);
			free(p);
		}
	}
}

static bool set_daemon(const struct ds_strmap *m, const char *path)
{
	char *norm = ds_path_normalize(path);
	uintptr_t *v = ds_strmap_get(m, norm);
	free(norm);
	return v && (*v & DS_NAMED_DAEMON);
}

/* Union-find over the hard-link pairs' names. */
static size_t find_root(size_t *parent, size_t i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

/* Every name of a hard-linked daemon is the daemon: one program, whichever
 * name a unit runs. */
static void daemon_links(struct ds_strmap *m, const struct ds_unitset *u)
{
	struct ds_strmap *index = ds_strmap_new();
	const char **names = NULL;
	size_t n = 0, cap = 0, *parent = NULL, pcap = 0;
	for (size_t i = 0; i < u->nhard; i++) {
		size_t ends[2];
		for (int k = 0; k < 2; k++) {
			const char *name = k ? u->hard[i].b : u->hard[i].a;
			uintptr_t *slot = ds_strmap_put(index, name);
			if (!*slot) {
				*slot = n + 1;
				ds_push(names, n, cap, name);
				ds_grow(parent, n, pcap);
				parent[n - 1] = n - 1;
			}
			ends[k] = *slot - 1;
		}
		parent[find_root(parent, ends[0])] = find_root(parent, ends[1]);
	}
	bool *daemon = ds_xcalloc(n ? n : 1, sizeof *daemon);
	for (size_t i = 0; i < n; i++)
		if (set_daemon(m, names[i]))
			daemon[find_root(parent, i)] = true;
	for (size_t i = 0; i < n; i++)
		if (daemon[find_root(parent, i)])
			set_put(m, names[i], DS_NAMED_DAEMON);
	free(daemon);
	free(parent);
	free(names);
	ds_strmap_free(index);
}

/* Programs in data directories a PATH directory's symbolic link names
 * (/usr/bin/x -> ../share/x/x), spelled as the link's package does and
 * through merged /usr. */
static void path_links(struct ds_strmap *m, const struct ds_unitset *u)
{
	for (size_t i = 0; i < u->nsym; i++) {
		const char *link = u->sym[i].a, *to = u->sym[i].b;
		char *twin = usr_twin(link);
		const char *from[2] = { link, twin };
		for (int k = 0; k < 2 && from[k]; k++) {
			const char *slash = strrchr(from[k], '/');
			char *joined = to[0] == '/' ? ds_xstrdup(to)
			             : ds_xasprintf("%.*s/%s", (int)(slash - from[k]), from[k], to);
			char *norm = ds_path_normalize(joined);
			if (ds_in_data_dir(norm))
				set_put(m, norm, DS_NAMED_PATH);
			free(norm);
			free(joined);
		}
		free(twin);
	}
}

void ds_daemons_add_set(struct ds_strmap *m, struct ds_unitset *u)
{
	if (u->n) {
		qsort(u->v, u->n, sizeof *u->v, cmp_text);
		const struct source src = { set_list, set_read, set_add, -1, u };
		load_all(&src, m);
	}
	daemon_links(m, u);
	path_links(m, u);
}
