/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * script-sh-nul: a shell script holding NUL bytes.  dash and bash drop
 * them as they read, so ">/tm\0p/x" writes /tmp/x while a reader, grep or
 * a check that stops at the NUL sees something else: text hidden in plain
 * sight.  The script checks read the script as the shell does, NULs
 * removed (ds_file_shell_text); this says that they did.
 */
#include <string.h>

#include "distsec/check.h"

static void run(struct ds_file *f, void *state)
{
	(void)state;
	size_t raw, len, nuls;
	const unsigned char *data = ds_file_script(f, &raw);
	if (!data || !ds_file_shell_text(f, &len, &nuls) || !nuls)
		return;
	const unsigned char *first = memchr(data, '\0', raw);
	size_t line = 1;
	for (const unsigned char *p = data; p < first; p++)
		line += *p == '\n';
	struct ds_finding *d = ds_report(f, DS_SEV_WARNING,
		"holds %zu NUL byte%s (the first on line %zu), which the shell drops: checked as the "
		"shell reads it, without them", nuls, nuls > 1 ? "s" : "", line);
	ds_detail_int(d, "nul_bytes", (long long)nuls);
	ds_detail_int(d, "first_nul_line", (long long)line);
	ds_detail_int(d, "first_nul_offset", (long long)(first - data));
}

const struct ds_check ds_check_script_sh_nul = {
	.id = "script-sh-nul",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_SHELL,
	.summary = "shell script holding NUL bytes, which the shell drops",
	.help = {
		.what = "dash and bash drop NUL bytes as they read a script, so '>/tm\\0p/x' writes "
		  "/tmp/x: what runs is not what a reader, grep or a review tool that stops at the NUL "
		  "sees. A text script has no reason to hold one.",
		.detect = "Any NUL byte in a shell script (a file or a package's maintainer script); "
		  "script-sh-syntax and script-sh-tmp check the text as the shell reads it, without "
		  "them.",
		.limits = "zsh keeps NUL bytes in words; the checks read the script as dash and bash do.",
		.fix = "Remove the NUL bytes; find them with grep -c -P '\\x00'.",
	},
	.cwe = 158,
	.precision = "very-high",
	.run = run,
};
