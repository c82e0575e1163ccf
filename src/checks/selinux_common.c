/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Label comparison and policy look-up shared by the SELinux checks. */
#include <selinux/selinux.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "distsec/rootfile.h"
#include "distsec/util.h"

#define CONFIG_MAX (1u << 20)
#define CONTEXTS_MAX (64u << 20)   /* Fedora's: 0.4 MiB */
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

/* Both files are opened below the root (symlinks resolved inside it,
 * FIFOs and devices refused); libselinux gets the checked file_contexts
 * as /proc/self/fd/N, so it never opens a path of the image itself (and
 * reads neither a .bin nor a .local beside it). */
char *ds_selinux_contexts_path(const char *root, int *fd)
{
	*fd = -1;
	FILE *fp = ds_root_fopen(root, "etc/selinux/config", CONFIG_MAX);
	if (!fp)
		return NULL;
	char line[256], type[128] = "";
	while (fgets(line, sizeof line, fp))
		if (sscanf(line, " SELINUXTYPE = %127s", type) == 1)
			break;
	fclose(fp);
	if (!type[0] || strchr(type, '/') || !strcmp(type, ".."))
		return NULL;
	char *rel = ds_xasprintf("etc/selinux/%s/contexts/files/file_contexts", type);
	*fd = ds_root_open(root, rel, CONTEXTS_MAX);
	free(rel);
	return *fd >= 0 ? ds_xasprintf("/proc/self/fd/%d", *fd) : NULL;
}
