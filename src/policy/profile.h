/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Profiles (profile.c): a distribution's policy over the findings. */
#ifndef DISTSEC_PROFILE_H
#define DISTSEC_PROFILE_H

#include <stdio.h>

#include "distsec/error.h"
#include "distsec/finding.h"

struct ds_profile;

/* A NAME (no '/': profiles/NAME in the data directories) or a FILE.
 * NULL with the reason in err. */
struct ds_profile *ds_profile_load(const char *spec, struct ds_error *err);
/* Parses an open profile; path names it in err.  NULL on a bad line. */
struct ds_profile *ds_profile_parse(FILE *fp, const char *name, const char *path,
                                    struct ds_error *err);
void ds_profile_free(struct ds_profile *p);
const char *ds_profile_name(const struct ds_profile *p);
const char *ds_profile_description(const struct ds_profile *p);
const char *ds_profile_path(const struct ds_profile *p);
/* Re-grades d by the profile's severities; returns the reason of the
 * first waiver that matches it, or NULL.  Passes are left alone. */
const char *ds_profile_judge(const struct ds_profile *p, struct ds_finding *d);
/* The merged-/usr spelling of a package's path (/bin/sh -> /usr/bin/sh)
 * when the profile's distribution has merged its first directory; else
 * NULL.  Caller frees. */
char *ds_profile_merged_path(const struct ds_profile *p, const char *path);
/* The profile's "list CHECK NAME" (NULL-terminated), or NULL when it
 * gives none (the check keeps its own). */
const char *const *ds_profile_list(const struct ds_profile *p, const char *check,
                                   const char *name);
/* `distsec profiles`: each profile found, its description, the backends
 * that pick it, its file.  -1 (and where it looked) when there are none. */
int ds_profiles_list(FILE *out);

#endif
