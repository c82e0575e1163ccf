/* SPDX-License-Identifier: GPL-2.0-or-later */
/* script-sh-syntax's seams (the tests point it at a parser that hangs), and
 * sh_text.c's reading of shell text, shared with script-sh-tmp. */
#ifndef DISTSEC_CHECKS_SH_SYNTAX_H
#define DISTSEC_CHECKS_SH_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>

/* How long a parser may run before it (and its session) is killed. */
extern int ds_sh_timeout_ms;
/* NULL-terminated directories searched for interpreters. */
extern const char *const *ds_sh_dirs;

/* What ends the part of a script its shell reads. */
enum ds_sh_stop {
	DS_SH_STOP_EXEC,   /* exec hands the file to another program */
	DS_SH_STOP_EXIT,   /* exit: the shell reads no further */
};

/* sh_text.c.  How much of a script its shell reads (sh reads and runs one
 * top-level command at a time): up to and with the first column-0
 * "exec COMMAND" or "exit" that nothing makes conditional (a launcher;
 * sh/Python polyglots write it ''''exec or "exec", or try interpreters in
 * a loop and exit when none is found), or an indented exec with only
 * comments before it (Tcl's "# ... \\" then "  exec wish").  Here-document
 * bodies are text, not commands.  The first such end past after (0: the
 * first of all; an earlier one may turn out to sit inside an if), or len
 * if none; *how (may be NULL) says which. */
size_t ds_sh_launcher_end(const char *data, size_t len, size_t after, enum ds_sh_stop *how);
/* When the line [l, le) of a script ending at end opens a here-document
 * ("cat <<EOF", "<<-'EOF'"; not the here-string "<<<"): where the line
 * after its body (and delimiter) starts; NULL when it opens none. */
const char *ds_sh_heredoc_skip(const char *l, const char *le, const char *end);
/* Does the script turn on extglob (shopt -s extglob), which bash -n
 * does not run, so needs -O extglob to parse its patterns? */
bool ds_sh_wants_extglob(const char *data, size_t len);
/* The shell a file without "#!" is written for, from its name (.zsh,
 * .bash, .sh) and content (zsh's setopt/autoload, bash's [[ / shopt /
 * declare / arrays); NULL when nothing tells. */
const char *ds_sh_guess_shell(const char *data, size_t len, const char *name);

#endif
