/* Test helpers (see harness.h). */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

const char *fixture(const char *name)
{
	static char buf[4096];
	const char *dir = getenv("FIXTURES");
	snprintf(buf, sizeof buf, "%s/%s", dir ? dir : ".", name);
	return buf;
}

char *make_root(void)
{
	char *t = ds_xstrdup("/tmp/distsec-test-XXXXXX");
	assert_non_null(mkdtemp(t));
	return t;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)ftw;
	if (flag == FTW_DP || flag == FTW_D)
		chmod(p, 0700);
	return remove(p);
}

void rm_rf(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void mkparents(const char *path)
{
	char *p = ds_xstrdup(path);
	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	free(p);
}

unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0;
	int c;
	while ((c = fgetc(f)) != EOF) {
		unsigned char ch = (unsigned char)c;
		ds_push(buf, n, cap, ch);
	}
	fclose(f);
	*len = n;
	return buf;
}

static void write_bytes(const char *root, const char *rel, const void *data, size_t n,
                        mode_t mode)
{
	char *dst = ds_xasprintf("%s/%s", root, rel);
	mkparents(dst);
	int fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	close(fd);
	assert_int_equal(chmod(dst, mode), 0);
	free(dst);
}

void copy_into(const char *root, const char *src, const char *rel, mode_t mode)
{
	size_t n;
	unsigned char *buf = slurp(src, &n);
	write_bytes(root, rel, buf, n, mode);
	free(buf);
}

void write_into(const char *root, const char *rel, const char *text, mode_t mode)
{
	write_bytes(root, rel, text, strlen(text), mode);
}

struct ds_scan *scan_root_jobs(const char *root, const char *checks, int jobs)
{
	struct ds_options *o = ds_xcalloc(1, sizeof *o);
	o->root = root;
	o->backend = "none";
	o->format = "text";
	o->jobs = jobs;
	o->checks = checks;
	o->fail_on = DS_SEV_ERROR;
	struct ds_error err = DS_ERROR_INIT;
	struct ds_scan *s = ds_scan_new(o, &err);
	if (!s || ds_scan_run(s, &err) != 0)
		fail_msg("the scan failed: %s", ds_error_msg(&err));
	return s;
}

struct ds_scan *scan_root(const char *root, const char *checks)
{
	return scan_root_jobs(root, checks, 1);
}

void scan_done(struct ds_scan *s)
{
	if (!s)
		return;
	const struct ds_options *o = s->opt;
	ds_scan_free(s);
	free((void *)o);
}

int scan_and_root_done(struct ds_scan **s, char **root)
{
	scan_done(*s);
	*s = NULL;
	rm_rf(*root);
	free(*root);
	*root = NULL;
	return 0;
}

const struct ds_finding *record_of(const struct ds_scan *s, const char *path,
                                   const char *check)
{
	for (size_t i = 0; i < s->nfindings; i++) {
		const struct ds_finding *d = s->findings[i];
		if (!strcmp(d->path, path) && !strcmp(d->check->id, check))
			return d;
	}
	return NULL;
}

const struct ds_finding *finding_of(const struct ds_scan *s, const char *path,
                                    const char *check)
{
	const struct ds_finding *d = record_of(s, path, check);
	return d && d->severity != DS_SEV_PASS ? d : NULL;
}

const struct ds_finding *must_record(const struct ds_scan *s, const char *path,
                                     const char *check, enum ds_severity sev)
{
	const struct ds_finding *d = record_of(s, path, check);
	if (!d)
		fail_msg("no %s record for %s", check, path);
	if (d->severity != sev)
		fail_msg("%s on %s: severity %s, expected %s (%s)", check, path,
		         ds_severity_name(d->severity), ds_severity_name(sev), d->message);
	return d;
}

size_t count_findings(const struct ds_scan *s, const char *check)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nfindings; i++)
		if (s->findings[i]->severity != DS_SEV_PASS &&
		    !strcmp(s->findings[i]->check->id, check))
			n++;
	return n;
}

const char *detail_str(const struct ds_finding *d, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(d->details, key, &v))
		return NULL;
	return json_object_get_string(v);
}

int detail_bool(const struct ds_finding *d, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(d->details, key, &v))
		return -1;
	return json_object_get_boolean(v);
}
