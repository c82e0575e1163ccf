/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dpkg backend's probe: what a root's status file says, read cheaply. */
#ifndef DISTSEC_DPKG_STATUS_H
#define DISTSEC_DPKG_STATUS_H

#include <stdbool.h>
#include <stddef.h>

#include "distsec/error.h"

struct ds_dpkg_status {
	size_t installed;   /* packages dpkg lists files of */
	bool owns_bin_sh;   /* an Essential package's file list names bin/sh */
};

/* 0, or -1 with err set when var/lib/dpkg/status cannot be read. */
int ds_dpkg_status_probe(const char *root, struct ds_dpkg_status *out, struct ds_error *err);

#endif
