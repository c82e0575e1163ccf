/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The `apk` backend: Alpine Linux's installed database and .apk files.
 *
 * lib/apk/db/installed is text, one record per package separated by
 * blank lines, a field a line as "K:value" (apk-tools' doc/apk-package.5,
 * "the installed database"): P name, V version, A arch, o origin (the
 * source package), m maintainer; F a directory, R a file in the last F
 * (or in the root before any F), a the last R's "uid:gid:mode", M the
 * last F's.  Unknown keys are skipped, as apk itself does.  There is no
 * library for it (apk-tools' libapk is not packaged for Debian), and the
 * format is a dozen lines of reading.
 *
 * An .apk file is three gzip streams one after the other (signature,
 * control, data), which together read as one tar archive: .SIGN.* and
 * .PKGINFO ("key = value" lines), the install scripts (.pre-install,
 * .post-install, ...), then the payload.  libarchive's gzip filter reads
 * concatenated streams, so the payload members come through the shared
 * reader (archive-members.c) after the control members are taken out.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "archive-members.h"
#include "distsec/backend.h"
#include "distsec/pkgtable.h"
#include "distsec/rootfile.h"
#include "distsec/util.h"

#define DB_PATH "lib/apk/db/installed"
#define DB_MAX (512u << 20)        /* a database larger than this is refused */
#define LINE_MAX_APK (64u << 10)    /* a longer line is a damaged database */
#define PKGINFO_MAX (1u << 20)
#define SCRIPT_MAX (8u << 20)

/* One record being read: the package and the directory R: lines are in. */
struct record {
	struct ds_pkg p;
	char *dir;
	char **files;
	size_t nfiles, cap;
};

static void record_clear(struct record *r)
{
	ds_pkg_free(&r->p);
	free(r->dir);
	for (size_t i = 0; i < r->nfiles; i++)
		free(r->files[i]);
	free(r->files);
	memset(r, 0, sizeof *r);
}

/* The finished record goes into the table (a record without P: is no
 * package: apk writes none such, a damaged database might). */
static void record_end(struct ds_pkgtable *t, struct record *r)
{
	if (r->p.name) {
		if (r->p.version)
			r->p.label = ds_xasprintf("%s-%s", r->p.name, r->p.version);
		ds_pkgid id = ds_pkgtable_add(t, &r->p);
		memset(&r->p, 0, sizeof r->p);   /* the table took the strings */
		for (size_t i = 0; i < r->nfiles; i++)
			ds_pkgtable_add_file(t, id, r->files[i]);
	}
	record_clear(r);
}

static void record_line(struct record *r, char key, const char *val)
{
	char **field = NULL;
	switch (key) {
	case 'P': field = (char **)&r->p.name; break;
	case 'V': field = (char **)&r->p.version; break;
	case 'A': field = (char **)&r->p.arch; break;
	case 'o': field = (char **)&r->p.source; break;
	case 'm': field = (char **)&r->p.maintainer; break;
	case 'F':
		free(r->dir);
		r->dir = ds_xstrdup(val);
		return;
	case 'R': {
		char *path = ds_xasprintf("%s%s/%s", r->dir && *r->dir ? "/" : "", r->dir ? r->dir : "", val);
		char *norm = ds_path_normalize(path);
		free(path);
		if (norm)
			ds_push(r->files, r->nfiles, r->cap, norm);
		return;
	}
	default:
		return;
	}
	free(*field);
	*field = ds_field_dup(val);
}

/* Reads the database into t; 0, or -1 with err. */
static int read_db(FILE *fp, struct ds_pkgtable *t, struct ds_error *err)
{
	struct record r = { 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;
	errno = 0;
	while ((n = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		if ((size_t)n > LINE_MAX_APK) {
			ds_error_set(err, DS_ERR_LIMIT, "%s: line %lu is over %u KiB", DB_PATH, lineno,
			             LINE_MAX_APK >> 10);
			break;
		}
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (n == 0) {
			record_end(t, &r);
			continue;
		}
		if (n >= 2 && line[1] == ':' && !memchr(line, '\0', (size_t)n))
			record_line(&r, line[0], line + 2);
	}
	bool failed = n >= 0 || ferror(fp);
	if (ferror(fp))
		ds_error_errno(err, errno ? errno : EIO, "cannot read %s", DB_PATH);
	free(line);
	if (!failed)
		record_end(t, &r);
	record_clear(&r);
	return failed ? -1 : 0;
}

/* The root's architectures: the one most packages have first (native). */
static void load_arches(struct ds_pkgtable *t)
{
	ds_pkgtable_add_arch(t, ds_pkgtable_common_arch(t, NULL));
	for (size_t i = 0; i < t->npkgs; i++)
		ds_pkgtable_add_arch(t, t->pkgs[i].arch);
}

/* The database, or NULL with err (*open_err: why it could not be opened,
 * 0 when it was). */
static struct ds_pkgtable *load(const char *root, int *open_err, struct ds_error *err)
{
	FILE *fp = ds_root_fopen(root, DB_PATH, DB_MAX);
	*open_err = fp ? 0 : errno;
	if (!fp) {
		ds_error_set(err, DS_ERR_IO, "cannot open %s: %s", DB_PATH, ds_root_strerror(errno));
		return NULL;
	}
	struct ds_pkgtable *t = ds_pkgtable_new();
	int r = read_db(fp, t, err);
	fclose(fp);
	if (r != 0) {
		ds_pkgtable_close(t);
		return NULL;
	}
	load_arches(t);
	return t;
}

static int apk_probe(const char *root, struct ds_probe *out)
{
	memset(out, 0, sizeof *out);
	struct ds_error err = DS_ERROR_INIT;
	int open_err;
	struct ds_pkgtable *t = load(root, &open_err, &err);
	if (!t && open_err == ENOENT) {
		out->detail = ds_xstrdup("no " DB_PATH);
		ds_error_clear(&err);
		return 0;
	}
	if (!t) {
		if (open_err)
			out->detail = ds_xasprintf("cannot read %s: %s", DB_PATH, ds_root_strerror(open_err));
		else
			out->detail = ds_xstrdup(ds_error_msg(&err));
		out->unreadable = 1;
		ds_error_clear(&err);
		return 0;
	}
	ds_pkgtable_probe(t, root, "etc/alpine-release", out);
	out->detail = ds_xasprintf("apk database %s: %zu packages", DB_PATH, t->npkgs);
	ds_pkgtable_close(t);
	return 0;
}

static void *apk_open(const char *root, unsigned flags, void *started, struct ds_error *err)
{
	(void)flags; /* the database names no repository a version came from */
	(void)started; /* no start(): the load is small */
	int open_err;
	return load(root, &open_err, err);
}

/* ---- .apk package files -------------------------------------------- */

static const char *const script_names[] = {
	".pre-install", ".post-install", ".pre-upgrade", ".post-upgrade",
	".pre-deinstall", ".post-deinstall", ".trigger", NULL,
};
#define NSCRIPTS (sizeof script_names / sizeof script_names[0] - 1)

struct apk_file {
	struct ds_pkg pkg;
	struct ds_payload payload;
	struct {
		unsigned char *text;
		size_t len;
		struct ds_error why;   /* with text NULL: unset when the script is not in the package */
	} scripts[NSCRIPTS];
	size_t next_script;
	bool scripts_done;
	bool payload_only;
	bool have_payload;   /* a payload member follows the control part */
	char *path;          /* the .apk, for reading the payload again */
};

/* A gzip stream whose tar's first member is .SIGN.* or .PKGINFO: the head
 * is inflated as far as it goes (a tar header's name is its first bytes). */
static int apk_pkgfile_sniff(const unsigned char *head, size_t len)
{
	if (len < 18 || head[0] != 0x1f || head[1] != 0x8b || head[2] != 8)
		return 0;
	unsigned char name[16];
	z_stream z = { 0 };
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)head;
	z.avail_in = (uInt)len;
	z.next_out = name;
	z.avail_out = sizeof name;
	int r = inflate(&z, Z_SYNC_FLUSH);
	size_t got = sizeof name - z.avail_out;
	inflateEnd(&z);
	if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR)
		return 0;
	return (got >= 6 && !memcmp(name, ".SIGN.", 6)) || (got >= 8 && !memcmp(name, ".PKGINFO", 8));
}

static bool control_member(const char *name)
{
	return !strncmp(name, ".SIGN.", 6) || !strcmp(name, ".PKGINFO") || !strncmp(name, ".pre-", 5) ||
	       !strncmp(name, ".post-", 6) || !strcmp(name, ".trigger");
}

/* .PKGINFO's "key = value" lines into the package's fields. */
static void parse_pkginfo(struct apk_file *af, const char *text)
{
	for (const char *l = text; *l;) {
		size_t len = strcspn(l, "\n");
		const char *eq = memchr(l, '=', len);
		if (*l != '#' && eq && eq > l + 1 && eq[-1] == ' ' && eq + 1 < l + len && eq[1] == ' ') {
			size_t klen = (size_t)(eq - 1 - l);
			char *val = ds_field_dupn(eq + 2, (size_t)(l + len - eq - 2));
			char **field = klen == 7 && !strncmp(l, "pkgname", 7) ? (char **)&af->pkg.name
			             : klen == 6 && !strncmp(l, "pkgver", 6) ? (char **)&af->pkg.version
			             : klen == 4 && !strncmp(l, "arch", 4) ? (char **)&af->pkg.arch
			             : klen == 6 && !strncmp(l, "origin", 6) ? (char **)&af->pkg.source
			             : klen == 10 && !strncmp(l, "maintainer", 10) ? (char **)&af->pkg.maintainer
			             : NULL;
			if (field) {
				free(*field);
				*field = val;
			} else {
				free(val);
			}
		}
		l += len + (l[len] == '\n');
	}
}

static void free_apk(struct apk_file *af)
{
	if (af->payload.a)
		archive_read_free(af->payload.a);
	af->payload.a = NULL;
	ds_payload_free(&af->payload);
	ds_pkg_free(&af->pkg);
	free(af->path);
	for (size_t i = 0; i < NSCRIPTS; i++) {
		free(af->scripts[i].text);
		ds_error_clear(&af->scripts[i].why);
	}
	free(af);
}

static void take_script(struct apk_file *af, struct archive_entry *e, const char *name)
{
	for (size_t i = 0; script_names[i]; i++) {
		if (strcmp(name, script_names[i]))
			continue;
		free(af->scripts[i].text);
		ds_error_clear(&af->scripts[i].why);
		af->scripts[i].text = ds_member_text(af->payload.a, e, SCRIPT_MAX, &af->scripts[i].len,
		                                     &af->scripts[i].why);
		return;
	}
}

/* Reads the control members (signature, .PKGINFO, scripts); stops at the
 * first payload member, which pkgfile_next then hands out. */
static int read_control(struct apk_file *af, struct ds_error *err)
{
	struct archive_entry *e;
	bool first = true, pkginfo = false;
	int r;
	while ((r = archive_read_next_header(af->payload.a, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		if (!name)
			name = "";
		if (first && strncmp(name, ".SIGN.", 6) && strcmp(name, ".PKGINFO"))
			return 1;   /* some other .tar.gz: not ours */
		first = false;
		if (!control_member(name)) {
			if (!pkginfo)
				return ds_error_set(err, DS_ERR_PARSE, "no .PKGINFO before the payload");
			af->have_payload = true;
			af->payload.peeked = e;
			return 0;
		}
		if (!strcmp(name, ".PKGINFO")) {
			size_t len;
			unsigned char *text = ds_member_text(af->payload.a, e, PKGINFO_MAX, &len, err);
			if (!text) {
				ds_error_prefix(err, ".PKGINFO: ");
				return -1;
			}
			parse_pkginfo(af, (const char *)text);
			free(text);
			pkginfo = true;
		} else {
			take_script(af, e, name);
		}
	}
	if (first)
		return 1;
	if (r != ARCHIVE_EOF)
		return ds_error_set(err, DS_ERR_PARSE, "%s", ds_archive_why(af->payload.a));
	if (!pkginfo)
		return ds_error_set(err, DS_ERR_PARSE, "no .PKGINFO");
	return 0;   /* a package with no files (a meta package) */
}

/* The .apk read as a tar of its concatenated gzip streams. */
static struct archive *open_apk(const char *path)
{
	struct archive *a = archive_read_new();
	archive_read_support_filter_gzip(a);
	archive_read_support_format_tar(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		archive_read_free(a);
		return NULL;
	}
	return a;
}

/* The payload again from its first member (peeked), for the data of its
 * tar hard links (archive-members.h). */
static struct archive *reopen_payload(void *ctx)
{
	struct apk_file *af = ctx;
	struct archive *a = open_apk(af->path);
	struct archive_entry *e;
	while (a && archive_read_next_header(a, &e) == ARCHIVE_OK)
		if (!control_member(archive_entry_pathname(e) ? archive_entry_pathname(e) : "")) {
			af->payload.peeked = e;
			return a;
		}
	if (a)
		archive_read_free(a);
	return NULL;
}

static void *apk_pkgfile_open(const char *path, const struct ds_pkg **pkg, struct ds_error *err)
{
	unsigned char magic[512];
	FILE *fp = fopen(path, "rbe");
	size_t n = fp ? fread(magic, 1, sizeof magic, fp) : 0;
	if (fp)
		fclose(fp);
	if (!apk_pkgfile_sniff(magic, n))
		return NULL;
	struct apk_file *af = ds_xcalloc(1, sizeof *af);
	af->path = ds_xstrdup(path);
	af->payload.reopen = reopen_payload;
	af->payload.reopen_ctx = af;
	if (!(af->payload.a = open_apk(path))) {
		free_apk(af);
		return NULL;   /* not a tar inside: another backend's, or plain data */
	}
	int r = read_control(af, err);   /* 1: not an .apk, err left unset */
	if (r != 0) {
		free_apk(af);
		return NULL;
	}
	if (af->pkg.name && af->pkg.version)
		af->pkg.label = ds_xasprintf("%s-%s", af->pkg.name, af->pkg.version);
	*pkg = &af->pkg;
	return af;
}

static int apk_pkgfile_next(void *h, struct ds_member *m, struct ds_error *err)
{
	struct apk_file *af = h;
	while (!af->payload_only && af->next_script < NSCRIPTS) {
		size_t i = af->next_script++;
		if (!af->scripts[i].text && !af->scripts[i].why.msg)
			continue;
		ds_member_script(m, script_names[i], af->scripts[i].text, af->scripts[i].len,
		                 ds_error_msg(&af->scripts[i].why), NULL);
		return 1;
	}
	if (!af->have_payload)
		return 0;
	return ds_payload_next(&af->payload, m, err);
}

static void apk_pkgfile_close(void *h)
{
	free_apk(h);
}

static void apk_pkgfile_want(void *h, int (*want)(const char *path, void *ctx), void *ctx)
{
	struct apk_file *af = h;
	af->payload_only = true;
	af->payload.want = want;
	af->payload.want_ctx = ctx;
}

static void apk_pkgfile_limit(void *h, uint64_t max_bytes)
{
	struct apk_file *af = h;
	af->payload.max_bytes = max_bytes;
}

const struct ds_backend ds_backend_apk = {
	.abi = DS_BACKEND_ABI,
	.name = "apk",
	.summary = "Alpine Linux apk database (lib/apk/db/installed) and .apk files",
	.order = 30,
	.profile = "alpine",
	.probe = apk_probe,
	.open = apk_open,
	.owner_of = ds_pkgtable_owner_of,
	.count = ds_pkgtable_count,
	.find = ds_pkgtable_find_named,   /* NAME, or NAME-VERSION as apk prints it */
	.info = ds_pkgtable_info,
	.contents = ds_pkgtable_contents,
	.close = ds_pkgtable_close,
	.pkgfile_open = apk_pkgfile_open,
	.pkgfile_next = apk_pkgfile_next,
	.pkgfile_close = apk_pkgfile_close,
	.arches = ds_pkgtable_arches,
	.pkgfile_sniff = apk_pkgfile_sniff,
	.pkgfile_suffixes = (const char *const[]){ ".apk", NULL },
	.root_files = (const char *const[]){ "lib/apk/db/installed", "etc/alpine-release", NULL },
	.pkgfile_want = apk_pkgfile_want,
	.pkgfile_limit = apk_pkgfile_limit,
};
