/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The root's top-level directory symlinks (merged /usr: /bin -> usr/bin)
 * and the other spellings of a path through them, for owner look-ups: the
 * database may list /bin/ls for the file the walk calls /usr/bin/ls.
 *
 * Found by hash, not by trying every symlink for every path: an image with
 * 20,000 top-level symlinks made each unowned file cost 20,000 look-ups.
 * A path has one spelling through its first component's symlink, and at
 * most ALIAS_PER_TARGET through the symlinks that point at one of its
 * leading directories (in name order, so the result does not depend on
 * the order the directory lists them in).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "distsec/rootfile.h"
#include "internal.h"

#define ALIAS_PER_TARGET 8

struct alias {
	char *link, *target;    /* "/bin", "/usr/bin" */
	size_t next;            /* 1 + the next alias with this target, 0 at the end */
};

struct ds_aliases {
	struct alias *v;
	size_t n, cap;
	struct ds_strmap *by_link;    /* link → 1 + index */
	struct ds_strmap *by_target;  /* target → 1 + first index */
};

static int by_link_name(const void *a, const void *b)
{
	return strcmp(((const struct alias *)a)->link, ((const struct alias *)b)->link);
}

/* The directory a top-level entry of the root is a symlink to, resolved
 * inside the root; NULL if it is not one (or points at / or itself). */
static char *dir_link_target(int rootfd, const char *link)
{
	char *target = ds_resolve_in_root(rootfd, link);
	struct stat st;
	int fd = target ? ds_open_beneath(rootfd, target, O_PATH | O_CLOEXEC) : -1;
	bool dir = fd >= 0 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) &&
	           strcmp(target, "/") != 0 && strcmp(target, link) != 0;
	if (fd >= 0)
		close(fd);
	if (!dir) {
		free(target);
		return NULL;
	}
	return target;
}

struct ds_aliases *ds_aliases_load(int rootfd)
{
	struct ds_aliases *a = ds_xcalloc(1, sizeof *a);
	a->by_link = ds_strmap_new();
	a->by_target = ds_strmap_new();
	int dfd = ds_open_beneath(rootfd, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return a;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_type != DT_LNK)
			continue;
		char *link = ds_xasprintf("/%s", e->d_name);
		struct alias one = { link, dir_link_target(rootfd, link), 0 };
		if (one.target)
			ds_push(a->v, a->n, a->cap, one);
		else
			free(link);
	}
	closedir(d);
	if (a->n)
		qsort(a->v, a->n, sizeof *a->v, by_link_name);
	for (size_t i = a->n; i-- > 0;) {  /* chains in name order */
		*ds_strmap_put(a->by_link, a->v[i].link) = i + 1;
		uintptr_t *head = ds_strmap_put(a->by_target, a->v[i].target);
		a->v[i].next = *head;
		*head = i + 1;
	}
	return a;
}

void ds_aliases_free(struct ds_aliases *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].link);
		free(a->v[i].target);
	}
	free(a->v);
	ds_strmap_free(a->by_link);
	ds_strmap_free(a->by_target);
	free(a);
}

/* Calls try(prefix + rest, ctx); true when it says to stop. */
static bool respell(const char *prefix, const char *rest, bool (*try)(const char *, void *),
                    void *ctx)
{
	char *alt = ds_xasprintf("%s%s", prefix, rest);
	bool stop = try(alt, ctx);
	free(alt);
	return stop;
}

bool ds_aliases_each(const struct ds_aliases *a, const char *path,
                     bool (*try)(const char *alt, void *ctx), void *ctx)
{
	if (!a || !a->n || path[0] != '/')
		return false;
	char *buf = ds_xstrdup(path);
	bool stop = false;
	/* through the first component's symlink: /bin/ls -> /usr/bin/ls */
	char *slash = strchr(buf + 1, '/');
	if (slash) {
		*slash = '\0';
		uintptr_t *i = ds_strmap_get(a->by_link, buf);
		*slash = '/';
		if (i)
			stop = respell(a->v[*i - 1].target, path + (slash - buf), try, ctx);
	}
	/* back through the symlinks to a leading directory: /usr/bin/ls -> /bin/ls */
	for (slash = strchr(buf + 1, '/'); slash && !stop; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		uintptr_t *head = ds_strmap_get(a->by_target, buf);
		*slash = '/';
		size_t tried = 0;
		for (size_t i = head ? *head : 0; i && !stop && tried < ALIAS_PER_TARGET;
		     i = a->v[i - 1].next, tried++)
			stop = respell(a->v[i - 1].link, path + (slash - buf), try, ctx);
	}
	free(buf);
	return stop;
}
