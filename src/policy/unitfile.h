/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * systemd unit files read as systemd reads them, for one question: which
 * programs does a service keep running?  A pure function of the unit's
 * name and texts (the unit file, then its drop-ins in order): no file is
 * opened here, so a root (daemons.c) and a package file can both use it.
 */
#ifndef DISTSEC_UNITFILE_H
#define DISTSEC_UNITFILE_H

#include <stddef.h>

struct ds_unit;

/* name: the unit's file name ("foo.service", "getty@.service"). */
struct ds_unit *ds_unit_new(const char *name);
/* Reads one text into the unit: the unit file first, then each drop-in
 * (NAME.service.d/ *.conf) in the order systemd applies them.  Later texts
 * override Type= and reset or extend ExecStart= as systemd does. */
void ds_unit_read(struct ds_unit *u, const char *text, size_t len);
/* The programs the unit keeps running: the ExecStart= paths of a service
 * that is not Type=oneshot (prefixes @ - : + ! !! stripped, an "@"'s argv[0]
 * skipped, quotes removed).  A path is absolute, or a bare name systemd
 * looks up in its fixed search path (ds_unit_search_path).  Other unit
 * types and oneshot services give none.  Valid until ds_unit_free. */
size_t ds_unit_daemons(const struct ds_unit *u, const char *const **programs);
void ds_unit_free(struct ds_unit *u);

/* Where systemd looks for a bare ExecStart= name, in order; NULL-ended. */
extern const char *const ds_unit_search_path[];

#endif
