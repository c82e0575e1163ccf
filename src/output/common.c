/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers every output format shares: owner labels, JSON records, groups. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"

const char *ds_owner_label(const struct ds_owner *o, char *buf, size_t len)
{
	switch (o->status) {
	case DS_OWNER_PACKAGE: {
		/* every owner (a path in two packages lists both), as the
		 * package manager spells it, else name:arch */
		size_t used = 0;
		buf[0] = '\0';
		for (size_t i = 0; i < o->npkgs && i < DS_OWNER_MAX && used < len; i++) {
			const struct ds_pkg *p = o->pkgs[i];
			int w = p && p->label ? snprintf(buf + used, len - used, "%s%s", i ? "," : "", p->label)
			      : snprintf(buf + used, len - used, "%s%s%s%s", i ? "," : "",
			                 p && p->name ? p->name : "?", p && p->arch ? ":" : "",
			                 p && p->arch ? p->arch : "");
			used += w > 0 ? (size_t)w : 0;
		}
		if (o->npkgs > DS_OWNER_MAX && used < len)
			snprintf(buf + used, len - used, ",+%zu", o->npkgs - DS_OWNER_MAX);
		return buf;
	}
	case DS_OWNER_NOT_OWNED:
		return "not-owned";
	case DS_OWNER_UNKNOWN:
		break;
	}
	return "unknown";
}

/* C1 controls (some terminals act on them, copied there), the bidi
 * overrides and isolates (a name shown in another order than it is) and
 * the noncharacters */
static bool hidden(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || (cp >= 0xfdd0 && cp <= 0xfdef) ||
	       (cp & 0xfffe) == 0xfffe;
}

void ds_markup_put(FILE *out, const char *s, unsigned flags)
{
	bool refs = flags & DS_MARKUP_REFS, shown = flags & DS_MARKUP_SHOWN;
	bool hide = flags & DS_MARKUP_HIDE;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		uint32_t cp = *p;
		size_t n = *p < 0x80 ? 1 : ds_utf8_decode(p, &cp);
		if (n == 0) {
			fprintf(out, "\\x%02x", *p++);
			continue;
		}
		switch (cp) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		case '\t': fputs(refs ? "&#9;" : shown ? "\\t" : "\t", out); break;
		case '\n': fputs(refs ? "&#10;" : shown ? "\\n" : "\n", out); break;
		case '\\': fputs(shown ? "\\\\" : "\\", out); break;
		default:
			if (cp < 0x20 || (hide && cp == 0x7f))
				fprintf(out, "\\x%02x", (unsigned)cp);
			else if (cp == 0xfffe || cp == 0xffff || (hide && hidden(cp)))
				fprintf(out, "\\u%04X", (unsigned)cp);
			else
				fwrite(p, 1, n, out);
		}
		p += n;
	}
}

static json_object *jstr(const char *s)
{
	if (!s)
		return NULL;
	char *clean = ds_utf8_clean(s);
	json_object *o = json_object_new_string(clean);
	free(clean);
	return o;
}

json_object *ds_json_string(const char *s)
{
	return jstr(s);
}

static json_object *pkg_json(const struct ds_pkg *p)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "status", json_object_new_string("package"));
	json_object_object_add(o, "name", jstr(p->name));
	json_object_object_add(o, "version", jstr(p->version));
	json_object_object_add(o, "arch", jstr(p->arch));
	json_object_object_add(o, "source", jstr(p->source));
	json_object_object_add(o, "maintainer", jstr(p->maintainer));
	if (p->origin)
		json_object_object_add(o, "origin", jstr(p->origin));
	if (p->candidate)
		json_object_object_add(o, "candidate", jstr(p->candidate));
	return o;
}

json_object *ds_owner_json(const struct ds_owner *o)
{
	if (o->status != DS_OWNER_PACKAGE || !o->pkgs[0]) {
		json_object *j = json_object_new_object();
		json_object_object_add(j, "status", json_object_new_string(
			o->status == DS_OWNER_NOT_OWNED ? "not-owned" : "unknown"));
		return j;
	}
	json_object *j = pkg_json(o->pkgs[0]);
	if (o->npkgs > 1) {
		json_object *also = json_object_new_array();
		for (size_t i = 1; i < o->npkgs && i < DS_OWNER_MAX; i++)
			json_object_array_add(also, pkg_json(o->pkgs[i]));
		json_object_object_add(j, "also_owned_by", also);
	}
	return j;
}

/* Group key of a finding: a package is its name, version and architecture,
 * so two versions or architectures of one package stay apart. */
static char *group_key(enum ds_group_by g, const struct ds_finding *d)
{
	const struct ds_owner *o = &d->owner;
	if (o->status != DS_OWNER_PACKAGE || !o->pkgs[0])
		return ds_xstrdup(o->status == DS_OWNER_NOT_OWNED ? "(not-owned)" : "(unknown)");
	const struct ds_pkg *p = o->pkgs[0];
	if (g == DS_GROUP_MAINTAINER)
		return ds_xstrdup(p->maintainer ? p->maintainer : "(no maintainer)");
	return ds_xasprintf("%s%s%s%s%s", p->name ? p->name : "?", p->version ? " " : "",
	                    p->version ? p->version : "", p->arch ? " " : "", p->arch ? p->arch : "");
}

struct keyed { char *key; struct ds_finding *f; };

static bool unowned(const struct ds_finding *d)
{
	return d->owner.status != DS_OWNER_PACKAGE || !d->owner.pkgs[0];
}

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (unowned(x->f) != unowned(y->f))
		return unowned(x->f) ? 1 : -1;
	int c = strcmp(x->key, y->key);
	return c ? c : ds_finding_cmp(&x->f, &y->f);
}

size_t ds_groups_make(const struct ds_scan *s, enum ds_group_by by, bool with_passes,
                      struct ds_group **out)
{
	struct keyed *k = ds_xcalloc(s->nfindings + 1, sizeof *k);
	size_t n = 0;
	for (size_t i = 0; i < s->nfindings; i++)
		if (with_passes || s->findings[i]->severity != DS_SEV_PASS)
			k[n++] = (struct keyed){ group_key(by, s->findings[i]), s->findings[i] };
	qsort(k, n, sizeof *k, cmp_keyed);
	struct ds_group *g = ds_xcalloc(n + 1, sizeof *g);
	struct ds_finding **all = ds_xcalloc(n + 1, sizeof *all);
	size_t ng = 0;
	for (size_t i = 0; i < n; i++) {
		all[i] = k[i].f;
		if (ng && !strcmp(g[ng - 1].key, k[i].key)) {
			g[ng - 1].n++;
			free(k[i].key);
			continue;
		}
		g[ng++] = (struct ds_group){ k[i].key, k[i].f, all + i, 1 };
	}
	if (!ng)
		free(all);
	free(k);
	*out = g;
	return ng;
}

void ds_groups_free(struct ds_group *g, size_t n)
{
	if (n)
		free(g[0].f);   /* one array behind every group */
	for (size_t i = 0; i < n; i++)
		free(g[i].key);
	free(g);
}

struct ds_strmap *ds_report_names(const char *ext)
{
	struct ds_strmap *used = ds_strmap_new();
	*ds_strmap_put(used, "index.json") = 1;
	char *index = ds_xasprintf("index.%s", ext);
	*ds_strmap_put(used, index) = 1;
	free(index);
	return used;
}

char *ds_report_name(const char *key, const char *ext, struct ds_strmap *used)
{
	char base[81];
	size_t n = 0;
	for (const char *p = key; *p && n < sizeof base - 1; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		          (c >= '0' && c <= '9') || strchr(".+-_", c);
		base[n] = ok && !(n == 0 && c == '.') ? c : '_';
		n++;
	}
	base[n] = '\0';
	if (!n)
		strcpy(base, "_");
	char *name = ds_xasprintf("%s.%s", base, ext);
	for (int i = 2; ds_strmap_get(used, name); i++) {
		free(name);
		name = ds_xasprintf("%s-%d.%s", base, i, ext);
	}
	*ds_strmap_put(used, name) = 1;
	return name;
}

FILE *ds_report_create(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!fp && fd >= 0)
		close(fd);
	return fp;
}

struct ds_scan ds_group_view(const struct ds_scan *s, struct ds_finding **f, size_t n)
{
	struct ds_scan v = *s;
	v.findings = f;
	v.nfindings = n;
	memset(v.stats.by_severity, 0, sizeof v.stats.by_severity);
	v.stats.waived = v.stats.new_findings = v.stats.unchanged = v.stats.absent = 0;
	v.stats.packages = 1;
	v.absent = NULL;   /* the old report's leftovers belong to no package's report */
	for (size_t i = 0; i < n; i++) {
		if (f[i]->severity == DS_SEV_PASS)
			continue;
		v.stats.new_findings += f[i]->baseline == DS_BASELINE_NEW;
		v.stats.unchanged += f[i]->baseline == DS_BASELINE_UNCHANGED;
		if (f[i]->waiver)
			v.stats.waived++;
		else
			v.stats.by_severity[f[i]->severity]++;
	}
	return v;
}

const char *ds_check_skipped(const struct ds_scan *s, const struct ds_check *c)
{
	for (size_t i = 0; i < s->nskipped; i++)
		if (s->skipped[i].check == c)
			return s->skipped[i].why;
	return NULL;
}

bool ds_check_ran(const struct ds_scan *s, size_t i)
{
	return s->enabled[i] && !ds_check_skipped(s, ds_checks[i]);
}
