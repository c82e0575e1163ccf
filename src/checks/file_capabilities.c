/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file-capabilities (rpminspect's capabilities inspection): a file
 * carrying file capabilities runs with those privileges whoever starts
 * it.  The value is shown in every output so a reviewer (and diff) sees
 * it.  Info for capabilities a network or real-time program is commonly
 * given (an allow-list); a warning for any other, which are root in all
 * but name (cap_sys_admin, cap_dac_override, cap_setuid ...).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "distsec/check.h"

/* Narrow ones: each grants one kind of act and no way to gain the others;
 * a profile's "list file-capabilities allowed CAP..." replaces them. */
static const char *const allowed_default[] = {
	"cap_net_bind_service", "cap_net_raw", "cap_net_admin", "cap_sys_nice", "cap_ipc_lock",
	NULL,
};

static bool is_allowed(const char *const *allowed, const char *cap, size_t len)
{
	for (const char *const *a = allowed; *a; a++)
		if (strlen(*a) == len && !strncmp(*a, cap, len))
			return true;
	return false;
}

/* The first capability of the text outside the allow-list, in out, or false. */
static bool outside(const char *const *allowed, const char *caps, char *out, size_t outlen)
{
	for (const char *p = caps; *p;) {
		size_t n = strcspn(p, ",=+ ");
		if (n && !is_allowed(allowed, p, n)) {
			snprintf(out, outlen, "%.*s", (int)n, p);
			return true;
		}
		p += n;
		/* skip the flags after '=' or '+' up to the next list */
		if (*p == '=' || *p == '+')
			p += strcspn(p, " ");
		if (*p)
			p++;
	}
	return false;
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	char buf[512], first[64];
	const char *caps = ds_file_caps(f, buf, sizeof buf);
	if (!caps)
		return;
	const char *const *allowed = ds_file_list(f, "file-capabilities", "allowed");
	bool wide = outside(allowed ? allowed : allowed_default, caps, first, sizeof first);
	struct ds_finding *d = wide
		? ds_report(f, DS_SEV_WARNING, "file capabilities %s: %s is outside the allow-list",
		            caps, first)
		: ds_report(f, DS_SEV_INFO, "file capabilities %s", caps);
	ds_detail_str(d, "capabilities", caps);
	if (wide)
		ds_detail_str(d, "outside_allow_list", first);
}

const struct ds_check ds_check_file_capabilities = {
	.id = "file-capabilities",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_REGULAR,
	.summary = "file carrying file capabilities (warning outside cap_net_bind_service, cap_net_raw, "
	  "cap_net_admin, cap_sys_nice, cap_ipc_lock)",
	.help = {
		.what = "File capabilities give a program privileges whoever runs it, like a setuid bit "
		  "with a narrower grant; most capabilities (cap_sys_admin, cap_dac_override, "
		  "cap_setuid, cap_sys_module ...) lead to full root.",
		.detect = "The security.capability xattr of a file in a tree, a package's rpm %caps or "
		  "tar SCHILY.xattr.security.capability, decoded to text (cap_net_raw=ep) and shown in "
		  "the message and details.capabilities. The allow-list: cap_net_bind_service, "
		  "cap_net_raw, cap_net_admin, cap_sys_nice, cap_ipc_lock; cap_setuid and cap_setgid "
		  "are not on it (they become any user).",
		.limits = "Capabilities set at install time by a maintainer script (setcap in "
		  "postinst) are not in the package file. The allow-list is the profile's (list "
		  "file-capabilities allowed CAP...; the shipped profiles give the one above), and a "
		  "profile re-grades the check or waives a path.",
		.fix = "Grant only what the program needs (often cap_net_bind_service alone), or run "
		  "it as a service with AmbientCapabilities= instead of a file capability.",
	},
	.least = DS_SEV_INFO,
	.severity_policy = "info for capabilities on the allow-list; warning for any other",
	.cwe = 250,
	.precision = "high",
	.facts = (const struct ds_fact[]){
		{ .what = "file capabilities", .key = "capabilities", .type = DS_FACT_TEXT,
		  .privilege = DS_PRIV_CAPS },
		{ 0 },
	},
	.run = run,
};
