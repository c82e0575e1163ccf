/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * script-py-chroot-chdir (find-chroot-py): a Python script calling
 * os.chroot() without os.chdir() or os.fchdir() leaves its working
 * directory outside the jail.  Comments and string literals (including
 * triple-quoted ones) are blanked out first, so a commented-out or quoted
 * call does not count.  The calls are followed through the names imports
 * give them: "import os as o" (o.chroot), "from os import chroot [as c]",
 * "from os import *".  Not followed: getattr, a function passed around.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distsec/check.h"
#include "distsec/util.h"


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

#define MAX_NAMES 16

/* The names os's functions are called by: os.NAME( through every alias of
 * the module ("import os as o"), NAME( after "from os import NAME [as X]"
 * or "from os import *". */
struct os_names {
	char mods[MAX_NAMES][32];            /* "os", and aliases */
	size_t nmods;
	char chroot[MAX_NAMES][32], chdir[MAX_NAMES][32];
	size_t nchroot, nchdir;
};

static bool ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static void add_name(char (*list)[32], size_t *n, const char *s, size_t len)
{
	if (*n < MAX_NAMES && len && len < 32) {
		memcpy(list[*n], s, len);
		list[(*n)++][len] = '\0';
	}
}

/* Next identifier (dots allowed) at *p on the line; its length, 0 if none. */
static size_t next_word(const char **p, const char *end)
{
	while (*p < end && (**p == ' ' || **p == '\t' || **p == ',' || **p == '(' || **p == ')' || **p == '\\' || **p == '\n'))
		(*p)++;
	size_t n = 0;
	while (*p + n < end && (ident((*p)[n]) || (*p)[n] == '.' || (*p)[n] == '*'))
		n++;
	return n;
}

/* "A [as B], C [as D]" up to the end (a line, or a parenthesised list). */
static void import_list(struct os_names *o, const char *p, const char *end, bool from_os)
{
	size_t n;
	while ((n = next_word(&p, end)) != 0) {
		const char *name = p;
		size_t nlen = n;
		p += n;
		const char *bind = name;
		size_t blen = nlen;
		const char *q = p;
		size_t k = next_word(&q, end);
		if (k == 2 && !strncmp(q, "as", 2)) {
			q += 2;
			blen = next_word(&q, end);
			bind = q;
			p = q + blen;
		}
		if (!from_os) {
			if (nlen == 2 && !strncmp(name, "os", 2))
				add_name(o->mods, &o->nmods, bind, blen);
		} else if (nlen == 1 && *name == '*') {
			add_name(o->chroot, &o->nchroot, "chroot", 6);
			add_name(o->chdir, &o->nchdir, "chdir", 5);
			add_name(o->chdir, &o->nchdir, "fchdir", 6);
		} else if (nlen == 6 && !strncmp(name, "chroot", 6)) {
			add_name(o->chroot, &o->nchroot, bind, blen);
		} else if ((nlen == 5 && !strncmp(name, "chdir", 5)) || (nlen == 6 && !strncmp(name, "fchdir", 6))) {
			add_name(o->chdir, &o->nchdir, bind, blen);
		}
	}
}

static void find_imports(struct os_names *o, const char *code)
{
	add_name(o->mods, &o->nmods, "os", 2);
	for (const char *l = code; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *p = l;
		while (*p == ' ' || *p == '\t')
			p++;
		const char *eol = strchr(p, '\n');
		const char *end = eol ? eol : p + strlen(p);
		if (!strncmp(p, "import ", 7)) {
			import_list(o, p + 7, end, false);
		} else if (!strncmp(p, "from ", 5)) {
			const char *q = p + 5;
			size_t n = next_word(&q, end);
			if (n != 2 || strncmp(q, "os", 2))
				continue;
			/* "import" must be on this line: an unbounded search would
			 * run into later lines and leave q past end */
			q += 2;
			const char *imp = memmem(q, (size_t)(end - q), "import", 6);
			if (!imp)
				continue;
			q = imp + 6;
			/* from os import (a,\n b): the list runs to the ')' */
			const char *paren = memchr(q, '(', (size_t)(end - q));
			const char *close = paren ? strchr(paren, ')') : NULL;
			import_list(o, q, close ? close : end, true);
		}
	}
}

/* The first call NAME( (or MOD.NAME( for each module alias) in code. */
static const char *find_call(const char *code, const char *mod, const char *name)
{
	char pat[80];
	snprintf(pat, sizeof pat, "%s%s%s(", mod ? mod : "", mod ? "." : "", name);
	for (const char *p = strstr(code, pat); p; p = strstr(p + 1, pat))
		if (p == code || (!ident(p[-1]) && p[-1] != '.'))
			return p;
	return NULL;
}

static const char *first_call(const struct os_names *o, const char *code, bool chroot)
{
	const char *best = NULL;
	for (size_t m = 0; m < o->nmods; m++) {
		const char *const fns[] = { "chroot", "chdir", "fchdir" };
		for (size_t k = chroot ? 0 : 1; k < (chroot ? 1u : 3u); k++) {
			const char *c = find_call(code, o->mods[m], fns[k]);
			if (c && (!best || c < best))
				best = c;
		}
	}
	size_t n = chroot ? o->nchroot : o->nchdir;
	for (size_t i = 0; i < n; i++) {
		const char *c = find_call(code, NULL, chroot ? o->chroot[i] : o->chdir[i]);
		if (c && (!best || c < best))
			best = c;
	}
	return best;
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	size_t len;
	const unsigned char *data = ds_file_script(f, &len);
	if (!data || !memmem(data, len, "chroot", 6) || memchr(data, '\0', len))
		return;
	char *code = code_only((const char *)data, len);
	struct os_names o = { 0 };
	find_imports(&o, code);
	const char *call = first_call(&o, code, true);
	if (call) {
		bool cd = first_call(&o, code, false) != NULL;
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
	.help = {
		.what = "os.chroot() without os.chdir() leaves the working directory outside the jail, "
		  "so relative paths still reach the real file system.",
		.detect = "Calls of os.chroot and os.chdir/os.fchdir after comments and string literals "
		  "are blanked out.",
		.limits = "Calls through getattr() or a function object passed around are not followed; "
		  "names from imports (import os as o, from os import chroot as c, from os import *) are.",
		.fix = "Call os.chdir(\"/\") right after os.chroot().",
	},
	.cwe = 243,
	.precision = "high",
	.run = run,
};
