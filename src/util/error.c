/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "distsec/error.h"
#include "distsec/util.h"

/* The new message is formatted before the old one is freed: its arguments
 * may name the old one (ds_error_set(e, k, "x: %s", e->msg)). */
static void replace(struct ds_error *e, char *msg)
{
	free(e->msg);
	e->msg = msg;
}

int ds_error_vset(struct ds_error *e, enum ds_error_kind kind, const char *fmt, va_list ap)
{
	if (!e)
		return -1;
	replace(e, ds_xvasprintf(fmt, ap));
	e->kind = kind;
	e->errnum = 0;
	return -1;
}

int ds_error_set(struct ds_error *e, enum ds_error_kind kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ds_error_vset(e, kind, fmt, ap);
	va_end(ap);
	return -1;
}

int ds_error_errno(struct ds_error *e, int errnum, const char *fmt, ...)
{
	if (!e)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	char *what = ds_xvasprintf(fmt, ap);
	va_end(ap);
	replace(e, ds_xasprintf("%s: %s", what, strerror(errnum)));
	free(what);
	e->kind = DS_ERR_IO;
	e->errnum = errnum;
	return -1;
}

void ds_error_prefix(struct ds_error *e, const char *fmt, ...)
{
	if (!e || !e->msg)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *pre = ds_xvasprintf(fmt, ap);
	va_end(ap);
	replace(e, ds_xasprintf("%s%s", pre, e->msg));
	free(pre);
}

void ds_error_append(struct ds_error *e, const char *fmt, ...)
{
	if (!e)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *more = ds_xvasprintf(fmt, ap);
	va_end(ap);
	if (!e->msg) {
		e->msg = more;
		return;
	}
	replace(e, ds_xasprintf("%s%s", e->msg, more));
	free(more);
}

const char *ds_error_msg(const struct ds_error *e)
{
	return e && e->msg ? e->msg : "";
}

void ds_error_clear(struct ds_error *e)
{
	if (!e)
		return;
	free(e->msg);
	*e = (struct ds_error)DS_ERROR_INIT;
}
