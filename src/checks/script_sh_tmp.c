/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * script-sh-tmp (find-sh4tmp): a shell script that writes to a fixed name
 * under /tmp or /var/tmp and never calls mktemp (or tempfile) can be made
 * to clobber or disclose files through a symlink planted there.  A line
 * "writes" when, outside a comment, it redirects (>, >>) to /tmp/... or
 * runs touch, cp, mv, tee, ln, install, mkdir or cat > with a /tmp/...
 * argument.  Heuristic, line by line: a name built from a mktemp result in
 * another variable is fine (mktemp is called), and a fixed name the script
 * only reads is not reported.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "distsec/check.h"

#define SCRIPT_MAX (8u << 20)
#define MAX_LINES 10

static const char *const writers[] = {
	"touch", "cp", "mv", "tee", "ln", "install", "mkdir", NULL,
};

static bool is_tmp_at(const char *p)
{
	return !strncmp(p, "/tmp/", 5) ? p[5] && !isspace((unsigned char)p[5]) && p[5] != ';'
	     : !strncmp(p, "/var/tmp/", 9) ? p[9] && !isspace((unsigned char)p[9]) : false;
}

/* Does the command text (a line without its comment) write under /tmp? */
static bool writes_tmp(const char *line)
{
	for (const char *p = line; *p; p++) {
		if (*p != '>')
			continue;
		const char *q = p + 1;
		if (*q == '>' || *q == '|')
			q++;
		while (*q == ' ' || *q == '\t' || *q == '"' || *q == '\'')
			q++;
		if (is_tmp_at(q))
			return true;
	}
	/* a writing command anywhere on the line with a /tmp/ argument */
	for (size_t i = 0; writers[i]; i++) {
		size_t n = strlen(writers[i]);
		for (const char *p = strstr(line, writers[i]); p; p = strstr(p + 1, writers[i])) {
			bool start = p == line || strchr(" \t;&|(`$", p[-1]);
			if (!start || (p[n] != ' ' && p[n] != '\t'))
				continue;
			for (const char *t = p + n; *t && !strchr(";&|", *t); t++)
				if (*t == '/' && is_tmp_at(t))
					return true;
		}
	}
	return false;
}

/* Copies the line without a trailing comment (a '#' at a word start,
 * outside quotes: good enough for shell). */
static void strip_comment(const char *line, size_t len, char *out, size_t cap)
{
	char quote = 0;
	size_t n = 0;
	for (size_t i = 0; i < len && n < cap - 1; i++) {
		char c = line[i];
		if (quote) {
			if (c == quote)
				quote = 0;
		} else if (c == '\'' || c == '"') {
			quote = c;
		} else if (c == '#' && (i == 0 || isspace((unsigned char)line[i - 1]))) {
			break;
		}
		out[n++] = c;
	}
	out[n] = '\0';
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	size_t len;
	const unsigned char *data = ds_file_data(f, SCRIPT_MAX, &len);
	if (!data || !memmem(data, len, "/tmp/", 5))
		return;
	unsigned lines[MAX_LINES];
	size_t nlines = 0;
	bool mktemp = false;
	char first[160] = "";
	unsigned lineno = 0;
	char buf[4096];
	for (const char *p = (const char *)data, *end = p + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		lineno++;
		strip_comment(p, l, buf, sizeof buf);
		if (strstr(buf, "mktemp") || strstr(buf, "tempfile"))
			mktemp = true;
		if (writes_tmp(buf)) {
			if (nlines < MAX_LINES)
				lines[nlines] = lineno;
			if (!nlines++) {
				const char *t = buf;
				while (isspace((unsigned char)*t))
					t++;
				snprintf(first, sizeof first, "%.150s", t);
			}
		}
		p += l + 1;
	}
	if (mktemp || !nlines)
		return;
	struct ds_finding *d = ds_report(f, DS_SEV_WARNING,
		"writes to a fixed name under /tmp without mktemp (line %u: %s)", lines[0], first);
	for (size_t i = 0; i < nlines && i < MAX_LINES; i++) {
		json_object *arr;
		if (!json_object_object_get_ex(d->details, "lines", &arr)) {
			arr = json_object_new_array();
			json_object_object_add(d->details, "lines", arr);
		}
		json_object_array_add(arr, json_object_new_int((int)lines[i]));
	}
}

const struct ds_check ds_check_script_sh_tmp = {
	.id = "script-sh-tmp",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_SHELL,
	.summary = "shell script writing fixed /tmp names without mktemp",
	.run = run,
};
