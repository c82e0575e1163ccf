/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where loadable modules (backends, the apt shim) and data (the STIG rules,
 * the profiles) are looked for: the environment; beside the program (the
 * build tree keeps backends/, stig-rules and profiles/ next to
 * build/distsec); the install layout relative to the program's own
 * directory, so a tree installed under another prefix or unpacked from a
 * DESTDIR finds its own files; then the configured installed directories.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "distsec/util.h"

void *ds_module_load(const char *path, const char *entry, void **fn, struct ds_error *err)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		ds_error_set(err, DS_ERR_IO, "%s", dlerror());
		return NULL;
	}
	*fn = dlsym(h, entry);
	if (!*fn) {
		ds_error_set(err, DS_ERR_UNSUPPORTED, "not a distsec module (no %s)", entry);
		dlclose(h);
		return NULL;
	}
	return h;
}

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

/* Adds dir unless it is one already listed (the relocated path of a
 * normal install is the installed path). */
static size_t add_dir(const char **dirs, size_t n, const char *dir)
{
	char a[PATH_MAX], b[PATH_MAX];
	for (size_t i = 0; i < n; i++)
		if (!strcmp(dirs[i], dir) ||
		    (realpath(dirs[i], a) && realpath(dir, b) && !strcmp(a, b)))
			return n;
	dirs[n] = dir;
	return n + 1;
}

/* env (when set and only_env), else: beside/sub, exe/rel, installed. */
static size_t search_dirs(const char *dirs[DS_SEARCH_DIRS], const char *env, bool only_env,
                          const char *sub, const char *rel, const char *installed,
                          char bufs[2][PATH_MAX])
{
	size_t n = 0;
	const char *e = getenv(env);
	if (e && *e) {
		dirs[n++] = e;
		if (only_env)
			return n;
	}
	const char *exe = exe_dir();
	if (exe && snprintf(bufs[0], PATH_MAX, "%s%s%s", exe, *sub ? "/" : "", sub) < PATH_MAX) {
		n = add_dir(dirs, n, bufs[0]);
		if (*rel && snprintf(bufs[1], PATH_MAX, "%s/%s", exe, rel) < PATH_MAX) {
			/* a lexical "bin/../lib", made canonical when it exists */
			char *canon = realpath(bufs[1], NULL);
			if (canon) {
				snprintf(bufs[1], PATH_MAX, "%s", canon);
				free(canon);
			}
			n = add_dir(dirs, n, bufs[1]);
		}
	}
	return add_dir(dirs, n, installed);
}

size_t ds_module_dirs(const char *dirs[DS_SEARCH_DIRS])
{
	static char bufs[2][PATH_MAX];
	return search_dirs(dirs, "DISTSEC_BACKEND_DIR", true, "backends", DS_BACKEND_DIR_REL,
	                   DS_BACKEND_DIR, bufs);
}

size_t ds_data_dirs(const char *dirs[DS_SEARCH_DIRS])
{
	static char bufs[2][PATH_MAX];
	return search_dirs(dirs, "DISTSEC_DATA_DIR", false, "", DS_DATA_DIR_REL, DS_DATA_DIR, bufs);
}

const char *ds_data_file(const char *name, char *buf, size_t len)
{
	const char *dirs[DS_SEARCH_DIRS];
	size_t n = ds_data_dirs(dirs);
	for (size_t i = 0; i < n; i++) {
		snprintf(buf, len, "%s/%s", dirs[i], name);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	return NULL;
}
