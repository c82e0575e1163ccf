/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-tmp-name (the ELF /tmp script): a fixed "/tmp/..." or "/var/tmp/..."
 * file name is one an attacker can pre-create.
 *
 * Strings are read from the read-only data sections (ds_elf_strings_at,
 * 64 KiB pread chunks).  Not file names, dropped: mkstemp templates (XX),
 * "/tmp/" alone, prose and messages (a space, '=' or a newline in the
 * string, "/tmp/" after ' ', '.', ',', ':' or '='), socket and IPC names
 * (X11/ICE/XIM "-unix" directories, ".sock", "socket", "unix:"), the X
 * display lock "/tmp/.X%d-lock" (mutter, wlroots), over-long
 * runs (Go/Rust string blobs).  Build paths (__FILE__ of a build done
 * under /tmp, source suffixes, /home/ and /build/) go to
 * details.build_paths, an info finding alone.
 *
 * With a decoder for the machine (include/distsec/disasm.h) a candidate is
 * reported only when its address is loaded as the path argument of a
 * file-creating call (open, fopen, creat, mkdir, unlink, rename, ... ,
 * the fortified __open_2 too), or as the format of a sprintf-family call
 * in a function that also calls one ("/tmp/.nstat.u%d": a uid or pid is
 * no secret), unless that function also calls bind and, of the file
 * calls, only unlink, remove, chmod or chown: the name is a unix socket's (wpa_ctrl's "/tmp/wpa_ctrl_%d-%d"; bind fails on an existing
 * name, it follows no link) -- details.method "disassembly".  Without
 * one, every candidate is reported (details.method "imports").  A file
 * importing mkstemp is judged like any other: it may still use other
 * fixed names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distsec/check.h"
#include "distsec/disasm.h"
#include "distsec/elfview.h"
#include "distsec/util.h"

#define MAX_LISTED 5
#define MAX_CANDS 256
#define MAX_NAME 255

/* File-creating calls and which arguments are paths (bit n = argument n). */
static const struct path_call {
	const char *name;
	unsigned args;
} path_calls[] = {
	{ "open", 1 }, { "open64", 1 }, { "__open_2", 1 }, { "__open64_2", 1 },
	{ "openat", 2 }, { "openat64", 2 }, { "__openat_2", 2 }, { "__openat64_2", 2 },
	{ "fopen", 1 }, { "fopen64", 1 }, { "freopen", 1 }, { "freopen64", 1 },
	{ "creat", 1 }, { "creat64", 1 }, { "mkdir", 1 }, { "mkdirat", 2 },
	{ "mkfifo", 1 }, { "mkfifoat", 2 }, { "mknod", 1 }, { "mknodat", 2 },
	{ "unlink", 1 }, { "unlinkat", 2 }, { "remove", 1 }, { "rmdir", 1 },
	{ "rename", 3 }, { "renameat", 10 }, { "renameat2", 10 },
	{ "link", 3 }, { "linkat", 10 }, { "symlink", 2 }, { "symlinkat", 4 },
	{ "truncate", 1 }, { "truncate64", 1 }, { "chmod", 1 }, { "chown", 1 }, { "lchown", 1 },
};
#define NPATH_CALLS (sizeof path_calls / sizeof path_calls[0])

/* Calls building a name from a format (argument bit): "/tmp/.nstat.u%d"
 * printed into a buffer by a function that also creates a file is a
 * predictable name too (a uid or pid is no secret). */
static const struct path_call format_calls[] = {
	{ "sprintf", 2 }, { "snprintf", 4 }, { "asprintf", 2 }, { "__sprintf_chk", 8 },
	{ "__snprintf_chk", 16 }, { "__asprintf_chk", 4 }, { "g_strdup_printf", 1 },
};
#define NFORMAT_CALLS (sizeof format_calls / sizeof format_calls[0])
#define MAX_FNS 1024

static const char *const not_names[] = {
	"-unix", ".sock", "socket", "unix:",
	"/tmp/.X%d-lock",   /* the X display lock: a name X fixes, made O_EXCL */
	NULL,
};

static const char *const source_suffixes[] = {
	".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".rs", ".go", ".S",
	".s", ".y", ".l", ".m", ".mm", ".vala", ".inc", NULL,
};

struct cand {
	uint64_t addr;
	size_t len;
	char text[128];
	bool used;
	uint64_t format_fn;   /* a function printing it into a name, or 0 */
};

struct found {
	struct cand c[MAX_CANDS];
	size_t nc;
	bool too_many;
	const char *build[MAX_LISTED];
	char buildbuf[MAX_LISTED][128];
	size_t nbuild;
	uint64_t file_fns[MAX_FNS];   /* functions calling a file-creating call */
	size_t nfile_fns;
	uint64_t bind_fns[MAX_FNS];   /* functions calling bind */
	size_t nbind_fns;
	uint64_t make_fns[MAX_FNS];   /* functions calling one that opens or makes a file */
	size_t nmake_fns;
};

/* File calls a socket's name also gets: a stale one removed, its mode set. */
static const char *const socket_ok[] = { "unlink", "unlinkat", "remove", "chmod", "chown", "lchown", NULL };

static void add_fn(uint64_t *v, size_t *n, uint64_t fn)
{
	if (*n < MAX_FNS && (!*n || v[*n - 1] != fn))
		v[(*n)++] = fn;
}

static bool has_fn(const uint64_t *v, size_t n, uint64_t fn)
{
	for (size_t i = 0; fn && i < n; i++)
		if (v[i] == fn)
			return true;
	return false;
}

static bool has_suffix(const char *s, size_t len, const char *suf)
{
	size_t n = strlen(suf);
	return len >= n && strcmp(s + len - n, suf) == 0;
}

static bool build_path(const char *s, size_t len)
{
	if (strchr(s, '%'))
		return false;
	if (strncmp(s, "/home/", 6) == 0 || strncmp(s, "/build/", 7) == 0)
		return true;
	for (size_t i = 0; source_suffixes[i]; i++)
		if (has_suffix(s, len, source_suffixes[i]))
			return true;
	return false;
}

/* A string that could name a file under /tmp. */
static bool tmp_candidate(const char *s, size_t len)
{
	if (len > MAX_NAME || strstr(s, "XX") || has_suffix(s, len, "/tmp/") ||
	    strpbrk(s, " \t\n="))
		return false;
	for (size_t i = 0; not_names[i]; i++)
		if (strstr(s, not_names[i]))
			return false;
	for (const char *p = strstr(s, "/tmp/"); p; p = strstr(p + 1, "/tmp/"))
		if (p == s || !strchr(" .,:=", p[-1]))
			return true;
	return false;
}

static void keep_build(struct found *fd, const char *s)
{
	if (fd->nbuild < MAX_LISTED) {
		snprintf(fd->buildbuf[fd->nbuild], sizeof fd->buildbuf[0], "%s", s);
		fd->build[fd->nbuild] = fd->buildbuf[fd->nbuild];
	}
	fd->nbuild++;
}

static int on_string(const char *s, size_t len, uint64_t addr, void *ctx)
{
	struct found *fd = ctx;
	if ((strstr(s, "/tmp/") || strncmp(s, "/home/", 6) == 0 || strncmp(s, "/build/", 7) == 0) &&
	    build_path(s, len)) {
		keep_build(fd, s);
	} else if (tmp_candidate(s, len)) {
		if (fd->nc == MAX_CANDS) {
			fd->too_many = true;
			return 0;
		}
		struct cand *c = &fd->c[fd->nc++];
		c->addr = addr;
		c->len = len;
		snprintf(c->text, sizeof c->text, "%s", s);
	}
	return 0;
}

static unsigned args_of(const char *callee, const struct path_call *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(callee, v[i].name) == 0)
			return v[i].args;
	return 0;
}

/* A path argument loaded from a candidate's address (or inside it, where
 * the linker merged a shorter string into a longer one's tail) that
 * starts at "/tmp/" or "/var/tmp/". */
static int on_call(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	(void)c;
	struct found *fd = ctx;
	const char *callee = ds_site_callee(site);
	unsigned args = args_of(callee, path_calls, NPATH_CALLS);
	unsigned fmt = args_of(callee, format_calls, NFORMAT_CALLS);
	uint64_t fn = ds_site_function(site);
	if (strcmp(callee, "bind") == 0) {
		add_fn(fd->bind_fns, &fd->nbind_fns, fn);
		return 0;
	}
	if (args)
		add_fn(fd->file_fns, &fd->nfile_fns, fn);
	bool kept = false;
	for (size_t i = 0; args && socket_ok[i]; i++)
		kept = kept || strcmp(callee, socket_ok[i]) == 0;
	if (args && !kept)
		add_fn(fd->make_fns, &fd->nmake_fns, fn);
	args |= fmt;
	for (unsigned n = 0; n < 6; n++) {
		if (!(args & (1u << n)))
			continue;
		struct ds_argsrc a = ds_site_arg(site, n);
		if (a.kind != DS_SRC_ADDR && a.kind != DS_SRC_CONST)
			continue;
		uint64_t at = (uint64_t)a.value;
		for (size_t i = 0; i < fd->nc; i++) {
			struct cand *k = &fd->c[i];
			if (at < k->addr || at >= k->addr + k->len)
				continue;
			size_t off = (size_t)(at - k->addr);
			const char *p = off < sizeof k->text ? k->text + off : "";
			if (strncmp(p, "/tmp/", 5) != 0 && strncmp(p, "/var/tmp/", 9) != 0)
				continue;
			if (fmt & (1u << n))
				k->format_fn = fn;
			else
				k->used = true;
		}
	}
	return 0;
}

/* Marks the candidates that reach a file call; false without a decoder. */
static bool trace(const struct ds_elfview *v, struct found *fd, const char **why)
{
	const char *names[NPATH_CALLS + NFORMAT_CALLS + 2];
	size_t nn = 0;
	for (size_t i = 0; i < NPATH_CALLS; i++)
		if (ds_elf_imports(v, path_calls[i].name))
			names[nn++] = path_calls[i].name;
	if (!nn)
		return true;   /* no file call imported: nothing reaches one */
	for (size_t i = 0; i < NFORMAT_CALLS; i++)
		if (ds_elf_imports(v, format_calls[i].name))
			names[nn++] = format_calls[i].name;
	if (ds_elf_imports(v, "bind"))
		names[nn++] = "bind";
	names[nn] = NULL;
	struct ds_code *c = ds_code_open(v, why);
	if (!c)
		return false;
	struct ds_range refs[MAX_CANDS];
	for (size_t i = 0; i < fd->nc; i++)
		refs[i] = (struct ds_range){ fd->c[i].addr, fd->c[i].addr + fd->c[i].len };
	int n = ds_code_each_call_ref(c, names, refs, fd->nc, on_call, fd);
	bool capped = ds_code_capped(c);
	ds_code_free(c);
	if (n < 0 || capped) {
		*why = "code too large, read partly";
		return false;
	}
	for (size_t i = 0; i < fd->nc; i++) {
		uint64_t fn = fd->c[i].format_fn;
		/* printed into a socket's name: bound, not opened, there */
		bool sock = has_fn(fd->bind_fns, fd->nbind_fns, fn) && !has_fn(fd->make_fns, fd->nmake_fns, fn);
		if (!sock && has_fn(fd->file_fns, fd->nfile_fns, fn))
			fd->c[i].used = true;
	}
	return true;
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v)
		return;
	struct found *fd = ds_xcalloc(1, sizeof *fd);
	ds_elf_strings_at(v, 6, '/', on_string, fd);
	const char *why = NULL;
	bool decoded = !fd->nc || trace(v, fd, &why);
	const char *listed[MAX_LISTED];
	size_t ntmp = 0;
	for (size_t i = 0; i < fd->nc; i++)
		if (fd->c[i].used || !decoded) {
			if (ntmp < MAX_LISTED)
				listed[ntmp] = fd->c[i].text;
			ntmp++;
		}
	if (ntmp || fd->nbuild) {
		struct ds_finding *d = ntmp
			? ds_report(f, DS_SEV_WARNING, "uses %zu fixed name%s under /tmp%s: %s",
			            ntmp, ntmp > 1 ? "s" : "",
			            decoded ? " as file names" : "", listed[0])
			: ds_report(f, DS_SEV_INFO, "carries %zu build-machine path%s: %s",
			            fd->nbuild, fd->nbuild > 1 ? "s" : "", fd->build[0]);
		for (size_t i = 0; i < ntmp && i < MAX_LISTED; i++)
			ds_detail_append(d, "tmp_strings", listed[i]);
		for (size_t i = 0; i < fd->nbuild && i < MAX_LISTED; i++)
			ds_detail_append(d, "build_paths", fd->build[i]);
		if (ntmp) {
			ds_detail_str(d, "method", decoded ? "disassembly" : "imports");
			if (why)
				ds_detail_str(d, "no_disassembly", why);
		}
	}
	free(fd);
}

const struct ds_check ds_check_elf_tmp_name = {
	.id = "elf-tmp-name",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_ELF,
	.summary = "fixed /tmp names used as file names (passed to open, fopen, mkdir, ...)",
	.help = {
		.what = "A fixed name under /tmp or /var/tmp lets another local user pre-create the "
		  "file or a symlink there, and so read or clobber what the program writes.",
		.detect = "On the disassembled code (capstone): literal \"/tmp/...\" and "
		  "\"/var/tmp/...\" strings passed as the file name to open, fopen, mkdir and "
		  "friends. Build-machine paths are listed as info.",
		.limits = "Names built at run time (sprintf into a buffer) are not followed.",
		.fix = "Use mkstemp(3)/mkdtemp(3), or $XDG_RUNTIME_DIR, instead of a fixed name.",
	},
	.least = DS_SEV_INFO,
	.severity_policy = "warning for fixed /tmp names; info for build-machine paths",
	.cwe = 377,
	.precision = "low",
	.run = run,
};
