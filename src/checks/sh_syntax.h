/* SPDX-License-Identifier: GPL-2.0-or-later */
/* script-sh-syntax's seams: the tests point it at a parser that hangs. */
#ifndef DISTSEC_CHECKS_SH_SYNTAX_H
#define DISTSEC_CHECKS_SH_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>

/* How long a parser may run before it (and its session) is killed. */
extern int ds_sh_timeout_ms;
/* NULL-terminated directories searched for interpreters. */
extern const char *const *ds_sh_dirs;

/* sh_text.c.  How much of a script its shell parses: up to and with the
 * first column-0 "exec COMMAND" that nothing makes conditional (a
 * launcher; sh/Python polyglots write it ''''exec or "exec"), or an
 * indented one with only comments before it (Tcl's "# ... \\" then
 * "  exec wish"); len if none. */
size_t ds_sh_launcher_end(const char *data, size_t len);
/* Does the script turn on extglob (shopt -s extglob), which bash -n
 * does not run, so needs -O extglob to parse its patterns? */
bool ds_sh_wants_extglob(const char *data, size_t len);
/* The shell a file without "#!" is written for, from its name (.zsh,
 * .bash, .sh) and content (zsh's setopt/autoload, bash's [[ / shopt /
 * declare / arrays); NULL when nothing tells. */
const char *ds_sh_guess_shell(const char *data, size_t len, const char *name);

#endif
