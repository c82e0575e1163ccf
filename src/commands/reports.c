/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --report-dir DIR: one report per package (name, version and architecture)
 * or maintainer in the chosen format, ready to mail to whoever can fix it,
 * clean packages included (a CI system then sees their passed tests), plus
 * index.json.  File names
 * come from package or maintainer strings, which a hostile package controls:
 * only [A-Za-z0-9.+-_] survive, never a leading dot, at most 80 bytes, and
 * files are created with openat() in DIR refusing symlinks, so nothing is
 * written outside DIR.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "output/output.h"

static int write_at(int dfd, const char *name, const struct ds_scan *view,
                    const struct ds_output *fmt)
{
	FILE *fp = ds_report_create(dfd, name);
	if (!fp)
		return -1;
	int rc = fmt->render(view, fp);
	return fclose(fp) != 0 || rc != 0 ? -1 : 0;
}

static json_object *index_entry(const struct ds_scan *s, const struct ds_group *g,
                                const struct ds_scan *v, const char *file)
{
	json_object *e = json_object_new_object();
	const struct ds_owner *o = &g->first->owner;
	const struct ds_pkg *p = o->status == DS_OWNER_PACKAGE ? o->pkgs[0] : NULL;
	if (s->opt->group_by == DS_GROUP_MAINTAINER) {
		json_object_object_add(e, "maintainer", ds_json_string(g->key));
	} else {
		json_object_object_add(e, "package", ds_json_string(p ? p->name : g->key));
		if (p && p->version)
			json_object_object_add(e, "version", ds_json_string(p->version));
		if (p && p->arch)
			json_object_object_add(e, "arch", ds_json_string(p->arch));
	}
	json_object_object_add(e, "file", json_object_new_string(file));
	for (int sev = DS_SEV_ERROR; sev >= DS_SEV_INFO; sev--)
		json_object_object_add(e, ds_severity_name(sev),
		                       json_object_new_int64((int64_t)v->stats.by_severity[sev]));
	return e;
}

int ds_write_reports(const struct ds_scan *s, const struct ds_output *fmt, const char *dir,
                     struct ds_error *err)
{
	if (fmt->reports_as)   /* tmt: its results point at JSON reports */
		fmt = ds_output_find(fmt->reports_as);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return ds_error_errno(err, errno, "report dir %s", dir);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return ds_error_errno(err, errno, "report dir %s", dir);
	struct ds_group *g;
	size_t ng = ds_groups_make(s, s->opt->group_by, true, &g);
	struct ds_strmap *used = ds_report_names(fmt->ext);
	json_object *index = json_object_new_array();
	int rc = 0;
	for (size_t i = 0; i < ng && rc == 0; i++) {
		struct ds_scan v = ds_group_view(s, g[i].f, g[i].n);
		char *name = ds_report_name(g[i].key, fmt->ext, used);
		if (!fmt->write_dir && write_at(dfd, name, &v, fmt) != 0)
			rc = ds_error_errno(err, errno, "report %s/%s", dir, name);
		json_object_array_add(index, index_entry(s, &g[i], &v, name));
		free(name);
	}
	if (rc == 0 && fmt->write_dir && fmt->write_dir(s, dfd) != 0)
		rc = ds_error_errno(err, errno, "report dir %s", dir);
	const char *text = json_object_to_json_string_ext(index, JSON_C_TO_STRING_PRETTY |
	                                                    JSON_C_TO_STRING_NOSLASHESCAPE);
	int fd = openat(dfd, "index.json", O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || write(fd, "\n", 1) != 1)
		rc = ds_error_errno(err, errno, "report %s/index.json", dir);
	if (fd >= 0)
		close(fd);
	json_object_put(index);
	ds_strmap_free(used);
	ds_groups_free(g, ng);
	close(dfd);
	return rc;
}
