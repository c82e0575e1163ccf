/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file-hidden-exec (find-hidden-exec): a regular file with an execute bit
 * whose name, or the name of any directory above it inside the root,
 * starts with '.'.  Rootkits hide there; so do stray photos (.IMG_0001 with
 * an x bit): the libmagic type tells which at a glance.  A file with a
 * hidden name gets its own finding; the files under a hidden directory are
 * one finding on the topmost hidden directory (a ~/.pyenv is thousands of
 * them), with how many there are of each kind and the first few paths:
 * every one is counted, none is dropped.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distsec/check.h"
#include "distsec/scan.h"
#include "distsec/util.h"

#define EXAMPLES 5

struct tree {
	size_t files;
	struct ds_strmap *kinds;          /* libmagic kind → count */
	char *examples[EXAMPLES];         /* the first paths in sort order */
	size_t nexamples;
};

struct trees {
	pthread_mutex_t lock;
	struct ds_strmap *dirs;           /* topmost hidden directory → struct tree * */
};

/* Length of the path up to its topmost hidden directory (0 if none). */
static size_t hidden_dir_len(const char *path)
{
	const char *base = strrchr(path, '/');
	for (const char *p = strchr(path, '/'); p && p < base; p = strchr(p + 1, '/'))
		if (p[1] == '.' && p[2] && p[2] != '/' && !(p[2] == '.' && (!p[3] || p[3] == '/')))
			return (size_t)(strchr(p + 1, '/') - path);
	return 0;
}

/* "ELF 64-bit LSB pie executable, x86-64, ..." → up to the first comma. */
static void kind_of(const char *magic, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(magic, ","), magic);
}

static void add_example(struct tree *t, const char *path)
{
	size_t i = t->nexamples;
	while (i > 0 && strcmp(t->examples[i - 1], path) > 0)
		i--;
	if (i >= EXAMPLES)
		return;
	if (t->nexamples == EXAMPLES)
		free(t->examples[--t->nexamples]);
	memmove(&t->examples[i + 1], &t->examples[i], (t->nexamples - i) * sizeof *t->examples);
	t->examples[i] = ds_xstrdup(path);
	t->nexamples++;
}

static void run(struct ds_file *f, void *state)
{
	struct trees *ts = state;
	if (!(f->mode & 0111))
		return;
	size_t dirlen = hidden_dir_len(f->path);
	const char *base = strrchr(f->path, '/');
	if (!dirlen) {
		if (base && base[1] == '.' && base[2] && !(base[2] == '.' && !base[3])) {
			struct ds_finding *d = ds_report(f, DS_SEV_WARNING,
				"executable file with a hidden name: %s", ds_file_magic(f));
			ds_detail_str(d, "type", ds_file_magic(f));
			ds_detail_bool(d, "hidden_name", true);
		}
		return;
	}
	char kind[128];
	kind_of(ds_file_magic(f), kind, sizeof kind);
	char *dir = ds_xstrndup(f->path, dirlen);
	pthread_mutex_lock(&ts->lock);
	uintptr_t *slot = ds_strmap_put(ts->dirs, dir);
	struct tree *t = (struct tree *)*slot;
	if (!t) {
		t = ds_xcalloc(1, sizeof *t);
		t->kinds = ds_strmap_new();
		*slot = (uintptr_t)t;
	}
	t->files++;
	(*ds_strmap_put(t->kinds, kind))++;
	add_example(t, f->path);
	pthread_mutex_unlock(&ts->lock);
	free(dir);
}

static void *scan_begin(struct ds_scan *s, struct ds_error *err)
{
	(void)s;
	(void)err;
	struct trees *ts = ds_xcalloc(1, sizeof *ts);
	pthread_mutex_init(&ts->lock, NULL);
	ts->dirs = ds_strmap_new();
	return ts;
}

extern const struct ds_check ds_check_file_hidden_exec;

struct kind_count { const char *kind; size_t n; };

/* Most files first, then by name: the same message whatever the order
 * the workers met the files in. */
static int cmp_kind(const void *a, const void *b)
{
	const struct kind_count *x = a, *y = b;
	return x->n != y->n ? (x->n < y->n ? 1 : -1) : strcmp(x->kind, y->kind);
}

/* One finding per tree: "N executable files (k1: n1; k2: n2 ...)". */
static void report_tree(struct ds_scan *s, const char *dir, struct tree *t)
{
	size_t nk = ds_strmap_size(t->kinds), pos = 0, i = 0;
	struct kind_count *kc = ds_xcalloc(nk ? nk : 1, sizeof *kc);
	uintptr_t n;
	for (const char *k; i < nk && (k = ds_strmap_next(t->kinds, &pos, &n)) != NULL; i++)
		kc[i] = (struct kind_count){ k, (size_t)n };
	qsort(kc, i, sizeof *kc, cmp_kind);
	char kinds[512] = "";
	size_t used = 0;
	json_object *obj = json_object_new_object();
	for (size_t k = 0; k < i; k++) {
		json_object_object_add(obj, kc[k].kind, json_object_new_int64((int64_t)kc[k].n));
		int w = snprintf(kinds + used, sizeof kinds - used, "%s%s: %zu", used ? "; " : "",
		                 kc[k].kind, kc[k].n);
		if (w > 0 && (size_t)w < sizeof kinds - used)
			used += (size_t)w;
	}
	free(kc);
	struct ds_finding *d = ds_scan_report(s, &ds_check_file_hidden_exec, dir, DS_SEV_WARNING,
		"hidden directory holding %zu executable file%s (%s)", t->files,
		t->files == 1 ? "" : "s", kinds);
	ds_detail_int(d, "files", (long long)t->files);
	json_object_object_add(d->details, "kinds", obj);
	for (size_t k = 0; k < t->nexamples; k++) {
		ds_detail_append(d, "examples", t->examples[k]);
		free(t->examples[k]);
	}
	ds_detail_bool(d, "hidden_name", false);
	ds_strmap_free(t->kinds);
	free(t);
}

static void scan_end(struct ds_scan *s, void *state)
{
	struct trees *ts = state;
	size_t pos = 0;
	uintptr_t v;
	for (const char *dir; (dir = ds_strmap_next(ts->dirs, &pos, &v)) != NULL;)
		report_tree(s, dir, (struct tree *)v);
	ds_strmap_free(ts->dirs);
	pthread_mutex_destroy(&ts->lock);
	free(ts);
}

const struct ds_check ds_check_file_hidden_exec = {
	.id = "file-hidden-exec",
	.severity = DS_SEV_WARNING,
	.by_path = true,
	.applies = DS_ON_REGULAR,
	.summary = "executable file with a hidden name, or hidden directory holding some (one finding each)",
	.scan_begin = scan_begin,
	.help = {
		.what = "An executable file whose name, or a directory above it, starts with \".\" is "
		  "hidden from ls and most file managers: rootkits and droppers hide there.",
		.detect = "A regular file with an execute bit and a dot-name: one finding per hidden "
		  "file, one per topmost hidden directory for the files under it (counted by "
		  "kind, the first few named); the libmagic type is in the details.",
		.limits = "Stray files with an x bit (photos copied from FAT media) are reported too; the "
		  "type tells them apart at a glance.",
		.fix = "Remove the file, or its execute bit; waive what is legitimate with the reason.",
	},
	.cwe = 506,
	.precision = "low",
	.run = run,
	.scan_end = scan_end,
};
