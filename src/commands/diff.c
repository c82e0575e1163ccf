/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * distsec diff OLD NEW: what got worse between two builds, per package, as
 * rpminspect gates a Fedora build on the previous one.  Each side is a
 * distsec JSON report, or package files (one, a .changes, or a directory of
 * the files a backend names its package files by, pkgfile_suffixes)
 * scanned here with passes, and both end up as the JSON
 * record of docs/DESIGN.md, so the comparison is one code path.
 *
 * Packages are matched by name and architecture (versions differ), then by
 * name alone, then a leftover old package and a leftover new one sharing
 * files are one package renamed; a report's packages are those of its
 * findings and of its inputs (a clean package file has no finding).  Files
 * are matched by path, else by the name ds_path_same_file gives (versions
 * in file and directory names), and findings by that name.  Per file the
 * hardening facts come from the ELF checks' records (passes included):
 * lost PIE, RELRO (full > partial > none), BIND_NOW, stack protector,
 * FORTIFY; new executable stack, TEXTREL, RPATH/RUNPATH; a file that became
 * setuid, setgid or setcap (the program class of its ELF records), when the
 * old side says what the file was (it has passes, or a record of the file
 * naming its class); privileges any file gained (setuid or setgid,
 * capabilities new or wider, world-writable: the facts checks declare as
 * privileges; their absence counts when the old side ran the check), a
 * program a unit now starts, a daemon's owner no longer root.  A
 * regression's severity is that of the new build's finding of the same
 * check on the file, at least warning; a privilege gained is an error (it
 * needs a review), a new daemon a warning.  New findings of any check are those whose
 * check, path, rule and severity the old package lacked (the --baseline
 * identity).  --waivers applies to both sides' records as in scan; a
 * regression is waived when its file's record of the fact's check is, or
 * when the waiver that would waive that check's finding on the file
 * matches (new-setuid/setgid/setcap: that of the check declaring the
 * program class).  Exit status as for scan: 1 when a regression or a new
 * finding that is not waived reaches --fail-on.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/output.h"
#include "report.h"

/* A fact diff compares (a check's descriptor declares it, check.h), at
 * most MAXFACTS of them: the arrays of struct dfile are that long. */
enum { MAXFACTS = 16 };
struct dfact {
	const struct ds_check *check;
	const struct ds_fact *fact;
};

/* The facts of privilege: whose records say them and at which key. */
enum { P_SETID, P_CAPS, P_WW, P_OWNER, NPRIV };

struct factset {
	struct dfact f[MAXFACTS];  /* those with a regression id, lost ones first */
	size_t n;
	struct dfact cls;          /* the program class (its check's waivers: new-setuid ...) */
	struct dfact priv[NPRIV];  /* check NULL: no check says it */
};

/* Every check's facts with a regression id, the lost ones first, each in
 * the checks' order: the order a file's regressions are listed in. */
static void facts_init(struct factset *fs)
{
	static const enum ds_privilege priv_of[NPRIV] = {
		[P_SETID] = DS_PRIV_SETID, [P_CAPS] = DS_PRIV_CAPS,
		[P_WW] = DS_PRIV_WORLD_WRITABLE, [P_OWNER] = DS_PRIV_OWNER,
	};
	*fs = (struct factset){ .n = 0 };
	for (int lost = 1; lost >= 0; lost--)
		for (size_t i = 0; i < ds_nchecks; i++)
			for (const struct ds_fact *f = ds_checks[i]->facts; f && f->what; f++) {
				struct dfact d = { ds_checks[i], f };
				if (lost && f->type == DS_FACT_CLASS && !fs->cls.check)
					fs->cls = d;
				for (int k = 0; lost && k < NPRIV; k++)
					if (f->privilege == priv_of[k] && !fs->priv[k].check)
						fs->priv[k] = d;
				if (!f->regression || f->lost != lost)
					continue;
				if (fs->n == MAXFACTS)
					abort();   /* descriptors past MAXFACTS: a programming error */
				fs->f[fs->n++] = d;
			}
}

static const char *id_of(const struct dfact *d)
{
	return d->check ? d->check->id : "(none)";
}

/* An explain text with @CLASS@, @SETID@, @CAPS@, @WW@ and @OWNER@ spelt as
 * the ids of the checks that state those facts. */
static char *explain_fill(const struct factset *fs, const char *t)
{
	static const char *const mark[] = { "@CLASS@", "@SETID@", "@CAPS@", "@WW@", "@OWNER@" };
	const struct dfact *by[] = { &fs->cls, &fs->priv[P_SETID], &fs->priv[P_CAPS],
	                             &fs->priv[P_WW], &fs->priv[P_OWNER] };
	char *out = ds_xstrdup(t);
	for (size_t k = 0; k < sizeof mark / sizeof mark[0]; k++)
		for (char *at; (at = strstr(out, mark[k]));) {
			char *next = ds_xasprintf("%.*s%s%s", (int)(at - out), out, id_of(by[k]),
			                          at + strlen(mark[k]));
			free(out);
			out = next;
		}
	return out;
}

/* Privilege gained, for explain: what each id means, where diff learns
 * it, its severity. */
static const struct {
	const char *kind, *why, *from, *sev;
} priv_kinds[] = {
	{ "new-setuid", "a file that was not setuid is now, or a new file is: it runs with its "
	  "owner's privileges (root's, usually), so every bug in it is a privilege escalation; "
	  "a new one needs a review", "the program class of the file's ELF records, or the "
	  "@SETID@ record of any other file (a script, data) (when the old side says what the "
	  "file was)", "always error; waived by a waiver of @CLASS@ for the file (of @SETID@ "
	  "for a file that is not an ELF program)" },
	{ "new-setgid", "a file that was not setgid is now, or a new file is: it runs with its "
	  "group's privileges (shadow, disk, ...), which a bug in it hands to any user",
	  "the program class of the file's ELF records, or the @SETID@ record of any other "
	  "file (when the old side says what the file was)", "always error; waived by a waiver of "
	  "@CLASS@ for the file (of @SETID@ for a file that is not an ELF program)" },
	{ "new-setcap", "a file that had no file capabilities has some now, or a new file does: "
	  "it runs with those capabilities of root's (cap_net_raw, cap_sys_admin ...)",
	  "the program class of the file's ELF records, or the file's @CAPS@ record "
	  "(the value shown)", "always error; waived by a waiver of @CLASS@ for the file (of "
	  "@CAPS@ when no ELF record classes it setcap)" },
	{ "wider-caps", "the file's capabilities grant more than before: a capability or a flag "
	  "(e, p, i) the old build did not give, shown old -> new (cap_net_raw=ep -> "
	  "cap_net_raw,cap_sys_admin=ep)", "the @CAPS@ records of both builds",
	  "always error; waived by a waiver of @CAPS@ for the file" },
	{ "new-world-writable", "a file or directory any user could not write before can be "
	  "written now (a directory without the sticky bit), or a new one is so: whatever reads it "
	  "reads what any user put there", "the @WW@ records of both builds (when "
	  "the old build was scanned with that check)", "always error; waived by a waiver of "
	  "@WW@ for the file" },
	{ "new-daemon", "a program that no systemd service or SysV init script started before is "
	  "started by one now (a new unit, or a new program): it runs as root at boot, so its "
	  "hardening and its code need a review", "the program class of the file's ELF records "
	  "(daemon); a unit that starts a script is not seen", "warning; waived by a waiver of "
	  "@CLASS@ for the file" },
	{ "new-owner", "a program root runs (a daemon) was owned by root and is owned by another "
	  "user now: that user can replace what root runs", "the owner in the @OWNER@ records of "
	  "a daemon in both builds (a package's user name, else the uid)", "always error; waived "
	  "by a waiver of @CLASS@ for the file" },
};

char *ds_diff_explain(const char *id)
{
	struct factset fs;
	facts_init(&fs);
	for (size_t i = 0; i < fs.n; i++) {
		const struct ds_fact *fa = fs.f[i].fact;
		const char *check = fs.f[i].check->id;
		if (!strcmp(id, fa->regression))
			return ds_xasprintf("%s: a regression `distsec diff` reports: %s %s between the "
			                    "old and the new build of a package\n\nWhat: %s.\n\nFrom: "
			                    "the %s records of both builds (passes included: report "
			                    "sides need scan -v); see 'distsec explain %s'.\n\n"
			                    "Severity: that of the new build's %s finding on the file, "
			                    "at least warning.\n", fa->regression, fa->what,
			                    fa->lost ? "lost" : "added", fa->why, check, check, check);
	}
	for (size_t i = 0; i < sizeof priv_kinds / sizeof priv_kinds[0]; i++)
		if (!strcmp(id, priv_kinds[i].kind)) {
			char *from = explain_fill(&fs, priv_kinds[i].from);
			char *sev = explain_fill(&fs, priv_kinds[i].sev);
			char *t = ds_xasprintf("%s: a regression `distsec diff` reports\n\nWhat: %s.\n\n"
			                       "From: %s.\n\nSeverity: %s.\n", priv_kinds[i].kind,
			                       priv_kinds[i].why, from, sev);
			free(from);
			free(sev);
			return t;
		}
	return NULL;
}

struct dfile {
	const char *path;
	const struct ds_report_finding *rec;   /* a record of it (owner, for waivers) */
	bool waived[MAXFACTS];     /* the new build's finding of the fact's check is waived */
	bool class_known;          /* a record names its program class */
	int fact[MAXFACTS];        /* -1 unknown; a level's index (RELRO 0 none, 1 partial,
	                            * 2 full); else 0/1 */
	int sev[MAXFACTS];         /* worst severity of the fact's check on the file, -1 none */
	const char *setid;         /* "setuid", "setgid", "setcap" or NULL */
	bool setid_mode;           /* setid comes from a P_SETID record (no ELF class) */
	bool daemon;               /* its ELF records class it a daemon */
	const char *owner;         /* a daemon's owner (P_OWNER's record), or NULL */
	const char *caps;          /* the file's capabilities (P_CAPS's record), or NULL */
	const char *ww_mode;       /* its mode when P_WW's check has a finding, or NULL */
	bool pwaived[NPRIV];       /* the new build's finding of the privilege check is waived */
	size_t next;               /* the package's next file: index in files + 1, 0 none */
};

struct dpackage {
	const char *name, *version, *arch;
	size_t first, last;        /* its files: index in the side's files + 1, 0 none */
	size_t nf;
	const struct ds_report_finding **finds;   /* its findings (passes left out) */
	size_t nfinds, findcap;
	struct dpackage *peer;
	bool renamed;
	size_t shared;             /* pair_packages' count for the package it pairs */
};

struct side {
	const char *arg;
	struct ds_report *rep;
	struct dpackage *p;
	size_t n, cap;
	struct ds_strmap *index;   /* "name\037arch" -> index in p + 1 */
	struct dfile *files;       /* every package's, one array (no allocation per package) */
	size_t nfiles, filecap;
	struct ds_strmap *fileidx; /* "name\037arch\037path" -> index in files + 1 */
	struct ds_strmap *sameidx; /* the same with ds_path_same_file's name: the first */
	bool passes;               /* the report has pass records */
	bool ran[NPRIV];           /* the report's checks_run lists the check of fact i */
	struct ds_strmap *strs;    /* the strings the files keep from details */
};

struct diff_opts {
	bool json, quiet;
	int fail_on;
	const char *output;
	const char *waivers_file;  /* --waivers: applied here to both sides' records */
	struct ds_waivers *waivers;
	struct ds_options scan;
	struct factset facts;
};

static const char *str_of(json_object *o, const char *key)
{
	json_object *v;
	return o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
	       ? json_object_get_string(v) : NULL;
}

/* ---- reading a side ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The package files of a directory, sorted (caller frees). */
static char **dir_packages(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t cap = 0;
	*n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && ds_pkgfile_suffix(e->d_name)) {
			char *p = ds_xasprintf("%s/%s", dir, e->d_name);
			ds_push(v, *n, cap, p);
		}
	if (d)
		closedir(d);
	if (*n)
		qsort(v, *n, sizeof *v, cmp_str);
	return v;
}

static bool is_report(const char *path)
{
	FILE *fp = fopen(path, "re");
	int c = EOF;
	while (fp && (c = fgetc(fp)) != EOF && strchr(" \t\r\n", c))
		;
	if (fp)
		fclose(fp);
	return c == '{';
}

/* The package files scanned here, rendered and read as a JSON report. */
static struct ds_report *scan_side(const char *const *files, size_t n, const struct diff_opts *o)
{
	struct ds_options opt = o->scan;
	opt.package_files = files;
	opt.npackage_files = n;
	struct ds_error err = DS_ERROR_INIT;
	struct ds_scan *s = ds_scan_new(&opt, &err);
	char *buf = NULL;
	size_t len = 0;
	struct ds_report *r = NULL;
	if (!s || ds_scan_run(s, &err) != 0) {
		if (err.msg)   /* else said already, as a warning */
			ds_warn("%s", err.msg);
	} else {
		FILE *mem = open_memstream(&buf, &len);
		if (mem) {   /* closed once, whatever render() and fclose() say */
			bool rendered = ds_output_find("json")->render(s, mem) == 0;
			if (fclose(mem) == 0 && rendered && !(r = ds_report_parse(buf, len, &err)))
				ds_warn("diff: the report of %s: %s", files[0], ds_error_msg(&err));
		}
	}
	ds_error_clear(&err);
	free(buf);
	ds_scan_free(s);
	return r;
}

static int load_side(struct side *sd, const struct diff_opts *o)
{
	struct stat st;
	if (stat(sd->arg, &st) != 0) {
		ds_warn("diff: %s: %s", sd->arg, strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode) && is_report(sd->arg)) {
		struct ds_error err = DS_ERROR_INIT;
		if (!(sd->rep = ds_report_read(sd->arg, &err)))
			ds_warn("diff: %s", ds_error_msg(&err));
		ds_error_clear(&err);
		return sd->rep ? 0 : -1;
	}
	size_t n = 1;
	char **list = S_ISDIR(st.st_mode) ? dir_packages(sd->arg, &n) : NULL;
	if (S_ISDIR(st.st_mode) && !n) {
		ds_warn("diff: %s: no package files in it", sd->arg);
		return -1;
	}
	sd->rep = scan_side(list ? (const char *const *)list : &sd->arg, n, o);
	for (size_t i = 0; list && i < n; i++)
		free(list[i]);
	free(list);
	return sd->rep ? 0 : -1;
}

/* ---- the model: packages, their files' facts, their findings ---- */

static struct dpackage *package_of(struct side *sd, const struct ds_pkg *o)
{
	const char *name = o && o->name ? o->name : "(no package)";
	const char *arch = o && o->arch ? o->arch : "";
	char *key = ds_xasprintf("%s\037%s", name, arch);
	uintptr_t *slot = ds_strmap_put(sd->index, key);
	free(key);
	if (!*slot) {
		struct dpackage p = { .name = name, .arch = arch };
		p.version = o && o->version ? o->version : "";
		ds_push(sd->p, sd->n, sd->cap, p);
		*slot = sd->n;
	}
	return &sd->p[*slot - 1];
}

static struct dpackage *owner_package(struct side *sd, const struct ds_owner *owner)
{
	return package_of(sd, owner->status == DS_OWNER_PACKAGE ? owner->pkgs[0] : NULL);
}

/* p's file at path, or NULL (add: made when missing); a lookup falls back
 * to the file of the same ds_path_same_file name. */
static struct dfile *file_of(struct side *sd, struct dpackage *p, const char *path, bool add)
{
	char *key = ds_xasprintf("%s\037%s\037%s", p->name, p->arch, path);
	uintptr_t *slot = add ? ds_strmap_put(sd->fileidx, key) : ds_strmap_get(sd->fileidx, key);
	free(key);
	char *same = ds_path_same_file(path);
	key = ds_xasprintf("%s\037%s\037%s", p->name, p->arch, same);
	free(same);
	uintptr_t *alike = add ? ds_strmap_put(sd->sameidx, key) : ds_strmap_get(sd->sameidx, key);
	free(key);
	if (!add && !slot && alike)
		slot = alike;
	if (slot && !*slot) {
		struct dfile f = { .path = path };
		for (int i = 0; i < MAXFACTS; i++)
			f.fact[i] = f.sev[i] = -1;
		ds_push(sd->files, sd->nfiles, sd->filecap, f);
		*slot = sd->nfiles;
		if (p->last)
			sd->files[p->last - 1].next = sd->nfiles;
		else
			p->first = sd->nfiles;
		p->last = sd->nfiles;
		p->nf++;
		if (!*alike)
			*alike = sd->nfiles;
	}
	return slot ? &sd->files[*slot - 1] : NULL;
}

static void set_fact(struct dfile *f, int fact, int value, int sev)
{
	if (value >= 0)
		f->fact[fact] = value;
	if (sev > f->sev[fact])
		f->sev[fact] = sev;
}

/* What one record says about its file. */
static void record_facts(const struct factset *fs, struct side *sd, struct dfile *f,
                         const struct ds_check *check, json_object *details, int sev,
                         bool waived)
{
	const char *cls = fs->cls.check ? str_of(details, fs->cls.fact->key) : NULL;
	static const char *const setid[] = { "setuid", "setgid", "setcap" };
	f->class_known |= cls != NULL;
	f->daemon |= cls && !strcmp(cls, "daemon");
	for (int i = 0; check && i < NPRIV; i++)
		if (check == fs->priv[i].check)
			f->pwaived[i] |= waived;
	for (size_t i = 0; cls && i < sizeof setid / sizeof setid[0]; i++)
		if (!strcmp(cls, setid[i]))
			f->setid = setid[i];   /* details is freed after this call */
	if (!check)
		return;   /* a check this distsec does not have: no fact of it is known */
	int finding = sev > DS_SEV_PASS ? sev : -1;
	for (size_t i = 0; i < fs->n; i++) {
		if (fs->f[i].check != check)
			continue;
		f->waived[i] |= waived;
		int v = ds_fact_value(fs->f[i].fact, details, sev);
		set_fact(f, (int)i, v == -2 ? 0 : v, finding);   /* an unknown level: the worst */
	}
	const char *v;
	const struct dfact *p = fs->priv;
	if (check == p[P_OWNER].check && (v = str_of(details, p[P_OWNER].fact->key)))
		f->owner = ds_strmap_key(sd->strs, v);
	else if (check == p[P_CAPS].check && (v = str_of(details, p[P_CAPS].fact->key)))
		f->caps = ds_strmap_key(sd->strs, v);
	else if (check == p[P_WW].check && sev > DS_SEV_PASS)
		f->ww_mode = ds_strmap_key(sd->strs, (v = str_of(details, p[P_WW].fact->key)) ? v : "");
	else if (check == p[P_SETID].check && !f->setid) {
		f->setid = ds_fact_value(p[P_SETID].fact, details, sev) == 1 ? "setuid" : "setgid";
		f->setid_mode = true;
	}
}

/* --waivers on a record, as finish() applies it to a scan's finding; a
 * record a report has waived stays waived. */
static void waive_record(struct ds_report_finding *d, struct ds_waivers *ws)
{
	if (d->waived || !ws || !d->check || d->severity == DS_SEV_PASS)
		return;
	struct ds_finding f = { .check = d->check, .severity = d->severity,
	                        .path = (char *)d->path, .owner = d->owner };
	const char *why = ds_waiver_for(ws, &f);
	if (why) {
		d->waived = true;
		d->waiver = why;
	}
}

static void build_side(struct side *sd, const struct factset *fs, struct ds_waivers *ws)
{
	sd->index = ds_strmap_new();
	sd->fileidx = ds_strmap_new();
	sd->sameidx = ds_strmap_new();
	sd->strs = ds_strmap_new();
	for (size_t i = 0; i < sd->rep->sum.nchecks_run; i++)
		for (int k = 0; k < NPRIV; k++)
			sd->ran[k] |= fs->priv[k].check &&
			              !strcmp(sd->rep->sum.checks_run[i], fs->priv[k].check->id);
	for (size_t i = 0; i < sd->rep->ninputs; i++)   /* clean package files too */
		if (sd->rep->inputs[i].pkg && sd->rep->inputs[i].pkg->name)
			package_of(sd, sd->rep->inputs[i].pkg);
	for (size_t i = 0; i < sd->rep->nfindings; i++) {
		struct ds_report_finding *d = &sd->rep->findings[i];
		waive_record(d, ws);
		struct dpackage *p = owner_package(sd, &d->owner);
		json_object *details = ds_report_details(d);
		struct dfile *f = file_of(sd, p, d->path, true);
		if (!f->rec)
			f->rec = d;
		record_facts(fs, sd, f, d->check, details, (int)d->severity, d->waived);
		json_object_put(details);
		if (d->severity == DS_SEV_PASS)
			sd->passes = true;
		else
			ds_push(p->finds, p->nfinds, p->findcap, d);
	}
}

/* A path that many leftover old packages ship says nothing about which
 * one a new package was renamed from, and would make the search
 * quadratic: such paths are not counted. */
#define RENAME_FANOUT 16

/* By name and architecture, by name, then renamed (most files shared;
 * the first such old package in order).  Both sides are sorted. */
static void pair_packages(struct side *old, struct side *new)
{
	for (size_t i = 0; i < new->n; i++) {   /* name and architecture */
		struct dpackage *b = &new->p[i];
		char *key = ds_xasprintf("%s\037%s", b->name, b->arch);
		uintptr_t *slot = ds_strmap_get(old->index, key);
		free(key);
		if (slot) {
			b->peer = &old->p[*slot - 1];
			b->peer->peer = b;
		}
	}
	/* by name: the first old package of the name not yet paired (the
	 * old side is sorted, so a name's packages are adjacent) */
	struct ds_strmap *by_name = ds_strmap_new();
	for (size_t j = old->n; j-- > 0;)
		*ds_strmap_put(by_name, old->p[j].name) = j + 1;
	for (size_t i = 0; i < new->n; i++) {
		struct dpackage *b = &new->p[i];
		uintptr_t *next = b->peer ? NULL : ds_strmap_get(by_name, b->name);
		while (next && *next && *next <= old->n && !strcmp(old->p[*next - 1].name, b->name) &&
		       old->p[*next - 1].peer)
			++*next;   /* each one is passed over once */
		if (next && *next <= old->n && !strcmp(old->p[*next - 1].name, b->name)) {
			b->peer = &old->p[*next - 1];
			b->peer->peer = b;
		}
	}
	ds_strmap_free(by_name);
	/* renamed: the leftover old packages of each path */
	struct ds_strmap *owners = ds_strmap_new();   /* path -> list index + 1 */
	size_t (*lists)[RENAME_FANOUT + 1] = NULL;    /* [0]: count, then old indices */
	size_t nlists = 0, listcap = 0;
	for (size_t j = 0; j < old->n; j++)
		for (size_t k = old->p[j].peer ? 0 : old->p[j].first; k; k = old->files[k - 1].next) {
			uintptr_t *slot = ds_strmap_put(owners, old->files[k - 1].path);
			if (!*slot) {
				ds_grow(lists, nlists + 1, listcap);
				lists[nlists++][0] = 0;
				*slot = nlists;
			}
			size_t *l = lists[*slot - 1];
			if (l[0] <= RENAME_FANOUT && ++l[0] <= RENAME_FANOUT)
				l[l[0]] = j;
		}
	size_t *touched = ds_xcalloc(old->n + 1, sizeof *touched), ntouched;
	for (size_t i = 0; i < new->n; i++) {
		struct dpackage *b = &new->p[i], *best = NULL;
		ntouched = 0;
		for (size_t k = b->peer ? 0 : b->first; k; k = new->files[k - 1].next) {
			uintptr_t *slot = ds_strmap_get(owners, new->files[k - 1].path);
			size_t *l = slot ? lists[*slot - 1] : NULL;
			for (size_t m = 1; l && l[0] <= RENAME_FANOUT && m <= l[0]; m++) {
				struct dpackage *a = &old->p[l[m]];
				if (a->peer)
					continue;
				if (!a->shared++)
					touched[ntouched++] = l[m];
			}
		}
		for (size_t t = 0; t < ntouched; t++) {
			struct dpackage *a = &old->p[touched[t]];
			if (!best || a->shared > best->shared || (a->shared == best->shared && a < best))
				best = a;
		}
		for (size_t t = 0; t < ntouched; t++)
			old->p[touched[t]].shared = 0;
		if (best) {
			b->peer = best;
			best->peer = b;
			b->renamed = true;
		}
	}
	free(touched);
	free(lists);
	ds_strmap_free(owners);
}

/* ---- comparing and reporting ---- */

struct tally { size_t compared, renamed, added, removed, regressions, news, fixed; bool gate; };

struct report {
	FILE *out;
	json_object *pkgs;         /* --format json */
	json_object *cur;          /* the package being written */
	const struct diff_opts *o;
	struct side *old, *new;
	struct tally t;
	/* text: a package compared under its own name gets its header only
	 * with its first line, so an unchanged one prints nothing */
	const struct dpackage *held_old, *held_new;
	ds_regression_fn *sink;    /* ds_diff_privileges: regressions go there, nothing written */
	void *sink_arg;
};

static void held_header(struct report *r);

static void note_gate(struct report *r, int sev, bool waived)
{
	if (!waived && r->o->fail_on >= 0 && sev >= r->o->fail_on)
		r->t.gate = true;
}

static void put_line(struct report *r, const char *sev, const char *what, const char *path,
                     const char *text)
{
	held_header(r);
	char *w = ds_escape(what);
	fprintf(r->out, "  %-7s  %-24s  ", sev, w);
	ds_put_escaped(r->out, path);
	fputs("  ", r->out);
	ds_put_escaped(r->out, text);
	fputc('\n', r->out);
	free(w);
}

/* Whether --waivers waives check's finding on f, or f's record of the
 * fact is waived. */
static bool regression_waived(const struct report *r, const struct dfile *f, int fact,
                              const struct ds_check *c)
{
	if (fact >= 0 && f->waived[fact])
		return true;
	if (!r->o->waivers || !c || !f->rec)
		return false;
	struct ds_finding d = { .check = c, .severity = DS_SEV_ERROR, .path = (char *)f->path,
	                        .owner = f->rec->owner };
	return ds_waiver_for(r->o->waivers, &d) != NULL;
}

/* a: the old build's file (NULL: none), whose name is shown when it differs */
static void regression(struct report *r, const struct dfile *a, const struct dfile *f,
                       const char *kind, int sev, bool waived, const char *text)
{
	r->t.regressions++;
	note_gate(r, sev, waived);
	const char *was = a && strcmp(a->path, f->path) ? a->path : NULL;
	if (!r->o->json) {
		char *line = ds_xasprintf("%s%s%s%s%s", text, was ? " (was " : "", was ? was : "",
		                          was ? ")" : "", waived ? " (waived)" : "");
		put_line(r, ds_severity_name(sev), kind, f->path, line);
		free(line);
		return;
	}
	json_object *o = json_object_new_object(), *list;
	json_object_object_add(o, "kind", json_object_new_string(kind));
	json_object_object_add(o, "path", ds_json_string(f->path));
	if (was)
		json_object_object_add(o, "old_path", ds_json_string(was));
	if (waived)
		json_object_object_add(o, "waived", json_object_new_boolean(1));
	json_object_object_add(o, "severity", json_object_new_string(ds_severity_name(sev)));
	json_object_object_add(o, "message", json_object_new_string(text));
	if (!json_object_object_get_ex(r->cur, "regressions", &list)) {
		list = json_object_new_array();
		json_object_object_add(r->cur, "regressions", list);
	}
	json_object_array_add(list, o);
}

/* Whether capability text b ("cap_a,cap_b=ep cap_c+i") grants name with
 * flag f, name being n bytes. */
static bool caps_grant(const char *b, const char *name, size_t n, char f)
{
	for (const char *p = b; *p;) {
		size_t clause = strcspn(p, " "), names = strcspn(p, "=+");
		if (names > clause)
			names = clause;
		bool flag = memchr(p + names, f, clause - names) != NULL;
		for (const char *q = p; flag && q < p + names;) {
			size_t len = strcspn(q, ",=+");
			if (len == n && !strncmp(q, name, n))
				return true;
			q += len + 1;
		}
		p += clause + (p[clause] != '\0');
	}
	return false;
}

/* Whether capability text b grants a capability or a flag a does not. */
static bool caps_wider(const char *a, const char *b)
{
	for (const char *p = b; *p;) {
		size_t clause = strcspn(p, " "), names = strcspn(p, "=+");
		if (names > clause)
			names = clause;
		for (const char *q = p; q < p + names;) {
			size_t len = strcspn(q, ",=+");
			for (const char *fl = p + names + 1; fl < p + clause; fl++)
				if (!caps_grant(a, q, len, *fl))
					return true;
			q += len + 1;
		}
		p += clause + (p[clause] != '\0');
	}
	return false;
}

static bool root_owned(const char *owner)
{
	return !strcmp(owner, "root") || !strcmp(owner, "0");
}

/* A privilege regression, stated by check's records: text is freed here. */
static void priv_regression(struct report *r, const struct dfile *a, const struct dfile *b,
                            const char *kind, const struct ds_check *check, int sev,
                            bool waived, char *text)
{
	if (r->sink) {
		struct ds_regression g = {
			.kind = kind, .path = b->path, .text = text, .check = check,
			.old_path = a && strcmp(a->path, b->path) ? a->path : NULL,
			.owner = b->rec ? &b->rec->owner : NULL, .severity = sev, .waived = waived,
		};
		r->sink(r->sink_arg, &g);
	} else
		regression(r, a, b, kind, sev, waived, text);
	free(text);
}

/* Privileges b has that a lacked: set[ug]id, file capabilities (new or
 * wider), world-writable, started as a daemon, a daemon's owner no longer
 * root.  known: the old side would have a record of a's class; ran: the
 * old side ran each privilege check (a missing finding means "did not"). */
static void compare_privileges(struct report *r, const struct dfile *a, const struct dfile *b,
                               bool known, const bool ran[NPRIV])
{
	/* a file without records on the old side may still have been there:
	 * only an ELF file's class (in every record of it) tells */
	const struct factset *fs = &r->o->facts;
	const char *fresh = a ? "" : " (a new file)";
	bool setcap_said = false;
	if (b->setid && (b->setid_mode ? ran[P_SETID] || known : known) &&
	    (!a || !a->setid || strcmp(a->setid, b->setid))) {
		char *kind = ds_xasprintf("new-%s", b->setid);
		const struct ds_check *check = b->setid_mode ? fs->priv[P_SETID].check : fs->cls.check;
		bool waived = (b->setid_mode && b->pwaived[P_SETID]) ||
		              regression_waived(r, b, -1, check);
		setcap_said = !strcmp(b->setid, "setcap");
		priv_regression(r, a, b, kind, check, DS_SEV_ERROR, waived,
		                ds_xasprintf("new %s file%s%s%s%s", b->setid, b->setid_mode ? "" : fresh,
		                             setcap_said && b->caps ? " (" : "",
		                             setcap_said && b->caps ? b->caps : "",
		                             setcap_said && b->caps ? ")" : ""));
		free(kind);
	}
	const struct ds_check *caps = fs->priv[P_CAPS].check;
	bool caps_waived = b->pwaived[P_CAPS] || regression_waived(r, b, -1, caps);
	if (b->caps && !setcap_said && ran[P_CAPS] && (!a || !a->caps))
		priv_regression(r, a, b, "new-setcap", caps, DS_SEV_ERROR, caps_waived,
		                ds_xasprintf("new file capabilities %s", b->caps));
	else if (b->caps && a && a->caps && caps_wider(a->caps, b->caps))
		priv_regression(r, a, b, "wider-caps", caps, DS_SEV_ERROR, caps_waived,
		                ds_xasprintf("file capabilities %s -> %s", a->caps, b->caps));
	if (b->ww_mode && ran[P_WW] && (!a || !a->ww_mode))
		priv_regression(r, a, b, "new-world-writable", fs->priv[P_WW].check, DS_SEV_ERROR,
		                b->pwaived[P_WW] || regression_waived(r, b, -1, fs->priv[P_WW].check),
		                ds_xasprintf("world-writable now (mode %s)", b->ww_mode));
	if (b->daemon && known && (!a || !a->daemon))
		priv_regression(r, a, b, "new-daemon", fs->cls.check, DS_SEV_WARNING,
		                regression_waived(r, b, -1, fs->cls.check),
		                ds_xasprintf("now started by a systemd service or init script%s", fresh));
	if (b->daemon && b->owner && !root_owned(b->owner) && a && a->daemon && a->owner &&
	    root_owned(a->owner))
		priv_regression(r, a, b, "new-owner", fs->cls.check, DS_SEV_ERROR,
		                regression_waived(r, b, -1, fs->cls.check),
		                ds_xasprintf("owner %s -> %s of a program root runs", a->owner, b->owner));
}

/* old_knows: the old side would have a record of a's class (it has passes,
 * or it has no package to compare with) */
static void compare_file(struct report *r, const struct dfile *a, const struct dfile *b,
                         bool old_knows, const bool ran[NPRIV])
{
	compare_privileges(r, a, b, a ? a->class_known || old_knows : old_knows, ran);
	const struct factset *fs = &r->o->facts;
	for (size_t i = 0; a && i < fs->n; i++) {
		const struct ds_fact *fa = fs->f[i].fact;
		int was = a->fact[i], now = b->fact[i];
		bool worse = fa->lost ? was >= 0 && now >= 0 && now < was : now == 1 && was != 1;
		if (!worse)
			continue;
		int sev = b->sev[i] > DS_SEV_WARNING ? b->sev[i] : DS_SEV_WARNING;
		char *text = fa->type == DS_FACT_LEVEL
			? ds_xasprintf("%s %s -> %s", fa->what, fa->levels[was], fa->levels[now])
			: ds_xasprintf("%s %s", fa->what, fa->lost ? "lost" : "added");
		regression(r, a, b, fa->regression, sev,
		           regression_waived(r, b, (int)i, fs->f[i].check), text);
		free(text);
	}
}

static char *record_key(const struct ds_report_finding *d)
{
	char *same = ds_path_same_file(d->path);
	char *key = ds_finding_key(d->check_id, same, d->rule, ds_severity_name(d->severity));
	free(same);
	return key;
}

/* Findings of b whose identity a lacks (a multiset: each old one matches
 * once); the old ones left over are fixed. */
static void compare_findings(struct report *r, const struct dpackage *a, const struct dpackage *b)
{
	struct ds_strmap *left = ds_strmap_new();
	for (size_t i = 0; a && i < a->nfinds; i++) {
		char *k = record_key(a->finds[i]);
		++*ds_strmap_put(left, k);
		free(k);
	}
	size_t nold = a ? a->nfinds : 0, matched = 0;
	for (size_t i = 0; i < b->nfinds; i++) {
		const struct ds_report_finding *d = b->finds[i];
		char *k = record_key(d);
		uintptr_t *c = ds_strmap_get(left, k);
		free(k);
		if (c && *c) {
			--*c;
			matched++;
			continue;
		}
		int sev = (int)d->severity;
		note_gate(r, sev, d->waived);
		r->t.news++;
		if (r->o->json) {
			json_object *list;
			if (!json_object_object_get_ex(r->cur, "new_findings", &list)) {
				list = json_object_new_array();
				json_object_object_add(r->cur, "new_findings", list);
			}
			json_object_array_add(list, ds_report_record(d));
		} else {
			char *what = ds_xasprintf("new %s", d->check_id);
			put_line(r, ds_severity_name(d->severity), what, d->path, d->message);
			free(what);
		}
	}
	r->t.fixed += nold - matched;
	if (r->o->json)
		json_object_object_add(r->cur, "fixed", json_object_new_int64((int64_t)(nold - matched)));
	else if (nold > matched) {
		held_header(r);
		fprintf(r->out, "  %zu finding%s of the old build gone\n", nold - matched,
		        nold - matched == 1 ? "" : "s");
	}
	ds_strmap_free(left);
}

static json_object *pkg_json(const struct dpackage *p)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "name", ds_json_string(p->name));
	json_object_object_add(o, "version", ds_json_string(p->version));
	json_object_object_add(o, "arch", ds_json_string(p->arch));
	return o;
}

/* "name version arch", escaped */
static void pkg_text(FILE *out, const struct dpackage *p)
{
	ds_put_escaped(out, p->name);
	fputc(' ', out);
	ds_put_escaped(out, p->version);
	fputc(' ', out);
	ds_put_escaped(out, p->arch);
}

static void package_header(struct report *r, const struct dpackage *a, const struct dpackage *b)
{
	const char *status = !a ? "added" : !b ? "removed" : b->renamed ? "renamed" : "compared";
	if (r->o->json) {
		r->cur = json_object_new_object();
		json_object_object_add(r->cur, "status", json_object_new_string(status));
		json_object_object_add(r->cur, "old", a ? pkg_json(a) : NULL);
		json_object_object_add(r->cur, "new", b ? pkg_json(b) : NULL);
		json_object_array_add(r->pkgs, r->cur);
		return;
	}
	r->held_old = r->held_new = NULL;
	if (a && b && !b->renamed) {
		r->held_old = a;
		r->held_new = b;
		return;
	}
	fputc('\n', r->out);
	if (!a) {
		pkg_text(r->out, b);
		fputs(": added\n", r->out);
	} else if (!b) {
		pkg_text(r->out, a);
		fputs(": removed\n", r->out);
	} else if (b->renamed) {
		pkg_text(r->out, a);
		fputs(" renamed to ", r->out);
		pkg_text(r->out, b);
		fputc('\n', r->out);
	}
}

/* "name old-version -> new-version arch", once, before the package's
 * first line */
static void held_header(struct report *r)
{
	const struct dpackage *a = r->held_old, *b = r->held_new;
	if (!b)
		return;
	r->held_old = r->held_new = NULL;
	fputc('\n', r->out);
	ds_put_escaped(r->out, b->name);
	fputc(' ', r->out);
	ds_put_escaped(r->out, a->version);
	fputs(" -> ", r->out);
	ds_put_escaped(r->out, b->version);
	fputc(' ', r->out);
	ds_put_escaped(r->out, b->arch);
	fputc('\n', r->out);
}

static int cmp_pkg(const void *x, const void *y)
{
	const struct dpackage *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->arch, b->arch);
}

/* Sorted by name and architecture; the index follows. */
static void sort_side(struct side *sd)
{
	if (sd->n)   /* a side with no package (a shard's empty share) has no array */
		qsort(sd->p, sd->n, sizeof *sd->p, cmp_pkg);
	for (size_t i = 0; i < sd->n; i++) {
		char *key = ds_xasprintf("%s\037%s", sd->p[i].name, sd->p[i].arch);
		*ds_strmap_put(sd->index, key) = i + 1;
		free(key);
	}
}

/* b's files against those of its old package a (NULL: none); privileges
 * only, or every fact. */
static void compare_files(struct report *r, struct side *old, struct side *new,
                          const struct dpackage *a, const struct dpackage *b, bool privileges)
{
	static const bool all[NPRIV] = { true, true, true };   /* no old package */
	for (size_t k = b->first; k; k = new->files[k - 1].next) {
		const struct dfile *f = &new->files[k - 1];
		const struct dfile *was = a ? file_of(old, (struct dpackage *)a, f->path, false) : NULL;
		bool knows = !a || old->passes;
		if (privileges)
			compare_privileges(r, was, f, was ? was->class_known || knows : knows,
			                   a ? old->ran : all);
		else
			compare_file(r, was, f, knows, a ? old->ran : all);
	}
}

static void compare(struct report *r, struct side *old, struct side *new)
{
	for (size_t i = 0; i < new->n; i++) {
		struct dpackage *b = &new->p[i], *a = b->peer;
		package_header(r, a, b);
		compare_files(r, old, new, a, b, false);
		compare_findings(r, a, b);
		if (!a)
			r->t.added++;
		else
			r->t.compared++;
		r->t.renamed += b->renamed;
	}
	for (size_t i = 0; i < old->n; i++)
		if (!old->p[i].peer) {
			package_header(r, &old->p[i], NULL);
			r->t.removed++;
		}
}

static void side_free(struct side *sd)
{
	for (size_t i = 0; i < sd->n; i++)
		free(sd->p[i].finds);
	free(sd->p);
	free(sd->files);
	ds_strmap_free(sd->fileidx);
	ds_strmap_free(sd->sameidx);
	ds_strmap_free(sd->strs);
	ds_strmap_free(sd->index);
	ds_report_free(sd->rep);
}

void ds_diff_privileges(struct ds_report *old, struct ds_report *new, struct ds_waivers *ws,
                        ds_regression_fn *fn, void *arg)
{
	struct diff_opts o = { .waivers = ws };
	facts_init(&o.facts);
	struct side os = { .arg = "", .rep = old }, ns = { .arg = "", .rep = new };
	/* the reports' own waivers stand: ws is applied to regressions only */
	build_side(&os, &o.facts, NULL);
	build_side(&ns, &o.facts, NULL);
	sort_side(&os);
	sort_side(&ns);
	pair_packages(&os, &ns);
	struct report r = { .o = &o, .old = &os, .new = &ns, .sink = fn, .sink_arg = arg };
	for (size_t i = 0; i < ns.n; i++)
		compare_files(&r, &os, &ns, ns.p[i].peer, &ns.p[i], true);
	os.rep = ns.rep = NULL;   /* the caller's */
	side_free(&os);
	side_free(&ns);
}

static void summary(struct report *r, const struct side *old, const struct side *new)
{
	const struct tally *t = &r->t;
	if (!r->o->json) {
		fprintf(r->out, "\n%zu packages compared (%zu renamed), %zu added, %zu removed: "
		        "%zu regressions, %zu new findings, %zu fixed\n", t->compared, t->renamed,
		        t->added, t->removed, t->regressions, t->news, t->fixed);
		return;
	}
	json_object *doc = json_object_new_object(), *tool = json_object_new_object();
	json_object_object_add(tool, "name", json_object_new_string("distsec"));
	json_object_object_add(tool, "version", json_object_new_string(DS_VERSION));
	json_object_object_add(doc, "tool", tool);
	json_object_object_add(doc, "old", ds_json_string(old->arg));
	json_object_object_add(doc, "new", ds_json_string(new->arg));
	json_object_object_add(doc, "packages", r->pkgs);
	json_object *s = json_object_new_object();
	const struct { const char *k; size_t v; } n[] = {
		{ "compared", t->compared }, { "renamed", t->renamed }, { "added", t->added },
		{ "removed", t->removed }, { "regressions", t->regressions },
		{ "new_findings", t->news }, { "fixed", t->fixed },
	};
	for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
		json_object_object_add(s, n[i].k, json_object_new_int64((int64_t)n[i].v));
	json_object_object_add(doc, "summary", s);
	fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
	                                     JSON_C_TO_STRING_NOSLASHESCAPE), r->out);
	fputc('\n', r->out);
	json_object_put(doc);
}

static int write_diff(FILE *fp, void *arg)
{
	struct report *r = arg;
	r->out = fp;
	r->pkgs = r->o->json ? json_object_new_array() : NULL;
	if (!r->o->json) {
		fputs("distsec diff ", fp);
		ds_put_escaped(fp, r->old->arg);
		fputs(" -> ", fp);
		ds_put_escaped(fp, r->new->arg);
		fputc('\n', fp);
	}
	compare(r, r->old, r->new);
	summary(r, r->old, r->new);
	return ferror(fp) ? -1 : 0;
}

static const char diff_usage[] =
	"usage: distsec diff [OPTIONS] OLD NEW\n"
	"OLD and NEW: a distsec JSON report (scan -v --format json), a package file,\n"
	"a .changes, or a directory of package files.  Options: --format text|json,\n"
	"-o FILE, --fail-on SEV, --check ID,..., --skip ID,..., --profile NAME,\n"
	"--waivers FILE, -j N, -q.  See distsec(1).\n";

enum { O_FORMAT = 256, O_FAIL, O_CHECK, O_SKIP, O_PROFILE, O_WAIVERS };

static int parse(int argc, char **argv, struct diff_opts *o)
{
	static const struct option opts[] = {
		{ "format", required_argument, 0, O_FORMAT }, { "output", required_argument, 0, 'o' },
		{ "fail-on", required_argument, 0, O_FAIL }, { "check", required_argument, 0, O_CHECK },
		{ "skip", required_argument, 0, O_SKIP }, { "profile", required_argument, 0, O_PROFILE },
		{ "waivers", required_argument, 0, O_WAIVERS }, { "jobs", required_argument, 0, 'j' },
		{ "quiet", no_argument, 0, 'q' }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:j:qh", opts, NULL)) != -1) {
		const char *bad = NULL;
		switch (c) {
		case O_FORMAT:
			o->json = !strcmp(optarg, "json");
			bad = o->json || !strcmp(optarg, "text") ? NULL : "--format takes text or json";
			break;
		case 'o': o->output = optarg; break;
		case O_FAIL:
			o->fail_on = strcmp(optarg, "never") ? ds_severity_parse(optarg) : -1;
			bad = o->fail_on >= DS_SEV_INFO || !strcmp(optarg, "never") ? NULL
			      : "--fail-on takes error, warning, info or never";
			break;
		case O_CHECK: o->scan.checks = optarg; break;
		case O_SKIP: o->scan.skip = optarg; break;
		case O_PROFILE: o->scan.profile = optarg; break;
		case O_WAIVERS: o->waivers_file = optarg; break;
		case 'j': {
			char *end;
			long n = strtol(optarg, &end, 10);
			o->scan.jobs = (int)n;
			bad = *end || n < 1 || n > 1024 ? "--jobs takes a number from 1 to 1024" : NULL;
			break;
		}
		case 'q': o->quiet = o->scan.quiet = true; break;
		case 'h': fputs(diff_usage, stdout); return -1;   /* done: exit 0 */
		default: bad = "";
		}
		if (bad) {
			/* getopt has named an unknown option itself ("" here) */
			if (*bad)
				ds_note("distsec diff: %s", bad);
			ds_note_lines(diff_usage);
			return 2;
		}
	}
	if (argc - optind != 2) {
		ds_note("distsec diff: takes OLD and NEW");
		ds_note_lines(diff_usage);
		return 2;
	}
	return 0;
}

int ds_cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .fail_on = DS_SEV_ERROR, .scan = {
		.root = "/", .backend = "auto", .format = "json", .verbose = true, .quiet = false,
		.fail_on = DS_SEV_ERROR, .color = 0, .jobs = 1 } };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	o.scan.jobs = cpus > 0 ? (int)cpus : 1;
	int rc = parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	facts_init(&o.facts);
	struct side old = { .arg = argv[optind] }, new = { .arg = argv[optind + 1] };
	if (load_side(&old, &o) != 0 || load_side(&new, &o) != 0) {
		side_free(&old);
		side_free(&new);
		return 2;
	}
	if (o.waivers_file) {
		struct ds_error err = DS_ERROR_INIT;
		if (!(o.waivers = ds_waivers_load(o.waivers_file, &err))) {
			ds_warn("%s", ds_error_msg(&err));
			ds_error_clear(&err);
			side_free(&old);
			side_free(&new);
			return 2;
		}
	}
	build_side(&old, &o.facts, o.waivers);
	build_side(&new, &o.facts, o.waivers);
	if (!o.quiet)
		for (const struct side *sd = &old; sd; sd = sd == &old ? &new : NULL)
			if (!sd->passes && sd->rep->nfindings)
				ds_note("distsec diff: note: %s has no passes (scanned without -v): "
				        "hardening lost shows only through new findings", sd->arg);
	sort_side(&old);
	sort_side(&new);
	pair_packages(&old, &new);
	struct report r = { .o = &o, .old = &old, .new = &new };
	struct ds_error err = DS_ERROR_INIT;
	rc = ds_write_output(o.output, write_diff, &r, &err) != 0 ? 2 : r.t.gate ? 1 : 0;
	if (rc == 2)
		ds_warn("%s", ds_error_msg(&err));
	ds_error_clear(&err);
	ds_waivers_seal(o.waivers, o.quiet);
	ds_waivers_free(o.waivers);
	side_free(&old);
	side_free(&new);
	return rc;
}
