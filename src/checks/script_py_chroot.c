/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * script-py-chroot-chdir (find-chroot-py): a Python script calling
 * os.chroot() without os.chdir() or os.fchdir() leaves its working
 * directory outside the jail.  Comments and string literals (including
 * triple-quoted ones) are blanked out first, so a commented-out or quoted
 * call does not count.  Calls through another name (from os import chroot
 * as c) are not followed.
 */
#include <stdlib.h>
#include <string.h>

#include "distsec/check.h"
#include "distsec/util.h"

#define SCRIPT_MAX (8u << 20)

/* A copy of the source with comments and string literals replaced by
 * spaces (newlines kept, so line numbers stay right). */
static char *code_only(const char *src, size_t len)
{
	char *out = ds_xmalloc(len + 1);
	size_t i = 0;
	while (i < len) {
		char c = src[i];
		if (c == '#') {
			while (i < len && src[i] != '\n')
				out[i++] = ' ';
		} else if (c == '\'' || c == '"') {
			bool triple = i + 2 < len && src[i + 1] == c && src[i + 2] == c;
			size_t q = triple ? 3 : 1;
			for (size_t k = 0; k < q; k++)
				out[i++] = ' ';
			while (i < len) {
				if (src[i] == '\\' && i + 1 < len) {
					out[i] = ' ';
					out[i + 1] = src[i + 1] == '\n' ? '\n' : ' ';
					i += 2;
					continue;
				}
				if (src[i] == c && (!triple || (i + 2 < len && src[i + 1] == c && src[i + 2] == c))) {
					for (size_t k = 0; k < q; k++)
						out[i++] = ' ';
					break;
				}
				if (src[i] == '\n' && !triple)
					break; /* unterminated: stop at the line end */
				out[i] = src[i] == '\n' ? '\n' : ' ';
				i++;
			}
		} else {
			out[i] = c;
			i++;
		}
	}
	out[len] = '\0';
	return out;
}

static unsigned line_of(const char *code, const char *p)
{
	unsigned n = 1;
	for (const char *c = code; c < p; c++)
		n += *c == '\n';
	return n;
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	size_t len;
	const unsigned char *data = ds_file_data(f, SCRIPT_MAX, &len);
	if (!data || !memmem(data, len, "chroot", 6) || memchr(data, '\0', len))
		return;
	char *code = code_only((const char *)data, len);
	const char *call = strstr(code, "os.chroot(");
	if (call) {
		bool cd = strstr(code, "os.chdir(") || strstr(code, "os.fchdir(");
		struct ds_finding *d = cd
			? ds_report(f, DS_SEV_PASS, "calls os.chroot() and os.chdir()")
			: ds_report(f, DS_SEV_ERROR,
			            "calls os.chroot() (line %u) but never os.chdir() or os.fchdir(): the working directory can stay outside the jail",
			            line_of(code, call));
		ds_detail_int(d, "line", line_of(code, call));
	}
	free(code);
}

const struct ds_check ds_check_script_py_chroot_chdir = {
	.id = "script-py-chroot-chdir",
	.severity = DS_SEV_ERROR,
	.applies = DS_ON_PYTHON,
	.summary = "Python script calling os.chroot without os.chdir/os.fchdir",
	.run = run,
};
