/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * script-sh-tmp (find-sh4tmp): a shell script that writes to a fixed name
 * under /tmp or /var/tmp can be made to clobber or disclose files through
 * a symlink planted there.  A line "writes" when, outside a comment and
 * quoted prose, it redirects (>, >>) to /tmp/... or runs touch, cp, mv,
 * tee, ln, install or mkdir with a /tmp/... argument, or sort -o, dd of=,
 * tar -cf, wget -O, curl -o naming one.  A name must begin a word:
 * build/tmp/x is not under /tmp.  Heuristic, line by line, as
 * find-sh4tmp was: a line calling mktemp (or tempfile) is not a write
 * (its template), a name built from a mktemp result in another variable
 * holds no literal /tmp/, and a fixed name the script only reads is not
 * reported.  A here-document's body is text (a file's content, a
 * program's input) and is skipped, unless a shell, su, ssh or chroot reads
 * it as commands.  A mktemp elsewhere in the script excuses no fixed name: a
 * script that makes one file safely and another at /tmp/x.$$ is as open
 * through the second as one without mktemp.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "distsec/check.h"
#include "sh_syntax.h"

#define MAX_LINES 10

/* A /tmp/ or /var/tmp/ name starting at p, which begins a word (so
 * build/tmp/x is not one). */
static bool is_tmp_at(const char *line, const char *p)
{
	if (p > line && !strchr(" \t'\"=<>", p[-1]))
		return false;
	return !strncmp(p, "/tmp/", 5) ? p[5] && !isspace((unsigned char)p[5]) && p[5] != ';'
	     : !strncmp(p, "/var/tmp/", 9) ? p[9] && !isspace((unsigned char)p[9]) : false;
}

/* Skips blanks and opening quotes. */
static const char *skip_blank(const char *q)
{
	while (*q == ' ' || *q == '\t' || *q == '"' || *q == '\'')
		q++;
	return q;
}

/* Commands that write the file named by an option: "sort -o F",
 * "dd of=F", "wget -O F", "curl -o F", "tar -cf F" (create, append or
 * update, then f). */
struct out_opt { const char *cmd, *opt; };
static const struct out_opt out_opts[] = {
	{ "sort", "-o" }, { "sort", "--output=" }, { "dd", "of=" }, { "wget", "-O" },
	{ "wget", "--output-document=" }, { "curl", "-o" }, { "curl", "--output=" },
	{ "tar", "--file=" }, { NULL, NULL },
};

/* Is the word at w (up to a blank) a tar option cluster that creates an
 * archive and names it next (c, r or u with f last: -cf, czf, -cvzf)? */
static bool tar_create_f(const char *w)
{
	if (*w == '-')
		w++;
	size_t n = strcspn(w, " \t");
	bool creates = memchr(w, 'c', n) || memchr(w, 'r', n) || memchr(w, 'u', n);
	if (n < 2 || n > 8 || w[n - 1] != 'f' || !creates)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalpha((unsigned char)w[i]))
			return false;
	return true;
}

/* After a command word at p: does one of its arguments (up to ; & |)
 * name a /tmp file through an output option? */
static bool writes_by_option(const char *line, const char *cmd, const char *args)
{
	for (const char *t = args; *t && !strchr(";&|", *t); t++) {
		if (t[-1] != ' ' && t[-1] != '\t')
			continue;
		for (const struct out_opt *o = out_opts; o->cmd; o++) {
			size_t n = strlen(o->opt);
			if (strcmp(o->cmd, cmd) || strncmp(t, o->opt, n))
				continue;
			const char *v = o->opt[n - 1] == '=' || t[n] != ' ' ? t + n : skip_blank(t + n);
			if (*v == '"' || *v == '\'')
				v++;
			if (is_tmp_at(line, v) || (v == t + n && !strncmp(v, "/tmp/", 5)))
				return true;
		}
		if (!strcmp(cmd, "tar") && tar_create_f(t)) {
			const char *v = skip_blank(t + strcspn(t, " \t"));
			if (is_tmp_at(line, v))
				return true;
		}
	}
	return false;
}

/* Does the command name at p begin a command word of line (after a
 * blank, ; & | ( ` or $)? */
static bool command_at(const char *line, const char *p)
{
	return p == line || strchr(" \t;&|(`$", p[-1]);
}

/* Does the line run the command name (a word: "mktemp -d", "$(mktemp)",
 * `tempfile`), not only mention it (/tmp/tempfile.log)? */
static bool runs(const char *line, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(line, name); p; p = strstr(p + 1, name))
		if (command_at(line, p) && (!p[n] || strchr(" \t;&|)`", p[n])))
			return true;
	return false;
}

static const char *const writers[] = {
	"touch", "cp", "mv", "tee", "ln", "install", "mkdir", "sort", "dd", "wget", "curl", "tar", NULL,
};

/* Does the command text (a line without its comment, quoted prose
 * blanked) write under /tmp? */
static bool writes_tmp(const char *line)
{
	for (const char *p = line; *p; p++) {
		if (*p != '>')
			continue;
		const char *q = p + 1;
		if (*q == '>' || *q == '|')
			q++;
		q = skip_blank(q);
		if (is_tmp_at(q, q))
			return true;
	}
	/* a writing command anywhere on the line with a /tmp/ argument */
	for (size_t i = 0; writers[i]; i++) {
		size_t n = strlen(writers[i]);
		bool by_option = i >= 7;   /* sort, dd, ...: only their output option counts */
		for (const char *p = strstr(line, writers[i]); p; p = strstr(p + 1, writers[i])) {
			if (!command_at(line, p) || (p[n] != ' ' && p[n] != '\t'))
				continue;
			if (by_option) {
				if (writes_by_option(line, writers[i], p + n))
					return true;
				continue;
			}
			for (const char *t = p + n; *t && !strchr(";&|", *t); t++)
				if (*t == '/' && is_tmp_at(line, t))
					return true;
		}
	}
	return false;
}

/* Copies the line without a trailing comment (a '#' at a word start,
 * outside quotes: good enough for shell), with the inside of every quoted
 * string that holds a blank turned into '_': that is text ("see
 * /tmp/x > log"), not a command's argument, which is one word. */
static void strip_comment(const char *line, size_t len, char *out, size_t cap)
{
	char quote = 0;
	size_t n = 0, open = 0;
	bool blank = false;
	for (size_t i = 0; i < len && n < cap - 1; i++) {
		char c = line[i];
		if (quote) {
			if (c == quote) {
				quote = 0;
				for (size_t k = open; blank && k < n; k++)
					out[k] = '_';
			} else if (c == ' ' || c == '\t') {
				blank = true;
			}
		} else if (c == '\'' || c == '"') {
			quote = c;
			open = n + 1;
			blank = false;
		} else if (c == '#' && (i == 0 || isspace((unsigned char)line[i - 1]))) {
			break;
		}
		out[n++] = c;
	}
	out[n] = '\0';
}

/* Does a here-document opened on this line feed a shell, whose commands
 * its body then are ("sh <<EOF", "su - u <<EOF", "ssh host <<EOF",
 * "... | bash <<EOF"), rather than text for a file or a program? */
static bool feeds_shell(const char *line)
{
	static const char *const shells[] = { "sh", "bash", "dash", "ksh", "zsh", "ash", "busybox",
	                                      "su", "sudo", "runuser", "ssh", "chroot", "eval",
	                                      "exec", "command", "env", "nohup", NULL };
	for (const char *w = line; w && *w;) {
		w += strspn(w, " \t|&;(");
		size_t n = strcspn(w, " \t|&;()<>");
		const char *slash = memrchr(w, '/', n);
		const char *base = slash ? slash + 1 : w;
		size_t bn = n - (size_t)(base - w);
		for (size_t i = 0; shells[i]; i++)
			if (strlen(shells[i]) == bn && !memcmp(base, shells[i], bn))
				return true;
		w = strpbrk(w + n, "|;&");   /* the next command of the line */
	}
	return false;
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	size_t len;
	const unsigned char *data = ds_file_shell_text(f, &len, NULL);
	if (!data || !memmem(data, len, "/tmp/", 5))
		return;
	unsigned lines[MAX_LINES];
	size_t nlines = 0;
	char first[160] = "";
	unsigned lineno = 0;
	char buf[4096];
	for (const char *p = (const char *)data, *end = p + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		lineno++;
		strip_comment(p, l, buf, sizeof buf);
		if (!runs(buf, "mktemp") && !runs(buf, "tempfile") && writes_tmp(buf)) {
			if (nlines < MAX_LINES)
				lines[nlines] = lineno;
			if (!nlines++) {
				const char *t = p;   /* as written, not as blanked */
				while (t < p + l && isspace((unsigned char)*t))
					t++;
				int w = (int)(p + l - t) < 150 ? (int)(p + l - t) : 150;
				snprintf(first, sizeof first, "%.*s", w, t);
			}
		}
		/* a here-document's body is text (a file's content, a
		 * program's input), unless a shell reads it as commands */
		const char *body_end = feeds_shell(buf) ? NULL : ds_sh_heredoc_skip(p, p + l, end);
		if (body_end) {
			for (const char *q = p + l; q < body_end; q++)
				lineno += *q == '\n' && q + 1 < body_end;
			p = body_end;
			continue;
		}
		p += l + 1;
	}
	if (!nlines)
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
	.help = {
		.what = "A shell script that writes to a fixed name under /tmp or /var/tmp can be made "
		  "to clobber or disclose files through a symlink another user plants there.",
		.detect = "Line by line, outside comments: redirections (>, >>) to /tmp/... or touch, cp, "
		  "mv, tee, ln, install, mkdir with a /tmp/... argument (sort -o, dd of=, tar -cf, "
		  "wget -O, curl -o too), on a line that does not call mktemp or tempfile, and not in "
		  "the body of a here-document that no shell reads; a "
		  "mktemp elsewhere in the script excuses no fixed name.",
		.limits = "A heuristic: a name built from a mktemp result in another variable is fine, "
		  "and a fixed name the script only reads is not reported.",
		.fix = "Use \"$(mktemp)\" or \"$(mktemp -d)\" and remove the file with a trap.",
	},
	.cwe = 377,
	.precision = "medium",
	.run = run,
};
