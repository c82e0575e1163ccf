/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The C face of the libapt-pkg shim (apt-shim.cc), built as the module
 * apt-shim.so and dlopen()ed by the dpkg backend, so the program
 * itself never links libapt-pkg.  It adds what dpkg's database does not
 * know: where the installed version came from, and the candidate version.
 */
#ifndef DISTSEC_APT_SHIM_H
#define DISTSEC_APT_SHIM_H

#ifdef __cplusplus
extern "C" {
#endif

#define DS_APT_SHIM_FILE "apt-shim.so"
#define DS_APT_SHIM_ENTRY "distsec_apt_shim_entry"
#define DS_APT_SHIM_ABI 3

struct ds_apt;

struct ds_apt_shim {
	unsigned abi;
	/* Reads the apt configuration (etc: the root's etc/apt), lists and
	 * the dpkg status file given, in memory only (no cache file is
	 * written).  NULL with *why set to libapt-pkg's reason, malloc()ed
	 * and whole, when why is not NULL (this C++ module links none of the
	 * program's helpers, struct ds_error's included). */
	struct ds_apt *(*open)(const char *root, const char *status, const char *lists,
	                       const char *etc, char **why);
	/* For an installed package: *origin gets e.g. "Debian/bookworm/main"
	 * (or "local" when only the dpkg status knows the version), *candidate
	 * the version apt would install; both malloc()ed, NULL if unknown. */
	int (*lookup)(struct ds_apt *a, const char *name, const char *arch,
	              char **origin, char **candidate);
	void (*close)(struct ds_apt *a);
};

typedef const struct ds_apt_shim *(*ds_apt_shim_entry_fn)(void);

#ifdef __cplusplus
}
#endif
#endif
