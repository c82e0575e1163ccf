/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening and resolving paths without ever leaving the scanned root.
 *
 * ds_open_beneath() opens a path relative to the root fd refusing every
 * symlink on the way (openat2 RESOLVE_NO_SYMLINKS where the kernel has it,
 * otherwise, and for paths longer than PATH_MAX, one O_NOFOLLOW openat per
 * component): a tree changed under us
 * fails the open instead of escaping.  ds_resolve_in_root() is for the
 * paths a user names: it follows symlinks as if the root were "/".
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "distsec/rootfile.h"
#include "distsec/util.h"

/* -1 unknown, 0 no (ENOSYS/EPERM: seccomp), 1 yes; set by any thread */
static atomic_int have_openat2 = -1;

static int open_walk(int rootfd, const char *rel, int flags)
{
	int dir = dup(rootfd);
	if (dir < 0)
		return -1;
	char *copy = ds_xstrdup(rel), *save = NULL;
	char *comp = strtok_r(copy, "/", &save);
	int fd = -1;
	while (comp) {
		char *next = strtok_r(NULL, "/", &save);
		if (strcmp(comp, "..") == 0) {
			errno = EXDEV;
			break;
		}
		if (next)
			fd = openat(dir, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		else
			fd = openat(dir, comp, flags | O_NOFOLLOW);
		close(dir);
		dir = -1;
		if (fd < 0 || !next)
			break;
		dir = fd;
		fd = -1;
		comp = next;
	}
	if (!comp) /* empty path: the root itself */
		fd = openat(rootfd, ".", flags);
	int saved = errno;
	if (dir >= 0)
		close(dir);
	free(copy);
	errno = saved;
	return fd;
}

int ds_open_beneath(int rootfd, const char *path, int flags)
{
	while (*path == '/')
		path++;
	const char *rel = *path ? path : ".";
	if (have_openat2 != 0) {
		struct open_how how = {
			.flags = (unsigned long long)(flags | O_NOFOLLOW),
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			           RESOLVE_NO_MAGICLINKS,
		};
		long fd = syscall(SYS_openat2, rootfd, rel, &how, sizeof how);
		if (fd < 0 && errno == ENAMETOOLONG) /* beyond PATH_MAX: one component at a time */
			return open_walk(rootfd, path, flags);
		if (fd >= 0 || (errno != ENOSYS && errno != EPERM)) {
			have_openat2 = 1;
			return (int)fd;
		}
		have_openat2 = 0;
	}
	return open_walk(rootfd, path, flags);
}

/* RESOLVE_BENEATH by hand, for kernels without openat2: the path's
 * components opened one at a time without following a symlink, a relative
 * symlink's target put in its place, an absolute one or a ".." above dirfd
 * refused with EXDEV, as openat2 refuses them. */
static int open_inside_walk(int dirfd, const char *path, int flags)
{
	int stack[64];   /* the directories walked into below dirfd */
	size_t depth = 0;
	int links = 0, fd = -1, err = 0;
	char *todo = ds_xstrdup(path), *p = todo;
	if (*p == '/')
		err = EXDEV;
	while (!err) {
		while (*p == '/')
			p++;
		int top = depth ? stack[depth - 1] : dirfd;
		if (!*p) {   /* the directory the path ends in */
			if ((fd = openat(top, ".", flags)) < 0)
				err = errno;
			break;
		}
		char *e = strchrnul(p, '/'), *rest = e;
		while (*rest == '/')
			rest++;
		*e = '\0';
		if (strcmp(p, ".") == 0) {
			p = rest;
			continue;
		}
		if (strcmp(p, "..") == 0) {
			if (!depth)
				err = EXDEV;
			else
				close(stack[--depth]);
			p = rest;
			continue;
		}
		int c = openat(top, p, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (c < 0 || fstat(c, &st) != 0) {
			err = errno;
			if (c >= 0)
				close(c);
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t tl = readlinkat(c, "", target, sizeof target - 1);
			close(c);
			if (tl < 0 || ++links > 40) {
				err = tl < 0 ? errno : ELOOP;
				break;
			}
			target[tl] = '\0';
			if (target[0] == '/') {
				err = EXDEV;
				break;
			}
			char *next = ds_xasprintf("%s/%s", target, rest);
			free(todo);
			todo = p = next;
			continue;
		}
		if (!*rest) {   /* the last component: opened as asked, never through a link */
			close(c);
			if ((fd = openat(top, p, flags | O_NOFOLLOW)) < 0)
				err = errno;
			break;
		}
		if (!S_ISDIR(st.st_mode) || depth == sizeof stack / sizeof stack[0]) {
			close(c);
			err = S_ISDIR(st.st_mode) ? ENAMETOOLONG : ENOTDIR;
			break;
		}
		stack[depth++] = c;
		p = rest;
	}
	while (depth)
		close(stack[--depth]);
	free(todo);
	errno = err;
	return err ? -1 : fd;
}

int ds_open_inside(int dirfd, const char *path, int flags)
{
	if (have_openat2 != 0) {
		struct open_how how = {
			.flags = (unsigned long long)flags,
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
		};
		long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof how);
		if (fd >= 0 || (errno != ENOSYS && errno != EPERM)) {
			have_openat2 = 1;
			return (int)fd;
		}
		have_openat2 = 0;
	}
	return open_inside_walk(dirfd, path, flags);
}

char *ds_path_normalize(const char *path)
{
	size_t n = strlen(path);
	char *out = ds_xmalloc(n + 2), *o = out;
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *e = strchrnul(p, '/');
		size_t len = (size_t)(e - p);
		if (len == 1 && p[0] == '.') {
			/* skip */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (o > out && *--o != '/')
				;
		} else {
			*o++ = '/';
			memcpy(o, p, len);
			o += len;
		}
		p = e;
	}
	if (o == out)
		*o++ = '/';
	*o = '\0';
	return out;
}

/* Follows symlinks inside the root; ".." never climbs above it. */
char *ds_resolve_in_root(int rootfd, const char *path)
{
	char *todo = ds_path_normalize(path);
	char done[PATH_MAX] = "";
	size_t dlen = 0;
	int links = 0;
	char *p = todo;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		char *e = strchrnul(p, '/');
		size_t len = (size_t)(e - p);
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (dlen > 0 && done[--dlen] != '/')
				;
			done[dlen] = '\0';
			p = e;
			continue;
		}
		if (dlen + 1 + len >= sizeof done) {
			free(todo);
			errno = ENAMETOOLONG;
			return NULL;
		}
		size_t mark = dlen;
		done[dlen++] = '/';
		memcpy(done + dlen, p, len);
		dlen += len;
		done[dlen] = '\0';
		struct stat st;
		int fd = ds_open_beneath(rootfd, done, O_PATH | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) != 0) {
			int saved = errno;
			if (fd >= 0)
				close(fd);
			free(todo);
			errno = saved;
			return NULL;
		}
		if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t tl = readlinkat(fd, "", target, sizeof target - 1);
			close(fd);
			if (tl < 0 || ++links > 40) {
				free(todo);
				errno = tl < 0 ? errno : ELOOP;
				return NULL;
			}
			target[tl] = '\0';
			char *rest = ds_xasprintf("%s/%s", target, e);
			free(todo);
			todo = rest;
			p = todo;
			if (target[0] == '/')
				dlen = 0;
			else
				dlen = mark;
			done[dlen] = '\0';
			continue;
		}
		close(fd);
		p = e;
	}
	free(todo);
	return ds_xstrdup(dlen ? done : "/");
}

int ds_root_open(const char *root, const char *rel, uint64_t max)
{
	int rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -1;
	char *resolved = ds_resolve_in_root(rootfd, rel);
	int fd = resolved ? ds_open_beneath(rootfd, resolved,
	                                    O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) : -1;
	int saved = errno;
	free(resolved);
	close(rootfd);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) != 0)
		saved = errno;
	else if (fd >= 0 && !S_ISREG(st.st_mode))
		saved = EINVAL;
	else if (fd >= 0 && (uint64_t)st.st_size > max)
		saved = EFBIG;
	else if (fd >= 0 && fcntl(fd, F_SETFL, O_RDONLY) == 0)   /* a regular file: blocking reads */
		return fd;
	if (fd >= 0)
		close(fd);
	errno = saved;
	return -1;
}

FILE *ds_root_fopen(const char *root, const char *rel, uint64_t max)
{
	int fd = ds_root_open(root, rel, max);
	FILE *fp = fd >= 0 ? fdopen(fd, "re") : NULL;
	if (!fp && fd >= 0)
		close(fd);
	return fp;
}

char *ds_root_resolve(const char *root, const char *rel)
{
	int rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return NULL;
	char *resolved = ds_resolve_in_root(rootfd, rel);
	int saved = errno;
	close(rootfd);
	if (!resolved) {
		errno = saved;
		return NULL;
	}
	char *host = ds_path_join(root, resolved);
	free(resolved);
	return host;
}

const char *ds_root_strerror(int err)
{
	switch (err) {
	case EINVAL: return "not a regular file (a FIFO, device or directory)";
	case EFBIG: return "larger than the size cap";
	case EXDEV: return "a path leaving the root";
	default: return strerror(err);
	}
}
