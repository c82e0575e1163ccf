/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What script-sh-syntax reads in a script before its parser sees it: where
 * a launcher hands over to another program, whether bash needs extglob to
 * parse it, and which shell a file without "#!" is written for.
 */
#include <stdbool.h>
#include <string.h>

#include "sh_syntax.h"

/* The line [p, end) without leading blanks. */
static const char *trim(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* The first word of a line with its quotes removed: ''''exec and "exec"
 * are the polyglot launchers' way of writing exec that Python skips. */
static size_t unquoted_word(const char *p, const char *end, char *out, size_t cap)
{
	size_t n = 0;
	for (; p < end && *p != ' ' && *p != '\t' && n < cap - 1; p++)
		if (*p != '\'' && *p != '"')
			out[n++] = *p;
	out[n] = '\0';
	return n;
}

/* After "exec": is there a command word (not only redirections and the
 * -a NAME, -c, -l options, which leave the script running)? */
static bool exec_runs_command(const char *p, const char *end)
{
	bool want_name = false;
	while ((p = trim(p, end)) < end && *p != '#' && *p != ';' && *p != '&' && *p != '|') {
		const char *w = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		const char *d = w;
		while (d < p && *d >= '0' && *d <= '9')
			d++;
		if (want_name)
			want_name = false;
		else if (d < p && (*d == '<' || *d == '>'))
			continue;   /* a redirection: 2>&1, >log, 3<file */
		else if (p - w == 2 && w[0] == '-' && strchr("acl", w[1]))
			want_name = w[1] == 'a';
		else
			return true;
	}
	return false;
}

/* Where a line's command starts once what runs an exec for it is set
 * aside: `:` or `true` and a ";" before it (`:;exec scm -f $0 "$@"`),
 * and `eval` given the exec in quotes (Perl's launcher, whose next line
 * `if 0;` hides the eval from perl: `eval 'exec perl -x $0 ${1+"$@"}'`). */
static const char *command_start(const char *w, const char *le)
{
	for (;;) {
		const char *p = w;
		if (p < le && *p == ':')
			p++;
		else if (le - p >= 4 && memcmp(p, "true", 4) == 0)
			p += 4;
		else
			break;
		p = trim(p, le);
		if (p >= le || *p != ';')
			break;
		w = trim(p + 1, le);
	}
	if (le - w > 5 && memcmp(w, "eval", 4) == 0 && (w[4] == ' ' || w[4] == '\t')) {
		const char *p = trim(w + 4, le);
		if (p < le && (*p == '\'' || *p == '"'))
			return p + 1;
	}
	return w;
}

/* After "exit": only a status, a comment or ";" (no "&&", "||", "|" or
 * "&" that makes it part of a list or a background job)? */
static bool exit_is_plain(const char *p, const char *end)
{
	for (; p < end && *p != '#'; p++)
		if (*p == '&' || *p == '|')
			return false;
	return true;
}

/* The delimiter of a here-document the line [p, end) opens ("<<EOF",
 * "<<-'EOF'"; not the here-string "<<<", nor a "<<" in quotes or in
 * arithmetic, $((1 << 3))) into out, and its length; 0 if none.  *strip:
 * the body's leading tabs go ("<<-"). */
static size_t heredoc_word(const char *p, const char *end, char *out, size_t cap, bool *strip)
{
	const char *start = p;
	char quote = 0;
	unsigned arith = 0;
	for (; p + 1 < end; p++) {
		if (quote) {
			quote = *p == quote ? 0 : quote;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			quote = *p;
			continue;
		}
		if (*p == '#' && (p == start || p[-1] == ' ' || p[-1] == '\t'))
			break;   /* a comment */
		if (p[0] == '(' && p[1] == '(') {
			arith++;
			p++;
			continue;
		}
		if (arith && p[0] == ')' && p[1] == ')') {
			arith--;
			p++;
			continue;
		}
		if (arith || p[0] != '<' || p[1] != '<')
			continue;
		if (p + 2 < end && p[2] == '<') {
			p += 2;
			continue;
		}
		p += 2;
		*strip = p < end && *p == '-';
		p = trim(p + *strip, end);
		size_t n = 0;
		for (; p < end && !strchr(" \t;&|<>()", *p) && n < cap - 1; p++)
			if (*p != '\'' && *p != '"' && *p != '\\')
				out[n++] = *p;
		out[n] = '\0';
		return n;
	}
	return 0;
}

/* The line after the body of a here-document delimited by word. */
static const char *after_heredoc(const char *l, const char *end, const char *word, bool strip)
{
	size_t wn = strlen(word);
	while (l < end) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		const char *le = nl ? nl : end, *t = l;
		while (strip && t < le && *t == '\t')
			t++;
		if (le > t && le[-1] == '\r')
			le--;
		l = nl ? nl + 1 : end;
		if ((size_t)(le - t) == wn && memcmp(t, word, wn) == 0)
			break;
	}
	return l;
}

const char *ds_sh_heredoc_skip(const char *l, const char *le, const char *end)
{
	char delim[64];
	bool strip;
	if (!heredoc_word(trim(l, le), le, delim, sizeof delim, &strip))
		return NULL;
	return after_heredoc(le < end ? le + 1 : end, end, delim, strip);
}

/* Does the previous non-blank line leave the next one inside a compound
 * command or continue it (\, &&, ||, |, then, do, else, {, ( )? */
static bool continues(const char *prev, const char *prev_end)
{
	while (prev_end > prev && (prev_end[-1] == ' ' || prev_end[-1] == '\t' || prev_end[-1] == '\r'))
		prev_end--;
	static const char *const tails[] = { "\\", "&&", "||", "|", "then", "do", "else", "{", "(", NULL };
	for (size_t i = 0; tails[i]; i++) {
		size_t n = strlen(tails[i]);
		if ((size_t)(prev_end - prev) >= n && memcmp(prev_end - n, tails[i], n) == 0)
			return true;
	}
	return false;
}

size_t ds_sh_launcher_end(const char *data, size_t len, size_t after, enum ds_sh_stop *how)
{
	const char *end = data + len, *prev = NULL, *prev_end = NULL;
	bool first = true;
	for (const char *l = data; l < end;) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		const char *le = nl ? nl : end;
		char word[16];
		/* column 0, or indented with only comments before it (Tcl's
		 * launcher: "# comment \\" then an indented "exec wish" that the
		 * backslash hides from Tcl): an indented exec after code is
		 * inside something */
		const char *w = prev ? l : trim(l, le);
		if (!first && w < le && *w != ' ' && *w != '\t' &&
		    (w = command_start(w, le)) < le &&
		    unquoted_word(w, le, word, sizeof word) &&
		    (!strcmp(word, "exec") || !strcmp(word, "exit")) &&
		    !(prev && continues(prev, prev_end))) {
			const char *rest = w;
			while (rest < le && *rest != ' ' && *rest != '\t')
				rest++;
			bool is_exec = strcmp(word, "exec") == 0;
			size_t cut = (size_t)(le - data) + (nl ? 1 : 0);
			if (cut > after &&
			    (is_exec ? exec_runs_command(rest, le) : exit_is_plain(rest, le))) {
				if (how)
					*how = is_exec ? DS_SH_STOP_EXEC : DS_SH_STOP_EXIT;
				return cut;
			}
		}
		const char *t = trim(l, le);
		l = nl ? nl + 1 : end;
		if (t < le && *t != '#') {
			prev = t;
			prev_end = le;
			/* a here-document's body is text, not commands */
			const char *body_end = ds_sh_heredoc_skip(t, le, end);
			if (body_end)
				l = body_end;
		}
		first = false;
	}
	return len;
}

bool ds_sh_wants_extglob(const char *data, size_t len)
{
	const char *end = data + len;
	for (const char *p = data; (p = memmem(p, (size_t)(end - p), "shopt", 5)) != NULL; p += 5) {
		const char *l = p;
		while (l > data && l[-1] != '\n')
			l--;
		if (memchr(l, '#', (size_t)(p - l)))
			continue;   /* commented out */
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *s = memmem(p, (size_t)(le - p), "-s", 2);
		if (s && memmem(s, (size_t)(le - s), "extglob", 7))
			return true;
	}
	return false;
}

static bool has(const char *data, size_t len, const char *needle)
{
	return memmem(data, len, needle, strlen(needle)) != NULL;
}

const char *ds_sh_guess_shell(const char *data, size_t len, const char *name)
{
	static const char *const zsh[] = { "setopt ", "autoload ", "zstyle ", "zmodload ", "${(", "typeset -U", NULL };
	static const char *const bash[] = { "[[ ", "shopt ", "declare ", "function ", "local -a",
	                                    "=(", "${BASH", "$BASH", "source ", "<<<", "mapfile ", NULL };
	size_t n = strlen(name);
	if ((n > 4 && !strcmp(name + n - 4, ".zsh")) || (n >= 5 && strstr(name, "zsh")))
		return "zsh";
	for (size_t i = 0; zsh[i]; i++)
		if (has(data, len, zsh[i]))
			return "zsh";
	if (n > 5 && !strcmp(name + n - 5, ".bash"))
		return "bash";
	for (size_t i = 0; bash[i]; i++)
		if (has(data, len, bash[i]))
			return "bash";
	if (n > 3 && !strcmp(name + n - 3, ".sh"))
		return "sh";
	return NULL;
}
