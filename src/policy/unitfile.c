/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * systemd unit files (systemd.syntax(7), systemd.service(5)): sections,
 * comments, backslash continuations, "Key = value" with blanks around "=",
 * Type= and ExecStart= as the last text that sets them leaves them (an
 * empty ExecStart= resets the list), and ExecStart='s command lines:
 * prefixes "@", "-", ":", "+", "!", "!!" in any order before the path,
 * quoting, and ";" between several commands (oneshot units).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "distsec/util.h"
#include "unitfile.h"

const char *const ds_unit_search_path[] = {
	"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin", NULL,
};

struct ds_unit {
	bool service;      /* a .service unit: the only kind that runs programs for long */
	bool oneshot;      /* Type=oneshot, as the last Type= left it */
	char **exec;       /* ExecStart= programs */
	size_t nexec, cap;
};

struct ds_unit *ds_unit_new(const char *name)
{
	struct ds_unit *u = ds_xcalloc(1, sizeof *u);
	size_t n = strlen(name);
	u->service = n > 8 && strcmp(name + n - 8, ".service") == 0;
	return u;
}

static void clear_exec(struct ds_unit *u)
{
	for (size_t i = 0; i < u->nexec; i++)
		free(u->exec[i]);
	u->nexec = 0;
}

void ds_unit_free(struct ds_unit *u)
{
	if (!u)
		return;
	clear_exec(u);
	free(u->exec);
	free(u);
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* One word of a command line, quotes removed and backslash escapes taken
 * literally (systemd's extract_first_word with EXTRACT_UNQUOTE, as far as
 * a path needs it).  *sep is set when the word is a bare ";".  Returns
 * the rest of the line, or NULL at its end. */
static const char *next_word(const char *p, char **word, bool *sep)
{
	while (blank(*p))
		p++;
	if (!*p)
		return NULL;
	*sep = p[0] == ';' && (!p[1] || blank(p[1]));
	size_t n = 0, cap = strlen(p) + 1;
	char *w = ds_xcalloc(cap, 1), quote = 0;
	for (; *p && (quote || !blank(*p)); p++) {
		if (!quote && (*p == '"' || *p == '\'')) {
			quote = *p;
		} else if (quote && *p == quote) {
			quote = 0;
		} else {
			if (*p == '\\' && p[1])
				p++;
			w[n++] = *p;
		}
	}
	*word = w;
	return p;
}

/* ExecStart='s value: each command's program, after its prefixes. */
static void parse_exec(struct ds_unit *u, const char *value)
{
	bool at_start = true, skip_argv0 = false, sep;
	char *w;
	for (const char *p = value; (p = next_word(p, &w, &sep)) != NULL; free(w)) {
		if (sep) {
			at_start = true;
			continue;
		}
		if (skip_argv0) { /* "@path argv0 args": argv0 is not a program */
			skip_argv0 = false;
			continue;
		}
		if (!at_start)
			continue;
		at_start = false;
		const char *path = w;
		for (;; path++) {
			if (*path == '@')
				skip_argv0 = true;
			else if (!*path || !strchr("-:+!", *path))
				break;
		}
		if (!*path)
			continue;
		char *prog = ds_xstrdup(path);
		ds_push(u->exec, u->nexec, u->cap, prog);
	}
}

static void set_key(struct ds_unit *u, const char *key, const char *value)
{
	if (!strcmp(key, "Type"))
		u->oneshot = !strcmp(value, "oneshot");
	else if (!strcmp(key, "ExecStart") && !*value)
		clear_exec(u);
	else if (!strcmp(key, "ExecStart"))
		parse_exec(u, value);
}

/* One logical line (continuations joined); in_service: inside [Service]. */
static void parse_line(struct ds_unit *u, char *line, bool *in_service)
{
	while (blank(*line))
		line++;
	if (*line == '[') {
		*in_service = !strncmp(line, "[Service]", 9);
		return;
	}
	char *eq = strchr(line, '=');
	if (!*in_service || !eq)
		return;
	char *end = eq;
	while (end > line && blank(end[-1]))
		end--;
	*end = '\0';
	char *value = eq + 1;
	while (blank(*value))
		value++;
	size_t n = strlen(value);
	while (n && blank(value[n - 1]))
		value[--n] = '\0';
	set_key(u, line, value);
}

void ds_unit_read(struct ds_unit *u, const char *text, size_t len)
{
	char *logical = ds_xcalloc(len + 1, 1);
	size_t n = 0;
	bool in_service = false, continued = false;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;
		const char *l = text + i;
		size_t ll = end - i;
		i = end + 1;
		size_t k = 0;
		while (k < ll && blank(l[k]))
			k++;
		if (k == ll && !continued)
			continue;
		if (k < ll && (l[k] == '#' || l[k] == ';'))
			continue; /* comments, also inside a continued line */
		while (ll && blank(l[ll - 1]))
			ll--;
		continued = ll && l[ll - 1] == '\\';
		memcpy(logical + n, l, continued ? ll - 1 : ll);
		n += continued ? ll - 1 : ll;
		if (continued) {
			logical[n++] = ' ';
			if (i < len)
				continue;
		}
		logical[n] = '\0';
		parse_line(u, logical, &in_service);
		n = 0;
	}
	free(logical);
}

size_t ds_unit_daemons(const struct ds_unit *u, const char *const **programs)
{
	*programs = (const char *const *)u->exec;
	return u->service && !u->oneshot ? u->nexec : 0;
}
