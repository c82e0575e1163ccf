/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-tmp-name (the ELF /tmp script): literal "/tmp/..." or "/var/tmp/..."
 * names in read-only data, in a program that imports none of the safe
 * temporary-file calls, suggest a predictable name an attacker can
 * pre-create.  As the original: strings with "XX" (mkstemp templates),
 * ending in "/tmp/", or where "/tmp/" follows a space, '.', ',' or ':'
 * (prose) are ignored; so are "/tmp/" alone and the X11/ICE socket dirs.
 * What it cannot know: whether a string is ever used as a file name.
 * Build-machine paths (/home/..., /build/...) are listed too, as info.
 */
#include <stdio.h>
#include <string.h>

#include "distsec/check.h"
#include "distsec/elfview.h"

#define MAX_LISTED 5

static const char *const safe_calls[] = {
	"mkstemp", "mkstemp64", "mkostemp", "mkostemp64", "mkstemps", "mkstemps64",
	"mkostemps", "mkostemps64", "mkdtemp", "tmpfile", "tmpfile64", "tempnam", NULL,
};

static const char *const well_known[] = { "/tmp/.X11-unix", "/tmp/.ICE-unix", NULL };

struct found {
	const char *tmp[MAX_LISTED], *build[MAX_LISTED];
	char tmpbuf[MAX_LISTED][128], buildbuf[MAX_LISTED][128];
	size_t ntmp, nbuild;
};

static bool predictable_tmp(const char *s, size_t len)
{
	if (strstr(s, "XX") || (len >= 5 && strcmp(s + len - 5, "/tmp/") == 0))
		return false;
	for (size_t i = 0; well_known[i]; i++)
		if (strncmp(s, well_known[i], strlen(well_known[i])) == 0)
			return false;
	for (const char *p = strstr(s, "/tmp/"); p; p = strstr(p + 1, "/tmp/"))
		if (p == s || !strchr(" .,:", p[-1]))
			return true;
	return false;
}

/* A literal path, not a format string like "/home/%s". */
static bool build_path(const char *s)
{
	return (strncmp(s, "/home/", 6) == 0 || strncmp(s, "/build/", 7) == 0) && !strchr(s, '%');
}

static void keep(const char **list, char (*buf)[128], size_t *n, const char *s)
{
	if (*n < MAX_LISTED) {
		snprintf(buf[*n], sizeof buf[*n], "%s", s);
		list[*n] = buf[*n];
	}
	(*n)++;
}

static int on_string(const char *s, size_t len, void *ctx)
{
	struct found *fd = ctx;
	if (predictable_tmp(s, len))
		keep(fd->tmp, fd->tmpbuf, &fd->ntmp, s);
	else if (build_path(s))
		keep(fd->build, fd->buildbuf, &fd->nbuild, s);
	return 0;
}

static void list(struct ds_finding *d, const char *key, const char *const *items, size_t n)
{
	for (size_t i = 0; i < n && i < MAX_LISTED; i++)
		ds_detail_append(d, key, items[i]);
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || ds_elf_imports_any(v, safe_calls))
		return;
	struct found fd = { .ntmp = 0 };
	ds_elf_strings(v, 6, '/', on_string, &fd);
	if (!fd.ntmp && !fd.nbuild)
		return;
	struct ds_finding *d = fd.ntmp
		? ds_report(f, DS_SEV_WARNING,
		            "uses %zu fixed name%s under /tmp and no mkstemp-family call: %s",
		            fd.ntmp, fd.ntmp > 1 ? "s" : "", fd.tmp[0])
		: ds_report(f, DS_SEV_INFO, "carries %zu build-machine path%s: %s",
		            fd.nbuild, fd.nbuild > 1 ? "s" : "", fd.build[0]);
	list(d, "tmp_strings", fd.tmp, fd.ntmp);
	list(d, "build_paths", fd.build, fd.nbuild);
}

const struct ds_check ds_check_elf_tmp_name = {
	.id = "elf-tmp-name",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_ELF,
	.summary = "fixed /tmp names in an ELF without mkstemp-family calls",
	.run = run,
};
