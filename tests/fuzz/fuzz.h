/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the fuzz targets share: one scan set up once over an empty
 * temporary root (backend none), through which each input is scanned as an
 * in-memory file, exactly as package members are.  Built either with
 * libFuzzer (-Dfuzz=true, clang) or with replay.c's main, which feeds
 * files and directories given as arguments (the regression corpus the
 * test suite replays).
 */
#ifndef DS_FUZZ_H
#define DS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scan with exactly the comma-separated checks enabled (created on
 * first call; later calls return the same scan). */
struct ds_scan *fuzz_scan(const char *checks);
/* As fuzz_scan, with programs' debug files looked up (DESIGN.md, The
 * build's own flags) in two temporary directories laid out as roots, each
 * with an empty usr/lib/debug/.build-id/ and .dwz/: the scan's root
 * (dirs[0]) and its --debug-dir (dirs[1]).  The first call of either
 * function decides which the process's scan is. */
struct ds_scan *fuzz_scan_debug(const char *checks, const char *dirs[2]);
/* Scans data as the file path with mode (S_IFREG|0755 ...). */
void fuzz_member(struct ds_scan *s, const char *path, unsigned mode, const uint8_t *data,
                 size_t size);
/* Drops the findings and package files of the inputs scanned so far. */
void fuzz_reset(struct ds_scan *s);
/* An fd whose file holds data (a memfd), for readers that take paths;
 * its "/proc/self/fd/N" name is written to path. */
int fuzz_memfd(const uint8_t *data, size_t size, char *path, size_t len);

#endif
