/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The `daemon` program class: programs named by ExecStart= of the root's
 * systemd units, or started by its SysV init scripts (DAEMON=/path, the
 * Debian skeleton's convention, or exec=/path, the Red Hat one).  Paths are
 * canonicalised inside the root so /sbin/x and /usr/sbin/x meet.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

static const char *const unit_dirs[] = {
	"lib/systemd/system", "usr/lib/systemd/system", "etc/systemd/system", NULL,
};

static void add_program(int rootfd, struct ds_strmap *m, const char *word)
{
	char path[4096];
	size_t n = 0;
	while (word[n] && !isspace((unsigned char)word[n]) && word[n] != '"' &&
	       word[n] != '\'' && word[n] != ';' && n < sizeof path - 1) {
		path[n] = word[n];
		n++;
	}
	path[n] = '\0';
	if (path[0] != '/')
		return;
	char *canon = ds_resolve_in_root(rootfd, path);
	*ds_strmap_put(m, canon ? canon : path) = 1;
	free(canon);
}

/* ExecStart=, with systemd's prefixes (@ - : + !) stripped. */
static void parse_unit_line(int rootfd, struct ds_strmap *m, const char *line)
{
	if (strncmp(line, "ExecStart=", 10) != 0)
		return;
	const char *p = line + 10;
	while (*p && strchr("@-:+! \t", *p))
		p++;
	add_program(rootfd, m, p);
}

static void parse_init_line(int rootfd, struct ds_strmap *m, const char *line)
{
	while (isspace((unsigned char)*line))
		line++;
	const char *p = NULL;
	if (strncmp(line, "DAEMON=", 7) == 0)
		p = line + 7;
	else if (strncmp(line, "exec=", 5) == 0)
		p = line + 5;
	if (!p)
		return;
	while (*p == '"' || *p == '\'')
		p++;
	add_program(rootfd, m, p);
}

static void parse_dir(int rootfd, struct ds_strmap *m, const char *dir,
                      void (*parse)(int, struct ds_strmap *, const char *))
{
	int dfd = ds_open_beneath(rootfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	struct dirent *e;
	char *line = NULL;
	size_t cap = 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		int fd = openat(dirfd(d), e->d_name,
		                O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		struct stat st;
		if (fd < 0)
			continue;
		FILE *fp = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(fd, "r") : NULL;
		if (!fp) {
			close(fd);
			continue;
		}
		while (getline(&line, &cap, fp) > 0)
			parse(rootfd, m, line);
		fclose(fp);
	}
	free(line);
	closedir(d);
}

struct ds_strmap *ds_daemons_load(int rootfd)
{
	struct ds_strmap *m = ds_strmap_new();
	for (size_t i = 0; unit_dirs[i]; i++)
		parse_dir(rootfd, m, unit_dirs[i], parse_unit_line);
	parse_dir(rootfd, m, "etc/init.d", parse_init_line);
	parse_dir(rootfd, m, "etc/rc.d/init.d", parse_init_line);
	return m;
}
