/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The private copy of a root's dpkg database (see dpkg-copy.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>

#include "dpkg-copy.h"
#include "distsec/rootfile.h"
#include "distsec/util.h"

#define STATUS_MAX ((uint64_t)256 << 20)  /* a Debian release's every package: ~60 MiB */
#define LIST_MAX ((uint64_t)64 << 20)
#define ADMIN "var/lib/dpkg"
#define SHM_ROOM ((uint64_t)1 << 30)   /* a database's copy fits many times over */

/* Copies ADMIN/rel into dir/rel; 0, or -1 with err (a missing optional
 * file is 0). */
static int copy_one(const char *root, const char *dir, const char *rel, uint64_t max,
                    bool optional, struct ds_error *err)
{
	char *src = ds_xasprintf(ADMIN "/%s", rel);
	int in = ds_root_open(root, src, max);
	if (in < 0) {
		int e = errno;
		if (!(optional && e == ENOENT))
			ds_error_set(err, DS_ERR_IO, "%s: %s", src, ds_root_strerror(e));
		free(src);
		return optional && e == ENOENT ? 0 : -1;
	}
	char *dst = ds_xasprintf("%s/%s", dir, rel);
	int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int rc = out >= 0 ? ds_copy_fd(in, out, max) : -1;
	if (rc)
		ds_error_set(err, DS_ERR_IO, "%s: copying: %s", src, strerror(errno));
	if (out >= 0)
		close(out);
	close(in);
	free(src);
	free(dst);
	return rc;
}

static bool is_list(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && strcmp(name + n - 5, ".list") == 0 && !strchr(name, '/');
}

static bool is_update(const char *name)
{
	return name[0] && strspn(name, "0123456789") == strlen(name);
}

/* Every entry of ADMIN/sub whose name passes keep, copied into dir/sub. */
static int copy_dir(const char *root, const char *dir, const char *sub, bool (*keep)(const char *),
                    uint64_t max, struct ds_error *err)
{
	char *rel = ds_xasprintf(ADMIN "/%s", sub);
	char *host = ds_root_resolve(root, rel);
	free(rel);
	DIR *d = host ? opendir(host) : NULL;
	free(host);
	if (!d)
		return 0;   /* no such directory: nothing to copy */
	char *to = ds_xasprintf("%s/%s", dir, sub);
	int rc = mkdir(to, 0700) == 0 || errno == EEXIST ? 0 : -1;
	free(to);
	struct dirent *e;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (!keep(e->d_name))
			continue;
		char *name = ds_xasprintf("%s/%s", sub, e->d_name);
		rc = copy_one(root, dir, name, max, false, err);
		free(name);
	}
	closedir(d);
	return rc;
}

/* Where the copy goes when TMPDIR is not set: /dev/shm when it is a
 * memory file system with room to spare, else /tmp.  The copy lives for
 * the load only, and creating and removing its thousand files on a disk
 * file system cost more than loading them (ext4 without a journal: 0.85 s
 * of system time for 1,005 lists, against 0.03 s on tmpfs). */
static const char *default_tmp(void)
{
	struct statfs fs;
	if (statfs("/dev/shm", &fs) == 0 && fs.f_type == TMPFS_MAGIC &&
	    (uint64_t)fs.f_bavail * (uint64_t)fs.f_bsize >= SHM_ROOM)
		return "/dev/shm";
	return "/tmp";
}

char *ds_dpkg_private_dir(struct ds_error *err)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = ds_xasprintf("%s/distsec-dpkg-XXXXXX", tmp && *tmp ? tmp : default_tmp());
	if (!mkdtemp(dir)) {
		ds_error_set(err, DS_ERR_IO, "temporary directory %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

int ds_dpkg_private_fill(const char *root, const char *dir, struct ds_error *err)
{
	char *info = ds_xasprintf("%s/info", dir);
	int rc = mkdir(info, 0700) == 0 ? 0 : -1;
	if (rc)
		ds_error_set(err, DS_ERR_IO, "temporary directory %s: %s", info, strerror(errno));
	free(info);
	if (rc == 0)
		rc = copy_one(root, dir, "status", STATUS_MAX, false, err);
	if (rc == 0)
		rc = copy_one(root, dir, "diversions", LIST_MAX, true, err);
	if (rc == 0)
		rc = copy_one(root, dir, "arch", LIST_MAX, true, err);
	if (rc == 0)
		rc = copy_one(root, dir, "info/format", 4096, true, err);
	if (rc == 0)
		rc = copy_dir(root, dir, "info", is_list, LIST_MAX, err);
	if (rc == 0)
		rc = copy_dir(root, dir, "updates", is_update, STATUS_MAX, err);
	return rc;
}

static void remove_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) != 0 && errno == EISDIR) {
			char *sub = ds_xasprintf("%s/%s", path, e->d_name);
			remove_dir(sub);
			free(sub);
		}
	}
	if (d)
		closedir(d);
	rmdir(path);
}

void ds_dpkg_private_remove(char *dir)
{
	if (dir)
		remove_dir(dir);
	free(dir);
}

/* Every entry of the host directory `dir`, and of its subdirectories to
 * depth levels, is a regular file or a directory (a symlink would be
 * followed on the host by a library, a FIFO would block it). */
static int plain_tree(const char *dir, int depth, struct ds_error *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -1;
	struct dirent *e;
	int rc = 0;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		char *path = ds_xasprintf("%s/%s", dir, e->d_name);
		if (S_ISDIR(st.st_mode) && depth > 0)
			rc = plain_tree(path, depth - 1, err);
		else if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
			ds_error_set(err, DS_ERR_IO, "%s: %s", path,
			             S_ISLNK(st.st_mode) ? "a symlink" : ds_root_strerror(EINVAL));
			rc = -1;
		}
		free(path);
	}
	closedir(d);
	return rc;
}

int ds_apt_dirs(const char *root, const char *absent, char **lists, char **etc,
                struct ds_error *err)
{
	/* a missing one: a path that does not exist either (not the
	 * unresolved one, which may be a symlink to the host's) */
	*lists = ds_root_resolve(root, "var/lib/apt/lists");
	if (!*lists)
		*lists = ds_xstrdup(absent);
	*etc = ds_root_resolve(root, "etc/apt");
	if (!*etc)
		*etc = ds_xstrdup(absent);
	return plain_tree(*lists, 1, err) == 0 && plain_tree(*etc, 2, err) == 0 ? 0 : -1;
}
