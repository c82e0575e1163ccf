/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where loadable modules (backends, the apt shim) are looked for. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "distsec/util.h"

/* The directory of the running program, or NULL. */
static const char *exe_dir(void)
{
	static char dir[PATH_MAX];
	if (dir[0])
		return dir;
	ssize_t len = readlink("/proc/self/exe", dir, sizeof dir - 1);
	if (len <= 0)
		return NULL;
	dir[len] = '\0';
	char *slash = strrchr(dir, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return dir;
}

const char *ds_data_file(const char *name, char *buf, size_t len)
{
	const char *dirs[3] = { getenv("DISTSEC_DATA_DIR"), exe_dir(), DS_DATA_DIR };
	for (size_t i = 0; i < 3; i++) {
		if (!dirs[i] || !*dirs[i])
			continue;
		snprintf(buf, len, "%s/%s", dirs[i], name);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	return NULL;
}

size_t ds_module_dirs(const char *dirs[3])
{
	static char beside[PATH_MAX];
	const char *env = getenv("DISTSEC_BACKEND_DIR");
	if (env && *env) {
		dirs[0] = env;
		return 1;
	}
	size_t n = 0;
	const char *exe = exe_dir();
	if (exe) {
		snprintf(beside, sizeof beside, "%s/backends", exe);
		dirs[n++] = beside;
	}
	dirs[n++] = DS_BACKEND_DIR;
	return n;
}
