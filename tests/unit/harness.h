/* Test helpers: fixture paths, temporary roots, scans through the real core. */
#ifndef DS_TEST_HARNESS_H
#define DS_TEST_HARNESS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <sys/types.h>

#include "internal.h"

/* $FIXTURES/name (static buffer). */
const char *fixture(const char *name);
/* A fresh temporary directory; rm_rf() removes it. */
char *make_root(void);
void rm_rf(const char *dir);
/* Copies host file src to root/rel (parents created) with mode. */
void copy_into(const char *root, const char *src, const char *rel, mode_t mode);
void write_into(const char *root, const char *rel, const char *text, mode_t mode);
/* Scans root with backend none and -j1 (checks: comma list, NULL = all). */
struct ds_scan *scan_root(const char *root, const char *checks);
/* The same with N worker threads. */
struct ds_scan *scan_root_jobs(const char *root, const char *checks, int jobs);
void scan_done(struct ds_scan *s);
/* A test group's teardown: scan_done(*s), the root removed; returns 0. */
int scan_and_root_done(struct ds_scan **s, char **root);
/* The one non-pass finding of check on path, or NULL. */
const struct ds_finding *finding_of(const struct ds_scan *s, const char *path,
                                    const char *check);
/* Any record (pass included) of check on path, or NULL. */
const struct ds_finding *record_of(const struct ds_scan *s, const char *path,
                                   const char *check);
/* The record of check on path, failing the test unless it has severity sev. */
const struct ds_finding *must_record(const struct ds_scan *s, const char *path,
                                     const char *check, enum ds_severity sev);
size_t count_findings(const struct ds_scan *s, const char *check);
const char *detail_str(const struct ds_finding *d, const char *key);
int detail_bool(const struct ds_finding *d, const char *key);
/* Reads a whole host file (caller frees). */
unsigned char *slurp(const char *path, size_t *len);

#endif
