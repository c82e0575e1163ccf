/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Package payload members into memory (see archive-members.h). */
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive-members.h"
#include "distsec/util.h"

const char *ds_archive_why(struct archive *a)
{
	const char *msg = archive_error_string(a);
	if (msg && *msg)
		return msg;
	return archive_errno(a) ? strerror(archive_errno(a)) : "corrupt or truncated archive";
}

/* "./usr/bin/x" and "usr/bin/x" both become "/usr/bin/x". */
static char *member_path(const char *name)
{
	while (name[0] == '.' && name[1] == '/')
		name += 2;
	while (*name == '/')
		name++;
	size_t n = strlen(name);
	while (n && name[n - 1] == '/')
		n--;
	char *p = ds_xmalloc(n + 2);
	p[0] = '/';
	memcpy(p + 1, name, n);
	p[n + 1] = '\0';
	return p;
}

int ds_payload_next(struct ds_payload *p, struct ds_member *m, char *err, size_t errlen)
{
	struct archive_entry *e;
	int r = archive_read_next_header(p->a, &e);
	if (r == ARCHIVE_EOF)
		return 0;
	if (r < ARCHIVE_WARN) {
		snprintf(err, errlen, "%s", ds_archive_why(p->a));
		return -1;
	}
	free(p->path);
	p->path = member_path(archive_entry_pathname(e) ? archive_entry_pathname(e) : "");
	memset(m, 0, sizeof *m);
	m->path = p->path;
	m->mode = archive_entry_mode(e);
	m->uid = (unsigned)archive_entry_uid(e);
	m->gid = (unsigned)archive_entry_gid(e);
	if (!S_ISREG(m->mode) || archive_entry_hardlink(e))
		return 1;
	int64_t size = archive_entry_size(e);
	if (size < 0 || (uint64_t)size > DS_MEMBER_MAX) {
		snprintf(err, errlen, "%s: member too large", p->path);
		return -1;
	}
	if ((size_t)size + 1 > p->cap) {
		p->cap = (size_t)size + 1;
		p->buf = ds_xrealloc(p->buf, p->cap);
	}
	size_t got = 0;
	while (got < (size_t)size) {
		la_ssize_t n = archive_read_data(p->a, p->buf + got, (size_t)size - got);
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", p->path, ds_archive_why(p->a));
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got != (size_t)size) {
		snprintf(err, errlen, "%s: truncated payload", p->path);
		return -1;
	}
	m->data = p->buf;
	m->size = got;
	return 1;
}

void ds_payload_free(struct ds_payload *p)
{
	if (p->a)
		archive_read_free(p->a);
	free(p->path);
	free(p->buf);
	memset(p, 0, sizeof *p);
}
