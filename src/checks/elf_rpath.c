/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-rpath: DT_RPATH / DT_RUNPATH make the loader search extra
 * directories before (RPATH) or after (RUNPATH) LD_LIBRARY_PATH.  Info
 * when present; a warning when an entry is empty or relative (searched
 * from the current directory), uses $ORIGIN in a setuid/setgid program, or
 * names a world-writable directory inside the root (anyone can plant a
 * library there).  $ORIGIN is expanded to the file's own directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "distsec/check.h"
#include "distsec/elfview.h"
#include "distsec/util.h"

static const char *origin_rest(const char *e)
{
	if (strncmp(e, "$ORIGIN", 7) == 0)
		return e + 7;
	if (strncmp(e, "${ORIGIN}", 9) == 0)
		return e + 9;
	return NULL;
}

/* Directories any user writes to, or that belong to one user: a library
 * found there is whoever wrote it (rpminspect's forbidden runpaths); a
 * profile's "list elf-rpath forbidden DIR..." replaces them. */
static const char *const forbidden_default[] = { "/tmp", "/var/tmp", "/dev/shm", "/home", NULL };

/* The problem with one search path entry, or NULL. */
static const char *judge(struct ds_file *f, const char *e, char *buf, size_t len)
{
	if (!*e)
		return "empty entry: the current directory is searched";
	const char *rest = origin_rest(e);
	if (rest && (f->mode & (S_ISUID | S_ISGID)))
		return "$ORIGIN in a setuid/setgid program";
	if (!rest && e[0] != '/') {
		snprintf(buf, len, "relative entry '%s': searched from the current directory", e);
		return buf;
	}
	const char *const *forbidden = ds_file_list(f, "elf-rpath", "forbidden");
	for (const char *const *fb = forbidden ? forbidden : forbidden_default; !rest && *fb; fb++) {
		size_t n = strlen(*fb);
		if (!strncmp(e, *fb, n) && (e[n] == '/' || !e[n])) {
			snprintf(buf, len, "forbidden directory %s: under %s, which users write", e, *fb);
			return buf;
		}
	}
	char *dir;
	if (rest) {
		const char *slash = strrchr(f->path, '/');
		dir = ds_xasprintf("%.*s%s", (int)(slash ? slash - f->path : 0), f->path, rest);
	} else {
		dir = ds_xstrdup(e);
	}
	struct stat st;
	const char *problem = NULL;
	if (ds_file_stat_in_root(f, dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & S_IWOTH)) {
		snprintf(buf, len, "world-writable directory %s", dir);
		problem = buf;
	}
	free(dir);
	return problem;
}

static void check_list(struct ds_file *f, const char *tag, const char *value)
{
	char *copy = ds_xstrdup(value);
	char buf[512];
	const char *problem = NULL;
	char *p = copy;
	for (;;) {
		char *colon = strchr(p, ':');
		if (colon)
			*colon = '\0';
		problem = judge(f, p, buf, sizeof buf);
		if (problem || !colon)
			break;
		p = colon + 1;
	}
	struct ds_finding *d = problem
		? ds_report(f, DS_SEV_WARNING, "%s %s: %s", tag, value, problem)
		: ds_report(f, DS_SEV_INFO, "has %s %s", tag, value);
	ds_detail_str(d, tag[0] == 'R' && tag[1] == 'P' ? "rpath" : "runpath", value);
	if (problem)
		ds_detail_str(d, "problem", problem);
	free(copy);
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v)
		return;
	if (v->rpath)
		check_list(f, "RPATH", v->rpath);
	if (v->runpath)
		check_list(f, "RUNPATH", v->runpath);
}

const struct ds_check ds_check_elf_rpath = {
	.id = "elf-rpath",
	.severity = DS_SEV_WARNING,
	.by_path = true,
	.applies = DS_ON_ELF,
	.summary = "RPATH/RUNPATH present (warning: relative, empty, $ORIGIN in setuid, /tmp, /var/tmp, /dev/shm, /home, world-writable)",
	.help = {
		.what = "DT_RPATH/DT_RUNPATH make the loader search extra directories; an empty or "
		  "relative entry is searched from the current directory, and a world-writable "
		  "one lets anyone plant a library the program loads.",
		.detect = "Each entry of DT_RPATH and DT_RUNPATH, $ORIGIN expanded to the file's own "
		  "directory, checked inside the root. The forbidden directories are the profile's "
		  "(list elf-rpath forbidden DIR...; the shipped profiles give /tmp, /var/tmp, "
		  "/dev/shm and /home).",
		.limits = "Directories created only at run time are judged as they are in the scanned "
		  "root.",
		.fix = "Drop the RPATH (chrpath -d, or fix the build system's -Wl,-rpath); install "
		  "private libraries in a directory only root can write.",
	},
	.least = DS_SEV_INFO,
	.severity_policy = "info when present; warning when an entry is empty, relative, $ORIGIN in a "
	  "setuid/setgid program, under /tmp, /var/tmp, /dev/shm or /home, or a world-writable "
	  "directory",
	.cwe = 426,
	.precision = "high",
	.facts = (const struct ds_fact[]){
		{ .what = "RPATH/RUNPATH", .type = DS_FACT_FINDING, .regression = "new-rpath",
		  .why = "the file now carries an RPATH or RUNPATH: libraries are searched for in "
		         "directories that may be writable by others, or relative to the working "
		         "directory" },
		{ 0 },
	},
	.run = run,
};
