/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A private copy of the root's dpkg database for libdpkg, which opens its
 * files by name, blocking, following symlinks (a FIFO there hung the scan;
 * var/lib/dpkg -> /var/lib/dpkg read the host's).  Every file is opened
 * below the root (distsec/rootfile.h) and copied into a new temporary
 * directory: status, diversions, arch, info/format, info/ *.list, updates/ *
 * ($TMPDIR, else /dev/shm when it is a tmpfs with room, else /tmp).
 */
#ifndef DISTSEC_DPKG_COPY_H
#define DISTSEC_DPKG_COPY_H

#include <stddef.h>

#include "distsec/error.h"

/* A new, empty temporary directory (malloc()ed), or NULL with err. */
char *ds_dpkg_private_dir(struct ds_error *err);
/* Copies the root's database into dir (made by ds_dpkg_private_dir);
 * 0, or -1 with err naming the file. */
int ds_dpkg_private_fill(const char *root, const char *dir, struct ds_error *err);
/* Removes the copy and frees dir. */
void ds_dpkg_private_remove(char *dir);

/* libapt-pkg reads var/lib/apt/lists and etc/apt by name: their host
 * paths resolved inside the root (malloc()ed; `absent`, a path that does
 * not exist, for a missing one), and 0 when every entry in them is a
 * plain file or directory; -1 with err when one is not. */
int ds_apt_dirs(const char *root, const char *absent, char **lists, char **etc,
                struct ds_error *err);

#endif
