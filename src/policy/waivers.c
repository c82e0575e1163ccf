/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Waivers (--waivers FILE, and a source tree's debian/distsec.waivers and
 * debian/PACKAGE.distsec-waivers): lines
 * `check-id path-glob [package-glob[:arch-glob]] # reason`, like lintian
 * overrides.  `*` as check-id waives every check; the globs are fnmatch(3)
 * without FNM_PATHNAME, so `*` also crosses '/'; the package glob, when
 * given, must match one of the path's owners (and the arch glob that
 * owner's architecture); in debian/PACKAGE.distsec-waivers it defaults to
 * PACKAGE.  The path glob matches the finding's path or the package's own
 * spelling of it (details.package_path).  A reason is required: a waiver
 * nobody can explain is not one.  Waived findings stay in the report,
 * marked, and do not count towards --fail-on.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct ds_waiver {
	char *check, *glob, *package, *arch, *reason;   /* package, arch: globs or NULL */
	char *where;            /* "FILE:LINE: the waiver", for the unused list */
	size_t used;            /* findings it waived */
};

/* Waiver indices in file order (the first matching waiver is the one). */
struct ivec {
	size_t *v;
	size_t n, cap;
};

struct ds_waivers {
	struct ds_waiver *items;
	size_t n, cap;
	const char **unused;    /* where of each waiver that waived nothing */
	size_t nunused, unused_cap;
	/* The index, built at the first match: a waiver whose path glob has
	 * no wildcard is found by "check\037path" (check "*" as such), the
	 * others by "check\037DIR", DIR the directory part of the glob's
	 * literal start ("/usr/lib/" for "/usr/lib/lib*", "" for "*"), looked
	 * up for each directory of the path; so a long waivers file costs a
	 * finding a few look-ups, not a fnmatch per line. */
	size_t indexed;         /* items in the index */
	struct ds_strmap *exact, *globs;   /* key -> index in lists + 1 */
	struct ivec *lists;
	size_t nlists, lists_cap;
};

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Parses one non-blank, non-comment line; NULL on success or the error.
 * pkg_default: the package of a debian/PACKAGE.distsec-waivers file. */
static const char *parse_line(char *line, struct ds_waiver *w, const char *pkg_default)
{
	char *hash = strchr(line, '#');
	if (!hash || !*trim(hash + 1))
		return "no reason: write '# why this is acceptable' after the waiver";
	*hash = '\0';
	char *save = NULL;
	char *check = strtok_r(line, " \t", &save);
	char *glob = strtok_r(NULL, " \t", &save);
	const char *pkg = strtok_r(NULL, " \t", &save);
	if (!check || !glob)
		return "expected 'check-id path-glob [package] # reason'";
	if (strtok_r(NULL, " \t", &save))
		return "too many words before '#'";
	if (strcmp(check, "*") != 0 && !ds_check_find(check))
		return "unknown check id";
	if (glob[0] != '/' && glob[0] != '*')
		return "the path glob must be absolute (inside the root)";
	if (!pkg)
		pkg = pkg_default;
	const char *colon = pkg ? strrchr(pkg, ':') : NULL;
	if (pkg && (colon == pkg || (colon && !colon[1])))
		return "expected package-glob[:arch-glob]";
	w->check = ds_xstrdup(check);
	w->glob = ds_xstrdup(glob);
	w->package = pkg ? (colon ? ds_xstrndup(pkg, (size_t)(colon - pkg)) : ds_xstrdup(pkg)) : NULL;
	w->arch = colon ? ds_xstrdup(colon + 1) : NULL;
	w->reason = ds_xstrdup(trim(hash + 1));
	return NULL;
}

void ds_waivers_free(struct ds_waivers *ws)
{
	if (!ws)
		return;
	for (size_t i = 0; i < ws->n; i++) {
		free(ws->items[i].check);
		free(ws->items[i].glob);
		free(ws->items[i].package);
		free(ws->items[i].arch);
		free(ws->items[i].reason);
		free(ws->items[i].where);
	}
	free(ws->items);
	free(ws->unused);
	for (size_t i = 0; i < ws->nlists; i++)
		free(ws->lists[i].v);
	free(ws->lists);
	ds_strmap_free(ws->exact);
	ds_strmap_free(ws->globs);
	free(ws);
}

struct ds_waivers *ds_waivers_new(void)
{
	return ds_xcalloc(1, sizeof(struct ds_waivers));
}

struct read_ctx {
	struct ds_waivers *ws;
	const char *name, *pkg_default;
};

static const char *waiver_line(void *arg, char *line, unsigned lineno)
{
	struct read_ctx *x = arg;
	char *t = trim(line);
	if (!*t || *t == '#')
		return NULL;
	struct ds_waiver w = { 0 };
	char *text = ds_xstrdup(t);
	text[strcspn(text, "#")] = '\0';
	char *end = text + strlen(text);
	while (end > text && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	w.where = ds_xasprintf("%s:%u: %s", x->name, lineno, text);
	free(text);
	const char *bad = parse_line(t, &w, x->pkg_default);
	if (bad) {
		free(w.check);
		free(w.glob);
		free(w.package);
		free(w.arch);
		free(w.reason);
		free(w.where);
		return bad;
	}
	ds_push(x->ws->items, x->ws->n, x->ws->cap, w);
	return NULL;
}

int ds_waivers_read(struct ds_waivers *ws, FILE *fp, const char *name, const char *pkg_default,
                    struct ds_error *err)
{
	struct read_ctx x = { ws, name, pkg_default };
	return ds_each_line(fp, DS_LIST_LINE_MAX, "waivers", name, waiver_line, &x, err);
}

struct ds_waivers *ds_waivers_parse(FILE *fp, const char *name, struct ds_error *err)
{
	struct ds_waivers *ws = ds_waivers_new();
	if (ds_waivers_read(ws, fp, name, NULL, err) != 0) {
		ds_waivers_free(ws);
		return NULL;
	}
	return ws;
}

int ds_waivers_add_file(struct ds_waivers *ws, const char *path, const char *pkg_default,
                        struct ds_error *err)
{
	FILE *fp = fopen(path, "re");
	if (!fp)
		return ds_error_errno(err, errno, "waivers %s", path);
	int rc = ds_waivers_read(ws, fp, path, pkg_default, err);
	fclose(fp);
	return rc;
}

struct ds_waivers *ds_waivers_load(const char *path, struct ds_error *err)
{
	struct ds_waivers *ws = ds_waivers_new();
	if (ds_waivers_add_file(ws, path, NULL, err) != 0) {
		ds_waivers_free(ws);
		return NULL;
	}
	return ws;
}

/* Does an owner's name match the package glob (and its arch the arch glob)? */
static bool owned_by(const struct ds_owner *o, const struct ds_waiver *w)
{
	for (size_t i = 0; i < o->npkgs && i < DS_OWNER_MAX; i++) {
		const struct ds_pkg *p = o->pkgs[i];
		if (p && p->name && fnmatch(w->package, p->name, 0) == 0 &&
		    (!w->arch || (p->arch && fnmatch(w->arch, p->arch, 0) == 0)))
			return true;
	}
	return false;
}

/* The length of glob's literal start. */
static size_t literal(const char *glob)
{
	return strcspn(glob, "*?[\\");
}

static void index_add(struct ds_waivers *ws, struct ds_strmap *m, const char *key, size_t item)
{
	uintptr_t *slot = ds_strmap_put(m, key);
	if (!*slot) {
		struct ivec empty = { 0 };
		ds_push(ws->lists, ws->nlists, ws->lists_cap, empty);
		*slot = ws->nlists;
	}
	struct ivec *l = &ws->lists[*slot - 1];
	ds_push(l->v, l->n, l->cap, item);
}

static void index_build(struct ds_waivers *ws)
{
	if (!ws->exact) {
		ws->exact = ds_strmap_new();
		ws->globs = ds_strmap_new();
	}
	for (; ws->indexed < ws->n; ws->indexed++) {
		const struct ds_waiver *w = &ws->items[ws->indexed];
		size_t n = literal(w->glob);
		if (!w->glob[n]) {
			char *key = ds_xasprintf("%s\037%s", w->check, w->glob);
			index_add(ws, ws->exact, key, ws->indexed);
			free(key);
			continue;
		}
		while (n > 0 && w->glob[n - 1] != '/')
			n--;
		char *key = ds_xasprintf("%s\037%.*s", w->check, (int)n, w->glob);
		index_add(ws, ws->globs, key, ws->indexed);
		free(key);
	}
}

static bool matches(const struct ds_waiver *w, const struct ds_finding *d, const char *alt)
{
	return (alt ? fnmatch(w->glob, alt, 0) == 0
	            : fnmatch(w->glob, d->path, 0) == 0 ||
	              (d->pkg_path && fnmatch(w->glob, d->pkg_path, 0) == 0)) &&
	       (!w->package || owned_by(&d->owner, w));
}

/* The first waiver of list (ascending) below *best that matches d: *best. */
static void first_of(const struct ds_waivers *ws, const uintptr_t *slot, const struct ds_finding *d,
                     const char *alt, size_t *best)
{
	const struct ivec *l = slot ? &ws->lists[*slot - 1] : NULL;
	for (size_t i = 0; l && i < l->n && l->v[i] < *best; i++)
		if (matches(&ws->items[l->v[i]], d, alt)) {
			*best = l->v[i];
			return;
		}
}

const char *ds_waiver_as(struct ds_waivers *ws, const struct ds_finding *d, const char *alt)
{
	if (!ws || !ws->n)
		return NULL;
	index_build(ws);
	size_t best = SIZE_MAX;
	const char *checks[] = { d->check->id, "*" };
	const char *paths[] = { alt ? alt : d->path, alt ? NULL : d->pkg_path };
	for (size_t c = 0; c < 2; c++)
		for (size_t p = 0; p < 2 && paths[p]; p++) {
			char *key = ds_xasprintf("%s\037%s", checks[c], paths[p]);
			first_of(ws, ds_strmap_get(ws->exact, key), d, alt, &best);
			/* the globs starting with each directory of the path */
			char *dir = key + strlen(checks[c]) + 1;
			size_t len = strlen(dir);
			for (size_t i = 0; i <= len; i++)
				if (i == 0 || dir[i - 1] == '/') {
					char keep = dir[i];
					dir[i] = '\0';
					first_of(ws, ds_strmap_get(ws->globs, key), d, alt, &best);
					dir[i] = keep;
				}
			free(key);
		}
	if (best == SIZE_MAX)
		return NULL;
	ws->items[best].used++;
	return ws->items[best].reason;
}

const char *ds_waiver_for(struct ds_waivers *ws, const struct ds_finding *d)
{
	return ds_waiver_as(ws, d, NULL);
}

/* Like lintian's unused-override: a waiver that matched nothing is stale
 * (the problem is fixed, or the waiver has a typo) and is said so. */
void ds_waivers_seal(struct ds_waivers *ws, bool quiet)
{
	for (size_t i = 0; ws && i < ws->n; i++) {
		if (ws->items[i].used)
			continue;
		ds_push(ws->unused, ws->nunused, ws->unused_cap, ws->items[i].where);
		if (!quiet)
			ds_warn("note: unused waiver %s", ws->items[i].where);
	}
}

struct ds_waivers *ds_waivers_unused_only(const char *const *where, size_t n)
{
	struct ds_waivers *ws = ds_xcalloc(1, sizeof *ws);
	for (size_t i = 0; i < n; i++)
		ds_push(ws->unused, ws->nunused, ws->unused_cap, where[i]);
	return ws;
}

size_t ds_scan_unused_waivers(const struct ds_scan *s, const char *const **out)
{
	const struct ds_waivers *ws = s->priv ? s->priv->waivers : NULL;
	*out = ws ? ws->unused : NULL;
	return ws ? ws->nunused : 0;
}
