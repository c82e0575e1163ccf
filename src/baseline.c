/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --baseline OLD.json: the findings of this scan against those of an older
 * JSON report (the last build's).  A finding is the same when its check,
 * path, STIG rule and severity are: the package's name and version may
 * change between builds, the message may name a version.  Each old finding
 * matches at most one new one (a multiset), so a second copy of a problem
 * is new.  Findings with no match are new; old ones with no match are
 * absent (fixed, or their file is gone).  Only new findings gate
 * (ds_finding_gates).  The same identity is what `distsec diff` compares.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* Larger than any report distsec writes for a whole distribution. */
#define REPORT_MAX (1024ull << 20)

char *ds_finding_key(const char *check, const char *path, const char *rule, const char *severity)
{
	return ds_xasprintf("%s\037%s\037%s\037%s", check, path, rule ? rule : "", severity);
}

const char *ds_report_str(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
	       ? json_object_get_string(v) : NULL;
}

/* Every finding record of a report has what the key needs. */
static int check_findings(json_object *list, char *err, size_t len)
{
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *d = json_object_array_get_idx(list, i);
		if (!json_object_is_type(d, json_type_object) || !ds_report_str(d, "check") ||
		    !ds_report_str(d, "path") || !ds_report_str(d, "severity") ||
		    ds_severity_parse(ds_report_str(d, "severity")) < 0) {
			snprintf(err, len, "finding %zu lacks check, path or a severity", i);
			return -1;
		}
	}
	return 0;
}

json_object *ds_report_load(const char *path, char *err, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(err, len, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size > REPORT_MAX) {
		snprintf(err, len, "%s", S_ISREG(st.st_mode) ? "larger than 1 GiB" : "not a regular file");
		close(fd);
		return NULL;
	}
	char *buf = ds_xmalloc((size_t)st.st_size + 1);
	size_t got = 0;
	ssize_t n;
	while (got < (size_t)st.st_size && (n = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	json_tokener *tok = json_tokener_new_ex(64);
	json_object *doc = json_tokener_parse_ex(tok, buf, (int)got);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	json_tokener_free(tok);
	free(buf);
	json_object *tool, *findings;
	const char *name = NULL;
	if (!doc || jerr != json_tokener_success) {
		snprintf(err, len, "not JSON (%s)", json_tokener_error_desc(jerr));
	} else if (!json_object_is_type(doc, json_type_object) ||
	           !json_object_object_get_ex(doc, "tool", &tool) ||
	           !(name = ds_report_str(tool, "name")) || strcmp(name, "distsec") ||
	           !json_object_object_get_ex(doc, "findings", &findings) ||
	           !json_object_is_type(findings, json_type_array)) {
		snprintf(err, len, "not a distsec JSON report (--format json)");
	} else if (check_findings(findings, err, len) == 0) {
		return doc;
	}
	json_object_put(doc);
	return NULL;
}

int ds_baseline_load(struct ds_scan *s)
{
	char err[160];
	s->priv->baseline = ds_report_load(s->opt->baseline, err, sizeof err);
	if (!s->priv->baseline) {
		ds_warn("--baseline %s: %s", s->opt->baseline, err);
		return -1;
	}
	return 0;
}

static char *record_key(json_object *d)
{
	return ds_finding_key(ds_report_str(d, "check"), ds_report_str(d, "path"), ds_report_str(d, "rule"),
	                      ds_report_str(d, "severity"));
}

void ds_baseline_apply(struct ds_scan *s, struct ds_finding **f, size_t n)
{
	json_object *old;
	json_object_object_get_ex(s->priv->baseline, "findings", &old);
	struct ds_strmap *left = ds_strmap_new();   /* key -> old findings not yet matched */
	size_t nold = json_object_array_length(old);
	for (size_t i = 0; i < nold; i++) {
		json_object *d = json_object_array_get_idx(old, i);
		if (strcmp(ds_report_str(d, "severity"), "pass") == 0)
			continue;
		char *key = record_key(d);
		++*ds_strmap_put(left, key);
		free(key);
	}
	for (size_t i = 0; i < n; i++) {
		if (f[i]->severity == DS_SEV_PASS)
			continue;
		char *key = ds_finding_key(f[i]->check->id, f[i]->path, f[i]->rule,
		                           ds_severity_name(f[i]->severity));
		uintptr_t *c = ds_strmap_get(left, key);
		free(key);
		f[i]->baseline = c && *c ? DS_BASELINE_UNCHANGED : DS_BASELINE_NEW;
		if (c && *c)
			--*c;
		if (f[i]->baseline == DS_BASELINE_NEW)
			s->stats.new_findings++;
		else
			s->stats.unchanged++;
	}
	s->absent = json_object_new_array();
	for (size_t i = 0; i < nold; i++) {
		json_object *d = json_object_array_get_idx(old, i);
		char *key = record_key(d);
		uintptr_t *c = ds_strmap_get(left, key);
		free(key);
		if (c && *c) {
			--*c;
			json_object_object_add(d, "baseline", json_object_new_string("absent"));
			json_object_array_add(s->absent, json_object_get(d));
			s->stats.absent++;
		}
	}
	ds_strmap_free(left);
}
