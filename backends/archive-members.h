/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Package payloads through libarchive, shared by the backends that read
 * package files: each archive member read into memory as a ds_member.
 */
#ifndef DISTSEC_ARCHIVE_MEMBERS_H
#define DISTSEC_ARCHIVE_MEMBERS_H

#include <archive.h>
#include <stddef.h>

#include "distsec/backend.h"

#define DS_MEMBER_MAX (1024u * 1024u * 1024u)  /* larger members are refused */

struct ds_payload {
	struct archive *a;
	char *path;                /* "/" + the member's name, normalised */
	unsigned char *buf;
	size_t cap;
};

/* Fills m from the next member of p->a (hard links and members that are
 * not regular files come with data NULL); 1, 0 at the end, -1 with err. */
int ds_payload_next(struct ds_payload *p, struct ds_member *m, char *err, size_t errlen);
void ds_payload_free(struct ds_payload *p);
/* libarchive's message for a's last error, never NULL (libarchive leaves
 * it unset for some corrupt headers). */
const char *ds_archive_why(struct archive *a);

#endif
