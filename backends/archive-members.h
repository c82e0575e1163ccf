/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Package payloads through libarchive, shared by the backends that read
 * package files: each archive member handed out as a ds_member, a small
 * one in memory, a large one streamed into an unlinked temporary file.
 */
#ifndef DISTSEC_ARCHIVE_MEMBERS_H
#define DISTSEC_ARCHIVE_MEMBERS_H

#include <archive.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "distsec/backend.h"

#define DS_MEMBER_MAX (1024u * 1024u * 1024u)  /* larger members are skipped and reported */
#define DS_MEMBER_IN_MEMORY (8u * 1024u * 1024u) /* larger ones go to a temporary file */

/* A name of a cpio hard-link group waiting for the member carrying the data. */
struct ds_link_name {
	char *path;
	unsigned mode, uid, gid;
	dev_t dev;
	int64_t ino;
};

/* A tar hard link ('h' entry: a name, no data) waiting for a second
 * reading of the archive to get its target's data. */
struct ds_tar_link {
	char *path, *target;       /* the link's name; the name it links to */
	char *user, *group;
	unsigned mode, uid, gid;
	bool has_caps;
	char *caps;
	size_t data_at;            /* the entry holding the data (1-based); 0: none before it */
};

struct ds_payload {
	struct archive *a;
	char *path;                /* "/" + the member's name, normalised */
	char *user, *group;        /* the member's tar/cpio uname and gname, or NULL */
	unsigned char *buf;
	size_t cap;
	bool have_spill;           /* spill: the temporary file, opened on first need */
	int spill;
	struct ds_error why;       /* the current member's unreadable reason */
	char caps[512];            /* the current member's capabilities as text */
	bool failed;               /* a member's data could not be read: nothing follows */
	struct ds_link_name *pending;  /* names of hard-link groups, data not seen yet */
	size_t npending, pending_cap;
	bool have_last;
	struct ds_member last;     /* the data member whose other names are being handed out */
	dev_t last_dev;
	int64_t last_ino;
	/* When set, a regular member whose path want() refuses is not read:
	 * it comes with data NULL (ds_backend.pkgfile_want). */
	int (*want)(const char *path, void *ctx);
	void *want_ctx;
	/* When set, the header of the next member, already read by the
	 * backend (an .apk's control members come first in the same tar and
	 * the backend reads up to the first payload member). */
	struct archive_entry *peeked;
	/* Tar hard links: each is handed out with its target's data, read
	 * again from the archive reopen() gives (the same payload from its
	 * start) after the first reading ends.  Without reopen, or when it
	 * fails, they come unreadable. */
	struct archive *(*reopen)(void *ctx);
	void *reopen_ctx;
	struct ds_strmap *data_at; /* a name -> the last entry with its data (1-based) */
	size_t entry;              /* entries read in this reading */
	struct ds_tar_link *links; /* sorted by data_at for the second reading */
	size_t nlinks, links_cap, next_link;
	int pass;                  /* 0: first reading, 1: second, 2: done */
	char *link_path;           /* the current link's target, kept for m->hardlink */
	/* The most payload bytes decompressed (read or skipped, headers
	 * included where libarchive counts them) before the reading stops
	 * with an error (ds_backend.pkgfile_limit); 0: no limit. */
	uint64_t max_bytes;
	uint64_t member_bytes;     /* sizes of the members passed so far */
	uint64_t read_before;      /* decompressed by the first reading, for the second */
};

/* With p->a set and everything else zero: fills m from the next member of p->a (members that are not regular
 * files come with data NULL; a regular file that could not be read with
 * m->unreadable set, and the reading goes on when it can); 1, 0 at the
 * end, -1 with err. */
int ds_payload_next(struct ds_payload *p, struct ds_member *m, struct ds_error *err);
void ds_payload_free(struct ds_payload *p);

/* Where a member's data comes from: libarchive, or rpm's own archive
 * reader (backends/rpm.c).  read: bytes, 0 at the end, -1 on an error;
 * skip (may be NULL): pass over the data; why: the error, or NULL. */
struct ds_member_source {
	ssize_t (*read)(void *ctx, void *buf, size_t len);
	int (*skip)(void *ctx);
	const char *(*why)(void *ctx);
	void *ctx;
};
/* Reads a regular member's size bytes from src into m (memory, or the
 * payload's temporary file when large; over DS_MEMBER_MAX skipped with
 * m->unreadable set), using p's buffers (p->a may be NULL).  -1 when the
 * source broke under it (m->unreadable says why). */
int ds_member_read(struct ds_payload *p, struct ds_member *m, int64_t size,
                   const struct ds_member_source *src);
/* Before a member of size bytes is read or skipped: 0, or -1 with err
 * when it would take the payload past p->max_bytes (nothing after it is
 * read then). */
int ds_payload_budget(struct ds_payload *p, int64_t size, struct ds_error *err);
/* The whole text of the member whose header e was just read (a package's
 * control file or script), NUL-terminated; NULL with the reason in err
 * when it is over max bytes (DS_ERR_LIMIT) or cannot be read. */
unsigned char *ds_member_text(struct archive *a, struct archive_entry *e, size_t max, size_t *len,
                              struct ds_error *err);
/* Fills m with a script the package manager runs (struct ds_member's
 * script): path as its users name it, text (NULL: unreadable for why),
 * interpreter NULL when its own #! line says. */
void ds_member_script(struct ds_member *m, const char *path, const unsigned char *text, size_t len,
                      const char *why, const char *interpreter);
/* Whether the entry e carries file capabilities (a tar's
 * SCHILY.xattr.security.capability): m->caps set to them as text (in p's
 * buffer), or "(undecodable)". */
bool ds_payload_caps(struct ds_payload *p, struct archive_entry *e, struct ds_member *m);
/* libarchive's message for a's last error, never NULL (libarchive leaves
 * it unset for some corrupt headers). */
const char *ds_archive_why(struct archive *a);

#endif
