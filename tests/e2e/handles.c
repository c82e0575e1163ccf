/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two roots' databases open at once through one backend in one process,
 * as a program holding two scans does: each handle answers from its own
 * root's database, and closing one and opening its root again changes
 * nothing for the other.  tests/e2e/backend-handles.sh runs it on roots
 * made with the package managers' own tools, under valgrind in the
 * memcheck suite (a closed handle's database must be freed).
 *
 * usage: backend-handles BACKEND ROOT1 PATH1 ROOT2 PATH2
 * Prints "NAME PATH OWNER" for each handle and both paths, the first
 * handle again after it was closed and its root opened anew; exit status
 * 0, or 2 when a root cannot be opened.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const struct ds_backend *named(const char *name)
{
	const struct ds_backend_slot *slots;
	size_t n = ds_backends_available(&slots);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(slots[i].b->name, name))
			return slots[i].b;
	return NULL;
}

/* The owners of path in h, as the text report spells them. */
static void print_owner(const struct ds_backend *b, void *h, const char *name, const char *path)
{
	const ds_pkgid *ids;
	size_t n;
	enum ds_owner_status st = b->owner_of(h, path, &ids, &n);
	printf("%s %s ", name, path);
	if (st != DS_OWNER_PACKAGE)
		printf("%s", st == DS_OWNER_NOT_OWNED ? "not-owned" : "unknown");
	for (size_t i = 0; st == DS_OWNER_PACKAGE && i < n; i++) {
		const struct ds_pkg *p = b->info(h, ids[i]);
		printf("%s%s", i ? "," : "", p && p->name ? p->name : "?");
	}
	printf("\n");
}

static void *open_root(const struct ds_backend *b, const char *root, void *started)
{
	struct ds_error err = DS_ERROR_INIT;
	void *h = b->open(root, 0, started, &err);
	if (!h)
		fprintf(stderr, "backend-handles: %s: %s\n", root, ds_error_msg(&err));
	ds_error_clear(&err);
	return h;
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: backend-handles BACKEND ROOT1 PATH1 ROOT2 PATH2\n");
		return 2;
	}
	const struct ds_backend *b = named(argv[1]);
	if (!b) {
		fprintf(stderr, "backend-handles: no backend %s\n", argv[1]);
		return 2;
	}
	const char *root[2] = { argv[2], argv[4] }, *path[2] = { argv[3], argv[5] };
	void *h[2], *started[2] = { NULL, NULL };
	/* both begun before either is collected: two loads at once */
	for (int i = 0; i < 2; i++)
		if (b->start)
			started[i] = b->start(root[i], 0);
	for (int i = 0; i < 2; i++)
		if (!(h[i] = open_root(b, root[i], started[i])))
			return 2;
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 2; k++)
			print_owner(b, h[i], i ? "h2" : "h1", path[k]);
	b->close(h[0]);
	if (!(h[0] = open_root(b, root[0], NULL)))
		return 2;
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 2; k++)
			print_owner(b, h[i], i ? "h2" : "h1-again", path[k]);
	b->close(h[0]);
	b->close(h[1]);
	return 0;
}
