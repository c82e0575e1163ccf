/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdint.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "distsec/util.h"

static void oom(void)
{
	fputs("distsec: out of memory\n", stderr);
	abort();
}

void *ds_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *ds_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *ds_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *ds_xstrdup(const char *s)
{
	return ds_xstrndup(s, strlen(s));
}

char *ds_xstrndup(const char *s, size_t n)
{
	char *p = ds_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *ds_xvasprintf(const char *fmt, va_list ap)
{
	char *s;
	if (vasprintf(&s, fmt, ap) < 0)
		oom();
	return s;
}

char *ds_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = ds_xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

size_t ds_st_mult(size_t a, size_t b)
{
	size_t r;
	if (__builtin_mul_overflow(a, b, &r)) {
		fputs("distsec: array size overflow\n", stderr);
		abort();
	}
	return r;
}

size_t ds_grow_cap(size_t cap, size_t need, size_t sz)
{
	size_t next = cap ? ds_st_mult(cap, 2) : 16;
	if (next < need)
		next = need;
	ds_st_mult(next, sz);   /* aborts before the caller's realloc would wrap */
	return next;
}

/* Valid UTF-8 copy of s: each invalid byte becomes the text \xNN, so a
 * hostile file name still gives a valid JSON/XML document. */
char *ds_utf8_clean(const char *s)
{
	size_t n = strlen(s);
	char *out = ds_xmalloc(n * 4 + 1), *o = out;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t len = *p < 0x80 ? 1 : ds_utf8_len(p);
		if (len == 0) {
			o += sprintf(o, "\\x%02x", *p++);
			continue;
		}
		memcpy(o, p, len);
		o += len;
		p += len;
	}
	*o = '\0';
	return out;
}

/* C1 controls (U+0080..U+009F: some terminals act on them) and the bidi
 * overrides and isolates (U+202A..U+202E, U+2066..U+2069: "Trojan
 * Source", a name shown in another order than it is) */
static bool hidden(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/* Writes s escaped to out (room for 4 bytes per byte of s and a NUL);
 * returns the length written. */
static size_t escape_into(char *out, const char *s)
{
	char *o = out;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n;
		uint32_t cp;
		if (*p == '\\' || *p == '\n' || *p == '\t') {
			*o++ = '\\';
			*o++ = *p == '\n' ? 'n' : *p == '\t' ? 't' : '\\';
			p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			o += sprintf(o, "\\x%02x", *p++);
		} else if (*p < 0x80) {
			*o++ = (char)*p++;
		} else if ((n = ds_utf8_decode(p, &cp)) != 0 && !hidden(cp)) {
			memcpy(o, p, n);
			o += n;
			p += n;
		} else if (n) {   /* 2 or 3 bytes in, 6 out */
			o += sprintf(o, "\\u%04X", (unsigned)cp);
			p += n;
		} else {
			o += sprintf(o, "\\x%02x", *p++);
		}
	}
	*o = '\0';
	return (size_t)(o - out);
}

char *ds_escape(const char *s)
{
	char *out = ds_xmalloc(ds_st_mult(strlen(s), 4) + 1);
	escape_into(out, s);
	return out;
}

void ds_put_escaped(FILE *out, const char *s)
{
	char buf[1024];
	if (strlen(s) < sizeof buf / 4) {   /* the common case: no allocation */
		size_t n = escape_into(buf, s);
		fwrite(buf, 1, n, out);
		return;
	}
	char *e = ds_escape(s);
	fputs(e, out);
	free(e);
}

bool ds_warn_silent;

/* Every message on stderr goes through here: escaped as text is
 * (ds_escape), since most name paths and strings of the scanned files. */
static void vwarn(const char *prefix, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void vwarn(const char *prefix, const char *fmt, va_list ap)
{
	if (ds_warn_silent)
		return;
	char *msg = ds_xvasprintf(fmt, ap);
	fputs(prefix, stderr);
	ds_put_escaped(stderr, msg);
	fputc('\n', stderr);
	free(msg);
}

void ds_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn("distsec: ", fmt, ap);
	va_end(ap);
}

void ds_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn("", fmt, ap);
	va_end(ap);
}

void ds_note_lines(const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n");
		ds_note("%.*s", (int)(n < INT_MAX ? n : INT_MAX), text);
		text += n + (text[n] == '\n');
	}
}

/* "\r\033[K": back to the line's start, the line erased */
void ds_status(const char *fmt, ...)
{
	if (ds_warn_silent)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *msg = ds_xvasprintf(fmt, ap);
	va_end(ap);
	fputs("\r\033[K", stderr);
	ds_put_escaped(stderr, msg);
	free(msg);
}

void ds_status_clear(void)
{
	if (!ds_warn_silent)
		fputs("\r\033[K", stderr);
}

/* RFC 3629 table 3.1: the second byte's range depends on the first, which
 * rules out overlong forms, surrogates (ED A0..BF) and code points above
 * U+10FFFF (F4 90.. and F5..FF). */
size_t ds_utf8_decode(const unsigned char *p, uint32_t *cp)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;
	uint32_t c;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2, c = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3, c = p[0] & 0x0f;
		lo = p[0] == 0xe0 ? 0xa0 : 0x80;
		hi = p[0] == 0xed ? 0x9f : 0xbf;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4, c = p[0] & 0x07;
		lo = p[0] == 0xf0 ? 0x90 : 0x80;
		hi = p[0] == 0xf4 ? 0x8f : 0xbf;
	} else {
		return 0;
	}
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (cp)
		*cp = c;
	return n;
}

size_t ds_utf8_len(const unsigned char *p)
{
	return ds_utf8_decode(p, NULL);
}

char *ds_field_dupn(const char *s, size_t n)
{
	if (!s || !n)
		return NULL;
	if (n <= DS_FIELD_MAX)
		return ds_xstrndup(s, n);
	n = DS_FIELD_MAX - 3;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;   /* not inside a UTF-8 sequence */
	char *p = ds_xmalloc(n + 4);
	memcpy(p, s, n);
	memcpy(p + n, "...", 4);
	return p;
}

char *ds_field_dup(const char *s)
{
	return s ? ds_field_dupn(s, strnlen(s, DS_FIELD_MAX + 1)) : NULL;
}

char *ds_path_join(const char *dir, const char *name)
{
	while (*name == '/')
		name++;
	size_t n = strlen(dir);
	while (n > 0 && dir[n - 1] == '/')
		n--;
	if (!*name)
		return n ? ds_xstrndup(dir, n) : ds_xstrdup(*dir ? "/" : "");
	return ds_xasprintf("%.*s/%s", (int)n, dir, name);
}

char **ds_split_list(const char *s)
{
	char **v = NULL;
	size_t n = 0, cap = 0;
	char *copy = ds_xstrdup(s), *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *item = ds_xstrdup(t);
		ds_push(v, n, cap, item);
	}
	char *end = NULL;
	ds_push(v, n, cap, end);
	free(copy);
	return v;
}

void ds_list_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

void ds_sig_hold(int sig, sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void ds_sig_release(int sig, const sigset_t *old, bool raised)
{
	if (raised) {
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, sig);
		/* a signal a call raised is pending on this thread: taken at once */
		const struct timespec now = { 0, 0 };
		while (sigtimedwait(&set, NULL, &now) < 0 && errno == EINTR)
			;
	}
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

int ds_read_line(FILE *fp, char **line, size_t *cap, size_t *len, size_t max, struct ds_error *e)
{
	size_t n = 0;
	int c, rc = 1;
	flockfile(fp);
	while ((c = getc_unlocked(fp)) != EOF && c != '\n') {
		if (c == '\0' || n >= max) {
			rc = c ? ds_error_set(e, DS_ERR_LIMIT, "is longer than the limit")
			       : ds_error_set(e, DS_ERR_PARSE, "holds a NUL byte");
			break;
		}
		ds_grow(*line, n + 2, *cap);
		(*line)[n++] = (char)c;
	}
	if (c == EOF && ferror(fp))
		rc = ds_error_errno(e, errno, "read error");
	else if (c == EOF && n == 0)
		rc = 0;
	funlockfile(fp);
	ds_grow(*line, n + 1, *cap);
	(*line)[n] = '\0';
	*len = n;
	return rc;
}

int ds_each_line(FILE *fp, size_t max, const char *what, const char *name,
                 const char *(*fn)(void *arg, char *line, unsigned lineno), void *arg,
                 struct ds_error *e)
{
	char *line = NULL;
	size_t cap = 0, len;
	unsigned lineno = 0;
	const char *bad = NULL;
	int r = 0;
	while (!bad && (r = ds_read_line(fp, &line, &cap, &len, max, e)) > 0)
		bad = fn(arg, line, ++lineno);
	free(line);
	if (bad)
		return ds_error_set(e, DS_ERR_PARSE, "%s %s:%u: %s", what, name, lineno, bad);
	if (r < 0 && e && e->kind != DS_ERR_IO) {
		ds_error_prefix(e, "%s %s:%u: the line ", what, name, lineno + 1);
		if (max % 1024)
			ds_error_append(e, " (at most %zu bytes, no NUL byte)", max);
		else
			ds_error_append(e, " (at most %zu KiB, no NUL byte)", max >> 10);
	} else if (r < 0) {
		ds_error_prefix(e, "%s %s: ", what, name);
	}
	return r < 0 ? -1 : 0;
}

int ds_mktemp_registered(char *path, bool dir, int (*add)(const char *path, int is_dir),
                         void (*done)(int slot), int *slot)
{
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	size_t n = strlen(path);
	*slot = -1;
	if (n < 6 || strcmp(path + n - 6, "XXXXXX")) {
		errno = EINVAL;
		return -1;
	}
	for (int tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
			struct timespec t;
			clock_gettime(CLOCK_MONOTONIC, &t);
			uint64_t x = (uint64_t)t.tv_nsec * 0x9e3779b97f4a7c15u ^ (uint64_t)getpid() ^
			             (uint64_t)tries << 32;
			memcpy(r, &x, sizeof r);
		}
		for (size_t i = 0; i < 6; i++)
			path[n - 6 + i] = chars[r[i] % (sizeof chars - 1)];
		*slot = add ? add(path, dir) : -1;
		int fd = dir ? mkdir(path, 0700)
		             : open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		int e = errno;
		if (done)
			done(*slot);
		*slot = -1;
		errno = e;
		if (e != EEXIST)
			return -1;
	}
	return -1;
}

static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A group of letters holding a digit (deb12u3, fc39, el9): its length, else 0. */
static size_t tag_len(const char *p)
{
	size_t n = 0;
	bool digit = false;
	while (is_alnum(p[n]) || (n && p[n] == '_' && is_alnum(p[n + 1]))) {
		digit |= is_digit(p[n]);
		n++;
	}
	return digit ? n : 0;
}

/* The version starting at p (a digit): its length; *joined when it has a
 * joint ('.', '-', '~', '+' between groups). */
static size_t version_len(const char *p, bool *joined)
{
	size_t n = 0;
	*joined = false;
	while (is_alnum(p[n]))
		n++;
	for (;;) {
		char sep = p[n];
		size_t g = 0;
		if ((sep == '.' || sep == '-') && is_digit(p[n + 1]))
			for (g = 1; is_alnum(p[n + 1 + g]); g++)
				;
		else if (sep == '~' || sep == '+' || sep == '.')
			g = sep == '.' && !is_alpha(p[n + 1]) ? 0 : tag_len(p + n + 1);
		if (!g)
			return n;
		*joined = true;
		n += 1 + g;
	}
}

char *ds_path_same_file(const char *path)
{
	size_t len = strlen(path);
	char *out = ds_xmalloc(len + 1), *o = out;
	for (size_t i = 0; i < len;) {
		char prev = i ? path[i - 1] : '/';
		if (is_digit(path[i]) && !is_digit(prev) &&
		    (prev == '/' || prev == '-' || prev == '_' || prev == '.' || is_alpha(prev))) {
			bool joined;
			size_t n = version_len(path + i, &joined);
			if (joined || prev == '-') {
				*o++ = '#';
			} else {
				memcpy(o, path + i, n);
				o += n;
			}
			i += n;
			continue;
		}
		*o++ = path[i++];
	}
	*o = '\0';
	return out;
}

/* linux/capability.h's names, by bit number. */
static const char *const cap_names[] = {
	"chown", "dac_override", "dac_read_search", "fowner", "fsetid", "kill", "setgid",
	"setuid", "setpcap", "linux_immutable", "net_bind_service", "net_broadcast",
	"net_admin", "net_raw", "ipc_lock", "ipc_owner", "sys_module", "sys_rawio",
	"sys_chroot", "sys_ptrace", "sys_pacct", "sys_admin", "sys_boot", "sys_nice",
	"sys_resource", "sys_time", "sys_tty_config", "mknod", "lease", "audit_write",
	"audit_control", "setfcap", "mac_override", "mac_admin", "syslog", "wake_alarm",
	"block_suspend", "audit_read", "perfmon", "bpf", "checkpoint_restore",
};

static uint32_t le32_at(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* "cap_a,cap_b" of the set bits of a 64-bit mask, appended at *used. */
static void caps_list(uint64_t mask, char *buf, size_t buflen, size_t *used)
{
	bool first = true;
	for (unsigned bit = 0; bit < 64; bit++) {
		if (!(mask & (uint64_t)1 << bit))
			continue;
		int w = bit < sizeof cap_names / sizeof cap_names[0]
			? snprintf(buf + *used, buflen - *used, "%scap_%s", first ? "" : ",", cap_names[bit])
			: snprintf(buf + *used, buflen - *used, "%s%u", first ? "" : ",", bit);
		first = false;
		if (w < 0 || (size_t)w >= buflen - *used) {
			*used = buflen - 1;
			return;
		}
		*used += (size_t)w;
	}
}

int ds_caps_text(const unsigned char *v, size_t len, char *buf, size_t buflen)
{
	if (len < 4 || buflen < 2)
		return -1;
	uint32_t magic = le32_at(v), rev = magic & 0xff000000u;
	size_t words = rev == 0x01000000u ? 1 : rev == 0x02000000u || rev == 0x03000000u ? 2 : 0;
	/* revision 3 (namespaced) carries the root uid after the sets */
	size_t need = 4 + words * 8 + (rev == 0x03000000u ? 4 : 0);
	if (!words || len != need)
		return -1;
	uint64_t perm = 0, inh = 0;
	for (size_t i = 0; i < words; i++) {
		perm |= (uint64_t)le32_at(v + 4 + i * 8) << (32 * i);
		inh |= (uint64_t)le32_at(v + 8 + i * 8) << (32 * i);
	}
	size_t used = 0;
	buf[0] = '\0';
	if (perm) {
		caps_list(perm, buf, buflen, &used);
		int w = snprintf(buf + used, buflen - used, "=%sp", magic & 1 ? "e" : "");
		used = w > 0 && (size_t)w < buflen - used ? used + (size_t)w : buflen - 1;
	}
	if (inh && used + 2 < buflen) {
		if (used)
			buf[used++] = ' ';
		caps_list(inh, buf, buflen, &used);
		snprintf(buf + used, buflen - used, "+i");
	}
	if (!perm && !inh)
		snprintf(buf, buflen, "=");
	return 0;
}

int ds_copy_fd(int in, int out, uint64_t max)
{
	char buf[65536];
	while (max > 0) {
		size_t want = max < SIZE_MAX / 2 ? (size_t)max : SIZE_MAX / 2;
		ssize_t n = copy_file_range(in, NULL, out, NULL, want, 0);
		if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL ||
		              errno == EOPNOTSUPP)) {
			n = read(in, buf, want < sizeof buf ? want : sizeof buf);
			if (n > 0 && write(out, buf, (size_t)n) != n)
				return -1;
		}
		if (n < 0)
			return -1;
		if (n == 0)
			break;   /* its end (a file that shrank: what was there is copied) */
		max -= (uint64_t)n;
	}
	return 0;
}
