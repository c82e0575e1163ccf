/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * selinux-dev-label (selinux-check-devices): device nodes under the root's
 * dev/ whose SELinux type differs from what the root's policy
 * (file_contexts of etc/selinux/config's SELINUXTYPE) expects, e.g. a
 * disk left as the generic device_t that confined domains cannot be kept
 * from.  Skipped, once and with the reason, where there is no policy to
 * compare with (SELinux disabled on a live root, no policy in an image).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <selinux/selinux.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "distsec/check.h"
#include "distsec/rootfile.h"
#include "distsec/scan.h"
#include "distsec/util.h"
#include "selinux.h"

extern const struct ds_check ds_check_selinux_dev_label;

static void check_node(struct ds_scan *s, struct selabel_handle *h, const char *rel,
                       mode_t mode)
{
	char *host = ds_path_join(s->root, rel);
	char *label = NULL;
	char want[128];
	const char *path = rel; /* "/dev/..." inside the root */
	if (ds_selinux_get_label(host, &label) < 0 || !label) {
		struct ds_finding *d = ds_scan_report(s, &ds_check_selinux_dev_label, path,
		                                      DS_SEV_WARNING, "device node has no SELinux label");
		ds_detail_str(d, "label", NULL);
	} else if (ds_selinux_compare(h, path, mode, label, want, sizeof want) == 1) {
		char have[128];
		struct ds_finding *d = ds_scan_report(s, &ds_check_selinux_dev_label, path,
			DS_SEV_WARNING, "device node labelled %s, the policy says %s",
			ds_selinux_type(label, have, sizeof have), want);
		ds_detail_str(d, "label", label);
		ds_detail_str(d, "expected_type", want);
	}
	free(label);
	free(host);
}

/* Walks the root's dev/ (device nodes only; no symlink is followed). */
static void walk_dev(struct ds_scan *s, struct selabel_handle *h, const char *rel, int depth)
{
	int fd = openat(s->rootfd, rel + 1, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		char *child = ds_xasprintf("%s/%s", rel, e->d_name);
		if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
			check_node(s, h, child, st.st_mode);
		else if (S_ISDIR(st.st_mode) && depth < 8)
			walk_dev(s, h, child, depth + 1);
		free(child);
	}
	closedir(d);
}

static void scan_end(struct ds_scan *s, void *state)
{
	(void)state;
	bool live = !strcmp(s->root, "/");
	if (live && ds_selinux_enabled() <= 0) {
		ds_scan_skip(s, &ds_check_selinux_dev_label, "SELinux is disabled on this system");
		return;
	}
	int fd;
	errno = 0;
	char *contexts = ds_selinux_contexts_path(s->root, &fd);
	if (!contexts && errno && errno != ENOENT) {
		char *why = ds_xasprintf("the root's SELinux config or file_contexts: %s",
		                         ds_root_strerror(errno));
		ds_scan_skip(s, &ds_check_selinux_dev_label, why);
		free(why);
		return;
	}
	if (!contexts) {
		ds_scan_skip(s, &ds_check_selinux_dev_label,
		             "the root has no SELinux policy (etc/selinux/config and its file_contexts)");
		return;
	}
	struct selinux_opt opt = { SELABEL_OPT_PATH, contexts };
	struct selabel_handle *h = selabel_open(SELABEL_CTX_FILE, &opt, 1);
	close(fd);
	if (!h)
		ds_scan_skip(s, &ds_check_selinux_dev_label, "the root's file_contexts cannot be read");
	else
		walk_dev(s, h, "/dev", 0);
	if (h)
		selabel_close(h);
	free(contexts);
}

const struct ds_check ds_check_selinux_dev_label = {
	.id = "selinux-dev-label",
	.severity = DS_SEV_WARNING,
	.applies = 0,
	.summary = "device node in dev/ whose SELinux type differs from the policy",
	.help = {
		.what = "A device node whose SELinux type differs from what the policy expects (a disk "
		  "left as the generic device_t) cannot be kept from confined domains.",
		.detect = "Labels of the device nodes under dev/ compared with the root's policy "
		  "(file_contexts of etc/selinux/config's SELINUXTYPE).",
		.limits = "Skipped where there is no policy to compare with (SELinux disabled on a live "
		  "root, no policy in an image).",
		.fix = "restorecon the node, or fix the udev rule or file_contexts entry that creates "
		  "it.",
	},
	.cwe = 732,
	.precision = "high",
	.scan_end = scan_end,
};
