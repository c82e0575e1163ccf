/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The dpkg backend's cheap look at a root (probe): the status file is read
 * once, line by line, to count the installed packages, and only the file
 * lists of the Essential ones are read to see whether bin/sh has an owner
 * (Debian policy: /bin/sh comes from an essential package).  The whole
 * database -- every file list, through libdpkg -- is loaded by open(), on
 * the scan's loader thread, while the tree is walked.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dpkg-status.h"
#include "distsec/rootfile.h"
#include "distsec/util.h"

#define STATUS_MAX (256u << 20)  /* every package of a Debian release lists ~60 MiB */
#define LIST_MAX (64u << 20)

/* root/rel opened below the root, symlinks resolved inside it, when it
 * is a regular file of at most max bytes (never a FIFO or device a hostile
 * root put there); NULL with errno. */
static FILE *open_regular(const char *root, const char *rel, size_t max)
{
	return ds_root_fopen(root, rel, max);
}

/* "Status: want flag status": installed enough for dpkg to list files
 * (libdpkg's PKG_STAT_HALFINSTALLED and above). */
static bool status_installed(const char *v)
{
	const char *st = strrchr(v, ' ');
	st = st ? st + 1 : v;
	return *st && strncmp(st, "not-installed", 13) && strncmp(st, "config-files", 12);
}

/* Does info/NAME.list (or NAME:ARCH.list) name bin/sh? */
static bool lists_bin_sh(const char *root, const char *name, const char *arch)
{
	char *rel = ds_xasprintf("var/lib/dpkg/info/%s.list", name);
	FILE *fp = open_regular(root, rel, LIST_MAX);
	free(rel);
	if (!fp && arch) {
		rel = ds_xasprintf("var/lib/dpkg/info/%s:%s.list", name, arch);
		fp = open_regular(root, rel, LIST_MAX);
		free(rel);
	}
	bool found = false;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while (fp && !found && (n = getline(&line, &cap, fp)) > 0) {
		line[strcspn(line, "\n")] = '\0';
		found = !strcmp(line, "/bin/sh") || !strcmp(line, "/usr/bin/sh");
	}
	free(line);
	if (fp)
		fclose(fp);
	return found;
}

struct stanza {
	char *name, *arch;
	bool installed, essential;
};

static void stanza_done(const char *root, struct stanza *s, struct ds_dpkg_status *out)
{
	if (s->name && s->installed) {
		out->installed++;
		if (s->essential && !out->owns_bin_sh)
			out->owns_bin_sh = lists_bin_sh(root, s->name, s->arch);
	}
	free(s->name);
	free(s->arch);
	memset(s, 0, sizeof *s);
}

/* The value of "Field: value" when line is that field, else NULL. */
static const char *field(const char *line, const char *name)
{
	size_t n = strlen(name);
	if (strncasecmp(line, name, n) != 0 || line[n] != ':')
		return NULL;
	line += n + 1;
	return line + strspn(line, " \t");
}

int ds_dpkg_status_probe(const char *root, struct ds_dpkg_status *out, struct ds_error *err)
{
	memset(out, 0, sizeof *out);
	FILE *fp = open_regular(root, "var/lib/dpkg/status", STATUS_MAX);
	if (!fp) {
		ds_error_set(err, DS_ERR_IO, "var/lib/dpkg/status: %s", ds_root_strerror(errno));
		return -1;
	}
	struct stanza s = { 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	const char *v;
	while ((n = getline(&line, &cap, fp)) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			stanza_done(root, &s, out);
		else if ((v = field(line, "Package")) && !s.name)
			s.name = ds_xstrdup(v);
		else if ((v = field(line, "Architecture")) && !s.arch)
			s.arch = ds_xstrdup(v);
		else if ((v = field(line, "Status")))
			s.installed = status_installed(v);
		else if ((v = field(line, "Essential")))
			s.essential = !strcasecmp(v, "yes");
	}
	stanza_done(root, &s, out);
	free(line);
	fclose(fp);
	return 0;
}
