/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers every output format shares: owner labels and group keys. */
#include <stdio.h>

#include "../internal.h"

const char *ds_owner_label(const struct ds_owner *o, char *buf, size_t len)
{
	switch (o->status) {
	case DS_OWNER_PACKAGE:
		if (!o->pkgs[0] || !o->pkgs[0]->name)
			return "?";
		if (o->pkgs[0]->arch && *o->pkgs[0]->arch)
			snprintf(buf, len, "%s:%s", o->pkgs[0]->name, o->pkgs[0]->arch);
		else
			snprintf(buf, len, "%s", o->pkgs[0]->name);
		return buf;
	case DS_OWNER_NOT_OWNED:
		return "not-owned";
	case DS_OWNER_UNKNOWN:
		break;
	}
	return "unknown";
}
