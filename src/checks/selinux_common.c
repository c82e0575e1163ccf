/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Label comparison and policy look-up shared by the SELinux checks. */
#include <selinux/selinux.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "distsec/util.h"
#include "selinux.h"

int (*ds_selinux_get_label)(const char *path, char **label) = lgetfilecon_raw;
int (*ds_selinux_enabled)(void) = is_selinux_enabled;

const char *ds_selinux_type(const char *context, char *buf, size_t len)
{
	buf[0] = '\0';
	const char *a = context ? strchr(context, ':') : NULL;
	const char *b = a ? strchr(a + 1, ':') : NULL;
	if (!b)
		return buf;
	size_t n = strcspn(b + 1, ":");
	snprintf(buf, len, "%.*s", (int)n, b + 1);
	return buf;
}

/* Types only: users, roles and MLS levels differ legitimately between a
 * policy's defaults and a running system (restorecon compares the same). */
int ds_selinux_compare(struct selabel_handle *h, const char *path, mode_t mode,
                       const char *actual, char *buf, size_t len)
{
	char *want = NULL;
	if (selabel_lookup_raw(h, &want, path, (int)mode) != 0 || !want)
		return -1;
	char a[128];
	ds_selinux_type(want, buf, len);
	ds_selinux_type(actual, a, sizeof a);
	freecon(want);
	return strcmp(a, buf) != 0;
}

bool ds_selinux_unconfined(const char *context)
{
	static const char *const domains[] = {
		"unconfined_service_t", "initrc_t", "unconfined_t", "inetd_child_t", NULL,
	};
	char t[128];
	ds_selinux_type(context, t, sizeof t);
	for (size_t i = 0; domains[i]; i++)
		if (!strcmp(t, domains[i]))
			return true;
	return false;
}

char *ds_selinux_contexts_path(const char *root)
{
	const char *r = strcmp(root, "/") ? root : "";
	char *cfg = ds_xasprintf("%s/etc/selinux/config", r);
	FILE *fp = fopen(cfg, "re");
	free(cfg);
	if (!fp)
		return NULL;
	char line[256], type[128] = "";
	while (fgets(line, sizeof line, fp))
		if (sscanf(line, " SELINUXTYPE = %127s", type) == 1)
			break;
	fclose(fp);
	if (!type[0] || strchr(type, '/'))
		return NULL;
	char *p = ds_xasprintf("%s/etc/selinux/%s/contexts/files/file_contexts", r, type);
	if (access(p, R_OK) != 0) {
		free(p);
		return NULL;
	}
	return p;
}
