/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Container images as the system they hold (image.h).  Three containers
 * of the same thing: an OCI image layout (index.json, oci-layout,
 * blobs/sha256/HEX), an OCI archive (a tar of a layout) and a Docker
 * archive (manifest.json naming a config and layer tars).  An archive is
 * never unpacked: its members are located once (outer_index) and each
 * blob is read in place, a region of the file.  Every blob is hashed
 * while it is read and checked against the digest that names it.
 *
 * The layers are read twice at most, never held: the first reading
 * builds the flattened view (path -> the layer and entry that last wrote
 * it, after the whiteouts of the layers above), the second hands out the
 * members of the view a layer holds, one at a time (the scan's layer jobs).
 * Only the package databases (ds_backend.root_files) are copied out, to a
 * private directory the backends read as the root.
 */
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../backends/archive-members.h"
#include "image.h"
#include "internal.h"

#define JSON_MAX (4u << 20)          /* an index, manifest or config */
#define OUTER_MEMBERS_MAX 65536u      /* members of an image archive */
#define LAYERS_MAX 256u
#define ENTRIES_MAX (1u << 20)        /* paths of the flattened view (~150 MiB) */
#define KEPT_MAX (256u << 10)         /* a unit or init script read while indexing */
#define KEPT_TOTAL (16u << 20)
#define ROOT_FILE_MAX ((uint64_t)1 << 30) /* a database file copied out */
#define PATH_MAX_LEN 4096u
#define CHUNK (64u << 10)

/* Where a blob's bytes are: a region of an open file. */
struct region {
	int fd;
	uint64_t off, size;
};

struct outer_member {
	char *name;
	uint64_t off, size;
};

struct layer {
	struct region r;
	char *digest;        /* "sha256:HEX", what findings name */
	char expect[65];     /* the hex its bytes must hash to, "" when none */
	bool broken;         /* a problem was reported reading it */
};

struct entry {
	uint32_t layer, ordinal;  /* which layer, its n-th entry (1-based) */
	unsigned mode, uid, gid;
	int64_t size;
	char *link;               /* a symlink's target, a hard link's (normalised) name */
	bool hard;
	unsigned char *kept;      /* contents read while indexing (units), or NULL */
	size_t nkept;
};

struct ds_image {
	struct ds_image_info info;
	char *name, *format, *digest, *platform, *user, *program;
	char **tags, **command;
	int fd;                   /* the archive, or the layout directory (O_PATH) */
	bool is_dir;
	struct outer_member *members;
	size_t nmembers, members_cap;
	struct ds_strmap *outer;  /* member name -> index + 1 */
	struct layer *layers;
	size_t nlayers, layers_cap;
	struct ds_strmap *view;   /* path (no leading '/') -> struct entry *, 0 when gone */
	size_t nentries;
	char **problems;
	size_t nproblems, problems_cap;
	uint64_t max_decompressed;
	size_t kept_total;
	json_object *config;
	char *path_env;           /* the config's PATH */
	char *workdir;
};

static void problem(struct ds_image *im, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct ds_image *im, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = ds_xvasprintf(fmt, ap);
	va_end(ap);
	ds_push(im->problems, im->nproblems, im->problems_cap, p);
}

/* ---- names ---------------------------------------------------------- */

/* A name inside an archive or layer, without "./", leading or doubled
 * slashes; NULL when a ".." component would climb (anywhere: a layer
 * entry is a path of the root, never relative to another). */
static char *norm_path(const char *name)
{
	size_t n = strlen(name);
	if (n > PATH_MAX_LEN)
		return NULL;
	char *out = ds_xmalloc(n + 1);
	size_t o = 0;
	for (const char *p = name; *p;) {
		while (*p == '/')
			p++;
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			free(out);
			return NULL;
		}
		if (len && !(len == 1 && p[0] == '.')) {
			if (o)
				out[o++] = '/';
			memcpy(out + o, p, len);
			o += len;
		}
		p += len;
	}
	out[o] = '\0';
	return out;
}

static bool is_hex64(const char *h)
{
	if (strlen(h) != 64)
		return false;
	for (const char *p = h; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
	return true;
}

/* "sha256:HEX" -> HEX, or NULL: the only digests a blob is named by here
 * (anything else, "../x" included, names no blob of the layout). */
static const char *digest_hex(const char *digest)
{
	if (!digest || strncmp(digest, "sha256:", 7) != 0 || !is_hex64(digest + 7))
		return NULL;
	return digest + 7;
}

/* ---- the outer tar (an image archive) --------------------------------- */

static uint64_t tar_number(const unsigned char *f, size_t len, bool *bad)
{
	uint64_t v = 0;
	if (f[0] & 0x80) {   /* base-256 */
		for (size_t i = 1; i < len; i++) {
			if (v >> 56) {
				*bad = true;
				return 0;
			}
			v = (v << 8) | f[i];
		}
		return (f[0] & 0x7f) ? (*bad = true, 0) : v;
	}
	size_t i = 0;
	while (i < len && f[i] == ' ')
		i++;
	for (; i < len && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v >> 60) {
			*bad = true;
			return 0;
		}
		v = v * 8 + (uint64_t)(f[i] - '0');
	}
	return v;
}

static bool tar_checksum_ok(const unsigned char *h)
{
	bool bad = false;
	uint64_t want = tar_number(h + 148, 8, &bad);
	uint64_t sum = 0;
	for (size_t i = 0; i < 512; i++)
		sum += (i >= 148 && i < 156) ? ' ' : h[i];
	return !bad && sum == want;
}

static int pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

/* A pax extended header's path and size records. */
static void pax_records(const char *t, size_t len, char **path, uint64_t *size, bool *has_size)
{
	size_t i = 0;
	while (i < len) {
		char *end;
		unsigned long n = strtoul(t + i, &end, 10);
		if (n == 0 || (size_t)(end - t) >= len || *end != ' ' || n > len - i)
			return;
		const char *kv = end + 1, *stop = t + i + n - 1;   /* before the '\n' */
		const char *eq = memchr(kv, '=', (size_t)(stop - kv));
		if (eq && eq - kv == 4 && !memcmp(kv, "path", 4)) {
			free(*path);
			*path = ds_xstrndup(eq + 1, (size_t)(stop - eq - 1));
		} else if (eq && eq - kv == 4 && !memcmp(kv, "size", 4)) {
			*size = strtoull(eq + 1, NULL, 10);
			*has_size = true;
		}
		i += n;
	}
}

/* Locates the regular members of the tar at fd (size bytes): their data
 * is read in place later.  0, or -1 with why (not a tar, or truncated). */
static int outer_index(struct ds_image *im, uint64_t size, struct ds_error *err)
{
	unsigned char h[512];
	uint64_t off = 0;
	char *long_name = NULL;
	uint64_t pax_size = 0;
	bool has_pax_size = false;
	int rc = 0;
	while (rc == 0) {
		if (off + 512 > size) {
			if (off != size || !im->nmembers) {
				ds_error_set(err, DS_ERR_PARSE, "truncated at byte %llu (not a whole tar archive)",
				             (unsigned long long)off);
				rc = -1;
			}
			break;
		}
		if (pread_all(im->fd, h, 512, off) != 0) {
			ds_error_set(err, DS_ERR_IO, "cannot read: %s", strerror(errno));
			rc = -1;
			break;
		}
		static const unsigned char zero[512];
		if (!memcmp(h, zero, 512))
			break;
		if (!tar_checksum_ok(h)) {
			ds_error_set(err, DS_ERR_PARSE, "not a tar archive (bad header at byte %llu)",
			             (unsigned long long)off);
			rc = -1;
			break;
		}
		bool bad = false;
		uint64_t msize = tar_number(h + 124, 12, &bad);
		if (has_pax_size)
			msize = pax_size;
		uint64_t data = off + 512;
		if (bad || msize > size || data + msize > size) {
			ds_error_set(err, DS_ERR_PARSE, "member at byte %llu: size %llu runs past the end of the archive",
			             (unsigned long long)off, (unsigned long long)msize);
			rc = -1;
			break;
		}
		char type = (char)h[156];
		if (type == 'L' || type == 'x') {
			if (msize > 65536) {
				ds_error_set(err, DS_ERR_PARSE, "member at byte %llu: extended header of %llu bytes",
				             (unsigned long long)off, (unsigned long long)msize);
				rc = -1;
				break;
			}
			char *t = ds_xmalloc(msize + 1);
			if (pread_all(im->fd, t, msize, data) != 0) {
				free(t);
				ds_error_set(err, DS_ERR_IO, "cannot read: %s", strerror(errno));
				rc = -1;
				break;
			}
			t[msize] = '\0';
			if (type == 'L') {
				free(long_name);
				long_name = ds_xstrdup(t);
			} else {
				pax_records(t, msize, &long_name, &pax_size, &has_pax_size);
			}
			free(t);
		} else {
			if (type == '0' || type == '\0' || type == '7') {
				char name[256 + 2];
				if (!memcmp(h + 257, "ustar", 5) && h[345])
					snprintf(name, sizeof name, "%.155s/%.100s", (const char *)h + 345,
					         (const char *)h);
				else
					snprintf(name, sizeof name, "%.100s", (const char *)h);
				char *n = norm_path(long_name ? long_name : name);
				if (n && *n) {
					if (im->nmembers == OUTER_MEMBERS_MAX) {
						free(n);
						ds_error_set(err, DS_ERR_LIMIT, "over %u members", OUTER_MEMBERS_MAX);
						rc = -1;
						break;
					}
					struct outer_member m = { n, data, msize };
					ds_push(im->members, im->nmembers, im->members_cap, m);
					*ds_strmap_put(im->outer, n) = im->nmembers;
				} else {
					free(n);
				}
			}
			free(long_name);
			long_name = NULL;
			has_pax_size = false;
		}
		off = data + ((msize + 511) & ~(uint64_t)511);
	}
	free(long_name);
	return rc;
}

/* ---- blobs ------------------------------------------------------------ */

/* The region of the blob at name (inside the layout or the archive).
 * 0, or -1 with why. */
static int blob_at(struct ds_image *im, const char *name, struct region *r, struct ds_error *err)
{
	if (!im->is_dir) {
		uintptr_t *v = ds_strmap_get(im->outer, name);
		if (!v || !*v) {
			ds_error_set(err, DS_ERR_PARSE, "%s: not in the archive", name);
			return -1;
		}
		const struct outer_member *m = &im->members[*v - 1];
		*r = (struct region){ im->fd, m->off, m->size };
		return 0;
	}
	int fd = ds_open_inside(im->fd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		ds_error_set(err, DS_ERR_IO, "%s: %s", name,
		             fd < 0 ? (errno == ENOENT ? "missing" : ds_root_strerror(errno))
		                    : "not a regular file");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*r = (struct region){ fd, 0, (uint64_t)st.st_size };
	return 0;
}

static void region_close(struct ds_image *im, struct region *r)
{
	if (im->is_dir && r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

static void hex_of(const unsigned char md[32], char out[65])
{
	for (int i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
}

/* A small JSON blob, whole, its sha256 checked when expect (hex) is
 * given.  NULL with why. */
static json_object *read_json(struct ds_image *im, const char *name, const char *expect,
                              struct ds_error *err)
{
	struct region r;
	if (blob_at(im, name, &r, err) != 0)
		return NULL;
	json_object *j = NULL;
	if (r.size > JSON_MAX) {
		ds_error_set(err, DS_ERR_LIMIT, "%s: %llu bytes, over the %u MiB limit", name,
		             (unsigned long long)r.size, JSON_MAX >> 20);
	} else {
		char *buf = ds_xmalloc(r.size + 1);
		if (pread_all(r.fd, buf, r.size, r.off) != 0) {
			ds_error_set(err, DS_ERR_IO, "%s: cannot read: %s", name, strerror(errno));
		} else {
			unsigned char md[32];
			char hex[65];
			EVP_Digest(buf, r.size, md, NULL, EVP_sha256(), NULL);
			hex_of(md, hex);
			if (expect && strcmp(hex, expect) != 0) {
				ds_error_set(err, DS_ERR_PARSE, "%s: sha256 %s, its digest says %s", name, hex, expect);
			} else {
				struct json_tokener *tok = json_tokener_new_ex(64);
				j = json_tokener_parse_ex(tok, buf, (int)r.size);
				if (!j || json_tokener_get_error(tok) != json_tokener_success) {
					json_object_put(j);
					j = NULL;
					ds_error_set(err, DS_ERR_PARSE, "%s: not JSON", name);
				}
				json_tokener_free(tok);
			}
		}
		free(buf);
	}
	region_close(im, &r);
	return j;
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;
	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static json_object *jget(json_object *o, const char *key, json_type t)
{
	json_object *v;
	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, t))
		return NULL;
	return v;
}

/* ---- platforms -------------------------------------------------------- */

struct platform {
	char os[32], arch[32], variant[32];
};

/* The host as OCI spells platforms (Go's GOOS/GOARCH). */
static void host_platform(struct platform *p)
{
	struct utsname u;
	snprintf(p->os, sizeof p->os, "linux");
	p->variant[0] = '\0';
	const char *m = uname(&u) == 0 ? u.machine : "";
	static const struct { const char *machine, *arch, *variant; } map[] = {
		{ "x86_64", "amd64", "" }, { "aarch64", "arm64", "" }, { "armv7l", "arm", "v7" },
		{ "armv6l", "arm", "v6" }, { "i686", "386", "" }, { "i386", "386", "" },
		{ "ppc64le", "ppc64le", "" }, { "s390x", "s390x", "" }, { "riscv64", "riscv64", "" },
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (!strcmp(m, map[i].machine)) {
			snprintf(p->arch, sizeof p->arch, "%s", map[i].arch);
			snprintf(p->variant, sizeof p->variant, "%s", map[i].variant);
			return;
		}
	snprintf(p->arch, sizeof p->arch, "%.31s", m);
}

static int parse_platform(const char *s, struct platform *p)
{
	memset(p, 0, sizeof *p);
	const char *a = strchr(s, '/');
	if (!a || a == s || !a[1])
		return -1;
	const char *v = strchr(a + 1, '/');
	size_t alen = v ? (size_t)(v - a - 1) : strlen(a + 1);
	if ((size_t)(a - s) >= sizeof p->os || alen >= sizeof p->arch || !alen ||
	    (v && (strlen(v + 1) >= sizeof p->variant || !v[1] || strchr(v + 1, '/'))))
		return -1;
	memcpy(p->os, s, (size_t)(a - s));
	memcpy(p->arch, a + 1, alen);
	if (v)
		snprintf(p->variant, sizeof p->variant, "%s", v + 1);
	return 0;
}

static void platform_text(const struct platform *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s%s%s", p->os, p->arch, p->variant[0] ? "/" : "", p->variant);
}

/* A platform object (an index descriptor's, or a config's top level). */
static void platform_of(json_object *o, struct platform *p)
{
	memset(p, 0, sizeof *p);
	const char *os = jstr(o, "os"), *arch = jstr(o, "architecture"), *v = jstr(o, "variant");
	snprintf(p->os, sizeof p->os, "%s", os ? os : "");
	snprintf(p->arch, sizeof p->arch, "%s", arch ? arch : "");
	snprintf(p->variant, sizeof p->variant, "%s", v ? v : "");
}

/* Does have match want?  A wanted variant must be there (arm64's v8 is
 * what none says); no wanted variant takes any. */
static bool platform_match(const struct platform *want, const struct platform *have)
{
	if (strcmp(want->os, have->os) || strcmp(want->arch, have->arch))
		return false;
	if (!want->variant[0])
		return true;
	const char *hv = have->variant[0] ? have->variant : !strcmp(have->arch, "arm64") ? "v8" : "";
	return !strcmp(want->variant, hv);
}

/* ---- the layers -------------------------------------------------------- */

struct reader {
	struct region r;
	uint64_t pos;
	EVP_MD_CTX *md;           /* NULL: not hashed (the second reading) */
	unsigned char buf[CHUNK];
};

static la_ssize_t reader_read(struct archive *a, void *ctx, const void **out)
{
	struct reader *x = ctx;
	uint64_t left = x->r.size - x->pos;
	size_t want = left < CHUNK ? (size_t)left : CHUNK;
	if (!want)
		return 0;
	ssize_t n;
	do
		n = pread(x->r.fd, x->buf, want, (off_t)(x->r.off + x->pos));
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		archive_set_error(a, n < 0 ? errno : EIO, "%s",
		                  n < 0 ? strerror(errno) : "the blob ends before its size");
		return -1;
	}
	if (x->md)
		EVP_DigestUpdate(x->md, x->buf, (size_t)n);
	x->pos += (uint64_t)n;
	*out = x->buf;
	return n;
}

static struct archive *layer_open(struct reader *x)
{
	struct archive *a = archive_read_new();
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_zstd(a);
	archive_read_support_filter_xz(a);
	archive_read_support_format_tar(a);
	if (archive_read_open(a, x, NULL, reader_read, NULL) != ARCHIVE_OK)
		return a;   /* the first next_header says why */
	return a;
}

/* Reads what libarchive left of the blob (the tar's end padding), so the
 * digest covers every byte; the hex, or "" on a read error. */
static void reader_finish(struct reader *x, char hex[65])
{
	hex[0] = '\0';
	while (x->pos < x->r.size) {
		uint64_t left = x->r.size - x->pos;
		size_t want = left < CHUNK ? (size_t)left : CHUNK;
		ssize_t n = pread(x->r.fd, x->buf, want, (off_t)(x->r.off + x->pos));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		EVP_DigestUpdate(x->md, x->buf, (size_t)n);
		x->pos += (uint64_t)n;
	}
	unsigned char md[32];
	EVP_DigestFinal_ex(x->md, md, NULL);
	hex_of(md, hex);
}

static void entry_free(struct entry *e)
{
	if (!e)
		return;
	free(e->link);
	free(e->kept);
	free(e);
}

/* What a layer's whiteouts do to the layers below it. */
#define WH_GONE 1u     /* this path and what is below it */
#define WH_OPAQUE 2u   /* what is below this directory */
#define WH_BELOW 4u    /* a directory replaced by a non-directory: what was below it */

static bool whited_out(const struct ds_strmap *wh, const char *path)
{
	uintptr_t *v = ds_strmap_get(wh, path);
	if (v && (*v & WH_GONE))
		return true;
	if ((v = ds_strmap_get(wh, "")) && (*v & WH_OPAQUE))
		return true;
	char buf[PATH_MAX_LEN + 1];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *slash = strrchr(buf, '/'); slash; slash = strrchr(buf, '/')) {
		*slash = '\0';
		if ((v = ds_strmap_get(wh, buf)) && *v)
			return true;
	}
	return false;
}

struct pending {
	char *path;
	struct entry *e;
};

/* The whiteouts of one layer applied to the view of those below, then
 * its own entries in their order (the last of a path wins). */
static void apply_layer(struct ds_image *im, struct ds_strmap *wh, struct pending *pend, size_t n)
{
	if (ds_strmap_size(wh)) {
		size_t pos = 0;
		uintptr_t val;
		const char *key;
		while ((key = ds_strmap_next(im->view, &pos, &val)) != NULL)
			if (val && whited_out(wh, key)) {
				entry_free((struct entry *)val);
				*ds_strmap_get(im->view, key) = 0;
				im->nentries--;
			}
	}
	for (size_t i = 0; i < n; i++) {
		uintptr_t *slot = ds_strmap_put(im->view, pend[i].path);
		if (*slot)
			entry_free((struct entry *)*slot);
		else
			im->nentries++;
		*slot = (uintptr_t)pend[i].e;
		free(pend[i].path);
	}
}

static bool over_cap(struct ds_image *im, struct archive *a, const struct layer *l)
{
	int64_t out = archive_filter_bytes(a, 0);
	if (out < 0 || (uint64_t)out <= im->max_decompressed)
		return false;
	problem(im, "layer %s: more than %llu bytes decompressed (--max-decompressed): the rest "
	        "is not read", l->digest, (unsigned long long)im->max_decompressed);
	return true;
}

/* The first reading of layer i: its entries and whiteouts into the view,
 * its digest checked. */
static void index_layer(struct ds_image *im, size_t i)
{
	struct layer *l = &im->layers[i];
	struct reader *x = ds_xcalloc(1, sizeof *x);
	x->r = l->r;
	x->md = EVP_MD_CTX_new();
	EVP_DigestInit_ex(x->md, EVP_sha256(), NULL);
	struct archive *a = layer_open(x);
	struct ds_strmap *wh = ds_strmap_new();
	struct pending *pend = NULL;
	size_t npend = 0, cap = 0;
	uint32_t ordinal = 0;
	struct archive_entry *ae;
	int r;
	while ((r = archive_read_next_header(a, &ae)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		ordinal++;
		if (over_cap(im, a, l)) {
			l->broken = true;
			break;
		}
		const char *name = archive_entry_pathname(ae);
		char *p = name ? norm_path(name) : NULL;
		if (!p) {
			problem(im, "layer %s: entry %s leaves the root: not applied", l->digest,
			        name ? name : "(no name)");
			continue;
		}
		const char *slash = strrchr(p, '/');
		const char *base = slash ? slash + 1 : p;
		if (!*p || !strncmp(base, ".wh.", 4)) {
			if (!strcmp(base, ".wh..wh..opq")) {
				char *dir = ds_xstrndup(p, slash ? (size_t)(slash - p) : 0);
				*ds_strmap_put(wh, dir) |= WH_OPAQUE;
				free(dir);
			} else if (*p) {
				char *gone = ds_xasprintf("%.*s%s", slash ? (int)(slash - p + 1) : 0, p, base + 4);
				*ds_strmap_put(wh, gone) |= WH_GONE;
				free(gone);
			}
			free(p);
			continue;
		}
		const char *hl = archive_entry_hardlink(ae);
		char *target = hl ? norm_path(hl) : NULL;
		if (hl && (!target || !*target)) {
			problem(im, "layer %s: hard link %s names %s, outside the root: not applied",
			        l->digest, p, hl);
			free(target);
			free(p);
			continue;
		}
		if (im->nentries + npend >= ENTRIES_MAX) {
			problem(im, "layer %s: the image holds over %u paths: the rest is not read",
			        l->digest, ENTRIES_MAX);
			free(target);
			free(p);
			l->broken = true;
			break;
		}
		struct entry *e = ds_xcalloc(1, sizeof *e);
		e->layer = (uint32_t)i;
		e->ordinal = ordinal;
		e->mode = archive_entry_mode(ae);
		e->uid = (unsigned)archive_entry_uid(ae);
		e->gid = (unsigned)archive_entry_gid(ae);
		e->size = archive_entry_size(ae);
		e->hard = hl != NULL;
		e->link = target ? target : archive_entry_symlink(ae) ? ds_xstrdup(archive_entry_symlink(ae)) : NULL;
		char *abs = ds_xasprintf("/%s", p);
		if (S_ISREG(e->mode) && !e->hard && e->size >= 0 && e->size <= (int64_t)KEPT_MAX &&
		    im->kept_total + (size_t)e->size <= KEPT_TOTAL && ds_unitset_wants(abs)) {
			size_t n = 0;
			/* not kept: the unit is read as not there */
			e->kept = ds_member_text(a, ae, KEPT_MAX, &n, NULL);
			e->nkept = e->kept ? n : 0;
			im->kept_total += e->nkept;
		}
		free(abs);
		uintptr_t *old = ds_strmap_get(im->view, p);
		if (old && *old && S_ISDIR(((struct entry *)*old)->mode) && !S_ISDIR(e->mode))
			*ds_strmap_put(wh, p) |= WH_BELOW;
		struct pending pe = { p, e };
		ds_push(pend, npend, cap, pe);
	}
	if (r != ARCHIVE_EOF && r != ARCHIVE_OK && r != ARCHIVE_WARN && !l->broken) {
		problem(im, "layer %s: %s: the rest of the layer is not read", l->digest, ds_archive_why(a));
		l->broken = true;
	}
	archive_read_free(a);
	char hex[65];
	reader_finish(x, hex);
	if (!hex[0]) {
		problem(im, "layer %s: cannot be read whole", l->digest);
		l->broken = true;
	} else if (l->expect[0] && strcmp(hex, l->expect) != 0) {
		problem(im, "layer %s: its sha256 is %s: not the blob its digest names", l->digest, hex);
		l->broken = true;
	} else if (!l->expect[0]) {
		free(l->digest);
		l->digest = ds_xasprintf("sha256:%s", hex);
	}
	EVP_MD_CTX_free(x->md);
	free(x);
	apply_layer(im, wh, pend, npend);
	free(pend);
	ds_strmap_free(wh);
}

/* ---- reading the manifests ------------------------------------------- */

static void add_layer(struct ds_image *im, struct region r, const char *digest, const char *expect)
{
	struct layer l = { .r = r, .digest = ds_xstrdup(digest) };
	snprintf(l.expect, sizeof l.expect, "%s", expect ? expect : "");
	ds_push(im->layers, im->nlayers, im->layers_cap, l);
}

static char **str_array(json_object *arr, size_t *n)
{
	*n = 0;
	if (!arr)
		return NULL;
	size_t len = json_object_array_length(arr);
	char **v = ds_xcalloc(len + 1, sizeof *v);
	for (size_t i = 0; i < len; i++) {
		json_object *s = json_object_array_get_idx(arr, i);
		if (json_object_is_type(s, json_type_string))
			v[(*n)++] = ds_utf8_clean(json_object_get_string(s));
	}
	return v;
}

/* The config: what runs, as whom, on what. */
static void read_config(struct ds_image *im, json_object *cfg)
{
	im->config = cfg;
	json_object *c = jget(cfg, "config", json_type_object);
	const char *user = jstr(c, "User");
	im->user = user && *user ? ds_utf8_clean(user) : NULL;
	size_t ne = 0, nc = 0;
	char **ep = str_array(jget(c, "Entrypoint", json_type_array), &ne);
	char **cmd = str_array(jget(c, "Cmd", json_type_array), &nc);
	im->command = ds_xcalloc(ne + nc + 1, sizeof *im->command);
	for (size_t i = 0; i < ne; i++)
		im->command[i] = ep[i];
	for (size_t i = 0; i < nc; i++)
		im->command[ne + i] = cmd[i];
	im->info.ncommand = ne + nc;
	free(ep);
	free(cmd);
	json_object *env = jget(c, "Env", json_type_array);
	for (size_t i = 0; env && i < json_object_array_length(env); i++) {
		const char *e = json_object_get_string(json_object_array_get_idx(env, i));
		if (e && !strncmp(e, "PATH=", 5)) {
			free(im->path_env);
			im->path_env = ds_xstrdup(e + 5);
		}
	}
	const char *wd = jstr(c, "WorkingDir");
	im->workdir = ds_xstrdup(wd && *wd ? wd : "/");
	struct platform p;
	char buf[100];
	platform_of(cfg, &p);
	platform_text(&p, buf, sizeof buf);
	free(im->platform);
	im->platform = ds_utf8_clean(buf);
}

static void add_tag(struct ds_image *im, size_t *n, size_t *cap, const char *t)
{
	if (t && *t)
		ds_push(im->tags, *n, *cap, ds_utf8_clean(t));
}

/* An OCI image manifest (its digest checked): config and layers. */
static int oci_manifest(struct ds_image *im, const char *digest, struct ds_error *err)
{
	const char *hex = digest_hex(digest);
	if (!hex) {
		ds_error_set(err, DS_ERR_PARSE, "manifest digest %s: not a sha256 digest naming a blob of the layout",
		             digest ? digest : "(none)");
		return -1;
	}
	char *name = ds_xasprintf("blobs/sha256/%s", hex);
	json_object *m = read_json(im, name, hex, err);
	free(name);
	if (!m)
		return -1;
	im->digest = ds_xstrdup(digest);
	json_object *cd = jget(m, "config", json_type_object);
	const char *chex = digest_hex(jstr(cd, "digest"));
	json_object *layers = jget(m, "layers", json_type_array);
	int rc = -1;
	if (!chex || !layers) {
		ds_error_set(err, DS_ERR_PARSE, "manifest %s: no config digest or no layers (not an image manifest?)",
		             digest);
	} else if (json_object_array_length(layers) > LAYERS_MAX) {
		ds_error_set(err, DS_ERR_PARSE, "manifest %s: %zu layers, over %u", digest,
		             json_object_array_length(layers), LAYERS_MAX);
	} else {
		char *cname = ds_xasprintf("blobs/sha256/%s", chex);
		json_object *cfg = read_json(im, cname, chex, err);
		free(cname);
		if (cfg) {
			read_config(im, cfg);
			rc = 0;
		}
		for (size_t i = 0; rc == 0 && i < json_object_array_length(layers); i++) {
			json_object *d = json_object_array_get_idx(layers, i);
			const char *ld = jstr(d, "digest"), *lhex = digest_hex(ld);
			if (!lhex) {
				ds_error_set(err, DS_ERR_PARSE, "layer %zu: digest %s does not name a blob of the layout",
				             i + 1, ld ? ld : "(none)");
				rc = -1;
				break;
			}
			char *lname = ds_xasprintf("blobs/sha256/%s", lhex);
			struct region r;
			if (blob_at(im, lname, &r, err) != 0) {
				free(lname);
				rc = -1;
				break;
			}
			free(lname);
			json_object *sz = jget(d, "size", json_type_int);
			int64_t declared = sz ? json_object_get_int64(sz) : -1;
			if (sz && (declared < 0 || (uint64_t)declared != r.size))
				problem(im, "layer %s: %llu bytes, its manifest says %lld", ld,
				        (unsigned long long)r.size, (long long)declared);
			add_layer(im, r, ld, lhex);
		}
	}
	json_object_put(m);
	return rc;
}

/* The manifest of an index (nested indexes followed): the one for the
 * platform asked for, else the only one, else the host's. */
static int oci_index(struct ds_image *im, json_object *index, const struct platform *want,
                     bool asked, int depth, struct ds_error *err)
{
	json_object *ms = jget(index, "manifests", json_type_array);
	size_t n = ms ? json_object_array_length(ms) : 0;
	if (!n) {
		ds_error_set(err, DS_ERR_PARSE, "index: no manifests");
		return -1;
	}
	json_object *pick = NULL;
	size_t images = 0;
	char *seen = NULL;   /* the platforms the index has, for the message */
	for (size_t i = 0; i < n; i++) {
		json_object *d = json_object_array_get_idx(ms, i);
		json_object *pj = jget(d, "platform", json_type_object);
		struct platform p;
		platform_of(pj, &p);
		if (pj && (!strcmp(p.os, "unknown") || !strcmp(p.arch, "unknown")))
			continue;   /* buildx's attestation manifests */
		images++;
		if (pj) {
			char t[100];
			platform_text(&p, t, sizeof t);
			char *more = ds_xasprintf("%s%s%s", seen ? seen : "", seen ? ", " : "", t);
			free(seen);
			seen = more;
		}
		if (!pick && pj && platform_match(want, &p))
			pick = d;
	}
	/* one image (skopeo's layouts name no platform): the config says
	 * which it is, checked against --platform once read */
	if (!pick && images == 1)
		for (size_t i = 0; i < n && !pick; i++) {
			json_object *d = json_object_array_get_idx(ms, i);
			struct platform p;
			platform_of(jget(d, "platform", json_type_object), &p);
			if (strcmp(p.os, "unknown") && strcmp(p.arch, "unknown"))
				pick = d;
		}
	if (!pick) {
		char w[100];
		platform_text(want, w, sizeof w);
		ds_error_set(err, DS_ERR_PARSE, "no manifest for platform %s in the index (it has: %s)", w,
		             seen ? seen : "manifests naming no platform");
		free(seen);
		return -1;
	}
	free(seen);
	json_object *ann = jget(pick, "annotations", json_type_object);
	const char *ref = jstr(ann, "org.opencontainers.image.ref.name");
	const char *iname = jstr(ann, "io.containerd.image.name");
	size_t ntags = im->info.ntags, cap = ntags;
	add_tag(im, &ntags, &cap, iname ? iname : ref);
	im->info.ntags = ntags;
	const char *mt = jstr(pick, "mediaType");
	const char *digest = jstr(pick, "digest");
	if (mt && (strstr(mt, "image.index") || strstr(mt, "manifest.list"))) {
		const char *hex = digest_hex(digest);
		if (!hex || depth >= 4) {
			ds_error_set(err, DS_ERR_PARSE, "index %s: %s", digest ? digest : "(none)",
			             hex ? "nested more than 4 deep" : "not a sha256 digest naming a blob");
			return -1;
		}
		char *name = ds_xasprintf("blobs/sha256/%s", hex);
		json_object *sub = read_json(im, name, hex, err);
		free(name);
		if (!sub)
			return -1;
		int rc = oci_index(im, sub, want, asked, depth + 1, err);
		json_object_put(sub);
		return rc;
	}
	return oci_manifest(im, digest, err);
}

static int read_oci(struct ds_image *im, const struct platform *want, bool asked,
                    struct ds_error *err)
{
	json_object *index = read_json(im, "index.json", NULL, err);
	if (!index)
		return -1;
	int rc = oci_index(im, index, want, asked, 0, err);
	json_object_put(index);
	return rc;
}

/* A Docker archive's name of a member (manifest.json's Config, Layers):
 * inside the archive, or NULL. */
static char *docker_name(const char *name)
{
	char *n = name && name[0] != '/' ? norm_path(name) : NULL;
	if (n && !*n) {
		free(n);
		n = NULL;
	}
	return n;
}

/* The sha256 a Docker archive's member name carries (blobs/sha256/HEX,
 * HEX.json, HEX.tar), or NULL. */
static const char *named_hex(const char *name, char buf[65])
{
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	if (strlen(base) < 64)
		return NULL;
	memcpy(buf, base, 64);
	buf[64] = '\0';
	const char *rest = base + 64;
	if (!is_hex64(buf) || (*rest && strcmp(rest, ".json") && strcmp(rest, ".tar")))
		return NULL;
	return buf;
}

static bool compressed(const struct region *r)
{
	unsigned char h[6] = { 0 };
	if (r->size < sizeof h || pread_all(r->fd, h, sizeof h, r->off) != 0)
		return false;
	return (h[0] == 0x1f && h[1] == 0x8b) || !memcmp(h, "\x28\xb5\x2f\xfd", 4) ||
	       !memcmp(h, "\xfd" "7zXZ", 5);
}

static int docker_entry(struct ds_image *im, json_object *e, struct ds_error *err)
{
	char *cname = docker_name(jstr(e, "Config"));
	char chex[65];
	if (!cname) {
		ds_error_set(err, DS_ERR_PARSE, "manifest.json: Config %s does not name a member of the archive",
		             jstr(e, "Config") ? jstr(e, "Config") : "(none)");
		return -1;
	}
	const char *expect = named_hex(cname, chex);
	json_object *cfg = read_json(im, cname, expect, err);
	free(cname);
	if (!cfg)
		return -1;
	if (!expect) {
		problem(im, "config %s: named by no digest: not checked", jstr(e, "Config"));
		im->digest = NULL;
	} else {
		im->digest = ds_xasprintf("sha256:%s", chex);
	}
	read_config(im, cfg);
	size_t ntags = 0, cap = 0;
	json_object *tags = jget(e, "RepoTags", json_type_array);
	for (size_t i = 0; tags && i < json_object_array_length(tags); i++)
		add_tag(im, &ntags, &cap, json_object_get_string(json_object_array_get_idx(tags, i)));
	im->info.ntags = ntags;
	json_object *layers = jget(e, "Layers", json_type_array);
	json_object *diffs = jget(jget(cfg, "rootfs", json_type_object), "diff_ids", json_type_array);
	size_t n = layers ? json_object_array_length(layers) : 0;
	if (!n || n > LAYERS_MAX) {
		ds_error_set(err, DS_ERR_PARSE, "manifest.json: %zu layers", n);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const char *given = json_object_get_string(json_object_array_get_idx(layers, i));
		char *lname = docker_name(given);
		struct region r;
		if (!lname) {
			ds_error_set(err, DS_ERR_PARSE, "manifest.json: layer %s does not name a member of the archive",
			             given ? given : "(none)");
			return -1;
		}
		if (blob_at(im, lname, &r, err) != 0) {
			free(lname);
			return -1;
		}
		char lhex[65];
		const char *hex = named_hex(lname, lhex);
		/* a layer named by no digest is checked against the config's
		 * diff_id, the sha256 of the uncompressed tar */
		const char *diff = diffs && i < json_object_array_length(diffs)
		                   ? digest_hex(json_object_get_string(json_object_array_get_idx(diffs, i)))
		                   : NULL;
		if (!hex && diff && !compressed(&r))
			hex = diff;
		char *digest = hex ? ds_xasprintf("sha256:%s", hex) : NULL;
		if (!hex)
			problem(im, "layer %s: named by no digest and compressed: not checked", lname);
		add_layer(im, r, digest ? digest : lname, hex);
		free(digest);
		free(lname);
	}
	return 0;
}

static int read_docker(struct ds_image *im, const struct platform *want, bool asked,
                       struct ds_error *err)
{
	json_object *m = read_json(im, "manifest.json", NULL, err);
	if (!m)
		return -1;
	int rc = -1;
	size_t n = json_object_is_type(m, json_type_array) ? json_object_array_length(m) : 0;
	if (!n)
		ds_error_set(err, DS_ERR_PARSE, "manifest.json: no image in it");
	for (size_t i = 0; i < n && rc != 0; i++) {
		/* each image's config says its platform: the one asked for, or
		 * the only one */
		json_object *e = json_object_array_get_idx(m, i);
		if (docker_entry(im, e, err) != 0)
			break;
		struct platform p;
		platform_of(im->config, &p);
		if ((!asked && n == 1) || platform_match(want, &p)) {
			rc = 0;
			break;
		}
		char w[100], h[100];
		platform_text(want, w, sizeof w);
		platform_text(&p, h, sizeof h);
		ds_error_set(err, DS_ERR_PARSE, "no image for platform %s in manifest.json (image %zu is %s)", w,
		             i + 1, h);
		/* the next entry's reading starts afresh */
		for (size_t k = 0; k < im->nlayers; k++) {
			region_close(im, &im->layers[k].r);
			free(im->layers[k].digest);
		}
		im->nlayers = 0;
		for (size_t k = 0; k < im->info.ntags; k++)
			free(im->tags[k]);
		im->info.ntags = 0;
		json_object_put(im->config);
		im->config = NULL;
		free(im->digest);
		im->digest = NULL;
		for (size_t k = 0; k < im->info.ncommand; k++)
			free(im->command[k]);
		free(im->command);
		im->command = NULL;
		im->info.ncommand = 0;
	}
	json_object_put(m);
	return rc;
}

/* ---- opening ------------------------------------------------------------ */

enum kind { K_NONE, K_LAYOUT, K_OCI_ARCHIVE, K_DOCKER_ARCHIVE };

static const char *const prefixes[] = { "oci:", "oci-archive:", "docker-archive:" };

/* The prefix arg starts with (its kind), the host path after it. */
static enum kind prefixed(const char *arg, const char **path)
{
	static const enum kind kinds[] = { K_LAYOUT, K_OCI_ARCHIVE, K_DOCKER_ARCHIVE };
	for (size_t i = 0; i < 3; i++)
		if (!strncmp(arg, prefixes[i], strlen(prefixes[i]))) {
			*path = arg + strlen(prefixes[i]);
			return kinds[i];
		}
	*path = arg;
	return K_NONE;
}

static bool has_member(const struct ds_image *im, const char *name)
{
	uintptr_t *v = ds_strmap_get(im->outer, name);
	return v && *v;
}

/* Opens path as an image, by its contents: a layout directory, or an
 * archive of one kind.  K_NONE when it is none (err left alone), or when
 * it cannot be read (err set). */
static enum kind open_container(struct ds_image *im, const char *path, struct ds_error *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		ds_error_set(err, DS_ERR_IO, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return K_NONE;
	}
	im->fd = fd;
	if (S_ISDIR(st.st_mode)) {
		im->is_dir = true;
		struct stat ls;
		bool layout = fstatat(fd, "oci-layout", &ls, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(ls.st_mode) &&
		              fstatat(fd, "index.json", &ls, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(ls.st_mode);
		return layout ? K_LAYOUT : K_NONE;
	}
	if (!S_ISREG(st.st_mode) || st.st_size < 1024)
		return K_NONE;
	unsigned char h[512];
	if (pread_all(fd, h, sizeof h, 0) != 0 || !tar_checksum_ok(h))
		return K_NONE;
	if (!im->outer)
		im->outer = ds_strmap_new();
	if (outer_index(im, (uint64_t)st.st_size, err) != 0)
		return K_NONE;
	if (has_member(im, "oci-layout") && has_member(im, "index.json"))
		return K_OCI_ARCHIVE;
	return has_member(im, "manifest.json") ? K_DOCKER_ARCHIVE : K_NONE;
}

static void close_container(struct ds_image *im)
{
	if (im->fd >= 0)
		close(im->fd);
	im->fd = -1;
	for (size_t i = 0; i < im->nmembers; i++)
		free(im->members[i].name);
	free(im->members);
	im->members = NULL;
	im->nmembers = im->members_cap = 0;
	ds_strmap_free(im->outer);
	im->outer = NULL;
	im->is_dir = false;
}

bool ds_image_prefixed(const char *arg)
{
	const char *path;
	return prefixed(arg, &path) != K_NONE;
}

bool ds_image_named(const char *arg)
{
	const char *path;
	if (prefixed(arg, &path) != K_NONE)
		return true;
	struct ds_image im = { .fd = -1 };
	enum kind k = open_container(&im, path, NULL);
	close_container(&im);
	return k != K_NONE;
}

struct ds_image *ds_image_open(const char *arg, const char *platform, uint64_t max_decompressed,
                               struct ds_error *err)
{
	struct platform want;
	bool asked = platform != NULL;
	if (asked && parse_platform(platform, &want) != 0) {
		ds_error_set(err, DS_ERR_USAGE, "--platform %s: not os/arch[/variant]", platform);
		return NULL;
	}
	if (!asked)
		host_platform(&want);
	const char *path;
	enum kind named = prefixed(arg, &path);
	struct ds_image *im = ds_xcalloc(1, sizeof *im);
	im->fd = -1;
	im->name = ds_xstrdup(arg);
	im->max_decompressed = max_decompressed;
	im->view = ds_strmap_new();
	struct ds_error inner = DS_ERROR_INIT;
	enum kind k = open_container(im, path, &inner);
	int rc = -1;
	if (k == K_NONE && inner.msg)
		ds_error_set(err, inner.kind, "%s", inner.msg);
	else if (k == K_NONE)
		ds_error_set(err, DS_ERR_PARSE, "%s",
		             named == K_LAYOUT ? "not an OCI image layout (no oci-layout and index.json)"
		                               : "not an OCI or Docker image archive");
	else if (named != K_NONE && named != k)
		ds_error_set(err, DS_ERR_PARSE, "named %s but is %s", prefixes[named - 1],
		             k == K_LAYOUT ? "an OCI image layout" : k == K_OCI_ARCHIVE ? "an OCI archive"
		                                                                      : "a Docker archive");
	else if (k == K_DOCKER_ARCHIVE)
		rc = read_docker(im, &want, asked, err);
	else
		rc = read_oci(im, &want, asked, err);
	ds_error_clear(&inner);
	struct platform have;
	if (rc == 0 && asked && (parse_platform(im->platform, &have) != 0 ||
	                         !platform_match(&want, &have))) {
		ds_error_set(err, DS_ERR_PARSE, "no manifest for platform %s: the image is %s", platform, im->platform);
		rc = -1;
	}
	if (rc != 0) {
		ds_image_free(im);
		return NULL;
	}
	im->format = ds_xstrdup(k == K_LAYOUT ? "oci-layout" : k == K_OCI_ARCHIVE ? "oci-archive"
	                                                                          : "docker-archive");
	for (size_t i = 0; i < im->nlayers; i++)
		index_layer(im, i);
	struct ds_image_info *in = &im->info;
	in->name = im->name;
	in->format = im->format;
	in->digest = im->digest;
	in->tags = (const char *const *)im->tags;
	in->platform = im->platform;
	in->user = im->user;
	in->command = (const char *const *)im->command;
	/* the program the command runs: a name without '/' through PATH */
	if (in->ncommand && im->command[0][0]) {
		const char *c = im->command[0];
		if (strchr(c, '/')) {
			char *joined = c[0] == '/' ? ds_xstrdup(c) : ds_path_join(im->workdir, c);
			im->program = ds_image_resolve(im, joined);
			free(joined);
		} else {
			char *dirs = ds_xstrdup(im->path_env ? im->path_env
			                        : "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
			char *save = NULL;
			for (char *d = strtok_r(dirs, ":", &save); d && !im->program; d = strtok_r(NULL, ":", &save)) {
				char *cand = ds_xasprintf("%s/%s", d, c);
				im->program = ds_image_resolve(im, cand);
				free(cand);
			}
			free(dirs);
		}
	}
	in->program = im->program;
	return im;
}

void ds_image_free(struct ds_image *im)
{
	if (!im)
		return;
	for (size_t i = 0; i < im->nlayers; i++) {
		region_close(im, &im->layers[i].r);
		free(im->layers[i].digest);
	}
	free(im->layers);
	close_container(im);
	if (im->view) {
		size_t pos = 0;
		uintptr_t val;
		while (ds_strmap_next(im->view, &pos, &val))
			entry_free((struct entry *)val);
		ds_strmap_free(im->view);
	}
	for (size_t i = 0; i < im->nproblems; i++)
		free(im->problems[i]);
	free(im->problems);
	for (size_t i = 0; i < im->info.ntags; i++)
		free(im->tags[i]);
	free(im->tags);
	for (size_t i = 0; i < im->info.ncommand; i++)
		free(im->command[i]);
	free(im->command);
	json_object_put(im->config);
	free(im->name);
	free(im->format);
	free(im->digest);
	free(im->platform);
	free(im->user);
	free(im->program);
	free(im->path_env);
	free(im->workdir);
	free(im);
}

const struct ds_image_info *ds_image_info(const struct ds_image *im)
{
	return &im->info;
}

size_t ds_image_problems(const struct ds_image *im, const char *const **out)
{
	*out = (const char *const *)im->problems;
	return im->nproblems;
}

size_t ds_image_layer_count(const struct ds_image *im)
{
	return im->nlayers;
}

/* ---- the view ------------------------------------------------------------ */

static const struct entry *view_get(const struct ds_image *im, const char *path)
{
	uintptr_t *v = ds_strmap_get(im->view, path);
	return v ? (const struct entry *)*v : NULL;
}

char *ds_image_resolve(const struct ds_image *im, const char *path)
{
	char *rest = ds_xstrdup(path);
	char *cur = ds_xstrdup("");
	int hops = 0;
	while (*rest) {
		char *p = rest;
		while (*p == '/')
			p++;
		char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		char *comp = ds_xstrndup(p, n);
		char *next = ds_xstrdup(p + n);
		free(rest);
		rest = next;
		if (!*comp || !strcmp(comp, ".")) {
			free(comp);
			continue;
		}
		if (!strcmp(comp, "..")) {
			char *up = strrchr(cur, '/');
			if (up)
				*up = '\0';
			else
				cur[0] = '\0';
			free(comp);
			continue;
		}
		char *cand = *cur ? ds_xasprintf("%s/%s", cur, comp) : ds_xstrdup(comp);
		free(comp);
		const struct entry *e = view_get(im, cand);
		if (e && S_ISLNK(e->mode) && !e->hard && e->link && hops++ < 40) {
			char *joined = ds_xasprintf("%s/%s", e->link, rest);
			free(rest);
			rest = joined;
			free(cand);
			if (e->link[0] == '/')
				cur[0] = '\0';
			continue;
		}
		free(cur);
		cur = cand;   /* a directory a layer does not list is there all the same */
	}
	const struct entry *e = *cur ? view_get(im, cur) : NULL;
	char *out = e && !*rest ? ds_xasprintf("/%s", cur) : NULL;
	free(rest);
	free(cur);
	return out;
}

void ds_image_each_kept(const struct ds_image *im,
                        void (*cb)(const char *path, const unsigned char *data, size_t len,
                                   void *ctx),
                        void *ctx)
{
	size_t pos = 0;
	uintptr_t val;
	const char *key;
	while ((key = ds_strmap_next(im->view, &pos, &val)) != NULL) {
		const struct entry *e = (const struct entry *)val;
		if (e && e->kept) {
			char *abs = ds_xasprintf("/%s", key);
			cb(abs, e->kept, e->nkept, ctx);
			free(abs);
		}
	}
}

/* ---- reading members again ------------------------------------------- */

static ssize_t source_read(void *a, void *buf, size_t len)
{
	return archive_read_data(a, buf, len);
}

static const char *source_why(void *a)
{
	return ds_archive_why(a);
}

/* The view's entry for layer i's entry ae (the ordinal-th), or NULL
 * when a later entry or layer replaced it. */
static const struct entry *current(const struct ds_image *im, size_t i, uint32_t ordinal,
                                   struct archive_entry *ae, char **path)
{
	const char *name = archive_entry_pathname(ae);
	char *p = name ? norm_path(name) : NULL;
	const struct entry *e = p && *p ? view_get(im, p) : NULL;
	if (!e || e->layer != i || e->ordinal != ordinal) {
		free(p);
		return NULL;
	}
	*path = p;
	return e;
}

/* A reading of layer l handing out members (pl, src); the reader, freed
 * after ds_payload_free(pl). */
static struct reader *payload_open(const struct layer *l, struct ds_payload *pl,
                                   struct ds_member_source *src)
{
	struct reader *x = ds_xcalloc(1, sizeof *x);
	x->r = l->r;
	pl->a = layer_open(x);
	*src = (struct ds_member_source){ source_read, NULL, source_why, pl->a };
	return x;
}

/* A hard link to an earlier entry of its layer: handed out with that
 * entry's data, read again once the layer's other members are out. */
struct hardlink {
	char *path, *target, *user, *group;
	const struct entry *e;
	uint32_t at;              /* the ordinal of the entry holding the data */
};

static int cmp_at(const void *a, const void *b)
{
	const struct hardlink *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

static char *dup_or_null(const char *s)
{
	return s ? ds_xstrdup(s) : NULL;
}

/* The second reading of layer i: each pending link's target's data, the
 * link handed out with it (its own name, mode and owner). */
static void hand_out_links(struct ds_image *im, size_t i, struct hardlink *v, size_t n,
                           void (*cb)(const struct ds_member *m, const char *layer, void *ctx),
                           void *ctx)
{
	const struct layer *l = &im->layers[i];
	qsort(v, n, sizeof *v, cmp_at);
	struct ds_payload pl = { 0 };
	struct ds_member_source src;
	struct reader *x = payload_open(l, &pl, &src);
	struct archive_entry *ae;
	uint32_t ordinal = 0;
	size_t k = 0;
	int r;
	while (k < n && ((r = archive_read_next_header(pl.a, &ae)) == ARCHIVE_OK || r == ARCHIVE_WARN)) {
		if (++ordinal != v[k].at)
			continue;
		struct ds_member data = { .fd = -1 };
		data.has_caps = ds_payload_caps(&pl, ae, &data);
		ds_member_read(&pl, &data, archive_entry_size(ae), &src);
		for (; k < n && v[k].at == ordinal; k++) {
			struct ds_member m = data;
			m.path = v[k].path;
			m.mode = S_IFREG | (v[k].e->mode & 07777);   /* a tar link entry has no type */
			m.uid = v[k].e->uid;
			m.gid = v[k].e->gid;
			m.user = v[k].user;
			m.group = v[k].group;
			m.hardlink = v[k].target;
			cb(&m, l->digest, ctx);
		}
	}
	for (; k < n; k++) {   /* the layer broke before the target */
		struct ds_member m = {
			.path = v[k].path, .mode = v[k].e->mode, .uid = v[k].e->uid, .gid = v[k].e->gid,
			.fd = -1, .hardlink = v[k].target,
			.unreadable = "a hard link whose target could not be read again",
		};
		cb(&m, l->digest, ctx);
	}
	ds_payload_free(&pl);
	free(x);
}

int ds_image_layer_members(struct ds_image *im, size_t i,
                           void (*cb)(const struct ds_member *m, const char *layer, void *ctx),
                           void *ctx, struct ds_error *err)
{
	const struct layer *l = &im->layers[i];
	struct ds_payload pl = { 0 };
	struct ds_member_source src;
	struct reader *x = payload_open(l, &pl, &src);
	struct archive_entry *ae;
	struct hardlink *links = NULL;
	size_t nlinks = 0, links_cap = 0;
	uint32_t ordinal = 0;
	int r, rc = 0;
	while ((r = archive_read_next_header(pl.a, &ae)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		ordinal++;
		if (archive_filter_bytes(pl.a, 0) > (int64_t)im->max_decompressed)
			break;   /* said by the first reading */
		char *p = NULL;
		const struct entry *e = current(im, i, ordinal, ae, &p);
		if (!e)
			continue;
		char *abs = ds_xasprintf("/%s", p);
		char *hard = e->hard ? ds_xasprintf("/%s", e->link) : NULL;
		const struct entry *t = e->hard ? view_get(im, e->link) : NULL;
		if (t && t->layer == i && t->ordinal < ordinal && S_ISREG(t->mode) && !t->hard) {
			struct hardlink h = { abs, hard, dup_or_null(archive_entry_uname(ae)),
			                      dup_or_null(archive_entry_gname(ae)), e, t->ordinal };
			ds_push(links, nlinks, links_cap, h);
			free(p);
			continue;
		}
		struct ds_member m = {
			.path = abs, .mode = e->mode, .uid = e->uid, .gid = e->gid,
			.user = archive_entry_uname(ae), .group = archive_entry_gname(ae),
			.fd = -1, .hardlink = hard,
			.symlink = S_ISLNK(e->mode) ? e->link : NULL,
		};
		m.has_caps = ds_payload_caps(&pl, ae, &m);
		int broke = 0;
		if (S_ISREG(e->mode) && !e->hard)
			broke = ds_member_read(&pl, &m, e->size, &src);
		cb(&m, l->digest, ctx);
		free(abs);
		free(hard);
		free(p);
		if (broke) {
			ds_error_set(err, DS_ERR_PARSE, "layer %s: %s", l->digest, m.unreadable);
			rc = -1;
			break;
		}
	}
	if (rc == 0 && r != ARCHIVE_EOF && r != ARCHIVE_OK && r != ARCHIVE_WARN) {
		ds_error_set(err, DS_ERR_PARSE, "layer %s: %s", l->digest, ds_archive_why(pl.a));
		rc = -1;
	}
	ds_payload_free(&pl);
	free(x);
	if (nlinks)
		hand_out_links(im, i, links, nlinks, cb, ctx);
	for (size_t k = 0; k < nlinks; k++) {
		free(links[k].path);
		free(links[k].target);
		free(links[k].user);
		free(links[k].group);
	}
	free(links);
	/* the first reading said what is wrong with a broken layer */
	return l->broken ? 0 : rc;
}

/* ---- the root files the backends read ------------------------------- */

/* Is path (no leading '/') one a backend reads in a root, or one of the
 * account files the checks resolve owner and group names through? */
static bool root_file(const char *path)
{
	if (!strcmp(path, "etc/passwd") || !strcmp(path, "etc/group"))
		return true;
	const struct ds_backend_slot *slots;
	size_t n = ds_backends_available(&slots);
	for (size_t i = 0; i < n; i++)
		for (const char *const *f = slots[i].b->root_files; f && *f; f++) {
			size_t fl = strlen(*f);
			if ((*f)[fl - 1] == '/' ? !strncmp(path, *f, fl) : !strcmp(path, *f))
				return true;
		}
	return false;
}

/* Creates the directories of path under dirfd (none followed if it is a
 * link) and the file; its fd, or -1. */
static int create_at(int dirfd, const char *path)
{
	char *copy = ds_xstrdup(path);
	int dfd = dup(dirfd), depth = 0;
	char *save = NULL, *comp = strtok_r(copy, "/", &save);
	while (dfd >= 0 && comp) {
		char *next = strtok_r(NULL, "/", &save);
		if (!next) {
			int fd = openat(dfd, comp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
			close(dfd);
			free(copy);
			return fd;
		}
		if (++depth > 8)
			break;
		if (mkdirat(dfd, comp, 0700) != 0 && errno != EEXIST)
			break;
		int sub = openat(dfd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(dfd);
		dfd = sub;
		comp = next;
	}
	if (dfd >= 0)
		close(dfd);
	free(copy);
	return -1;
}

static int write_member(struct archive *a, int fd, int64_t size)
{
	if (size < 0 || (uint64_t)size > ROOT_FILE_MAX)
		return -1;
	char buf[CHUNK];
	la_ssize_t n;
	int64_t got = 0;
	while ((n = archive_read_data(a, buf, sizeof buf)) > 0) {
		if (write(fd, buf, (size_t)n) != n)
			return -1;
		got += n;
	}
	return n < 0 || got != size ? -1 : 0;
}

int ds_image_copy_root_files(struct ds_image *im, int dirfd, struct ds_error *err)
{
	bool *wanted = ds_xcalloc(im->nlayers ? im->nlayers : 1, sizeof *wanted);
	size_t pos = 0;
	uintptr_t val;
	const char *key;
	while ((key = ds_strmap_next(im->view, &pos, &val)) != NULL) {
		const struct entry *e = (const struct entry *)val;
		if (e && S_ISREG(e->mode) && !e->hard && root_file(key))
			wanted[e->layer] = true;
	}
	int rc = 0;
	for (size_t i = 0; i < im->nlayers && rc == 0; i++) {
		if (!wanted[i])
			continue;
		struct reader *x = ds_xcalloc(1, sizeof *x);
		x->r = im->layers[i].r;
		struct archive *a = layer_open(x);
		struct archive_entry *ae;
		uint32_t ordinal = 0;
		while (rc == 0 && archive_read_next_header(a, &ae) == ARCHIVE_OK) {
			ordinal++;
			if (archive_filter_bytes(a, 0) > (int64_t)im->max_decompressed)
				break;
			char *p = NULL;
			const struct entry *e = current(im, i, ordinal, ae, &p);
			if (!e || !S_ISREG(e->mode) || e->hard || !root_file(p)) {
				free(p);
				continue;
			}
			int fd = create_at(dirfd, p);
			if (fd < 0 || write_member(a, fd, e->size) != 0) {
				ds_error_set(err, DS_ERR_IO, "copying %s of layer %s: %s", p, im->layers[i].digest,
				             fd < 0 ? strerror(errno) : "cannot read or write it whole");
				rc = -1;
			}
			if (fd >= 0)
				close(fd);
			free(p);
		}
		archive_read_free(a);
		free(x);
	}
	free(wanted);
	/* the top-level links (merged /usr), relative so that nothing read
	 * through them leaves the copy; made last, nothing is written
	 * through them */
	pos = 0;
	while (rc == 0 && (key = ds_strmap_next(im->view, &pos, &val)) != NULL) {
		const struct entry *e = (const struct entry *)val;
		if (!e || !S_ISLNK(e->mode) || !e->link || strchr(key, '/'))
			continue;
		char *t = norm_path(e->link);
		if (t && *t && symlinkat(t, dirfd, key) != 0 && errno != EEXIST)
			rc = 0;   /* no alias: owners are looked up as the paths are spelled */
		free(t);
	}
	return rc;
}
