/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Profiles: a distribution's policy applied to the findings, as data
 * (src/profiles/, installed as $datadir/distsec/profiles/).  The STIG
 * rules describe a hardened deployment; a package is judged by its
 * distribution's policy, which allows some of what the STIG forbids
 * (Debian's cron.daily scripts are 0755 because run-parts runs only
 * executable files).  A profile re-grades or waives findings, with a
 * reason each, and gives a few checks their lists (ds_file_list); the
 * checks never know which profile it is.  Lines:
 *
 *   description ONE LINE
 *   severity CHECK[/RULE] error|warning|info # reason
 *   waive CHECK[/RULE] GLOB[,GLOB...] [KEY=VALUE | KEY<=OCTAL]... # reason
 *   merged-usr DIR... # reason
 *   list CHECK NAME ITEM... # reason
 *
 * RULE is a finding's rule id (a STIG rule's id); a GLOB is fnmatch(3)
 * with `*` crossing '/', as in --waivers; KEY=VALUE asks the finding's
 * detail KEY to be VALUE, KEY<=OCTAL its octal detail (a mode) to grant no
 * bit beyond OCTAL.  Later lines win over earlier ones for severities; the
 * first waiver that matches gives the reason.  merged-usr names the
 * top-level directories the distribution has moved under /usr: a
 * package file's member spelled /bin/sh is reported as /usr/bin/sh, its own
 * spelling kept in the finding's details.  list gives a check one of its
 * lists for this distribution (functions no caller can use safely,
 * capabilities allowed, rpath directories forbidden), replacing the check's own; a later
 * line for the same CHECK NAME replaces an earlier one.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profile.h"

struct cond {
	char *key, *value;  /* value NULL: a mode limit */
	unsigned long max_mode;
};

struct entry {
	bool waive;
	char *check, *rule;       /* rule NULL: any finding of the check */
	enum ds_severity sev;
	char **globs;
	struct cond *conds;
	size_t nconds, conds_cap;
	char *reason;             /* "NAME profile: why" */
};

struct plist {
	char *check, *name;
	char **items;             /* NULL-terminated */
	size_t n, cap;
};

struct ds_profile {
	char *name, *path, *description;
	struct entry *e;
	size_t n, cap;
	char **merged;            /* "/bin", "/sbin"...: under /usr on this distribution */
	size_t nmerged, merged_cap;
	struct plist *lists;
	size_t nlists, lists_cap;
};

static void free_entry(struct entry *e)
{
	free(e->check);
	free(e->rule);
	ds_list_free(e->globs);
	for (size_t i = 0; i < e->nconds; i++) {
		free(e->conds[i].key);
		free(e->conds[i].value);
	}
	free(e->conds);
	free(e->reason);
}

void ds_profile_free(struct ds_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free_entry(&p->e[i]);
	free(p->e);
	free(p->name);
	free(p->path);
	for (size_t i = 0; i < p->nmerged; i++)
		free(p->merged[i]);
	free(p->merged);
	for (size_t i = 0; i < p->nlists; i++) {
		free(p->lists[i].check);
		free(p->lists[i].name);
		ds_list_free(p->lists[i].items);
	}
	free(p->lists);
	free(p->description);
	free(p);
}

const char *ds_profile_name(const struct ds_profile *p)
{
	return p->name;
}

const char *ds_profile_description(const struct ds_profile *p)
{
	return p->description ? p->description : "";
}

const char *ds_profile_path(const struct ds_profile *p)
{
	return p->path;
}

/* "check[/rule]" */
static const char *parse_target(struct entry *e, const char *word)
{
	const char *slash = strchr(word, '/');
	e->check = slash ? ds_xstrndup(word, (size_t)(slash - word)) : ds_xstrdup(word);
	if (slash && slash[1])
		e->rule = ds_xstrdup(slash + 1);
	return ds_check_find(e->check) ? NULL : "unknown check id";
}

static const char *parse_cond(struct entry *e, char *word)
{
	struct cond c = { 0 };
	char *le = strstr(word, "<="), *eq = strchr(word, '=');
	if (le && le < eq) {
		char *end;
		*le = '\0';
		errno = 0;
		c.max_mode = strtoul(le + 2, &end, 8);
		if (errno || *end || le[2] == '\0' || c.max_mode > 07777)
			return "KEY<=OCTAL needs an octal mode";
	} else if (eq) {
		*eq = '\0';
		c.value = ds_xstrdup(eq + 1);
	} else {
		return "expected KEY=VALUE or KEY<=OCTAL";
	}
	if (!*word) {
		free(c.value);
		return "a condition needs a key";
	}
	c.key = ds_xstrdup(word);
	ds_push(e->conds, e->nconds, e->conds_cap, c);
	return NULL;
}

/* One "severity" or "waive" line (words after the keyword, reason apart). */
static const char *parse_entry(struct ds_profile *p, struct entry *e, char *rest,
                               const char *why)
{
	char *save = NULL;
	char *target = strtok_r(rest, " \t", &save);
	if (!target)
		return "a check id is missing";
	const char *err = parse_target(e, target);
	if (err)
		return err;
	if (!why || !*why)
		return "a reason ('# why') is required";
	e->reason = ds_xasprintf("%s profile: %s", p->name, why);
	char *arg = strtok_r(NULL, " \t", &save);
	if (!e->waive) {
		int sev = arg ? ds_severity_parse(arg) : -1;
		if (sev < DS_SEV_INFO || strtok_r(NULL, " \t", &save))
			return "severity takes CHECK[/RULE] error|warning|info";
		e->sev = (enum ds_severity)sev;
		return NULL;
	}
	if (!arg)
		return "waive takes CHECK[/RULE] GLOB[,GLOB...] [conditions]";
	e->globs = ds_split_list(arg);
	for (char *w = strtok_r(NULL, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		if ((err = parse_cond(e, w)) != NULL)
			return err;
	return NULL;
}

/* "merged-usr /bin /sbin ...": top-level directories, one component each. */
static const char *parse_merged(struct ds_profile *p, char *rest, const char *why)
{
	if (!why || !*why)
		return "a reason ('# why') is required";
	char *save = NULL;
	size_t before = p->nmerged;
	for (char *w = strtok_r(rest, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		if (w[0] != '/' || !w[1] || strchr(w + 1, '/') || !strcmp(w, "/usr"))
			return "merged-usr takes top-level directories (/bin /sbin /lib ...)";
		char *dir = ds_xstrdup(w);
		ds_push(p->merged, p->nmerged, p->merged_cap, dir);
	}
	return p->nmerged > before ? NULL : "merged-usr takes top-level directories (/bin /sbin /lib ...)";
}

/* "list CHECK NAME ITEM...": the check's NAME list, replacing any before. */
static const char *parse_list(struct ds_profile *p, char *rest, const char *why)
{
	if (!why || !*why)
		return "a reason ('# why') is required";
	char *save = NULL;
	char *check = strtok_r(rest, " \t\r\n", &save), *name = strtok_r(NULL, " \t\r\n", &save);
	if (!check || !name)
		return "list takes CHECK NAME ITEM...";
	if (!ds_check_find(check))
		return "unknown check id";
	struct plist l = { .check = ds_xstrdup(check), .name = ds_xstrdup(name) };
	for (char *w = strtok_r(NULL, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		char *item = ds_xstrdup(w);
		ds_push(l.items, l.n, l.cap, item);
	}
	char *end = NULL;
	ds_push(l.items, l.n, l.cap, end);
	l.n--;
	for (size_t i = 0; i < p->nlists; i++)
		if (!strcmp(p->lists[i].check, check) && !strcmp(p->lists[i].name, name)) {
			free(p->lists[i].check);
			free(p->lists[i].name);
			ds_list_free(p->lists[i].items);
			p->lists[i] = l;
			return NULL;
		}
	ds_push(p->lists, p->nlists, p->lists_cap, l);
	return NULL;
}

const char *const *ds_profile_list(const struct ds_profile *p, const char *check,
                                   const char *name)
{
	for (size_t i = 0; p && i < p->nlists; i++)
		if (!strcmp(p->lists[i].check, check) && !strcmp(p->lists[i].name, name))
			return (const char *const *)p->lists[i].items;
	return NULL;
}

char *ds_profile_merged_path(const struct ds_profile *p, const char *path)
{
	for (size_t i = 0; p && i < p->nmerged; i++) {
		size_t n = strlen(p->merged[i]);
		if (!strncmp(path, p->merged[i], n) && (path[n] == '/' || !path[n]))
			return ds_xasprintf("/usr%s", path);
	}
	return NULL;
}

static const char *parse_line(struct ds_profile *p, char *line)
{
	char *hash = strchr(line, '#');
	char *why = NULL;
	if (hash) {
		*hash = '\0';
		why = hash + 1;
		while (isspace((unsigned char)*why))
			why++;
		why[strcspn(why, "\r\n")] = '\0';
	}
	while (isspace((unsigned char)*line))
		line++;
	if (!*line)
		return NULL;
	size_t kw = strcspn(line, " \t\r\n");
	char *rest = line + kw;
	if (*rest)
		*rest++ = '\0';
	if (!strcmp(line, "description")) {
		while (isspace((unsigned char)*rest))
			rest++;
		rest[strcspn(rest, "\r\n")] = '\0';
		free(p->description);
		p->description = ds_xstrdup(rest);
		return NULL;
	}
	if (!strcmp(line, "merged-usr"))
		return parse_merged(p, rest, why);
	if (!strcmp(line, "list"))
		return parse_list(p, rest, why);
	struct entry e = { .waive = !strcmp(line, "waive") };
	const char *err = e.waive || !strcmp(line, "severity") ? parse_entry(p, &e, rest, why)
	                                                        : "unknown keyword";
	if (err) {
		free_entry(&e);
		return err;
	}
	ds_push(p->e, p->n, p->cap, e);
	return NULL;
}

#define LINE_MAX_LEN 4096 /* a profile is a short hand-written file */

static const char *profile_line(void *p, char *line, unsigned lineno)
{
	(void)lineno;
	return parse_line(p, line);
}

struct ds_profile *ds_profile_parse(FILE *fp, const char *name, const char *path,
                                     struct ds_error *err)
{
	struct ds_profile *p = ds_xcalloc(1, sizeof *p);
	p->name = ds_xstrdup(name);
	p->path = ds_xstrdup(path);
	if (ds_each_line(fp, LINE_MAX_LEN, "profile", path, profile_line, p, err) < 0) {
		ds_profile_free(p);
		return NULL;
	}
	return p;
}

struct ds_profile *ds_profile_load(const char *spec, struct ds_error *err)
{
	char buf[4096];
	const char *path = spec;
	if (!strchr(spec, '/')) {
		char *rel = ds_xasprintf("profiles/%s", spec);
		path = ds_data_file(rel, buf, sizeof buf);
		free(rel);
		if (!path) {
			ds_error_set(err, DS_ERR_USAGE, "profile '%s': not found (see 'distsec profiles')", spec);
			return NULL;
		}
	}
	FILE *fp = fopen(path, "re");
	if (!fp) {
		ds_error_errno(err, errno, "profile %s", path);
		return NULL;
	}
	/* a file's profile is named after the file */
	const char *base = strrchr(path, '/');
	struct ds_profile *p = ds_profile_parse(fp, base ? base + 1 : path, path, err);
	fclose(fp);
	return p;
}

static bool targets(const struct entry *e, const struct ds_finding *d)
{
	if (strcmp(e->check, d->check->id) != 0)
		return false;
	return !e->rule || (d->rule && !strcmp(e->rule, d->rule));
}

static bool cond_holds(const struct cond *c, const struct ds_finding *d)
{
	json_object *v;
	if (!json_object_object_get_ex(d->details, c->key, &v) ||
	    json_object_get_type(v) != json_type_string)
		return false;
	const char *s = json_object_get_string(v);
	if (c->value)
		return !strcmp(s, c->value);
	char *end;
	unsigned long mode = strtoul(s, &end, 8);
	return *s && !*end && !(mode & ~c->max_mode);
}

const char *ds_profile_judge(const struct ds_profile *p, struct ds_finding *d)
{
	if (!p || d->severity == DS_SEV_PASS)
		return NULL;
	for (size_t i = 0; i < p->n; i++)
		if (!p->e[i].waive && targets(&p->e[i], d))
			d->severity = p->e[i].sev;
	for (size_t i = 0; i < p->n; i++) {
		const struct entry *e = &p->e[i];
		if (!e->waive || !targets(e, d))
			continue;
		bool hit = false;
		for (size_t g = 0; !hit && e->globs[g]; g++)
			hit = fnmatch(e->globs[g], d->path, 0) == 0;
		for (size_t k = 0; hit && k < e->nconds; k++)
			hit = cond_holds(&e->conds[k], d);
		if (hit)
			return e->reason;
	}
	return NULL;
}

/* The backends whose roots and package files get this profile by default. */
static void print_users(FILE *out, const char *name)
{
	const struct ds_backend_slot *slots;
	size_t n = ds_backends_available(&slots);
	const char *sep = "default for backend ";
	for (size_t i = 0; i < n; i++) {
		const char *p = slots[i].b->profile ? slots[i].b->profile : "stig";
		if (!strcmp(p, name)) {
			fprintf(out, "%s%s", sep, slots[i].b->name);
			sep = ", ";
		}
	}
	if (!strcmp(sep, ", "))
		fputs("; ", out);
}

int ds_profiles_list(FILE *out)
{
	const char *dirs[DS_SEARCH_DIRS];
	size_t nd = ds_data_dirs(dirs), found = 0;
	struct ds_strmap *seen = ds_strmap_new();
	for (size_t i = 0; i < nd; i++) {
		char *dir = ds_xasprintf("%s/profiles", dirs[i]);
		struct dirent **names;
		int n = scandir(dir, &names, NULL, alphasort);
		for (int k = 0; k < n; k++) {
			const char *name = names[k]->d_name;
			uintptr_t *slot = name[0] != '.' ? ds_strmap_put(seen, name) : NULL;
			char *path = ds_xasprintf("%s/%s", dir, name);
			struct ds_error err = DS_ERROR_INIT;
			struct ds_profile *p = slot && !*slot ? ds_profile_load(path, &err) : NULL;
			if (err.msg)
				ds_warn("%s", ds_error_msg(&err));
			ds_error_clear(&err);
			if (p) {
				*slot = 1;
				found++;
				fprintf(out, "%-8s %s\n         (", name, ds_profile_description(p));
				print_users(out, name);
				fprintf(out, "%s)\n", path);
			}
			ds_profile_free(p);
			free(path);
			free(names[k]);
		}
		if (n >= 0)
			free(names);
		free(dir);
	}
	ds_strmap_free(seen);
	if (!found) {
		ds_warn("no profiles found; looked in:");
		for (size_t i = 0; i < nd; i++)
			ds_note("  %s/profiles", dirs[i]);
	}
	return found ? 0 : -1;
}
