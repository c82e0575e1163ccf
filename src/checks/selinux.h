/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the two SELinux checks share, and the seams the tests use: the
 * label comparison against a file_contexts file, and replaceable readers
 * for a file's label (default lgetfilecon_raw) and whether SELinux runs.
 */
#ifndef DISTSEC_CHECKS_SELINUX_H
#define DISTSEC_CHECKS_SELINUX_H

#include <selinux/label.h>
#include <stdbool.h>
#include <sys/types.h>

struct ds_scan;
struct ds_check;

/* The type field of "user:role:type[:level]" copied to buf ("" if none). */
const char *ds_selinux_type(const char *context, char *buf, size_t len);

/* 1 when the policy expects another type for path (expected written to
 * buf), 0 when it matches, -1 when the policy has no entry for it. */
int ds_selinux_compare(struct selabel_handle *h, const char *path, mode_t mode,
                       const char *actual, char *buf, size_t len);

/* Domains a daemon lands in when no policy module gives it its own. */
bool ds_selinux_unconfined(const char *context);

/* Seams: tests replace these. */
extern int (*ds_selinux_get_label)(const char *path, char **label);
extern int (*ds_selinux_enabled)(void);

/* The root's file_contexts (etc/selinux/config's SELINUXTYPE) as a path
 * for libselinux ("/proc/self/fd/N"; close *fd after selabel_open), or
 * NULL. */
char *ds_selinux_contexts_path(const char *root, int *fd);

#endif
