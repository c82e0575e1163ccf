/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One scan: open the root and (in a thread) the package database, walk
 * the paths (walk.c) while --jobs workers check them (workers.c), then
 * merge the findings in a deterministic order.  Nothing scanned is ever
 * followed through a symlink, executed or written.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "distsec/elfview.h"
#include "distsec/output.h"
#include "inputs/image.h"
#include "internal.h"
#include "report.h"
#include "profile.h"

bool ds_scan_enabled(const struct ds_scan *s, const struct ds_check *c)
{
	for (size_t i = 0; i < ds_nchecks; i++)
		if (ds_checks[i] == c)
			return s->enabled[i];
	return false;
}

void ds_scan_skip(struct ds_scan *s, const struct ds_check *c, const char *why)
{
	struct ds_skip k = { c, ds_xstrdup(why) };
	ds_push(s->skipped, s->nskipped, s->priv->skipped_cap, k);
	if (!s->opt->quiet)
		ds_warn("%s skipped: %s", c->id, why);
}

struct listed {
	const struct ds_scan *s;
	char *as;
};

static bool listed_as(const char *alt, void *ctx)
{
	struct listed *l = ctx;
	struct ds_owner o = { 0 };
	if (ds_scan_owner_as(l->s, alt, &o) != DS_OWNER_PACKAGE)
		return false;
	l->as = ds_xstrdup(alt);
	return true;
}

/* One spelling of a path in every mode: an installed file is where
 * the walk found it (/usr/bin/ls in a merged root); a package file's
 * member was respelled before the checks ran (pkgfile.c).  The spelling
 * the database lists, when another, is kept in details.package_path (and
 * waivers match either). */
static void one_spelling(struct ds_scan *s, struct ds_finding *d)
{
	struct ds_owner o = { 0 };
	struct listed l = { s, NULL };
	if (d->input || d->pkg_path || d->owner.status != DS_OWNER_PACKAGE || !s->priv->aliases ||
	    ds_scan_owner_as(s, d->path, &o) == DS_OWNER_PACKAGE ||
	    !ds_aliases_each(s->priv->aliases, d->path, listed_as, &l))
		return;
	d->pkg_path = l.as;
	if (d->details_shared) {   /* another name of a hard link has the same object */
		json_object *copy = NULL;
		json_object_deep_copy(d->details, &copy, NULL);
		json_object_put(d->details);
		d->details = copy ? copy : json_object_new_object();
		d->details_shared = false;
	}
	ds_detail_str(d, "package_path", l.as);
}

struct aliased {
	struct ds_scan *s;
	const struct ds_finding *d;
	const char *reason;
};

static bool waived_as(const char *alt, void *ctx)
{
	struct aliased *a = ctx;
	return (a->reason = ds_waiver_as(a->s->priv->waivers, a->d, alt)) != NULL;
}

/* A waiver written with the root's other spelling of an installed file's
 * path (/bin/x for /usr/bin/x in a merged root), owned or not. */
static const char *waiver_by_alias(struct ds_scan *s, const struct ds_finding *d)
{
	struct aliased a = { s, d, NULL };
	if (s->priv->waivers && !d->input && s->priv->aliases)
		ds_aliases_each(s->priv->aliases, d->path, waived_as, &a);
	return a.reason;
}

/* The profile whose merged-usr spells each backend's package files'
 * members: --profile's, else the one the backend names (its distribution).
 * Loaded before the workers start, read by them. */
static int load_spellings(struct ds_scan *s, struct ds_error *err)
{
	const struct ds_backend_slot *slots;
	size_t n = ds_backends_available(&slots);
	s->priv->spelling = ds_xcalloc(n ? n : 1, sizeof *s->priv->spelling);
	for (size_t i = 0; i < n; i++) {
		const struct ds_backend *b = slots[i].b;
		if (!b->pkgfile_open || s->priv->profile || !b->profile)
			continue;
		if (!(s->priv->spelling[i] = ds_profile_load(b->profile, err)))
			return -1;
	}
	return 0;
}

/* Without --profile, the profiles whose lists the checks read for the
 * root's files and for the members of a backend that names none
 * (ds_file_list), loaded before the workers start. */
static int load_lists(struct ds_scan *s, struct ds_error *err)
{
	if (s->opt->profile)
		return 0;
	const char *root = s->backend && s->backend->profile ? s->backend->profile : "stig";
	if (!(s->priv->lists_root = ds_profile_load(root, err)) ||
	    !(s->priv->lists_stig = ds_profile_load("stig", err)))
		return -1;
	return 0;
}

static void free_spellings(struct ds_scan *s)
{
	const struct ds_backend_slot *slots;
	size_t n = ds_backends_available(&slots);
	for (size_t i = 0; s->priv->spelling && i < n; i++)
		ds_profile_free(s->priv->spelling[i]);
	free(s->priv->spelling);
	s->priv->spelling = NULL;
}

/* Owners of the findings made while the database loaded (a worker's
 * findings on one file are adjacent: one look-up per file). */
static void count_package(struct ds_strmap *seen, const struct ds_pkg *p)
{
	if (!p || !p->name)
		return;
	char *key = ds_xasprintf("%s\037%s\037%s", p->name, p->version ? p->version : "",
	                         p->arch ? p->arch : "");
	*ds_strmap_put(seen, key) = 1;
	free(key);
}

size_t ds_count_packages(const struct ds_scan *s, struct ds_finding *const *f, size_t n)
{
	struct ds_strmap *seen = ds_strmap_new();
	for (size_t i = 0; i < s->ninputs; i++)
		count_package(seen, &s->inputs[i]->pkg);
	for (size_t i = 0; i < n; i++)
		if (f[i]->owner.status == DS_OWNER_PACKAGE)
			count_package(seen, f[i]->owner.pkgs[0]);
	size_t count = ds_strmap_size(seen);
	ds_strmap_free(seen);
	return count;
}

static void resolve_pending_owners(struct ds_scan *s, struct ds_worker *m)
{
	const struct ds_finding *last = NULL;
	for (size_t i = 0; i < m->nfindings; i++) {
		struct ds_finding *d = m->findings[i];
		if (!d->owner_pending)
			continue;
		if (last && !strcmp(last->path, d->path))
			d->owner = last->owner;
		else
			ds_scan_owner(s, d->path, &d->owner);
		d->owner_pending = false;
		last = d;
	}
}

/* Keeps the findings of enabled checks (and passes), sorted; counts. */
static void finish(struct ds_scan *s)
{
	struct ds_worker *m = &s->priv->main;
	resolve_pending_owners(s, m);
	size_t w = 0;
	for (size_t i = 0; i < m->nfindings; i++) {
		struct ds_finding *d = m->findings[i];
		if (!ds_scan_enabled(s, d->check)) {
			ds_finding_free(d);
			continue;
		}
		m->findings[w++] = d;
		one_spelling(s, d);
		const char *vendor = ds_profile_judge(s->priv->profile, d);
		if (d->severity != DS_SEV_PASS &&
		    (d->waiver = ds_waiver_for(s->priv->waivers, d)) == NULL &&
		    (d->waiver = waiver_by_alias(s, d)) == NULL)
			d->waiver = vendor;
		if (d->waiver)
			s->stats.waived++;
		else if (d->severity != DS_SEV_PASS)
			s->stats.by_severity[d->severity]++;
	}
	s->stats.packages = ds_count_packages(s, m->findings, w);
	if (w)
		qsort(m->findings, w, sizeof *m->findings, ds_finding_cmp);
	if (s->priv->baseline)
		ds_baseline_apply(s, &m->findings, &w, &m->cap);
	ds_waivers_seal(s->priv->waivers, s->opt->quiet);
	ds_inputs_sort(s);
	s->findings = m->findings;
	s->nfindings = w;
	s->stats.files = m->stats.files;
	s->stats.elf = m->stats.elf;
	s->stats.scripts = m->stats.scripts;
	s->stats.dirs = m->stats.dirs;
	s->stats.elf_not_judged = m->stats.elf_not_judged;
	m->findings = NULL;
	m->nfindings = m->cap = 0;
}

static int open_root(struct ds_scan *s, struct ds_error *err)
{
	const char *root = s->opt->root ? s->opt->root : "/";
	s->rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	if (s->rootfd < 0 || fstat(s->rootfd, &st) != 0)
		return ds_error_errno(err, errno, "root %s", root);
	s->rootdev = st.st_dev;
	s->root = realpath(root, NULL);
	if (!s->root)
		s->root = ds_xstrdup(root);
	return 0;
}

/* A broken database is said, on stderr and in the report, and a scan
 * that chose its backend itself goes on without owners (backend none)
 * rather than not at all. */
static void fall_back(struct ds_scan *s, const char *err)
{
	char *w = ds_xasprintf("backend %s: %s", s->backend->name, err[0] ? err : "unknown error");
	/* a backend named with --backend is what the user asked for: no substitute */
	bool named = s->opt->backend && strcmp(s->opt->backend, "auto") != 0;
	const struct ds_backend *none = named ? NULL
	                                      : ds_backend_select("none", s->root, NULL, NULL, NULL,
	                                                          NULL);
	void *h = none ? none->open(s->root, 0, NULL, NULL) : NULL;   /* none never fails */
	ds_warn("%s%s", w, h ? "; going on with backend none (no owners)" : "");
	if (!h) {
		free(w);
		s->priv->backend_rc = -1;
		return;
	}
	size_t cap = s->nwarnings;   /* the array is exactly full: ds_push grows it */
	ds_push(s->warnings, s->nwarnings, cap, w);
	free(s->backend_why);
	s->backend_why = ds_xasprintf("the %s database is unreadable", s->backend->name);
	s->backend = none;
	s->bh = h;
}

static unsigned open_flags(const struct ds_scan *s)
{
	/* text without grouping never shows origins; the other reports do */
	bool origins = ds_output_find(s->opt->format)->wants_origins || s->opt->group_by;
	return origins ? DS_OPEN_ORIGINS : 0;
}

static void *open_backend(void *arg)
{
	struct ds_scan *s = arg;
	struct ds_error e = DS_ERROR_INIT;
	s->bh = s->backend->open(s->root, open_flags(s), s->priv->backend_started, &e);
	s->priv->backend_started = NULL;   /* open() took it over */
	char *err = e.msg;
	if (!s->bh)
		fall_back(s, ds_error_msg(&e));
	else if (err && err[0]) {
		/* notes: what the database's own library said about it (librpm,
		 * libdpkg), on stderr and, since a gate reads the report, in it;
		 * the main thread touches the warnings only after the join */
		if (!s->opt->quiet)
			ds_note_lines(err);
		size_t cap = s->nwarnings;   /* the array is exactly full: ds_push grows it */
		for (char *line = err, *end; *line; line = end + (*end != '\0')) {
			/* a line starting with a space continues the one before
			 * (libdpkg's "parsing file ...:\n missing 'X' field") */
			for (end = line + strcspn(line, "\n"); end[0] && end[1] == ' ';)
				*end = ' ', end += strcspn(end, "\n");
			/* a library's messages may carry our own program name */
			const char *text = strncmp(line, "distsec: ", 9) ? line : line + 9;
			if (end > text) {
				char *w = ds_xasprintf("backend %s: %.*s", s->backend->name,
				                       (int)(end - text), text);
				ds_push(s->warnings, s->nwarnings, cap, w);
			}
		}
	}
	ds_error_clear(&e);
	atomic_store(&s->priv->backend_ready, true);
	return NULL;
}

/* The database loads while the tree is walked: libdpkg reads every file
 * list (~0.1 s on a small system), the apt shim builds its cache in memory
 * (~0.5 s).  The backend is chosen here, synchronously; only opening it
 * runs in a thread, and every use of s->bh waits for it. */
static int start_backend(struct ds_scan *s, struct ds_error *err)
{
	/* Package files carry their own metadata: the root's database (and
	 * apt's cache) would only cost time, unless asked for. */
	bool skip_db = s->priv->pkgfiles_only && !s->opt->installed_state;
	s->backend = ds_backend_select(skip_db ? "none" : s->opt->backend ? s->opt->backend : "auto",
	                               s->root, &s->backend_why, &s->warnings, &s->nwarnings, err);
	for (size_t i = 0; i < s->nwarnings; i++)
		ds_warn("%s; owners come from backend %s", s->warnings[i],
		        s->backend ? s->backend->name : "none");
	if (!s->backend)
		return -1;
	if (skip_db) {
		free(s->backend_why);
		s->backend_why = ds_xstrdup("only package files are scanned: the root's database is not "
		                            "read (--installed-state reads it)");
	}
	struct ds_scan_private *p = s->priv;
	/* No other thread exists yet: a backend that forks a loader process
	 * does it here (docs/DESIGN.md, threading), and open() collects it. */
	if (s->backend->start)
		p->backend_started = s->backend->start(s->root, open_flags(s));
	if (pthread_create(&p->backend_thread, NULL, open_backend, s) == 0)
		atomic_store(&p->backend_pending, true);
	else
		open_backend(s);
	return 0;
}

/* Marks the checks of a comma list; -1 (err set) if one is unknown. */
static int mark_checks(const char *list, bool *enabled, bool value, struct ds_error *err)
{
	char *copy = ds_xstrdup(list), *save = NULL;
	int rc = 0;
	for (char *id = strtok_r(copy, ",", &save); id; id = strtok_r(NULL, ",", &save)) {
		const struct ds_check *c = ds_check_find(id);
		if (!c) {
			rc = ds_error_set(err, DS_ERR_USAGE, "unknown check '%s' (see 'distsec checks')", id);
			break;
		}
		for (size_t i = 0; i < ds_nchecks; i++)
			if (ds_checks[i] == c)
				enabled[i] = value;
	}
	free(copy);
	return rc;
}

/* The one place that decides which checks run: all but the opt-in ones,
 * or exactly those of --check; minus --skip; whole-system checks (no files
 * of their own: /dev labels, running daemons) only on whole-root scans,
 * unless named with --check. */
static int select_checks(struct ds_scan *s, struct ds_error *err)
{
	const struct ds_options *o = s->opt;
	for (size_t i = 0; i < ds_nchecks; i++)
		s->enabled[i] = !o->checks && !ds_checks[i]->opt_in;
	if (o->checks && mark_checks(o->checks, s->enabled, true, err) != 0)
		return -1;
	if (o->skip && mark_checks(o->skip, s->enabled, false, err) != 0)
		return -1;
	bool partial = o->npaths || o->npackage_files || o->npackages || o->all_packages;
	for (size_t i = 0; i < ds_nchecks; i++) {
		if (partial && !o->checks && !ds_checks[i]->applies && ds_checks[i]->scan_end)
			s->enabled[i] = false;
		if (s->enabled[i])
			s->priv->applies |= ds_checks[i]->applies;
		if (s->enabled[i] && (ds_checks[i]->applies & (DS_ON_ELF | DS_ON_SHELL | DS_ON_PYTHON)))
			s->priv->classify = true;
		if (s->enabled[i] && (ds_checks[i]->applies & DS_ON_ELF))
			s->priv->elf_checks = true;
	}
	return 0;
}

struct ds_scan *ds_scan_new(const struct ds_options *opt, struct ds_error *err)
{
	struct ds_scan *s = ds_xcalloc(1, sizeof *s);
	s->opt = opt;
	s->rootfd = -1;
	s->enabled = ds_xcalloc(ds_nchecks, sizeof *s->enabled);
	s->priv = ds_xcalloc(1, sizeof *s->priv);
	s->priv->states = ds_xcalloc(ds_nchecks, sizeof *s->priv->states);
	s->priv->begun = ds_xcalloc(ds_nchecks, sizeof *s->priv->begun);
	pthread_mutex_init(&s->priv->backend_lock, NULL);
	pthread_mutex_init(&s->priv->arches_lock, NULL);
	pthread_mutex_init(&s->priv->inputs_lock, NULL);
	if (select_checks(s, err) != 0) {
		ds_scan_free(s);
		return NULL;
	}
	return s;
}

void *ds_scan_check_state(const struct ds_scan *s, const struct ds_check *c)
{
	for (size_t i = 0; i < ds_nchecks; i++)
		if (ds_checks[i] == c)
			return s->priv->states[i];
	return NULL;
}

/* Each begun check's scan_end, once: after the walk, or when the scan is
 * abandoned (its findings are then dropped with the scan). */
static void end_checks(struct ds_scan *s)
{
	for (size_t i = 0; i < ds_nchecks; i++) {
		if (!s->priv->begun[i])
			continue;
		s->priv->begun[i] = false;
		if (ds_checks[i]->scan_end)
			ds_checks[i]->scan_end(s, s->priv->states[i]);
		s->priv->states[i] = NULL;
	}
}

static int begin_checks(struct ds_scan *s, struct ds_error *err)
{
	for (size_t i = 0; i < ds_nchecks; i++) {
		if (!s->enabled[i])
			continue;
		if (ds_checks[i]->scan_begin &&
		    !(s->priv->states[i] = ds_checks[i]->scan_begin(s, err)))
			return -1;
		s->priv->begun[i] = true;
	}
	return 0;
}

static int load_profile(struct ds_scan *s, const char *spec, const char *why, struct ds_error *err)
{
	if (!(s->priv->profile = ds_profile_load(spec, err)))
		return -1;
	s->profile = ds_profile_name(s->priv->profile);
	s->profile_why = why;
	return 0;
}

static void note_profile(const struct ds_backend *b, const char **found, bool *mixed)
{
	const char *p = b->profile ? b->profile : "stig";
	*mixed |= *found && strcmp(*found, p) != 0;
	*found = p;
}

/* The profile the backends that read the package files name ("stig" for
 * one that names none); *mixed when they name different ones.  A shard
 * takes the formats of every share's package files (the context pass
 * opened them all), so that each shard, even one whose share holds no
 * package file, judges by the profile one run would. */
static const char *inputs_profile(const struct ds_scan *s, bool *mixed)
{
	const struct ds_backend_slot *slots;
	size_t n = ds_backends_available(&slots);
	const char *found = NULL;
	if (s->opt->shard_n && s->priv->named_formats) {
		for (size_t k = 0; k < n; k++)
			if (atomic_load(&s->priv->named_formats[k]))
				note_profile(slots[k].b, &found, mixed);
		return found;
	}
	for (size_t i = 0; i < s->ninputs; i++)
		for (size_t k = 0; k < n; k++)
			if (s->inputs[i]->format && strcmp(slots[k].b->name, s->inputs[i]->format) == 0)
				note_profile(slots[k].b, &found, mixed);
	return found;
}

/* Without --profile: the profile the package files' backend names (all
 * of them naming the same one), else the one the root's backend names,
 * else the strict one. */
static int choose_profile(struct ds_scan *s, struct ds_error *err)
{
	if (s->priv->profile)
		return 0;
	bool mixed = false;
	const char *files = inputs_profile(s, &mixed);
	if (mixed)
		return load_profile(s, "stig", "package files of several formats", err);
	if (files)
		return load_profile(s, files, "the package files' format", err);
	if (s->backend->profile)
		return load_profile(s, s->backend->profile, "the root's package database", err);
	return load_profile(s, "stig", "no package database", err);
}

static int tree_waiver_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name), m = strlen(".distsec-waivers");
	return n > m && !strcmp(e->d_name + n - m, ".distsec-waivers") && e->d_name[0] != '.';
}

static int add_tree_waivers(struct ds_scan *s, const char *path, const char *pkg, struct ds_error *err)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	if (!s->priv->waivers)
		s->priv->waivers = ds_waivers_new();
	if (ds_waivers_add_file(s->priv->waivers, path, pkg, err) != 0)
		return -1;
	if (!s->opt->quiet)
		ds_warn("note: waivers from %s", path);
	return 0;
}

/* The waivers of the source trees the package files came from:
 * debian/distsec.waivers, then debian/PACKAGE.distsec-waivers (PACKAGE's
 * findings only), like lintian's debian/PACKAGE.lintian-overrides. */
static int load_tree_waivers(struct ds_scan *s, struct ds_error *err)
{
	const struct ds_args *a = &s->priv->args;
	for (size_t i = 0; i < a->ntrees; i++) {
		char *debian = ds_path_join(a->trees[i], "debian");
		char *all = ds_path_join(debian, "distsec.waivers");
		int rc = add_tree_waivers(s, all, NULL, err);
		free(all);
		struct dirent **v = NULL;
		int n = rc == 0 ? scandir(debian, &v, tree_waiver_file, alphasort) : 0;
		for (int k = 0; k < n; k++) {
			char *file = ds_path_join(debian, v[k]->d_name);
			char *pkg = ds_xstrndup(v[k]->d_name, strlen(v[k]->d_name) - strlen(".distsec-waivers"));
			if (rc == 0)
				rc = add_tree_waivers(s, file, pkg, err);
			free(file);
			free(pkg);
			free(v[k]);
		}
		free(v);
		free(debian);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* The private directory standing for an image's root: only the files
 * the backends read (image.c), removed when the scan ends. */
static void remove_image_root(struct ds_scan *s)
{
	struct ds_scan_private *p = s->priv;
	if (!p->image_root)
		return;
	ds_remove_dir(p->image_root);
	ds_cleanup_done(p->image_slot);
	free(p->image_root);
	p->image_root = NULL;
}

/* An image named alone is read (its index, manifest, config, every layer
 * into the flattened view), its package databases copied into a private
 * directory, and that directory becomes the root the backends and the
 * root's context (aliases, units) are read from. */
static int open_image(struct ds_scan *s, struct ds_error *err)
{
	struct ds_scan_private *p = s->priv;
	const struct ds_args *a = &p->args;
	if (a->n != 1 || s->opt->npackages || s->opt->all_packages) {
		return ds_error_set(err, DS_ERR_USAGE,
		                    "%s: an image is scanned alone (no other PATH, --package or --all-packages)",
		                    a->v[0].kind == DS_ARG_IMAGE ? a->v[0].path : "image");
	}
	p->image = ds_image_open(a->v[0].path, s->opt->platform,
	                         s->opt->max_decompressed ? s->opt->max_decompressed
	                                                  : DS_DECOMPRESSED_MAX, err);
	if (!p->image) {
		ds_error_prefix(err, "%s: ", a->v[0].path);
		return -1;
	}
	s->image = ds_image_info(p->image);
	const char *tmp = getenv("TMPDIR");
	char *dir = ds_xasprintf("%s/distsec-image-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (ds_mktemp_registered(dir, true, ds_cleanup_add, ds_cleanup_done, &p->image_slot) != 0) {
		ds_error_errno(err, errno, "temporary directory %s", dir);
		free(dir);
		return -1;
	}
	p->image_root = dir;
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || ds_image_copy_root_files(p->image, fd, err) != 0) {
		if (fd < 0)
			ds_error_errno(err, errno, "%s", s->image->name);
		else
			ds_error_prefix(err, "%s: ", s->image->name);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(s->rootfd);
	s->rootfd = fd;
	free(s->root);
	s->root = ds_xstrdup(dir);
	return 0;
}

static void add_unit(const char *path, const unsigned char *data, size_t len, void *u)
{
	ds_unitset_add(u, path, data, len);
}

/* The image's daemons: what its units and init scripts start, and the
 * program its config runs (Entrypoint, else Cmd). */
static void image_daemons(struct ds_scan *s)
{
	struct ds_unitset *u = ds_unitset_new();
	ds_image_each_kept(s->priv->image, add_unit, u);
	ds_daemons_add_set(s->priv->daemons, u);
	ds_unitset_free(u);
	if (s->image->program)
		*ds_strmap_put(s->priv->daemons, s->image->program) |= DS_NAMED_DAEMON;
	const char *const *problems;
	size_t n = ds_image_problems(s->priv->image, &problems);
	for (size_t i = 0; i < n; i++)
		ds_report_image_error(&s->priv->main, "%s", problems[i]);
}

/* Where programs' debug files are (DESIGN.md, The build's own flags):
 * --debug-dir, the root's /usr/lib/debug/.build-id, and the package
 * files' debug packages, which the context pass adds. */
static int open_debug(struct ds_scan *s, bool root_context, struct ds_error *err)
{
	if (!s->priv->elf_checks)
		return 0;
	if (!ds_have_dwarf) {
		if (s->opt->debug_dir)
			return ds_error_set(err, DS_ERR_UNSUPPORTED, "--debug-dir %s: this distsec was built without libdw",
			                    s->opt->debug_dir);
		return 0;
	}
	s->priv->debug = ds_debugset_new();
	if (s->opt->debug_dir && ds_debugset_dir(s->priv->debug, s->opt->debug_dir, err) != 0) {
		ds_error_prefix(err, "--debug-dir %s: ", s->opt->debug_dir);
		return -1;
	}
	if (root_context)
		ds_debugset_root(s->priv->debug, s->rootfd);
	return 0;
}

int ds_scan_open(struct ds_scan *s, struct ds_error *err)
{
	if (s->opt->waivers && !(s->priv->waivers = ds_waivers_load(s->opt->waivers, err)))
		return -1;
	if (s->opt->baseline && ds_baseline_load(s, err) != 0)
		return -1;
	if (s->opt->profile && load_profile(s, s->opt->profile, "--profile", err) != 0)
		return -1;
	if (open_root(s, err) != 0)
		return -1;
	ds_args_classify(s, &s->priv->args);
	if (s->priv->args.nimage && open_image(s, err) != 0)
		return -1;
	if (load_tree_waivers(s, err) != 0)
		return -1;
	if (s->priv->args.npkg && load_spellings(s, err) != 0)
		return -1;
	s->priv->pkgfiles_only = s->priv->args.n && !s->priv->args.nroot && !s->priv->image &&
	                         !s->opt->npackages && !s->opt->all_packages;
	/* after pkgfiles_only: every shard reads the root (or not) alike */
	if (s->opt->shard_n)
		ds_args_shard(&s->priv->args, s->opt->shard_k, s->opt->shard_n);
	bool root_context = !s->priv->pkgfiles_only || s->opt->installed_state;
	if (open_debug(s, root_context, err) != 0)
		return -1;
	if (start_backend(s, err) != 0 || load_lists(s, err) != 0)
		return -1;
	ds_worker_init(&s->priv->main, s);
	s->root_unread = !root_context;
	if (root_context)
		s->priv->aliases = ds_aliases_load(s->rootfd);
	s->priv->daemons = root_context ? ds_daemons_load(s->rootfd) : ds_strmap_new();
	s->priv->inodes = ds_inodes_new();
	if (s->priv->image)
		image_daemons(s);
	return begin_checks(s, err);
}

/* The context pass (DESIGN.md, Program classes): before any package file
 * is scanned, the units and init scripts of all of them, read by the
 * worker pool (only those members are read), class the set's daemons, so
 * a service in one subpackage makes a daemon of a program in another.
 * With --shard, of every share: a shard classes as one run does. */
static void package_context(struct ds_scan *s)
{
	struct ds_args *args = &s->priv->args;
	size_t n = 0;
	for (size_t i = 0; i < args->n; i++)
		n += args->v[i].kind == DS_ARG_PKGFILE;
	/* the class only matters to checks of ELF files; a shard needs the
	 * pass for the formats named (inputs_profile) */
	if (!n || (!s->priv->elf_checks && !s->opt->shard_n))
		return;
	const struct ds_backend_slot *slots;
	s->priv->named_formats = ds_xcalloc(ds_backends_available(&slots), sizeof *s->priv->named_formats);
	s->priv->unitset = ds_unitset_new();
	struct ds_jobs *j = ds_jobs_new(n > 1);
	struct ds_pool pool;
	ds_pool_start(s, j, &pool);
	for (size_t i = 0; i < args->n; i++)
		if (args->v[i].kind == DS_ARG_PKGFILE)
			ds_jobs_add_context(j, args->v[i].path, ds_expect_dup(args->v[i].expect));
	ds_jobs_close(j);
	ds_pool_join(s, &pool);
	ds_jobs_free(j);
	ds_daemons_add_set(s->priv->daemons, s->priv->unitset);
	ds_unitset_free(s->priv->unitset);
	s->priv->unitset = NULL;
}

/* Nowhere to look: no file pays for a look-up. */
static void drop_unused_debug(struct ds_scan *s)
{
	if (s->priv->debug)
		ds_debugset_resolve(s->priv->debug);
	if (!ds_debugset_used(s->priv->debug)) {
		ds_debugset_free(s->priv->debug);
		s->priv->debug = NULL;
	}
}

int ds_scan_run(struct ds_scan *s, struct ds_error *err)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ds_scan_open(s, err) != 0)
		return -1;

	/* one tree never yields a path twice (symlinks are not followed) */
	struct ds_args *args = &s->priv->args;
	bool dedup = args->n > 1 || s->opt->npackages || s->opt->all_packages;
	package_context(s);
	drop_unused_debug(s);
	struct ds_jobs *j = ds_jobs_new(dedup);
	struct ds_pool pool;
	ds_pool_start(s, j, &pool);
	int rc = 0;
	if (s->opt->npackages || s->opt->all_packages)
		rc = ds_walk_packages(s, j, err);
	/* A broken package file is reported and the scan goes on; it is fatal
	 * only when nothing else was named. */
	size_t walked = 0;
	for (size_t i = 0; rc == 0 && i < args->n; i++) {
		struct ds_arg *a = &args->v[i];
		if (a->other_shard)
			continue;   /* --shard: another share's */
		if (a->kind == DS_ARG_ERROR)
			ds_report_input_error(&s->priv->main, a->path, "%s", a->error);
		else if (a->kind == DS_ARG_PKGFILE)
			ds_jobs_add_pkgfile(j, a->path, a->expect);
		else if (a->kind == DS_ARG_IMAGE)
			for (size_t k = 0; k < ds_image_layer_count(s->priv->image); k++, walked++)
				ds_jobs_add_layer(j, k);
		else if (ds_walk_argument(s, j, a->path, err) != 0)
			rc = -1;
		else
			walked++;
		if (a->kind == DS_ARG_PKGFILE)
			a->expect = NULL; /* the ring took it */
	}
	if (rc == 0 && !args->n && !s->opt->npackages && !s->opt->all_packages && !s->opt->shard_n)
		rc = ds_walk_argument(s, j, "/", err);
	ds_jobs_close(j);
	ds_pool_join(s, &pool);
	if (rc == 0 && atomic_load(&s->priv->pkg_broken) && !walked &&
	    !atomic_load(&s->priv->pkg_read) && !s->opt->npackages && !s->opt->all_packages)
		rc = -1;
	if (rc == 0 && ds_scan_backend_wait(s) != 0)
		rc = -1;
	end_checks(s);
	ds_jobs_free(j);
	if (rc != 0 || choose_profile(s, err) != 0)
		return -1;
	finish(s);
	if (s->priv->image) {   /* the report names the image, not its copies */
		remove_image_root(s);
		free(s->root);
		s->root = ds_xstrdup(s->image->name);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s->stats.seconds = (double)(t1.tv_sec - t0.tv_sec) +
	                   (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return 0;
}

void ds_scan_free(struct ds_scan *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nfindings; i++)
		ds_finding_free(s->findings[i]);
	free(s->findings);
	ds_absent_free(s->absent);
	for (size_t i = 0; i < s->nhistory; i++)
		free(s->history[i].n);
	free(s->history);
	free(s->backend_why);
	if (s->priv && s->priv->merged)
		ds_merge_free(s);   /* distsec merge's: nothing was opened */
	if (s->priv) {
		ds_scan_backend_wait(s);
		end_checks(s);
		pthread_mutex_destroy(&s->priv->backend_lock);
		pthread_mutex_destroy(&s->priv->arches_lock);
		pthread_mutex_destroy(&s->priv->inputs_lock);
		ds_args_free(&s->priv->args);
		ds_inputs_free(s);
		struct ds_worker *m = &s->priv->main;
		for (size_t i = 0; i < m->nfindings; i++)
			ds_finding_free(m->findings[i]);
		free(m->findings);
		if (m->magic)
			magic_close(m->magic);
		ds_aliases_free(s->priv->aliases);
		ds_strmap_free(s->priv->daemons);
		ds_inodes_free(s->priv->inodes);
		ds_debugset_free(s->priv->debug);
		ds_waivers_free(s->priv->waivers);
		ds_report_free(s->priv->baseline);
		ds_profile_free(s->priv->profile);
		ds_profile_free(s->priv->lists_root);
		ds_profile_free(s->priv->lists_stig);
		free_spellings(s);
		free(s->priv->named_formats);
		remove_image_root(s);
		ds_image_free(s->priv->image);
		free(s->priv->states);
		free(s->priv->begun);
		free(s->priv);
	}
	for (size_t i = 0; i < s->nwarnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	for (size_t i = 0; i < s->nskipped; i++)
		free(s->skipped[i].why);
	free(s->skipped);
	if (s->bh)
		s->backend->close(s->bh);
	if (s->rootfd >= 0)
		close(s->rootfd);
	free(s->root);
	free(s->enabled);
	free(s);
}
