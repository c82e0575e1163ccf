/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one error type of parsers, loaders, backend callbacks and commands:
 * a kind the caller can branch on, the errno a system call gave (0 when
 * none) and a message of any length (libarchive's archive_set_error, git's
 * strbuf).  A function that fails fills the caller's struct ds_error and
 * returns -1 (or NULL); it never prints: the caller decides whether the
 * message becomes a warning, a finding or the reason of exit status 2.
 *
 *     struct ds_error e = DS_ERROR_INIT;
 *     if (ds_waivers_load(path, &w, &e) < 0)
 *             ds_warn("%s", ds_error_msg(&e));
 *     ds_error_clear(&e);
 *
 * Every function accepts a NULL struct ds_error * (the caller does not
 * want the reason) and then only returns.  Messages are plain text, printed
 * through ds_warn, which escapes what a hostile name could forge.
 * Allocation failure aborts, as ds_xmalloc's does.
 */
#ifndef DISTSEC_ERROR_H
#define DISTSEC_ERROR_H

#include <stdarg.h>

enum ds_error_kind {
	DS_ERR_NONE = 0,
	DS_ERR_IO,          /* a file or directory could not be opened or read */
	DS_ERR_PARSE,       /* the input is not what its format says */
	DS_ERR_LIMIT,       /* the input is over a size cap */
	DS_ERR_USAGE,       /* the command line or a setting asks for something wrong */
	DS_ERR_UNSUPPORTED, /* valid, but this build or backend cannot do it */
};

struct ds_error {
	enum ds_error_kind kind;
	int errnum;   /* errno of the failed system call, 0 when none */
	char *msg;    /* malloc()ed; NULL while no error is set */
};

#define DS_ERROR_INIT { DS_ERR_NONE, 0, NULL }

/* Sets the message (replacing any earlier one, which the arguments may
 * still name) and the kind; errnum becomes 0.  Returns -1. */
int ds_error_set(struct ds_error *e, enum ds_error_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same from a va_list, for a function of its own format. */
int ds_error_vset(struct ds_error *e, enum ds_error_kind kind, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* "what: strerror(errnum)" of kind DS_ERR_IO, errnum kept.  Returns -1. */
int ds_error_errno(struct ds_error *e, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Puts context before the message ("FILE:LINE: " + message); nothing
 * when no error is set. */
void ds_error_prefix(struct ds_error *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Adds text after the message (a message is started when none is set,
 * keeping the kind): a reason assembled in parts, notes a line each. */
void ds_error_append(struct ds_error *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The message, "" when none is set (or e is NULL). */
const char *ds_error_msg(const struct ds_error *e);
/* Frees the message; e is DS_ERROR_INIT again and may be reused. */
void ds_error_clear(struct ds_error *e);

#endif
