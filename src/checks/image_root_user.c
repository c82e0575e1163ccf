/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * image-root-user: a container image whose config names no User, or
 * root (0), runs its program as root: whatever breaks into it holds the
 * container's root, one kernel bug from the host's.  Reported on the
 * program the config's Entrypoint (else Cmd) runs, found in the image;
 * on the image's root when the command names no file of it.  Any scan
 * but an image's has nothing to say.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "distsec/check.h"
#include "distsec/scan.h"
#include "distsec/util.h"

extern const struct ds_check ds_check_image_root_user;

struct state {
	bool root;                 /* the image runs as root */
	const char *program;       /* the path its command runs, or NULL */
	const char *user;          /* the config's User, NULL when unset */
	atomic_bool seen;          /* the program was met and reported */
};

/* "", "root", "0", with or without ":GROUP" */
static bool is_root(const char *user)
{
	if (!user)
		return true;
	size_t n = strcspn(user, ":");
	return n == 0 || (n == 4 && !strncmp(user, "root", 4)) || (n == 1 && user[0] == '0');
}

static void *scan_begin(struct ds_scan *s, struct ds_error *err)
{
	(void)err;
	struct state *st = ds_xcalloc(1, sizeof *st);
	if (s->image) {
		st->root = is_root(s->image->user);
		st->program = s->image->program;
		st->user = s->image->user;
	}
	return st;
}

static void describe(struct ds_finding *d, const struct state *st)
{
	if (st->user)
		ds_detail_str(d, "user", st->user);
	ds_detail_bool(d, "user_set", st->user != NULL);
}

static void run(struct ds_file *f, void *state)
{
	struct state *st = state;
	if (!st->root || !st->program || strcmp(f->path, st->program) != 0)
		return;
	atomic_store(&st->seen, true);
	struct ds_finding *d = ds_report(f, DS_SEV_WARNING,
		"the image runs its program as root (its config %s)",
		st->user ? "sets User to root" : "sets no User");
	describe(d, st);
}

static void scan_end(struct ds_scan *s, void *state)
{
	struct state *st = state;
	if (s->image && st->root && !atomic_load(&st->seen)) {
		struct ds_finding *d = ds_scan_report(s, &ds_check_image_root_user, "/", DS_SEV_WARNING,
			"the image runs as root (its config %s)",
			st->user ? "sets User to root" : "sets no User");
		describe(d, st);
	}
	free(st);
}

const struct ds_check ds_check_image_root_user = {
	.id = "image-root-user",
	.severity = DS_SEV_WARNING,
	.by_path = true,
	.applies = DS_ON_REGULAR,
	.summary = "container image whose config runs its program as root (User unset, root or 0)",
	.scan_begin = scan_begin,
	.help = {
		.what = "A container runs its program as the user its image's config names; with none, "
		  "or root, a flaw in the program gives the attacker root in the container, with "
		  "every capability the runtime leaves it, one kernel or runtime bug from the host.",
		.detect = "The config's User: unset, empty, root or 0 (with or without a group). The "
		  "finding is on the program its Entrypoint (else Cmd) runs, found in the image "
		  "through the config's PATH and the image's symbolic links; on / when the command "
		  "names no file of the image. Only images are judged.",
		.limits = "A runtime can override the user (docker run --user, Kubernetes' runAsUser), "
		  "and a program may drop root itself after it starts: neither is visible in the image.",
		.fix = "Create an unprivileged user in the image and name it with USER in the "
		  "Dockerfile (the config's User), or waive the finding with the reason the program "
		  "needs root.",
	},
	.cwe = 250,
	.precision = "high",
	.run = run,
	.scan_end = scan_end,
};
