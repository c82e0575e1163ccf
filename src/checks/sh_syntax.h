/* SPDX-License-Identifier: GPL-2.0-or-later */
/* script-sh-syntax's seams: the tests point it at a parser that hangs. */
#ifndef DISTSEC_CHECKS_SH_SYNTAX_H
#define DISTSEC_CHECKS_SH_SYNTAX_H

/* How long a parser may run before it (and its session) is killed. */
extern int ds_sh_timeout_ms;
/* NULL-terminated directories searched for interpreters. */
extern const char *const *ds_sh_dirs;

#endif
