/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-package verdict of rpm-chksec --all (Steve Grubb, 0.5.2), from
 * the facts the checks' records state (passes included; waivers do not
 * change facts), as their descriptors declare them (check.h, ds_fact):
 *   - a file's RELRO is "no" without PT_GNU_RELRO, "partial" with it but
 *     without BIND_NOW, else "full"; its PIE is "no" for ET_EXEC;
 *   - the package's RELRO is "no" when any ELF file's RELRO is "no" (every
 *     class: important ones, libraries and plain executables alike);
 *     "partial" when none is "no" but a file of an important class
 *     (daemon, setuid, setgid, setcap, network-ip, network-local) has only
 *     partial RELRO (rpm-chksec colours it yellow, and its --all says
 *     "yes"); else "yes";
 *   - the package's PIE is "no" when a file of an important class is not
 *     PIE (libraries and plain executables are not judged);
 *   - the class is the worst (in the order above, then library, exec) of
 *     the files behind a "no" or "partial";
 *   - packages rpm-chksec skips are left out: kernel*, *debuginfo*,
 *     noarch (and dpkg's "all"), gpg-pubkey.
 */
#include <stdlib.h>
#include <string.h>

#include "distsec/verdict.h"
#include "internal.h"

static const char *const class_order[] = {
	"daemon", "setuid", "setgid", "setcap", "network-ip", "network-local", "library", "exec",
};
#define NCLASSES (sizeof class_order / sizeof class_order[0])
#define NIMPORTANT 6   /* the first six: full RELRO and PIE wanted */

static size_t class_rank(const char *c)
{
	for (size_t i = 0; c && i < NCLASSES; i++)
		if (!strcmp(c, class_order[i]))
			return i;
	return NCLASSES - 1;   /* unknown: a plain executable */
}

/* rpm-chksec's package list: egrep -v 'kernel.|debuginfo.|.noarch|gpg-pubkey' */
static bool skipped(const struct ds_pkg *p)
{
	const char *n = p->name, *a = p->arch ? p->arch : "";
	/* in "NAME-VERSION-RELEASE.ARCH" something always follows the name */
	return strstr(n, "kernel") || strstr(n, "debuginfo") || !strcmp(a, "noarch") || !strcmp(a, "all") ||
	       !strcmp(n, "gpg-pubkey");
}

static const char *detail(const struct ds_finding *d, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(d->details, key, &v) ? json_object_get_string(v) : NULL;
}

static const struct ds_fact *fact_for(const struct ds_check *c, enum ds_verdict_input in)
{
	for (const struct ds_fact *f = c->facts; f && f->what; f++)
		if (f->verdict == in)
			return f;
	return NULL;
}

/* The value in d of its check's fact that is the verdict's input in
 * (ds_fact_value); -1 when the check has none or d does not say. */
static int input(const struct ds_finding *d, enum ds_verdict_input in)
{
	const struct ds_fact *f = fact_for(d->check, in);
	return f ? ds_fact_value(f, d->details, (int)d->severity) : -1;
}

static bool has_input(const struct ds_check *c)
{
	for (const struct ds_fact *f = c->facts; f && f->what; f++)
		if (f->verdict != DS_VERDICT_NONE)
			return true;
	return false;
}

/* relro: 2 no, 1 partial, 0 yes; pie: 1 no; cls: the worst class's rank */
struct acc {
	const struct ds_pkg *pkg;   /* the first record's: name, version, arch */
	int relro, pie;
	size_t cls;
};

/* One entry per package build: two versions of one NAME.ARCH in a scan
 * (an old and a new build side by side) are judged apart. */
static struct acc *acc_for(struct ds_strmap *idx, struct acc **v, size_t *n, size_t *cap,
                           const struct ds_pkg *p)
{
	char *key = ds_xasprintf("%s%s%s", p->name, p->version ? p->version : "",
	                         p->arch ? p->arch : "");
	uintptr_t *slot = ds_strmap_put(idx, key);
	free(key);
	if (!*slot) {
		struct acc a = { p, 0, 0, NCLASSES };
		ds_push(*v, *n, *cap, a);
		*slot = *n;
	}
	return &(*v)[*slot - 1];
}

/* NAME.ARCH, rpm-chksec's key; NAME-VERSION.ARCH when the scan holds
 * more than one version of NAME.ARCH (dups: NAME.ARCH -> builds). */
static char *package_key(const struct ds_pkg *p, struct ds_strmap *dups)
{
	char *key = ds_xasprintf("%s.%s", p->name, p->arch ? p->arch : "");
	uintptr_t *c = ds_strmap_get(dups, key);
	if (c && *c > 1) {
		free(key);
		key = ds_xasprintf("%s-%s.%s", p->name, p->version ? p->version : "",
		                   p->arch ? p->arch : "");
	}
	return key;
}

static void judge(struct acc *a, const struct ds_finding *d)
{
	const char *cls = detail(d, "class");
	size_t rank = class_rank(cls);
	bool important = rank < NIMPORTANT;
	int bad = 0;
	if (fact_for(d->check, DS_VERDICT_RELRO)) {
		int relro = input(d, DS_VERDICT_RELRO);   /* 0 none, 1 partial, 2 full */
		if (relro < 0)   /* no level (a static program's "not applicable"): the segment decides */
			relro = input(d, DS_VERDICT_RELRO_SEGMENT) == 1
			        ? (input(d, DS_VERDICT_BIND_NOW) == 1 ? 2 : 1) : 0;
		int level = relro == 0 ? 2 : relro == 1 && important ? 1 : 0;
		if (level > a->relro)
			a->relro = level;
		bad = level;
	}
	if (important && input(d, DS_VERDICT_ELF_TYPE) == 0)   /* ET_EXEC: not PIE */
		bad = a->pie = 1;
	if (bad && rank < a->cls)
		a->cls = rank;
}

static int by_package(const void *a, const void *b)
{
	return strcmp(((const struct ds_verdict *)a)->package, ((const struct ds_verdict *)b)->package);
}

size_t ds_verdicts(const struct ds_scan *s, struct ds_verdict **out)
{
	struct ds_strmap *idx = ds_strmap_new();
	struct acc *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < s->ninputs; i++)   /* package files: listed even without ELF */
		if (s->inputs[i]->pkg.name && !skipped(&s->inputs[i]->pkg))
			acc_for(idx, &v, &n, &cap, &s->inputs[i]->pkg);
	for (size_t i = 0; i < s->nfindings; i++) {
		const struct ds_finding *d = s->findings[i];
		const struct ds_pkg *p = d->owner.status == DS_OWNER_PACKAGE ? d->owner.pkgs[0] : NULL;
		if (!has_input(d->check) || !p || !p->name || skipped(p))
			continue;
		judge(acc_for(idx, &v, &n, &cap, p), d);
	}
	ds_strmap_free(idx);
	struct ds_strmap *dups = ds_strmap_new();
	for (size_t i = 0; i < n; i++) {
		char *key = ds_xasprintf("%s.%s", v[i].pkg->name, v[i].pkg->arch ? v[i].pkg->arch : "");
		++*ds_strmap_put(dups, key);
		free(key);
	}
	struct ds_verdict *r = ds_xcalloc(n ? n : 1, sizeof *r);
	for (size_t i = 0; i < n; i++) {
		r[i].package = package_key(v[i].pkg, dups);
		r[i].relro = v[i].relro == 2 ? "no" : v[i].relro == 1 ? "partial" : "yes";
		r[i].pie = v[i].pie ? "no" : "yes";
		r[i].cls = v[i].cls < NCLASSES ? class_order[v[i].cls] : NULL;
	}
	ds_strmap_free(dups);
	free(v);
	qsort(r, n, sizeof *r, by_package);
	*out = r;
	return n;
}

void ds_verdicts_free(struct ds_verdict *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].package);
	free(v);
}
