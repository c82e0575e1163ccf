/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-badfuncs (rpminspect's badfuncs inspection): a program or library
 * importing a C library function no caller can use safely.  gets() cannot
 * bound what it writes; getpw() writes an unbounded passwd line; mktemp(),
 * tmpnam() and tempnam() return a name another user can create first.
 * One finding per function, its name as the rule, so a profile re-grades
 * or waives one function ("severity elf-badfuncs/mktemp info").
 *
 * rpminspect's own default list (gethostbyname, inet_aton, inet_ntoa,
 * rcmd ...) names IPv4-only interfaces: a portability matter, not a
 * security one, and imported by most network programs, so it is not here.
 */
#include <stddef.h>
#include <string.h>

#include "distsec/check.h"
#include "distsec/elfview.h"

struct badfunc {
	const char *name;
	enum ds_severity sev;
	const char *why;
};

static const struct badfunc badfuncs[] = {
	{ "gets", DS_SEV_ERROR, "reads a line of any length into a fixed buffer (removed from C11)" },
	{ "getpw", DS_SEV_WARNING, "writes a passwd line of any length into a fixed buffer" },
	{ "mktemp", DS_SEV_WARNING, "returns a temporary name another user can create first" },
	{ "tmpnam", DS_SEV_WARNING, "returns a temporary name another user can create first" },
	{ "tempnam", DS_SEV_WARNING, "returns a temporary name another user can create first" },
};

#define NBADFUNCS (sizeof badfuncs / sizeof badfuncs[0])

static void report(struct ds_file *f, const char *name, enum ds_severity sev, const char *why)
{
	struct ds_finding *d = ds_report(f, sev, "imports %s(), which %s", name, why);
	ds_finding_set_rule(d, name);
	ds_detail_str(d, "function", name);
}

/* The profile's list (list elf-badfuncs functions NAME...) replaces the
 * table; a name the table knows keeps its severity and reason. */
static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v)
		return;
	const char *const *list = ds_file_list(f, "elf-badfuncs", "functions");
	for (size_t i = 0; !list && i < NBADFUNCS; i++)
		if (ds_elf_imports(v, badfuncs[i].name))
			report(f, badfuncs[i].name, badfuncs[i].sev, badfuncs[i].why);
	for (size_t i = 0; list && list[i]; i++) {
		if (!ds_elf_imports(v, list[i]))
			continue;
		size_t k = 0;
		while (k < NBADFUNCS && strcmp(badfuncs[k].name, list[i]))
			k++;
		if (k < NBADFUNCS)
			report(f, list[i], badfuncs[k].sev, badfuncs[k].why);
		else
			report(f, list[i], DS_SEV_WARNING, "the profile lists as a function not to use");
	}
}

const struct ds_check ds_check_elf_badfuncs = {
	.id = "elf-badfuncs",
	.severity = DS_SEV_ERROR,
	.applies = DS_ON_ELF,
	.summary = "imports a function that is never safe: gets (error), getpw, mktemp, tmpnam, tempnam",
	.help = {
		.what = "gets() writes a line of any length into the caller's buffer: every use is an "
		  "overflow waiting for a long line. getpw() does the same with a passwd entry. "
		  "mktemp(), tmpnam() and tempnam() return a name that another user can create (as a "
		  "symlink) before the program opens it.",
		.detect = "The file's undefined dynamic symbols (what it asks the loader for): one "
		  "finding per function, the function's name as the rule, so a profile can re-grade "
		  "or waive one (severity elf-badfuncs/mktemp info). The functions are the profile's "
		  "(list elf-badfuncs functions NAME...; the shipped profiles list these five); a "
		  "function outside these five is a warning.",
		.limits = "A static program, or a call through dlsym(), imports nothing the check sees. "
		  "An import that is never called is reported too. rpminspect's default list of "
		  "IPv4-only functions (gethostbyname, inet_aton ...) is a portability matter and is "
		  "not checked.",
		.fix = "fgets() or getline() for gets(); getpwuid_r() for getpw(); mkstemp(), mkdtemp() "
		  "or tmpfile() for the temporary names.",
	},
	.least = DS_SEV_WARNING,
	.severity_policy = "error for gets; warning for getpw, mktemp, tmpnam and tempnam",
	.cwe = 242,
	.precision = "high",
	.run = run,
};
