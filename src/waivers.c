/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Waivers (--waivers FILE): lines `check-id path-glob [package] # reason`,
 * like lintian overrides.  `*` as check-id waives every check; the glob is
 * fnmatch(3) without FNM_PATHNAME, so `*` also crosses '/'; the package,
 * when given, must be one of the path's owners.  A reason is required: a
 * waiver nobody can explain is not one.  Waived findings stay in the report,
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
	char *check, *glob, *package, *reason;
	char *where;            /* "FILE:LINE: the waiver", for the unused list */
	size_t used;            /* findings it waived */
};

struct ds_waivers {
	struct ds_waiver *items;
	size_t n, cap;
	const char **unused;    /* where of each waiver that waived nothing */
	size_t nunused, unused_cap;
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

/* Parses one non-blank, non-comment line; NULL on success or the error. */
static const char *parse_line(char *line, struct ds_waiver *w)
{
	char *hash = strchr(line, '#');
	if (!hash || !*trim(hash + 1))
		return "no reason: write '# why this is acceptable' after the waiver";
	*hash = '\0';
	char *save = NULL;
	char *check = strtok_r(line, " \t", &save);
	char *glob = strtok_r(NULL, " \t", &save);
	char *pkg = strtok_r(NULL, " \t", &save);
	if (!check || !glob)
		return "expected 'check-id path-glob [package] # reason'";
	if (strtok_r(NULL, " \t", &save))
		return "too many words before '#'";
	if (strcmp(check, "*") != 0 && !ds_check_find(check))
		return "unknown check id";
	if (glob[0] != '/' && glob[0] != '*')
		return "the path glob must be absolute (inside the root)";
	w->check = ds_xstrdup(check);
	w->glob = ds_xstrdup(glob);
	w->package = pkg ? ds_xstrdup(pkg) : NULL;
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
		free(ws->items[i].reason);
		free(ws->items[i].where);
	}
	free(ws->items);
	free(ws->unused);
	free(ws);
}

struct ds_waivers *ds_waivers_parse(FILE *fp, const char *name, char *err, size_t errlen)
{
	struct ds_waivers *ws = ds_xcalloc(1, sizeof *ws);
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	while (getline(&line, &cap, fp) > 0) {
		lineno++;
		char *t = trim(line);
		if (!*t || *t == '#')
			continue;
		struct ds_waiver w = { 0 };
		char *text = ds_xstrdup(t);
		text[strcspn(text, "#")] = '\0';
		char *end = text + strlen(text);
		while (end > text && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		w.where = ds_xasprintf("%s:%u: %s", name, lineno, text);
		free(text);
		const char *bad = parse_line(t, &w);
		if (bad) {
			snprintf(err, errlen, "waivers %s:%u: %s", name, lineno, bad);
			free(w.where);
			free(line);
			ds_waivers_free(ws);
			return NULL;
		}
		ds_push(ws->items, ws->n, ws->cap, w);
	}
	free(line);
	return ws;
}

struct ds_waivers *ds_waivers_load(const char *path, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "re");
	if (!fp) {
		snprintf(err, errlen, "waivers %s: %s", path, strerror(errno));
		return NULL;
	}
	struct ds_waivers *ws = ds_waivers_parse(fp, path, err, errlen);
	fclose(fp);
	return ws;
}

static bool owned_by(const struct ds_owner *o, const char *pkg)
{
	for (size_t i = 0; i < o->npkgs && i < DS_OWNER_MAX; i++)
		if (o->pkgs[i] && o->pkgs[i]->name && !strcmp(o->pkgs[i]->name, pkg))
			return true;
	return false;
}

const char *ds_waiver_for(struct ds_waivers *ws, const struct ds_finding *d)
{
	for (size_t i = 0; ws && i < ws->n; i++) {
		struct ds_waiver *w = &ws->items[i];
		if ((!strcmp(w->check, "*") || !strcmp(w->check, d->check->id)) &&
		    (fnmatch(w->glob, d->path, 0) == 0 ||
		     (d->pkg_path && fnmatch(w->glob, d->pkg_path, 0) == 0)) &&
		    (!w->package || owned_by(&d->owner, w->package))) {
			w->used++;
			return w->reason;
		}
	}
	return NULL;
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

size_t ds_scan_unused_waivers(const struct ds_scan *s, const char *const **out)
{
	const struct ds_waivers *ws = s->priv ? s->priv->waivers : NULL;
	*out = ws ? ws->unused : NULL;
	return ws ? ws->nunused : 0;
}
