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
		ds_error_set(&p->why, DS_ERR_LIMIT, "member of %lld bytes, over the %u MiB limit: not scanned",
		             (long long)size, DS_MEMBER_MAX >> 20);
		m->unreadable = p->why.msg;
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
			ds_error_set(&p->why, DS_ERR_PARSE, "%s", n < 0 ? src->why(src->ctx) : "truncated payload");
			m->unreadable = p->why.msg;
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
		ds_error_set(&p->why, DS_ERR_PARSE, "%s",
		             why ? why : got < 0 ? strerror(errno) : "truncated payload");
		m->unreadable = p->why.msg;
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

int ds_payload_budget(struct ds_payload *p, int64_t size, struct ds_error *err)
{
	uint64_t add = size > 0 ? (uint64_t)size : 0;
	/* libarchive's count of the decompressed stream covers headers and
	 * skipped data; rpm's reader (p->a NULL) is counted by member sizes */
	uint64_t used = p->a ? p->read_before + (uint64_t)archive_filter_bytes(p->a, 0)
	                     : p->member_bytes;
	p->member_bytes += add;
	if (!p->max_bytes || (used <= p->max_bytes && add <= p->max_bytes - used))
		return 0;
	p->failed = true;
	return ds_error_set(err, DS_ERR_LIMIT,
	                    "over %llu bytes decompressed (--max-decompressed): the rest is not read",
	                    (unsigned long long)p->max_bytes);
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
 * that tar --xattrs or a build tool packs) makes the member setcap; its
 * value as text in p->caps (m->caps), or "(undecodable)". */
bool ds_payload_caps(struct ds_payload *p, struct archive_entry *e, struct ds_member *m)
{
	const char *name;
	const void *value;
	size_t size;
	archive_entry_xattr_reset(e);
	while (archive_entry_xattr_next(e, &name, &value, &size) == ARCHIVE_OK)
		if (name && !strcmp(name, "security.capability") && size) {
			if (ds_caps_text(value, size, p->caps, sizeof p->caps) != 0)
				snprintf(p->caps, sizeof p->caps, "(undecodable)");
			m->caps = p->caps;
			return true;
		}
	return false;
}

/* The next member's header: the one the backend peeked at first. */
static int next_header(struct ds_payload *p, struct archive_entry **e)
{
	if (!p->peeked)
		return archive_read_next_header(p->a, e);
	*e = p->peeked;
	p->peeked = NULL;
	return ARCHIVE_OK;
}

/* A tar hard link handed out without the data (a context reading that
 * does not want it, a link to something other than a regular file). */
static void link_no_data(struct ds_payload *p, struct ds_member *m, char *target)
{
	free(p->link_path);
	p->link_path = target;
	m->hardlink = target;
}

static int cmp_link(const void *a, const void *b)
{
	const struct ds_tar_link *x = a, *y = b;
	return x->data_at < y->data_at ? -1 : x->data_at > y->data_at;
}

/* A tar hard link ('h', no data of its own): kept for the second reading
 * when its data is wanted; 1 when handed out at once in m. */
static int tar_link(struct ds_payload *p, struct archive_entry *e, struct ds_member *m)
{
	char *target = member_path(archive_entry_hardlink(e));
	uintptr_t *at = ds_strmap_get(p->data_at, target);
	/* the link is the file it names: libarchive gives no file type */
	if (at && *at == UINTPTR_MAX) {
		link_no_data(p, m, target);
		return 1;
	}
	m->mode = S_IFREG | (m->mode & 07777);
	if (p->want && !p->want(p->path, p->want_ctx)) {
		link_no_data(p, m, target);
		return 1;
	}
	struct ds_tar_link l = {
		ds_xstrdup(p->path), target, p->user ? ds_xstrdup(p->user) : NULL,
		p->group ? ds_xstrdup(p->group) : NULL, m->mode, m->uid, m->gid, m->has_caps,
		m->caps ? ds_xstrdup(m->caps) : NULL,
		at ? *at : 0,
	};
	/* a link to this name later gets the same data (tar links name the
	 * first name of a set, but a hostile one may chain them) */
	*ds_strmap_put(p->data_at, p->path) = l.data_at;
	ds_push(p->links, p->nlinks, p->links_cap, l);
	return 0;
}

/* The link l handed out without data: why. */
static void link_unreadable(struct ds_payload *p, const struct ds_tar_link *l, struct ds_member *m,
                            const char *why)
{
	if (l->data_at)
		ds_error_set(&p->why, DS_ERR_PARSE, "hard link to %s: %s", l->target, why);
	else
		ds_error_set(&p->why, DS_ERR_PARSE,
		             "hard link to %s, which no earlier member of the archive is: dpkg cannot "
		             "install it", l->target);
	m->unreadable = p->why.msg;
}

/* The second reading: each kept link with its target's data, read once
 * per target from the archive reopened. */
static int next_tar_link(struct ds_payload *p, struct ds_member *m)
{
	for (;;) {
		if (p->next_link == p->nlinks) {
			p->pass = 2;
			return 0;
		}
		const struct ds_tar_link *l = &p->links[p->next_link];
		*m = (struct ds_member){ .path = l->path, .mode = l->mode, .uid = l->uid, .gid = l->gid,
		                         .user = l->user, .group = l->group, .has_caps = l->has_caps,
		                         .caps = l->caps,
		                         .hardlink = l->target, .fd = -1 };
		if (!l->data_at || !p->a) {
			link_unreadable(p, l, m, "the archive could not be read a second time");
			p->next_link++;
			return 1;
		}
		if (p->have_last && p->entry == l->data_at) {
			m->data = p->last.data;
			m->size = p->last.size;
			m->in_file = p->last.in_file;
			m->fd = p->last.fd;
			m->unreadable = p->last.unreadable;
			p->next_link++;
			return 1;
		}
		p->have_last = false;
		struct archive_entry *e;
		struct ds_error over = DS_ERROR_INIT;
		while (p->entry < l->data_at && next_header(p, &e) >= ARCHIVE_WARN &&
		       ds_payload_budget(p, archive_entry_size(e), &over) == 0)
			p->entry++;
		if (over.msg) {
			archive_read_free(p->a);
			p->a = NULL;   /* the links left: "could not be read a second time" */
			link_unreadable(p, l, m, over.msg);
			ds_error_clear(&over);
			p->next_link++;
			return 1;
		}
		if (p->entry != l->data_at) {
			archive_read_free(p->a);
			p->a = NULL;   /* every link left gets the reason */
			continue;
		}
		p->last = (struct ds_member){ .fd = -1 };
		const struct ds_member_source src = {
			archive_source_read, archive_source_skip, archive_source_why, p->a,
		};
		if (ds_member_read(p, &p->last, archive_entry_size(e), &src) != 0) {
			archive_read_free(p->a);
			p->a = NULL;
		}
		p->have_last = true;
	}
}

/* After the first reading: the kept links, if any, from a second. */
static int start_tar_links(struct ds_payload *p, struct ds_member *m)
{
	if (p->pass == 0) {
		p->pass = 1;
		p->have_last = false;
		p->entry = 0;
		if (p->a)   /* the second reading counts on from the first */
			p->read_before += (uint64_t)archive_filter_bytes(p->a, 0);
		archive_read_free(p->a);
		p->a = NULL;
		if (!p->nlinks) {
			p->pass = 2;
			return 0;
		}
		if (p->reopen && !p->failed)
			p->a = p->reopen(p->reopen_ctx);
		qsort(p->links, p->nlinks, sizeof *p->links, cmp_link);
	}
	return p->pass == 1 ? next_tar_link(p, m) : 0;
}

int ds_payload_next(struct ds_payload *p, struct ds_member *m, struct ds_error *err)
{
	if (p->pass)
		return start_tar_links(p, m);
	if (p->have_last && next_link_name(p, m))
		return 1;
	p->have_last = false;
	if (p->failed)
		return flush_pending(p, m) ? 1 : start_tar_links(p, m);
	if (!p->data_at)
		p->data_at = ds_strmap_new();
	struct archive_entry *e;
	for (;;) {
		int r = next_header(p, &e);
		if (r == ARCHIVE_EOF)
			return flush_pending(p, m) ? 1 : start_tar_links(p, m);
		if (r < ARCHIVE_WARN)
			return ds_error_set(err, DS_ERR_PARSE, "%s", ds_archive_why(p->a));
		if (ds_payload_budget(p, archive_entry_size(e), err) != 0)
			return -1;
		p->entry++;
		if (S_ISREG(archive_entry_mode(e)) && is_waiting_link(e)) {
			struct ds_link_name l = {
				member_path(archive_entry_pathname(e) ? archive_entry_pathname(e) : ""),
				archive_entry_mode(e), (unsigned)archive_entry_uid(e),
				(unsigned)archive_entry_gid(e), archive_entry_dev(e), archive_entry_ino64(e),
			};
			ds_push(p->pending, p->npending, p->pending_cap, l);
			continue;
		}
		free(p->path);
		p->path = member_path(archive_entry_pathname(e) ? archive_entry_pathname(e) : "");
		/* the archive's owner names (a .deb's tar: Debian's static ids
		 * have fixed names), judged against the root's accounts, never
		 * the host's name for the number */
		free(p->user);
		free(p->group);
		p->user = ds_field_dup(archive_entry_uname(e));
		p->group = ds_field_dup(archive_entry_gname(e));
		*m = (struct ds_member){ .path = p->path, .mode = archive_entry_mode(e),
		                         .uid = (unsigned)archive_entry_uid(e),
		                         .gid = (unsigned)archive_entry_gid(e), .fd = -1,
		                         .user = p->user, .group = p->group,
		                         .symlink = archive_entry_symlink(e) };
		m->has_caps = ds_payload_caps(p, e, m);
		/* A tar hard link (size 0) names an earlier member: handed out
		 * with that member's data after the first reading.  A cpio one
		 * carries the group's data (size > 0). */
		if (!archive_entry_hardlink(e) || archive_entry_size(e) != 0)
			break;
		if (tar_link(p, e, m))
			return 1;
	}
	*ds_strmap_put(p->data_at, p->path) = S_ISREG(m->mode) ? p->entry : UINTPTR_MAX;
	if (!S_ISREG(m->mode))
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
	ds_error_clear(&p->why);
	if (p->a)
		archive_read_free(p->a);
	if (p->have_spill)
		close(p->spill);
	for (size_t i = 0; i < p->npending; i++)
		free(p->pending[i].path);
	free(p->pending);
	for (size_t i = 0; i < p->nlinks; i++) {
		free(p->links[i].path);
		free(p->links[i].target);
		free(p->links[i].user);
		free(p->links[i].group);
		free(p->links[i].caps);
	}
	free(p->links);
	ds_strmap_free(p->data_at);
	free(p->link_path);
	free(p->path);
	free(p->user);
	free(p->group);
	free(p->buf);
	memset(p, 0, sizeof *p);
}

unsigned char *ds_member_text(struct archive *a, struct archive_entry *e, size_t max, size_t *len,
                              struct ds_error *err)
{
	int64_t size = archive_entry_size(e);
	if (size < 0 || (uint64_t)size > max) {
		ds_error_set(err, DS_ERR_LIMIT, "control member of %lld bytes, over the %zu MiB limit: not scanned",
		             (long long)size, max >> 20);
		return NULL;
	}
	unsigned char *text = ds_xmalloc((size_t)size + 1);
	size_t got = 0;
	la_ssize_t n = 1;
	/* archive_read_data may return less than asked (a block at a time) */
	while (got < (size_t)size && (n = archive_read_data(a, text + got, (size_t)size - got)) > 0)
		got += (size_t)n;
	if (n < 0 || got != (size_t)size) {
		ds_error_set(err, DS_ERR_PARSE, "%s", n < 0 ? ds_archive_why(a) : "truncated control member");
		free(text);
		return NULL;
	}
	text[got] = '\0';
	*len = got;
	return text;
}

void ds_member_script(struct ds_member *m, const char *path, const unsigned char *text, size_t len,
                      const char *why, const char *interpreter)
{
	*m = (struct ds_member){ .path = path, .mode = S_IFREG | 0755, .data = text, .size = len,
	                         .fd = -1, .script = true, .interpreter = interpreter,
	                         .unreadable = text ? NULL : why };
}
