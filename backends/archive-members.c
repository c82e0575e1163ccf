/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Package payload members (see archive-members.h).
 *
 * Nothing is allocated from a size a header claims before the data is
 * there: a member up to DS_MEMBER_IN_MEMORY is read into one buffer, a
 * larger one is streamed into an unlinked temporary file (all-zero blocks
 * left as holes, so a 1 GiB member of zeros costs neither memory nor
 * disk), one over DS_MEMBER_MAX is skipped and reported and the reading
 * goes on.  cpio hard-link groups (rpm) carry the data on their last name
 * only: the other names wait for it and are handed out with the same data.
 */
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive-members.h"
#include "distsec/util.h"

#define CHUNK (64 * 1024)

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

static int open_spill(struct ds_payload *p)
{
	if (p->have_spill)
		return ftruncate(p->spill, 0) == 0 ? 0 : -1;
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {   /* a file system without O_TMPFILE */
		char *name = ds_xasprintf("%s/distsec-member-XXXXXX", dir);
		fd = mkostemp(name, O_CLOEXEC);
		if (fd >= 0)
			unlink(name);
		free(name);
	}
	if (fd < 0)
		return -1;
	p->spill = fd;
	p->have_spill = true;
	return 0;
}

static bool all_zero(const unsigned char *b, size_t n)
{
	return n == 0 || (b[0] == 0 && memcmp(b, b + 1, n - 1) == 0);
}

/* Copies the member's data to the temporary file; bytes copied or -1. */
static int64_t spill_member(struct ds_payload *p, const struct ds_member_source *src,
                            unsigned char *chunk)
{
	if (open_spill(p) != 0)
		return -1;
	int64_t got = 0;
	ssize_t n;
	while ((n = src->read(src->ctx, chunk, CHUNK)) > 0) {
		if (all_zero(chunk, (size_t)n)) {
			got += n;   /* a hole: ftruncate below gives the size */
			continue;
		}
		if (pwrite(p->spill, chunk, (size_t)n, (off_t)got) != n)
			return -1;
		got += n;
	}
	if (n < 0 || ftruncate(p->spill, (off_t)got) != 0)
		return -1;
	return got;
}

int ds_member_read(struct ds_payload *p, struct ds_member *m, int64_t size,
                   const struct ds_member_source *src)
{
	if (size < 0 || (uint64_t)size > DS_MEMBER_MAX) {
		snprintf(p->why, sizeof p->why,
		         "member of %lld bytes, over the %u MiB limit: not scanned",
		         (long long)size, DS_MEMBER_MAX >> 20);
		m->unreadable = p->why;
		return !src->skip || src->skip(src->ctx) == 0 ? 0 : -1;
	}
	if ((uint64_t)size <= DS_MEMBER_IN_MEMORY) {
		if ((size_t)size + 1 > p->cap) {
			p->cap = (size_t)size + 1;
			p->buf = ds_xrealloc(p->buf, p->cap);
		}
		size_t got = 0;
		ssize_t n = 1;
		while (got < (size_t)size &&
		       (n = src->read(src->ctx, p->buf + got, (size_t)size - got)) > 0)
			got += (size_t)n;
		if (n < 0 || got != (size_t)size) {
			snprintf(p->why, sizeof p->why, "%s",
			         n < 0 ? src->why(src->ctx) : "truncated payload");
			m->unreadable = p->why;
			return -1;
		}
		m->data = p->buf;
		m->size = got;
		return 0;
	}
	if (p->cap < CHUNK) {
		p->cap = CHUNK;
		p->buf = ds_xrealloc(p->buf, p->cap);
	}
	int64_t got = spill_member(p, src, p->buf);
	if (got != size) {
		const char *why = got < 0 ? src->why(src->ctx) : NULL;
		snprintf(p->why, sizeof p->why, "%s",
		         why ? why : got < 0 ? strerror(errno) : "truncated payload");
		m->unreadable = p->why;
		return -1;
	}
	m->in_file = true;
	m->fd = p->spill;
	m->size = (size_t)got;
	return 0;
}

/* libarchive as a member source. */
static ssize_t archive_source_read(void *a, void *buf, size_t len)
{
	return archive_read_data(a, buf, len);
}

static int archive_source_skip(void *a)
{
	return archive_read_data_skip(a) == ARCHIVE_OK ? 0 : -1;
}

/* NULL when libarchive saw no error (then the write to the spill failed). */
static const char *archive_source_why(void *a)
{
	return archive_errno(a) ? ds_archive_why(a) : NULL;
}

/* The next waiting name of the group whose data p->last holds. */
static bool next_link_name(struct ds_payload *p, struct ds_member *m)
{
	for (size_t i = 0; i < p->npending; i++) {
		struct ds_link_name *l = &p->pending[i];
		if (l->ino != p->last_ino || l->dev != p->last_dev)
			continue;
		free(p->path);
		p->path = l->path;
		*m = p->last;
		m->path = p->path;
		m->mode = l->mode;
		m->uid = l->uid;
		m->gid = l->gid;
		p->pending[i] = p->pending[--p->npending];
		return true;
	}
	return false;
}

/* A name of a hard-link group without data (cpio: all but the last). */
static bool is_waiting_link(struct archive_entry *e)
{
	return archive_entry_nlink(e) > 1 && archive_entry_size(e) == 0 &&
	       archive_entry_ino_is_set(e);
}

/* At the end: names whose group never carried data are empty files. */
static int flush_pending(struct ds_payload *p, struct ds_member *m)
{
	if (!p->npending)
		return 0;
	struct ds_link_name *l = &p->pending[--p->npending];
	free(p->path);
	p->path = l->path;
	if (!p->cap) {
		p->cap = 1;
		p->buf = ds_xmalloc(1);
	}
	*m = (struct ds_member){ .path = p->path, .mode = l->mode, .uid = l->uid, .gid = l->gid,
	                         .data = p->buf, .size = 0, .fd = -1 };
	return 1;
}

/* A pax SCHILY.xattr.security.capability (what setcap leaves on a file
 * that tar --xattrs or a build tool packs) makes the member setcap. */
static bool has_caps(struct archive_entry *e)
{
	const char *name;
	const void *value;
	size_t size;
	archive_entry_xattr_reset(e);
	while (archive_entry_xattr_next(e, &name, &value, &size) == ARCHIVE_OK)
		if (name && !strcmp(name, "security.capability") && size)
			return true;
	return false;
}

int ds_payload_next(struct ds_payload *p, struct ds_member *m, char *err, size_t errlen)
{
	if (p->have_last && next_link_name(p, m))
		return 1;
	p->have_last = false;
	if (p->failed)
		return 0;
	struct archive_entry *e;
	int r;
	for (;;) {
		if (p->peeked) {
			e = p->peeked;
			p->peeked = NULL;
			r = ARCHIVE_OK;
		} else {
			r = archive_read_next_header(p->a, &e);
		}
		if (r == ARCHIVE_EOF)
			return flush_pending(p, m);
		if (r < ARCHIVE_WARN) {
			snprintf(err, errlen, "%s", ds_archive_why(p->a));
			return -1;
		}
		if (!S_ISREG(archive_entry_mode(e)) || !is_waiting_link(e))
			break;
		struct ds_link_name l = {
			member_path(archive_entry_pathname(e) ? archive_entry_pathname(e) : ""),
			archive_entry_mode(e), (unsigned)archive_entry_uid(e),
			(unsigned)archive_entry_gid(e), archive_entry_dev(e), archive_entry_ino64(e),
		};
		ds_push(p->pending, p->npending, p->pending_cap, l);
	}
	free(p->path);
	p->path = member_path(archive_entry_pathname(e) ? archive_entry_pathname(e) : "");
	/* the archive's owner names (a .deb's tar: Debian's static ids have
	 * fixed names), judged against the root's accounts, never the host's
	 * name for the number */
	free(p->user);
	free(p->group);
	p->user = ds_field_dup(archive_entry_uname(e));
	p->group = ds_field_dup(archive_entry_gname(e));
	*m = (struct ds_member){ .path = p->path, .mode = archive_entry_mode(e),
	                         .uid = (unsigned)archive_entry_uid(e),
	                         .gid = (unsigned)archive_entry_gid(e), .fd = -1,
	                         .user = p->user, .group = p->group,
	                         .has_caps = has_caps(e) };
	/* A tar hard link (size 0) names an earlier member, scanned under
	 * that name; a cpio one carries the group's data (size > 0). */
	if (!S_ISREG(m->mode) || (archive_entry_hardlink(e) && archive_entry_size(e) == 0))
		return 1;
	if (p->want && !p->want(p->path, p->want_ctx))
		return 1;   /* libarchive skips the data at the next header */
	const struct ds_member_source src = {
		archive_source_read, archive_source_skip, archive_source_why, p->a,
	};
	if (ds_member_read(p, m, archive_entry_size(e), &src) != 0)
		p->failed = true;   /* the archive is broken here: nothing after it is readable */
	if (!m->unreadable && archive_entry_ino_is_set(e) && archive_entry_nlink(e) > 1) {
		p->last = *m;
		p->have_last = true;
		p->last_dev = archive_entry_dev(e);
		p->last_ino = archive_entry_ino64(e);
	}
	return 1;
}

void ds_payload_free(struct ds_payload *p)
{
	if (p->a)
		archive_read_free(p->a);
	if (p->have_spill)
		close(p->spill);
	for (size_t i = 0; i < p->npending; i++)
		free(p->pending[i].path);
	free(p->pending);
	free(p->path);
	free(p->user);
	free(p->group);
	free(p->buf);
	memset(p, 0, sizeof *p);
}
