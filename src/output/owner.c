/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers every output format shares: owner labels and group keys. */
#include <stdio.h>

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
