/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers every output format shares: owner labels and group keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"

const char *ds_owner_label(const struct ds_owner *o, char *buf, size_t len)
{
	switch (o->status) {
	case DS_OWNER_PACKAGE: {
		/* every owner (a path in two packages lists both), name:arch */
		size_t used = 0;
		buf[0] = '\0';
		for (size_t i = 0; i < o->npkgs && i < DS_OWNER_MAX && used < len; i++) {
			const struct ds_pkg *p = o->pkgs[i];
			int w = snprintf(buf + used, len - used, "%s%s%s%s", i ? "," : "",
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

/* Group key of a finding for --group-by and the per-package reports. */
const char *ds_group_key(enum ds_group_by g, const struct ds_finding *d)
{
	const struct ds_owner *o = &d->owner;
	if (o->status != DS_OWNER_PACKAGE || !o->pkgs[0])
		return o->status == DS_OWNER_NOT_OWNED ? "(not-owned)" : "(unknown)";
	if (g == DS_GROUP_MAINTAINER)
		return o->pkgs[0]->maintainer ? o->pkgs[0]->maintainer : "(no maintainer)";
	return o->pkgs[0]->name ? o->pkgs[0]->name : "?";
}
