/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file-stig (stig-file-test->sh): DISA UNIX STIG file ownership and
 * permission rules, as data (src/checks/stig-rules, or --rules FILE), not
 * code.  Every scanned path is matched against every rule's globs; owner
 * and group names are resolved through the root's own etc/passwd and
 * etc/group, never the scanning host's.  Each finding carries its rule id.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "distsec/check.h"
#include "distsec/rootfile.h"
#include "distsec/scan.h"
#include "distsec/util.h"
#include "stig.h"

#define SYSTEM_ID_MAX 999 /* login.defs' SYS_UID_MAX default */

enum rule_type { R_FILE, R_DIR, R_ANY, R_DEVICE, R_WW_STICKY, R_WW_OWNER, R_NOUSER, R_NOGROUP };

/* A path pattern, with what matching it needs computed once. */
struct glob {
	const char *pat;   /* NULL ends a list */
	size_t len;
	size_t lit;        /* leading characters every match starts with */
	bool tree;         /* ends in "/(two stars)": anything below its base */
};

struct rule {
	char *id, *reason;
	enum rule_type type;
	char **paths, **except;
	struct glob *gpaths, *gexcept;   /* the two lists compiled */
	char **owners, **groups;  /* NULL = not checked; "@system" = id <= 999 */
	int mode;                 /* -1 = not checked */
	unsigned line;
};

/* The scan's state (the rules and the root's accounts). */
struct ds_stig {
	struct rule *rules;
	size_t n, cap;
	struct ds_strmap *users, *groups; /* name → 1 + id, and "#id" → 1 + index */
	char **user_names, **group_names; /* by insertion */
	bool have_passwd, have_group;     /* the root has its own account files */
	size_t nusers, ucap, ngroups, gcap;
};

static const char *const type_names[] = {
	"file", "dir", "any", "device", "wwdir-sticky", "wwdir-owner", "nouser", "nogroup", NULL,
};

/* The list a key fills, or NULL when key names no list-> */
static char ***list_of(struct rule *r, const char *key)
{
	if (!strcmp(key, "paths"))
		return &r->paths;
	if (!strcmp(key, "except"))
		return &r->except;
	if (!strcmp(key, "owner"))
		return &r->owners;
	if (!strcmp(key, "group"))
		return &r->groups;
	return NULL;
}

/* Every path a pattern (a tree's base) matches starts with the pattern's
 * characters before its first special one: most of the rules' patterns
 * are rejected by that, with no copy and no fnmatch (every scanned path
 * meets every rule's patterns). */
static struct glob *compile_globs(char **pats)
{
	size_t n = 0;
	while (pats && pats[n])
		n++;
	struct glob *g = ds_xcalloc(n + 1, sizeof *g);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(pats[i]);
		bool tree = len >= 3 && !strcmp(pats[i] + len - 3, "/**");
		size_t lit = strcspn(pats[i], "*?[\\");
		if (tree && lit > len - 3)
			lit = len - 3;
		g[i] = (struct glob){ pats[i], len, lit, tree };
	}
	return g;
}

/* Parses "ID key=value ... | reason"; NULL on success or the error. */
static const char *parse_rule(char *line, struct rule *r)
{
	char ***list;
	memset(r, 0, sizeof *r);   /* the caller frees r on every return */
	char *bar = strstr(line, " | ");
	if (!bar)
		return "no ' | reason' at the end";
	*bar = '\0';
	char *reason = bar + 3;
	while (isspace((unsigned char)*reason))
		reason++;
	r->mode = -1;
	r->type = (enum rule_type)-1;
	char *save = NULL;
	char *id = strtok_r(line, " \t", &save);
	if (!id || strncmp(id, "GEN", 3) != 0)
		return "a rule starts with its STIG id (GEN...)";
	r->id = ds_xstrdup(id);
	r->reason = ds_xstrndup(reason, strcspn(reason, "\n"));
	for (char *kv = strtok_r(NULL, " \t", &save); kv; kv = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(kv, '=');
		if (!eq)
			return "expected key=value";
		*eq = '\0';
		const char *v = eq + 1;
		if (!strcmp(kv, "type")) {
			for (int i = 0; type_names[i]; i++)
				if (!strcmp(v, type_names[i]))
					r->type = (enum rule_type)i;
			if ((int)r->type < 0)
				return "unknown type";
		} else if ((list = list_of(r, kv)) != NULL) {
			if (*list)
				return "a key given twice";
			*list = ds_split_list(v);
		} else if (!strcmp(kv, "mode")) {
			char *end;
			long m = strtol(v, &end, 8);
			if (*end || m < 0 || m > 07777)
				return "mode must be octal";
			r->mode = (int)m;
		} else {
			return "unknown key";
		}
	}
	if ((int)r->type < 0 || !r->paths)
		return "a rule needs type= and paths=";
	if (r->type == R_WW_OWNER && !r->owners)
		return "wwdir-owner needs owner=";
	r->gpaths = compile_globs(r->paths);
	r->gexcept = compile_globs(r->except);
	return NULL;
}

static void free_rule(struct rule *r)
{
	free(r->id);
	free(r->reason);
	ds_list_free(r->paths);
	ds_list_free(r->except);
	free(r->gpaths);
	free(r->gexcept);
	ds_list_free(r->owners);
	ds_list_free(r->groups);
}

static void free_rules(struct ds_stig *st)
{
	for (size_t i = 0; i < st->n; i++)
		free_rule(&st->rules[i]);
	free(st->rules);
	st->rules = NULL;
	st->n = st->cap = 0;
}

static const char *rule_line(void *arg, char *line, unsigned lineno)
{
	struct ds_stig *st = arg;
	char *t = line;
	while (isspace((unsigned char)*t))
		t++;
	if (!*t || *t == '#')
		return NULL;
	struct rule r;
	const char *bad = parse_rule(t, &r);
	if (bad) {
		free_rule(&r);
		return bad;
	}
	r.line = lineno;
	ds_push(st->rules, st->n, st->cap, r);
	return NULL;
}

int ds_stig_rules_parse(struct ds_stig *st, FILE *fp, const char *name, struct ds_error *err)
{
	free_rules(st);
	return ds_each_line(fp, DS_LIST_LINE_MAX, "file-stig rules", name, rule_line, st, err);
}

static int load_rules(struct ds_stig *st, const char *path, struct ds_error *err)
{
	FILE *fp = fopen(path, "re");
	if (!fp)
		return ds_error_errno(err, errno, "file-stig rules %s", path);
	int rc = ds_stig_rules_parse(st, fp, path, err);
	fclose(fp);
	return rc;
}

/* One account file of the root ("name:x:id:..." lines) into map (name →
 * 1 + id, "#id" → 1 + index into *names).  Read line by line, each split
 * once: glibc's fgetpwent took 8 s on one 4 MB line.  A directory, FIFO or
 * device there counts as no file at all, as does anything over 64 MiB. */
static bool load_ids(const char *root, const char *rel, struct ds_strmap *map,
                     char ***names, size_t *n, size_t *cap)
{
	FILE *fp = ds_root_fopen(root, rel, (uint64_t)64 << 20);
	if (!fp)
		return false;
	char *line = NULL, key[32];
	size_t linecap = 0;
	ssize_t len;
	while ((len = getline(&line, &linecap, fp)) > 0) {
		char *name = line, *c1 = memchr(line, ':', (size_t)len);
		char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(len - (c1 + 1 - line))) : NULL;
		if (!c2 || c1 == line || line[0] == '+' || line[0] == '-' || line[0] == '#')
			continue;
		*c1 = '\0';
		char *end;
		errno = 0;
		unsigned long id = strtoul(c2 + 1, &end, 10);
		if (end == c2 + 1 || (*end != ':' && *end != '\n' && *end) || errno || id > UINT32_MAX)
			continue;
		*ds_strmap_put(map, name) = (uintptr_t)id + 1;
		snprintf(key, sizeof key, "#%lu", id);
		uintptr_t *slot = ds_strmap_put(map, key);
		if (!*slot) {
			char *copy = ds_xstrdup(name);
			ds_push(*names, *n, *cap, copy);
			*slot = *n;
		}
	}
	free(line);
	fclose(fp);
	return true;
}

/* The root's own account databases. */
static void load_accounts(struct ds_stig *st, const char *root)
{
	st->users = ds_strmap_new();
	st->groups = ds_strmap_new();
	st->have_passwd = load_ids(root, "etc/passwd", st->users, &st->user_names, &st->nusers,
	                           &st->ucap);
	st->have_group = load_ids(root, "etc/group", st->groups, &st->group_names, &st->ngroups,
	                          &st->gcap);
}

/* Name of an id in the root's database, or NULL. */
static const char *id_name(struct ds_strmap *m, char **names, unsigned id)
{
	char key[32];
	snprintf(key, sizeof key, "#%u", id);
	const uintptr_t *slot = m ? ds_strmap_get(m, key) : NULL;
	return slot ? names[*slot - 1] : NULL;
}

/* A trailing "/(two stars)" matches anything below; otherwise fnmatch per level. */
static bool glob_match(const struct glob *g, const char *path)
{
	const char *pat = g->pat;
	size_t n = g->len, lit = g->lit;
	if (strncmp(pat, path, lit) != 0)
		return false;
	if (g->tree && lit == n - 3)   /* a literal base: the path is below it */
		return lit > 0 ? path[lit] == '/' : path[0] == '/' && path[1];
	if (g->tree) {
		char *base = ds_xstrndup(pat, n - 3);
		bool hit = false;
		for (const char *p = strchr(path + 1, '/'); p && !hit; p = strchr(p + 1, '/')) {
			char *prefix = ds_xstrndup(path, (size_t)(p - path));
			hit = fnmatch(base, prefix, FNM_PATHNAME) == 0;
			free(prefix);
		}
		free(base);
		return hit;
	}
	return fnmatch(pat, path, FNM_PATHNAME) == 0;
}

static bool any_match(const struct glob *globs, const char *path)
{
	for (size_t i = 0; globs && globs[i].pat; i++)
		if (glob_match(&globs[i], path))
			return true;
	return false;
}

/* The owner's (group's) name: the one the package file gives, else the
 * root's name for the id. */
static const char *name_of(struct ds_strmap *m, char **byid, const char *given, unsigned id)
{
	return given ? given : id_name(m, byid, id);
}

/* Is the account a system one (id <= SYS_UID_MAX)?  A name from a package
 * file is looked up in the root's accounts; root is one everywhere. */
static bool system_account(struct ds_strmap *m, const char *given, unsigned id, const char *name)
{
	if (!given)
		return id <= SYSTEM_ID_MAX && name;
	/* "#N" keys are the map's id entries, never a name */
	const uintptr_t *slot = given[0] != '#' ? ds_strmap_get(m, given) : NULL;
	return !strcmp(given, "root") || (slot && *slot - 1 <= SYSTEM_ID_MAX);
}

static bool allowed(char **names, struct ds_strmap *m, char **byid, const char *given, unsigned id)
{
	const char *name = name_of(m, byid, given, id);
	for (size_t i = 0; names[i]; i++) {
		if (!strcmp(names[i], "@system") ? system_account(m, given, id, name)
		                                 : name && !strcmp(names[i], name))
			return true;
	}
	return false;
}

/* "root or a system account" */
static char *join(char **v)
{
	char *s = ds_xstrdup("");
	for (size_t i = 0; v[i]; i++) {
		char *next = ds_xasprintf("%s%s%s", s, i ? " or " : "",
		                          !strcmp(v[i], "@system") ? "a system account" : v[i]);
		free(s);
		s = next;
	}
	return s;
}

static void report(const struct ds_stig *st, struct ds_file *f, const struct rule *r,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void report(const struct ds_stig *st, struct ds_file *f, const struct rule *r,
                   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = ds_xvasprintf(fmt, ap);
	va_end(ap);
	struct ds_finding *d = ds_report(f, DS_SEV_ERROR, "%s is %s (%s)", f->path, msg, r->reason);
	free(msg);
	ds_finding_set_rule(d, r->id);
	char mode[8];
	snprintf(mode, sizeof mode, "%04o", (unsigned)(f->mode & 07777));
	ds_detail_str(d, "mode", mode);
	const char *u = name_of(st->users, st->user_names, f->user, f->uid);
	const char *g = name_of(st->groups, st->group_names, f->group, f->gid);
	if (!f->user)   /* a package file that names its owner gives no id */
		ds_detail_int(d, "uid", f->uid);
	if (!f->group)
		ds_detail_int(d, "gid", f->gid);
	ds_detail_str(d, "owner", u);
	ds_detail_str(d, "group", g);
}

static bool type_applies(const struct rule *r, const struct ds_file *f)
{
	switch (r->type) {
	case R_FILE: return S_ISREG(f->mode);
	case R_DIR: return S_ISDIR(f->mode);
	case R_ANY: return S_ISREG(f->mode) || S_ISDIR(f->mode);
	case R_DEVICE: return S_ISCHR(f->mode) || S_ISBLK(f->mode);
	case R_WW_STICKY: case R_WW_OWNER:
		return S_ISDIR(f->mode) && (f->mode & S_IWOTH);
	case R_NOUSER: case R_NOGROUP: return true;
	}
	return false;
}

/* Owner rules need the root's own account files: without them (a bare
 * tree, an image without /etc) they cannot be judged and are skipped. */
static bool judgeable(const struct ds_stig *st, const struct rule *r)
{
	if (r->type == R_NOUSER || r->type == R_WW_OWNER || r->owners)
		if (!st->have_passwd)
			return false;
	if (r->type == R_NOGROUP || r->groups)
		if (!st->have_group)
			return false;
	return true;
}

/* The file's owner (group) as the rules see it, and how a message names it. */
struct account {
	struct ds_strmap *map;
	char **byid;
	const char *given;   /* the name a package file gives, else NULL */
	unsigned id;
	const char *owned, *idword, *file;
};

static struct account account_of(const struct ds_stig *st, const struct ds_file *f, bool group)
{
	if (group)
		return (struct account){ st->groups, st->group_names, f->group, (unsigned)f->gid,
		                         "group-owned", "gid", "etc/group" };
	return (struct account){ st->users, st->user_names, f->user, (unsigned)f->uid,
	                         "owned", "uid", "etc/passwd" };
}

/* A finding when the account is not one of want (the rule's owner or group list). */
static void check_account(const struct ds_stig *st, struct ds_file *f, const struct rule *r,
                          char **want, struct account a)
{
	if (allowed(want, a.map, a.byid, a.given, a.id))
		return;
	const char *name = name_of(a.map, a.byid, a.given, a.id);
	char *w = join(want);
	report(st, f, r, "%s by %s%s, should be %s", a.owned, name ? "" : "an unknown ",
	       name ? name : a.idword, w);
	free(w);
}

static void apply(const struct ds_stig *st, struct ds_file *f, const struct rule *r)
{
	char buf[64], want[64];
	unsigned perm = (unsigned)(f->mode & 0777);
	switch (r->type) {
	case R_WW_STICKY:
		if (!(f->mode & S_ISVTX)) {
			snprintf(buf, sizeof buf, "%04o", (unsigned)(f->mode & 07777));
			report(st, f, r, "world-writable (%s) without the sticky bit", buf);
		}
		return;
	/* A name a package file gives is created on installation (by its
	 * scriptlets or sysusers.d), so it need not be in the root's files. */
	case R_NOUSER:
	case R_NOGROUP: {
		struct account a = account_of(st, f, r->type == R_NOGROUP);
		if (!a.given && !id_name(a.map, a.byid, a.id))
			report(st, f, r, "%s by %s %u, which is not in the root's %s", a.owned, a.idword,
			       a.id, a.file);
		return;
	}
	case R_DEVICE:
		report(st, f, r, "a %s device outside /dev", S_ISCHR(f->mode) ? "character" : "block");
		return;
	default:
		break;
	}
	if (r->mode >= 0 && (perm & ~(unsigned)r->mode)) {
		snprintf(buf, sizeof buf, "%04o", perm);
		snprintf(want, sizeof want, "%04o", (unsigned)r->mode);
		report(st, f, r, "mode %s, should be %s or less", buf, want);
	}
	if (r->owners)
		check_account(st, f, r, r->owners, account_of(st, f, false));
	if (r->groups)
		check_account(st, f, r, r->groups, account_of(st, f, true));
}

static void run(struct ds_file *f, void *state)
{
	const struct ds_stig *st = state;
	for (size_t i = 0; i < st->n; i++) {
		const struct rule *r = &st->rules[i];
		if (judgeable(st, r) && type_applies(r, f) && any_match(r->gpaths, f->path) &&
		    !any_match(r->gexcept, f->path))
			apply(st, f, r);
	}
}

static void stig_free(struct ds_stig *st)
{
	free_rules(st);
	ds_strmap_free(st->users);
	ds_strmap_free(st->groups);
	for (size_t i = 0; i < st->nusers; i++)
		free(st->user_names[i]);
	for (size_t i = 0; i < st->ngroups; i++)
		free(st->group_names[i]);
	free(st->user_names);
	free(st->group_names);
	free(st);
}

static void *scan_begin(struct ds_scan *s, struct ds_error *err)
{
	char buf[4096];
	const char *path = s->opt->rules ? s->opt->rules : ds_data_file("stig-rules", buf, sizeof buf);
	if (!path) {
		ds_error_set(err, DS_ERR_USAGE, "file-stig: no rules file found (give one with --rules FILE)");
		return NULL;
	}
	struct ds_stig *st = ds_xcalloc(1, sizeof *st);
	if (load_rules(st, path, err) != 0) {
		stig_free(st);
		return NULL;
	}
	load_accounts(st, s->root);
	if ((!st->have_passwd || !st->have_group) && !s->opt->quiet)
		ds_warn("file-stig: %s has no etc/%s: owner and group rules are skipped",
		        s->root, st->have_passwd ? "group" : "passwd");
	return st;
}

static void scan_end(struct ds_scan *s, void *state)
{
	(void)s;
	stig_free(state);
}

const struct ds_check ds_check_file_stig = {
	.id = "file-stig",
	.severity = DS_SEV_ERROR,
	.by_path = true,
	.applies = DS_ON_REGULAR | DS_ON_DIR | DS_ON_DEVICE | DS_ON_SPECIAL,
	.summary = "DISA UNIX STIG file ownership and permission rules (rules file, STIG ids)",
	.help = {
		.what = "The DISA UNIX STIG rules on ownership and permissions of system files: a file "
		  "others can write, or owned by the wrong user, lets a local user change what "
		  "root runs or reads.",
		.detect = "Every scanned path is matched against the rules file (src/checks/stig-rules, "
		  "or --rules FILE); owners and groups are resolved through the root's own "
		  "etc/passwd and etc/group.",
		.limits = "Only as complete as the rules file; owner and group rules are skipped when the "
		  "root has no etc/passwd.",
		.fix = "Change the owner or mode as the rule says (in the package: debian/rules or the "
		  "spec's %attr), or waive it with the reason.",
	},
	.cwe = 732,
	.precision = "high",
	.scan_begin = scan_begin,
	.run = run,
	.scan_end = scan_end,
};
