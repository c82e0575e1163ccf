/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A Debian upload's .changes (or a .buildinfo) stands for the binary
 * package files it lists in Checksums-Sha256 (.deb, .udeb, .ddeb), found
 * beside it.  Each is scanned as a package file whose size and sha256 must
 * be the listed ones (pkgfile.c reports a mismatch as an error, compares
 * the sizes before it hashes, and opens the file below the directory of
 * the .changes: a symlink leading out of it, or anything but a regular
 * file, is an error).  An
 * OpenPGP clear-signed file is read the same way; the signature is not
 * verified (dput and dak do that).
 *
 * Its source tree, whose debian/ waivers apply, is where
 * dpkg-buildpackage left the .changes from: the directory beside it named
 * SOURCE-UPSTREAM (dpkg-source -x's name: Source, and Version without the
 * epoch and the Debian revision), when that has a debian/control.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define CHANGES_MAX (4u << 20)   /* larger is not a .changes */

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n > m && strcmp(s + n - m, suffix) == 0;
}

bool ds_changes_named(const char *path)
{
	return ends_with(path, ".changes") || ends_with(path, ".buildinfo");
}

static bool binary_package(const char *name)
{
	return ends_with(name, ".deb") || ends_with(name, ".udeb") || ends_with(name, ".ddeb");
}

/* " SHA256 SIZE NAME": a package file beside the .changes. */
static int add_listed(const char *changes, const char *line, struct ds_args *out,
                      struct ds_error *err)
{
	char sha[65], name[256];
	long long size;
	if (sscanf(line, " %64[0-9a-f] %lld %255s", sha, &size, name) != 3 || strlen(sha) != 64 ||
	    size < 0) {
		ds_error_set(err, DS_ERR_PARSE, "malformed Checksums-Sha256 line: %.80s", line);
		return -1;
	}
	if (strchr(name, '/') || !strcmp(name, "..")) {
		ds_error_set(err, DS_ERR_PARSE, "Checksums-Sha256 names a file outside its directory: %s", name);
		return -1;
	}
	if (!binary_package(name))
		return 0;
	const char *slash = strrchr(changes, '/');
	int dirlen = slash ? (int)(slash - changes) + 1 : 0;
	struct ds_expect *e = ds_xcalloc(1, sizeof *e);
	e->size = size;
	memcpy(e->sha256, sha, sizeof sha);
	e->via = ds_xstrdup(changes);
	struct ds_arg arg = { .path = ds_xasprintf("%.*s%s", dirlen, changes, name),
	                      .kind = DS_ARG_PKGFILE, .expect = e };
	ds_push(out->v, out->n, out->cap, arg);
	out->npkg++;
	return 0;
}

/* "Source: foo (1.0-1)" -> "foo"; "Version: 1:2.3-4" -> "2.3". */
static char *field_word(const char *line, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(line, name, n) != 0)
		return NULL;
	line += n + strspn(line + n, " \t");
	size_t w = strcspn(line, " \t(");
	return w && w < 256 ? ds_xstrndup(line, w) : NULL;
}

static void add_tree(const char *changes, const char *source, const char *version,
                     struct ds_args *out)
{
	if (!source || !version || strchr(source, '/') || !strcmp(source, ".."))
		return;
	const char *colon = strchr(version, ':');
	const char *up = colon ? colon + 1 : version;
	const char *dash = strrchr(up, '-');
	int uplen = dash ? (int)(dash - up) : (int)strlen(up);
	if (!uplen || memchr(up, '/', (size_t)uplen))
		return;
	const char *slash = strrchr(changes, '/');
	int dirlen = slash ? (int)(slash - changes) + 1 : 0;
	char *tree = ds_xasprintf("%.*s%s-%.*s", dirlen, changes, source, uplen, up);
	ds_args_add_tree(out, tree);
	free(tree);
}

int ds_changes_expand(const char *path, struct ds_args *out, struct ds_error *err)
{
	FILE *fp = fopen(path, "re");
	if (!fp) {
		ds_error_set(err, DS_ERR_IO, "%s", strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0, total = 0, listed = 0;
	bool in_sums = false, any = false;
	char *source = NULL, *version = NULL;
	ssize_t n;
	int rc = 0;
	while (rc == 0 && (n = getline(&line, &cap, fp)) > 0) {
		total += (size_t)n;
		if (total > CHANGES_MAX) {
			ds_error_set(err, DS_ERR_LIMIT, "larger than %u bytes", CHANGES_MAX);
			rc = -1;
			break;
		}
		line[strcspn(line, "\r\n")] = '\0';
		if (in_sums && line[0] == ' ') {
			size_t before = out->npkg;
			rc = add_listed(path, line, out, err);
			listed += out->npkg - before;
			continue;
		}
		in_sums = strcmp(line, "Checksums-Sha256:") == 0;
		any = any || in_sums;
		char *w;
		if (!source && (w = field_word(line, "Source:")))
			source = w;
		else if (!version && (w = field_word(line, "Version:")))
			version = w;
	}
	free(line);
	fclose(fp);
	if (rc == 0)
		add_tree(path, source, version, out);
	free(source);
	free(version);
	if (rc == 0 && !any) {
		ds_error_set(err, DS_ERR_PARSE, "no Checksums-Sha256 field (not a .changes or .buildinfo?)");
		rc = -1;
	} else if (rc == 0 && !listed) {
		ds_error_set(err, DS_ERR_PARSE, "lists no binary package file");
		rc = -1;
	}
	return rc;
}
