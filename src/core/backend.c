/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Finding the backends (built in, or dlopen()ed modules) and choosing one
 * for a root.  Selection is libarchive-style bidding: every backend probes
 * the root, and the tie-break rules of docs/DESIGN.md ("Backend") compare the bids.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

extern const struct ds_backend *const ds_builtin_backends[]; /* generated */

static struct ds_backend_slot *slots;
static size_t nslots, slots_cap;
static const char **failures;
static size_t nfailures, failures_cap;
static int loaded;

static const struct ds_backend *find_loaded(const char *name)
{
	for (size_t i = 0; i < nslots; i++)
		if (strcmp(slots[i].b->name, name) == 0)
			return slots[i].b;
	return NULL;
}

static void add_slot(const struct ds_backend *b, const char *where)
{
	if (find_loaded(b->name))
		return;
	struct ds_backend_slot s = { b, where };
	ds_push(slots, nslots, slots_cap, s);
}

static void fail(const char *path, const char *why)
{
	char *msg = ds_xasprintf("%s: %s", path, why);
	ds_push(failures, nfailures, failures_cap, msg);
}

static void load_module(const char *path)
{
	struct ds_error err = DS_ERROR_INIT;
	ds_backend_entry_fn entry;
	void *h = ds_module_load(path, DS_BACKEND_ENTRY, (void **)&entry, &err);
	if (!h) {
		fail(path, ds_error_msg(&err));
		ds_error_clear(&err);
		return;
	}
	const struct ds_backend *b = entry();
	if (!b || b->abi != DS_BACKEND_ABI) {
		fail(path, b ? "built for another backend ABI" : "not a distsec backend");
		dlclose(h);
		return;
	}
	ds_backend_host_fn host;
	*(void **)&host = dlsym(h, DS_BACKEND_HOST);
	if (host)
		host(&ds_host);
	add_slot(b, ds_xstrdup(path));
}

static void load_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (strncmp(e->d_name, "distsec-", 8) == 0 && len > 3 &&
		    strcmp(e->d_name + len - 3, ".so") == 0) {
			char *p = ds_xasprintf("%s/%s", dir, e->d_name);
			ds_push(names, n, cap, p);
		}
	}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		load_module(names[i]);
		free(names[i]);
	}
	free(names);
}

static void load_all(void)
{
	if (loaded)
		return;
	loaded = 1;
	for (size_t i = 0; ds_builtin_backends[i]; i++)
		add_slot(ds_builtin_backends[i], "built in");
	const char *dirs[DS_SEARCH_DIRS];
	size_t n = ds_module_dirs(dirs);
	for (size_t i = 0; i < n; i++)
		load_dir(dirs[i]);
}

size_t ds_backends_available(const struct ds_backend_slot **out)
{
	load_all();
	*out = slots;
	return nslots;
}

extern const char *const ds_built_modules[]; /* generated */

void ds_backends_print_missing(FILE *out)
{
	const char *dirs[DS_SEARCH_DIRS];
	size_t nd = ds_module_dirs(dirs);
	for (size_t i = 0; ds_built_modules[i]; i++) {
		size_t k;
		for (k = 0; k < nd; k++) {
			char *p = ds_xasprintf("%s/%s", dirs[k], ds_built_modules[i]);
			bool there = access(p, F_OK) == 0;
			free(p);
			if (there)
				break;
		}
		if (k < nd)
			continue;
		fprintf(out, "  missing: module %s (built with this program); looked in:\n",
		        ds_built_modules[i]);
		for (k = 0; k < nd; k++)
			fprintf(out, "           %s\n", dirs[k]);
	}
}

size_t ds_backend_failures(const char *const **out)
{
	load_all();
	*out = failures;
	return nfailures;
}

/* What a probe said ("" when nothing). */
static const char *detail(const struct ds_probe *p)
{
	return p->detail ? p->detail : "";
}

/* *why (when why is not NULL) becomes the message, whole. */
static void set_why(char **why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_why(char **why, const char *fmt, ...)
{
	if (!why)
		return;
	va_list ap;
	va_start(ap, fmt);
	free(*why);
	*why = ds_xvasprintf(fmt, ap);
	va_end(ap);
}

/* Among the usable candidates: the one that owns bin/sh, else the ones
 * native to the root, else the lowest order. */
static const struct ds_backend *tie_break(const struct ds_backend **c,
                                          struct ds_probe *p, size_t n, char **why)
{
	const struct ds_backend *best = NULL;
	size_t owners = 0;
	for (size_t i = 0; i < n; i++)
		if (p[i].owns_bin_sh)
			owners++, best = c[i];
	if (owners == 1) {
		set_why(why, "several databases; %s owns bin/sh", best->name);
		return best;
	}
	int want_native = 0;
	for (size_t i = 0; i < n; i++)
		if (p[i].native && (!owners || p[i].owns_bin_sh))
			want_native = 1;
	best = NULL;
	for (size_t i = 0; i < n; i++) {
		if (owners && !p[i].owns_bin_sh)
			continue;
		if (want_native && !p[i].native)
			continue;
		if (!best || c[i]->order < best->order)
			best = c[i];
	}
	/* n > 1 and the filters keep one at least (an owner of bin/sh when
	 * owners, a native one when want_native): best is set */
	// cppcheck-suppress nullPointer
	set_why(why, "several databases; %s %s", best->name,
	         want_native ? "matches the root's distribution marker"
	                     : "comes first in probe order");
	return best;
}

/* Every database that is there but cannot be read is said (warnings, when
 * not NULL, gets a copy of each message): auto must not quietly take what
 * it can read instead. */
static const struct ds_backend *select_auto(const char *root, char **why,
                                            char ***warnings, size_t *nwarnings)
{
	size_t wcap = 0;
	const struct ds_backend *cand[16], *none = NULL;
	struct ds_probe probes[16];
	size_t n = 0;
	for (size_t i = 0; i < nslots; i++) {
		const struct ds_backend *b = slots[i].b;
		if (!b->probe) {
			none = b;
			continue;
		}
		struct ds_probe p = { 0 };
		int rc = b->probe(root, &p);
		if (rc == 0 && (p.unreadable || p.notice) && warnings) {
			char *w = ds_xasprintf("backend %s: %s", b->name, detail(&p));
			ds_push(*warnings, *nwarnings, wcap, w);
		}
		if (rc == 0 && p.usable && n < 16) {
			cand[n] = b;
			probes[n++] = p;
		} else {
			free(p.detail);
		}
	}
	const struct ds_backend *chosen = none;
	if (n == 1) {
		set_why(why, "%s", detail(&probes[0]));
		chosen = cand[0];
	} else if (n > 1) {
		chosen = tie_break(cand, probes, n, why);
	} else {
		set_why(why, "no package database with installed packages in %s", root);
	}
	for (size_t i = 0; i < n; i++)
		free(probes[i].detail);
	return chosen;
}

const struct ds_backend *ds_backend_select(const char *name, const char *root,
                                           char **why, char ***warnings, size_t *nwarnings,
                                           struct ds_error *err)
{
	load_all();
	if (strcmp(name, "auto") == 0)
		return select_auto(root, why, warnings, nwarnings);
	const struct ds_backend *b = find_loaded(name);
	if (!b) {
		ds_error_set(err, DS_ERR_USAGE,
		             "backend '%s': not available in this build (see 'distsec backends')", name);
		return NULL;
	}
	set_why(why, "chosen with --backend %s", name);
	/* what auto would have said about the database it reads (a named
	 * backend's unreadable database is open()'s error, not a warning) */
	struct ds_probe p = { 0 };
	if (warnings && b->probe && b->probe(root, &p) == 0 && p.notice && !p.unreadable) {
		char *w = ds_xasprintf("backend %s: %s", b->name, detail(&p));
		size_t wcap = *nwarnings;
		ds_push(*warnings, *nwarnings, wcap, w);
	}
	free(p.detail);
	return b;
}
