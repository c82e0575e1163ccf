/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * selinux-unconfined-daemon (selinux-ls-unconfined): running daemons
 * (children of PID 1, or session leaders without a terminal) in a domain
 * that means "no policy for me": initrc_t, unconfined_service_t,
 * unconfined_t.  Reported on the daemon's executable, with its owning
 * package.  Only the live root has processes to look at.
 */
#include <ctype.h>
#include <dirent.h>
#include <selinux/selinux.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "distsec/check.h"
#include "distsec/scan.h"
#include "distsec/util.h"
#include "selinux.h"

extern const struct ds_check ds_check_selinux_unconfined_daemon;

/* ppid, session and tty from /proc/PID/stat; -1 on failure. */
static int read_stat(long pid, long *ppid, long *sid, long *tty)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	FILE *fp = fopen(path, "re");
	if (!fp)
		return -1;
	size_t n = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')'); /* comm may hold spaces and ')' */
	long pgrp;
	char state;
	if (!p || sscanf(p + 1, " %c %ld %ld %ld %ld", &state, ppid, &pgrp, sid, tty) != 5)
		return -1;
	return 0;
}

static void scan_end(struct ds_scan *s, void *state)
{
	(void)state;
	if (strcmp(s->root, "/") != 0) {
		ds_scan_skip(s, &ds_check_selinux_unconfined_daemon,
		             "running processes belong to the live system, not to --root");
		return;
	}
	if (ds_selinux_enabled() <= 0) {
		ds_scan_skip(s, &ds_check_selinux_unconfined_daemon, "SELinux is disabled on this system");
		return;
	}
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		long pid = strtol(e->d_name, NULL, 10), ppid, sid, tty;
		if (pid <= 1 || read_stat(pid, &ppid, &sid, &tty) != 0)
			continue;
		if (ppid != 1 && !(sid == pid && tty == 0))
			continue;
		char *con = NULL;
		if (getpidcon_raw((pid_t)pid, &con) != 0 || !ds_selinux_unconfined(con)) {
			freecon(con);
			continue;
		}
		char link[64], exe[4096];
		snprintf(link, sizeof link, "/proc/%ld/exe", pid);
		ssize_t n = readlink(link, exe, sizeof exe - 1);
		if (n <= 0) {
			freecon(con);
			continue;
		}
		exe[n] = '\0';
		char type[128];
		struct ds_finding *f = ds_scan_report(s, &ds_check_selinux_unconfined_daemon, exe,
			DS_SEV_WARNING, "daemon (pid %ld) runs in %s: no policy confines it", pid,
			ds_selinux_type(con, type, sizeof type));
		ds_detail_int(f, "pid", pid);
		ds_detail_str(f, "context", con);
		freecon(con);
	}
	if (d)
		closedir(d);
}

const struct ds_check ds_check_selinux_unconfined_daemon = {
	.id = "selinux-unconfined-daemon",
	.severity = DS_SEV_WARNING,
	.applies = 0,
	.summary = "running daemon in an unconfined or initrc domain (live root only)",
	.help = {
		.what = "A daemon running in initrc_t, unconfined_service_t or unconfined_t is confined "
		  "by no policy: a compromise gets every right its user has.",
		.detect = "Running daemons (children of PID 1, or session leaders without a terminal) and "
		  "their SELinux domains, reported on the executable with its owning package.",
		.limits = "Only the live root has processes to look at; it is skipped for --root.",
		.fix = "Ship or enable a policy module for the daemon, or label its executable with "
		  "the right exec type.",
	},
	.cwe = 250,
	.precision = "high",
	.scan_end = scan_end,
};
