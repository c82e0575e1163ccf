/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers shared by the core and the backends (linked into both):
 * allocation that aborts on failure, and a string-keyed hash map.
 */
#ifndef DISTSEC_UTIL_H
#define DISTSEC_UTIL_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "distsec/error.h"

void *ds_xmalloc(size_t n);
void *ds_xcalloc(size_t n, size_t size);
void *ds_xrealloc(void *p, size_t n);
char *ds_xstrdup(const char *s);
char *ds_xstrndup(const char *s, size_t n);
char *ds_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *ds_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* a * b; aborts when the product does not fit a size_t (git's st_mult). */
size_t ds_st_mult(size_t a, size_t b);
/* The capacity to grow an array of cap elements of size sz to when it
 * must hold need: twice cap (16 at first), at least need; aborts when
 * the array's bytes would overflow a size_t. */
size_t ds_grow_cap(size_t cap, size_t need, size_t sz);

/*
 * Growable arrays (git's ALLOC_GROW): arr is a T * lvalue, n and cap
 * size_t lvalues; each is evaluated more than once, so they must have no
 * side effects.  ds_grow makes room for need elements; ds_push appends
 * item, which the compiler checks is assignable to a T.
 */
#define ds_grow(arr, need, cap) do { \
	if ((need) > (cap)) { \
		(cap) = ds_grow_cap((cap), (need), sizeof *(arr)); \
		(arr) = ds_xrealloc((arr), ds_st_mult((cap), sizeof *(arr))); \
	} \
} while (0)
#define ds_push(arr, n, cap, item) do { \
	ds_grow((arr), (n) + 1, (cap)); \
	(arr)[(n)++] = (item); \
} while (0)

/*
 * String → value map, open addressing.  Keys are copied into the map's own
 * arena.  Not thread-safe for writes; concurrent ds_strmap_get is safe.
 */
struct ds_strmap;
struct ds_strmap *ds_strmap_new(void);
void ds_strmap_free(struct ds_strmap *m);
/* Returns the value slot for key, inserting it (value 0) when absent. */
uintptr_t *ds_strmap_put(struct ds_strmap *m, const char *key);
/* The map's own copy of key, inserted (value 0) when absent: one copy of
 * each distinct string however often it is given. */
const char *ds_strmap_key(struct ds_strmap *m, const char *key);
/* The value slot, or NULL when key is absent. */
uintptr_t *ds_strmap_get(const struct ds_strmap *m, const char *key);
size_t ds_strmap_size(const struct ds_strmap *m);
/* Iteration: *pos starts at 0; returns the key, or NULL at the end. */
const char *ds_strmap_next(const struct ds_strmap *m, size_t *pos, uintptr_t *val);

/* A package field (maintainer, name, version...) as findings carry it:
 * NULL for NULL or "", else a copy of at most DS_FIELD_MAX bytes (cut at
 * a UTF-8 character boundary, "..." appended), so a 10 MB Maintainer in
 * a hostile package does not repeat in every finding. */
#define DS_FIELD_MAX 256
char *ds_field_dup(const char *s);
/* A security.capability xattr value (struct vfs_cap_data, revision 1-3) as
 * text, "cap_net_raw,cap_sys_admin=ep" (inheritable ones after a space,
 * "cap_x+i"); -1 when it is no such value. */
int ds_caps_text(const unsigned char *v, size_t len, char *buf, size_t buflen);
/* The same for the n bytes at s (not NUL-terminated). */
char *ds_field_dupn(const char *s, size_t n);

/* Length of the valid UTF-8 sequence at p (>= 2 bytes), 0 if invalid:
 * strict RFC 3629, no overlong forms, surrogates or code points above
 * U+10FFFF.  ds_utf8_decode also stores the code point in *cp (if not NULL). */
size_t ds_utf8_len(const unsigned char *p);
size_t ds_utf8_decode(const unsigned char *p, uint32_t *cp);
/* Valid UTF-8 copy of s (malloc()ed): each invalid byte becomes "\xNN". */
char *ds_utf8_clean(const char *s);

/* The one escaping of text for a terminal or a one-line record (stdout,
 * stderr, a text report, diff's lines): a backslash, newline and tab as
 * \\ \n \t, other C0 controls, DEL and invalid UTF-8 bytes as \xNN, C1
 * controls and bidi overrides as \uNNNN; so a hostile name cannot forge
 * lines, terminal sequences or its own spelling.  ds_escape's result is
 * malloc()ed. */
char *ds_escape(const char *s);
void ds_put_escaped(FILE *out, const char *s);

/* The warning sink: besides main.c (usage and the commands' own output),
 * the one writer of stderr, each foreign string escaped (ds_put_escaped).
 * ds_warn prints "distsec: what: why"; ds_note the same without the
 * "distsec: " prefix (the caller's own); ds_note_lines each line of a text
 * (a usage text, a library's notes) as a note.  ds_status rewrites the one
 * progress line in place (a terminal's), ds_status_clear erases it. */
void ds_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ds_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ds_note_lines(const char *text);
void ds_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ds_status_clear(void);
/* Drops ds_warn's and ds_note's messages: the fuzz targets, whose every
 * input is a broken file, would otherwise write gigabytes of them. */
extern bool ds_warn_silent;

/* "dir/name" (malloc()ed) with one slash between them: the root "/" and a
 * name's leading slashes add none, an empty name gives dir itself; so
 * ds_path_join(root, "/etc/passwd") is the host path of a file of the root. */
char *ds_path_join(const char *dir, const char *name);

/* The fields of a comma list, as a NULL-ended vector (empty fields
 * dropped); ds_list_free frees it. */
char **ds_split_list(const char *s);
void ds_list_free(char **v);

/* One line of fp, without its newline, into *line (grown as needed,
 * *cap its size): 1 a line (the last may lack its newline), 0 the end of
 * the file, -1 with e set: a read error (DS_ERR_IO, "read error: ..."),
 * or a line longer than max bytes (DS_ERR_LIMIT, "is longer than the
 * limit") or holding a NUL byte (DS_ERR_PARSE, "holds a NUL byte"), to
 * follow "the line N ".  Neither is taken for the end, and what is held
 * never grows past max.  *len is the line's length. */
int ds_read_line(FILE *fp, char **line, size_t *cap, size_t *len, size_t max, struct ds_error *e);
/* Each line of fp (at most max bytes, no NUL byte) given to fn with its
 * number (from 1) until fn gives the reason a line is wrong, or the file
 * ends: 0 at its end, -1 with e set, naming the place as WHAT NAME:N:
 * fn's reason (DS_ERR_PARSE), a line over the limit or with a NUL byte
 * ("WHAT NAME:N: the line is longer than the limit (at most M KiB, no NUL
 * byte)"), or WHAT NAME: a read error.  A read error is never the end:
 * fewer lines than written would change what the file says. */
int ds_each_line(FILE *fp, size_t max, const char *what, const char *name,
                 const char *(*fn)(void *arg, char *line, unsigned lineno), void *arg,
                 struct ds_error *e);
/* The longest line of a hand-written list (waivers, STIG rules). */
#define DS_LIST_LINE_MAX (64u << 10)

/* A signal a system call raises in the thread that makes it -- SIGPIPE
 * for a write to a pipe whose reader has gone, SIGXFSZ for a write past
 * RLIMIT_FSIZE -- held around the call, so that its error return (EPIPE,
 * EFBIG) is handled instead of the signal's default action ending the
 * whole run.  ds_sig_hold blocks sig in the calling thread, its mask saved
 * in *old; ds_sig_release takes the instance the held calls raised when
 * raised is true (they failed with that signal's error), then restores
 * *old, so that one sent from outside meanwhile is delivered as usual. */
void ds_sig_hold(int sig, sigset_t *old);
void ds_sig_release(int sig, const sigset_t *old, bool raised);

/* Creates path, whose name ends in "XXXXXX", under a random name as a new
 * directory (0700) or file (0600), registered with add() (the signal
 * cleanup's, struct ds_host; NULL: none) before it exists, so that no
 * signal finds it created but not registered, as one could between
 * mkdtemp() and the registration.  Returns the file's fd, 0 for a
 * directory, or -1 (errno set); *slot is add()'s slot (-1 if none), which
 * done() frees when path is removed. */
int ds_mktemp_registered(char *path, bool dir, int (*add)(const char *path, int is_dir),
                         void (*done)(int slot), int *slot);

/* Copies fd in to fd out from their offsets, until in's end or max bytes
 * (in-kernel where it can, else read and write): the database copies'
 * one loop.  0, or -1 with errno. */
int ds_copy_fd(int in, int out, uint64_t max);

/* The name a maintainer calls the same file across versions (diff,
 * --baseline, SARIF fingerprints; docs/DESIGN.md, "Reading reports
 * back"): in each path component, a version -- a run starting with a
 * digit after '-', '_', '.', a letter or the component's start, of digit
 * groups joined by '.' or '-' and Debian/rpm suffixes after '~', '+' or
 * '.' (deb12u3, fc39) -- becomes '#' when it has such a joint or follows
 * a '-'.  libisc-9.18.49-1~deb12u3-Debian.so -> libisc-#-Debian.so,
 * python3.11 -> python#, pkg-1.2 -> pkg-#, 6.1.0-28-amd64 -> #-amd64,
 * libfoo.so.1.2.3 -> libfoo.so.#; libc.so.6, lib64, x86_64 and
 * foo.1.gz stay.  Caller frees. */
char *ds_path_same_file(const char *path);

#define DS_SEARCH_DIRS 4
/* Directories loadable modules are searched in, in order: only
 * $DISTSEC_BACKEND_DIR when set; else backends/ beside the program (the
 * build tree), the installed layout relative to the program (a relocated
 * prefix), then the configured directory.  Returns how many. */
size_t ds_module_dirs(const char *dirs[DS_SEARCH_DIRS]);
/* Loads the module at path (RTLD_NOW, its symbols kept local) and finds
 * its entry function `entry`: the dlopen() handle with *fn set, or NULL
 * with the reason in err (the module unloaded).  The caller calls *fn,
 * checks the table's ABI and dlclose()s the handle when it rejects it. */
void *ds_module_load(const char *path, const char *entry, void **fn, struct ds_error *err);
/* Data directories (the STIG rules, profiles/), in order: $DISTSEC_DATA_DIR,
 * beside the program, the relocated prefix, the configured directory. */
size_t ds_data_dirs(const char *dirs[DS_SEARCH_DIRS]);
/* The first data directory holding name; NULL if none does. */
const char *ds_data_file(const char *name, char *buf, size_t len);

#endif
