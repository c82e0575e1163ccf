/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files of the scanned root handed to a library (libdpkg, libapt-pkg,
 * libselinux, the account files): opened below the root with every
 * symlink resolved inside it (as if the root were "/"), never blocking
 * (O_NONBLOCK: a FIFO there must not hang the scan), and only when fstat
 * says a regular file no larger than the caller's cap.  Linked into the
 * program and into every loadable backend.
 */
#ifndef DISTSEC_ROOTFILE_H
#define DISTSEC_ROOTFILE_H

#include <stdint.h>
#include <stdio.h>

/* Opens `rel` of the root directory `root` for reading.  Returns a
 * blocking O_RDONLY|O_CLOEXEC fd, or -1 with errno: EINVAL when it is not
 * a regular file, EFBIG when over max bytes, ENOENT, ELOOP... */
int ds_root_open(const char *root, const char *rel, uint64_t max);
/* The same as a stdio stream ("re"). */
FILE *ds_root_fopen(const char *root, const char *rel, uint64_t max);
/* The host path of `rel` with its symlinks resolved inside the root (for
 * a directory a library insists on reading by path), NULL with errno. */
char *ds_root_resolve(const char *root, const char *rel);
/* A message for ds_root_open's errno ("not a regular file (a FIFO?)"). */
const char *ds_root_strerror(int err);

/* pathres.c (fd-based; the core uses these directly) */
int ds_open_beneath(int rootfd, const char *path, int flags);
/* Opens path below the directory dirfd following symlinks only while they
 * stay below it (openat2 RESOLVE_BENEATH: EXDEV for one leading out);
 * without openat2, the same walked one component at a time. */
int ds_open_inside(int dirfd, const char *path, int flags);
/* Canonical absolute path inside the root of `path`, symlinks resolved
 * inside the root (as if the root were /).  NULL with errno on failure. */
char *ds_resolve_in_root(int rootfd, const char *path);
/* "/a//b/./c" → "/a/b/c" (no symlink resolution). */
char *ds_path_normalize(const char *path);

#endif
