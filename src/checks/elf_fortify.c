/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-fortify: with -D_FORTIFY_SOURCE glibc routes calls whose buffer size
 * the compiler knows to checked twins (__memcpy_chk for memcpy, ...).  A
 * file that imports only unchecked twins and no checked one was built
 * without fortification.  Only "__NAME_chk" for a NAME in the list counts:
 * __stack_chk_fail is not a fortified function (checksec #103).  Calls the
 * compiler could prove safe stay unchecked even when fortified, so a mix
 * is normal and passes, and a file whose only unchecked calls are of that
 * kind (memcpy, strcpy, read, ...) cannot be judged and is not reported.
 * Decisive are the printf calls that write to a stream: _FORTIFY_SOURCE=2
 * turns every one into its __*_chk twin (for the %n check), whatever the
 * compiler knows; snprintf and friends are folded back when sizes are
 * provably fine, so they are not decisive.
 */
#include <stdio.h>

#include "distsec/check.h"
#include "distsec/elfview.h"

static const char *const fortifiable[] = {
	"memcpy", "memmove", "mempcpy", "memset", "strcpy", "stpcpy", "strncpy",
	"stpncpy", "strcat", "strncat", "sprintf", "snprintf", "vsprintf", "vsnprintf",
	"printf", "fprintf", "vprintf", "vfprintf", "dprintf", "vdprintf", "asprintf",
	"vasprintf", "gets", "fgets", "fgets_unlocked", "fread", "fread_unlocked",
	"read", "pread", "pread64", "recv", "recvfrom", "readlink", "readlinkat",
	"getcwd", "getwd", "realpath", "confstr", "getgroups", "ttyname_r",
	"getlogin_r", "gethostname", "getdomainname", "wcscpy", "wcsncpy", "wcscat",
	"wcsncat", "wmemcpy", "wmemmove", "wmemset", "swprintf", "mbstowcs",
	"wcstombs", "syslog", "vsyslog", "poll", "ppoll", "longjmp", "explicit_bzero",
	NULL,
};

static const char *const decisive[] = {
	"printf", "fprintf", "vprintf", "vfprintf", "dprintf", "vdprintf", "asprintf",
	"vasprintf", "syslog", "vsyslog", NULL,
};

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || !v->has_dynamic)
		return;
	size_t plain = 0, checked = 0, used = 0;
	char chk[64], names[96] = "";
	for (size_t i = 0; fortifiable[i]; i++) {
		snprintf(chk, sizeof chk, "__%s_chk", fortifiable[i]);
		if (ds_elf_imports(v, chk))
			checked++;
		else if (ds_elf_imports(v, fortifiable[i]) && plain++ < 3 && used < sizeof names)
			used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
			                         used ? ", " : "", fortifiable[i]);
	}
	const char *telling = ds_elf_imports_any(v, decisive);
	if (!checked && (!plain || !telling))
		return;
	struct ds_finding *d = checked
		? ds_report(f, DS_SEV_PASS, "fortified: %zu checked call%s", checked, checked > 1 ? "s" : "")
		: ds_report(f, DS_SEV_INFO,
		            "not fortified: %zu fortifiable call%s (%s%s) and no checked twin; build with -D_FORTIFY_SOURCE=2",
		            plain, plain > 1 ? "s" : "", names, plain > 3 ? ", ..." : "");
	ds_detail_int(d, "fortified", (long long)checked);
	ds_detail_int(d, "fortifiable", (long long)plain);
}

const struct ds_check ds_check_elf_fortify = {
	.id = "elf-fortify",
	.severity = DS_SEV_INFO,
	.applies = DS_ON_ELF,
	.summary = "imports fortifiable libc calls but no __*_chk twin",
	.help = {
		.what = "_FORTIFY_SOURCE makes glibc check buffer sizes the compiler knows at run time; "
		  "without it an overflow of a fixed-size buffer through memcpy, sprintf and "
		  "friends goes unnoticed.",
		.detect = "The file imports fortifiable libc calls but no __*_chk twin; printf-family "
		  "calls writing to a stream are decisive, since _FORTIFY_SOURCE=2 always "
		  "rewrites them.",
		.limits = "Calls the compiler can prove safe stay unchecked even when fortified; a file "
		  "whose only unchecked calls are of that kind is not reported.",
		.fix = "Build with -O2 -D_FORTIFY_SOURCE=2 (or 3) (dpkg-buildflags: "
		  "hardening=+fortify).",
	},
	.cwe = 120,
	.precision = "medium",
	.facts = (const struct ds_fact[]){
		{ .what = "FORTIFY", .key = "fortified", .type = DS_FACT_COUNT,
		  .regression = "lost-fortify", .lost = true,
		  .why = "the file called the checked (_chk) variants of string and memory functions "
		         "and does not now: overflows they caught at run time go unnoticed" },
		{ 0 },
	},
	.run = run,
};
