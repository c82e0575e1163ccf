/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where loadable modules (backends, the apt shim) are looked for. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "distsec/util.h"

size_t ds_module_dirs(const char *dirs[3])
{
	static char beside[PATH_MAX];
	const char *env = getenv("DISTSEC_BACKEND_DIR");
	if (env && *env) {
		dirs[0] = env;
		return 1;
	}
	size_t n = 0;
	ssize_t len = readlink("/proc/self/exe", beside, sizeof beside - 1);
	if (len > 0) {
		beside[len] = '\0';
		char *slash = strrchr(beside, '/');
		if (slash && (size_t)(slash - beside) + sizeof "/backends" < sizeof beside) {
			strcpy(slash, "/backends");
			dirs[n++] = beside;
		}
	}
	dirs[n++] = DS_BACKEND_DIR;
	return n;
}
