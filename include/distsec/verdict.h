/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rpm-chksec's per-package verdict (docs/DESIGN.md, "Package verdict"):
 * RELRO yes/partial/no, PIE yes/no and the worst class that made it so,
 * per package keyed NAME.ARCH, computed from the records whose facts
 * their checks declare as the verdict's inputs (check.h, ds_fact).  Shared by the JSON summary and --summary.
 */
#ifndef DISTSEC_VERDICT_H
#define DISTSEC_VERDICT_H

#include <stddef.h>

struct ds_scan;

struct ds_verdict {
	char *package;       /* NAME.ARCH (NAME-VERSION.ARCH when two versions are scanned) */
	const char *relro;   /* "yes", "partial" (rpm-chksec --all: yes), "no" */
	const char *pie;     /* "yes", "no" */
	const char *cls;     /* worst class behind a "no"/"partial", else NULL */
};

/* The verdicts of s's packages, sorted by package; their number. */
size_t ds_verdicts(const struct ds_scan *s, struct ds_verdict **out);
void ds_verdicts_free(struct ds_verdict *v, size_t n);

#endif
