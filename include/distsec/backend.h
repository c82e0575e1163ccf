/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The package owner / package contents interface.
 *
 * A backend is one constant table of function pointers plus private state
 * behind an opaque handle (the shape of curl's vtls).  The core only ever
 * holds this table; it never knows which package manager is behind it.
 * Loadable backends export one symbol, DS_BACKEND_ENTRY, a function that
 * returns their table; `none` is built into the program.
 *
 * Threading: after open() returns, every look-up (owner_of, info, contents,
 * find, count) must be safe to call from several threads at once.  Backends
 * load their database once in open() and answer from memory.
 *
 * State: everything a handle answers from hangs off the handle (curl's and
 * libarchive's shape): two handles, of one root or of two, share nothing,
 * and close() frees what open() loaded.  A backend's file-level variables
 * hold only what is the same for the whole process and never changes once
 * set (the host's cleanup hooks, a library's one-time initialisation).
 *
 * Errors: a callback that fails fills the caller's struct ds_error
 * (error.h; the whole message, never cut) and returns NULL or -1; it never
 * prints.  open() that succeeds may leave notes in the same struct: a
 * message of kind DS_ERR_NONE, a line each (ds_error_append).
 */
#ifndef DISTSEC_BACKEND_H
#define DISTSEC_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "distsec/error.h"

#define DS_BACKEND_ABI 12
#define DS_BACKEND_ENTRY "distsec_backend_entry"

/* What the backend knows about one installed (or packaged) package.  All
 * strings are owned by the backend and live until close(); NULL = unknown. */
struct ds_pkg {
	const char *name;
	const char *version;     /* epoch:version-release as the manager spells it */
	const char *arch;
	const char *source;      /* source package (dpkg) / source rpm (rpm) */
	const char *maintainer;  /* maintainer (dpkg) / packager (rpm) */
	const char *origin;      /* archive the installed version came from, if known */
	const char *candidate;   /* newest version available, if known */
	const char *label;       /* the package as its manager's users spell it in a
	                          * report ("bash-5.2.26-3.fc40.x86_64" for rpm);
	                          * NULL: NAME:ARCH */
};

typedef uint32_t ds_pkgid;

enum ds_owner_status {
	DS_OWNER_UNKNOWN = 0,  /* the backend cannot tell (backend `none`) */
	DS_OWNER_NOT_OWNED,    /* the backend knows the file system; no package claims it */
	DS_OWNER_PACKAGE,      /* one or more packages own the path */
};

/* What probe() found in a root: the bid libarchive-style selection compares. */
struct ds_probe {
	int usable;            /* a database exists and lists >= 1 package */
	size_t packages;
	int owns_bin_sh;       /* the database lists an owner for the root's bin/sh */
	int native;            /* the root carries this manager's distribution marker */
	int unreadable;        /* a database is there but cannot be read: detail says why,
	                        * naming the file ("cannot read var/lib/rpm/Packages: ...") */
	char *detail;          /* human-readable: where the database is, what it holds
	                        * (whole, malloc()ed; the caller frees it) */
	int notice;            /* usable, but detail says something the user must hear
	                        * (which of two databases was read, and why) */
};

/* open() flags */
#define DS_OPEN_ORIGINS 1u  /* fill ds_pkg.origin and .candidate (may cost time) */

/* One member of a package file's payload: a small one in memory, a large
 * one in an unlinked temporary file (in_file, fd), so no member is ever
 * held whole in memory. */
struct ds_member {
	const char *path;            /* absolute, as installed ("/usr/bin/x") */
	unsigned mode;               /* st_mode bits from the archive */
	unsigned uid, gid;
	const char *user, *group;    /* owner and group names the package gives (rpm's
	                              * header), else NULL: uid and gid are all there is */
	const unsigned char *data;   /* contents of a small regular file, else NULL */
	size_t size;
	bool in_file;                /* the contents are in fd instead (owned by the backend) */
	int fd;
	const char *unreadable;      /* a regular file whose contents could not be read: why */
	bool has_caps;               /* file capabilities: rpm's %caps, tar's
	                              * SCHILY.xattr.security.capability */
	/* A script the package manager runs (a .deb's maintainer script, an
	 * rpm scriptlet), not a file of the payload: path names it as the
	 * manager's users do ("DEBIAN/postinst", "%post", "%triggerin -- bash"),
	 * data holds its text, mode is 0755. */
	bool script;
	const char *interpreter;     /* what runs it: a path ("/bin/sh", "/usr/bin/python3"),
	                              * "<lua>" (rpm's built-in Lua), or NULL: the script's
	                              * own #! line */
	/* Another name of the same file when the archive holds it as a hard
	 * link (absolute, as path): a tar link's target, the name of an rpm
	 * hard-link set carrying the data; NULL otherwise.  Each name of a
	 * set comes as its own member with the data and its own mode. */
	const char *hardlink;
	const char *symlink;         /* a symbolic link's target as stored, else NULL */
	const char *caps;            /* the file capabilities as text ("cap_net_raw=ep"), else NULL */
};

typedef int (*ds_path_cb)(const char *path, void *ctx);

struct ds_backend {
	unsigned abi;          /* DS_BACKEND_ABI */
	const char *name;
	const char *summary;   /* one line for `distsec backends` */
	int order;             /* tie-break of last resort: lower wins */
	/* The profile (`distsec profiles`) that judges this manager's roots and
	 * package files unless --profile says otherwise; NULL: the strict one. */
	const char *profile;

	/* Cheap look at a root; must not print.  Returns 0, or -1 on a hard
	 * error; the caller frees out->detail either way. */
	int (*probe)(const char *root, struct ds_probe *out);

	/* Optional: begin loading the root's database, with open()'s flags.
	 * The core calls it on the scan's main thread while no other thread
	 * of the process exists, right before open() runs on the loader
	 * thread: the place to fork() a loader process (a fork while other
	 * threads allocate can leave the child's allocator locked).  Returns
	 * the load begun, which the caller hands to open() as started (NULL:
	 * nothing begun, open() loads alone).  Must not print; what goes wrong
	 * is told by open(). */
	void *(*start)(const char *root, unsigned flags);

	/* Load the root's database into a new handle, which close() frees.
	 * started: what start() returned for this root and flags, or NULL;
	 * open() takes it over whatever it returns (collects it, or ends it).
	 * NULL on failure with the reason in err; on success err may hold
	 * notes (the libraries' warnings, a line each, kind DS_ERR_NONE),
	 * which the core prints unless -q and keeps in the report's warnings.
	 * flags: DS_OPEN_* bits, what the caller will ask info() for. */
	void *(*open)(const char *root, unsigned flags, void *started, struct ds_error *err);

	/* Owners of an absolute path as the database spells it.  On
	 * DS_OWNER_PACKAGE, *ids points to *n ids owned by the backend. */
	enum ds_owner_status (*owner_of)(void *h, const char *path,
	                                 const ds_pkgid **ids, size_t *n);

	/* Packages are numbered 0..count-1. */
	size_t (*count)(void *h);
	/* The first package from *id on that name designates (NAME, or the
	 * manager's NAME.ARCH / NAME:ARCH / NAME-VERSION forms); 0 with *id
	 * set, -1 when none.  Callers start at 0 and go on from *id + 1: a
	 * name may have several instances (kernels, multilib). */
	int (*find)(void *h, const char *name, ds_pkgid *id);
	const struct ds_pkg *(*info)(void *h, ds_pkgid id);
	/* Calls cb for each path the package owns (stops when cb returns != 0). */
	int (*contents)(void *h, ds_pkgid id, ds_path_cb cb, void *ctx);

	/* Frees the handle and everything loaded for it. */
	void (*close)(void *h);

	/* Package files (optional; NULL when the backend reads none).
	 * pkgfile_open: NULL with err left unset when path is not this
	 * backend's kind of package file, NULL with err set when it is but is
	 * corrupt; else a handle, with the package's own metadata in *pkg.
	 * pkgfile_next: 1 and *m filled (valid until the next call), 0 at the
	 * end, -1 with err set on a damaged payload. */
	void *(*pkgfile_open)(const char *path, const struct ds_pkg **pkg, struct ds_error *err);
	int (*pkgfile_next)(void *pf, struct ds_member *m, struct ds_error *err);
	void (*pkgfile_close)(void *pf);

	/* Optional: the architecture names the root runs programs of, as the
	 * manager spells them ("amd64", "x86_64", "arm64"), native first;
	 * *names points to *n strings owned by the backend until close().
	 * NULL: the core takes the installed packages' architectures. */
	void (*arches)(void *h, const char *const **names, size_t *n);
	/* Cheap and side-effect free: could a file whose first len bytes are
	 * head be this backend's kind of package file?  1 yes, 0 no, -1 when
	 * these bytes are too few to tell (a compressed block not yet whole):
	 * the core then asks once more with up to 256 KiB, and -1 means no.
	 * It asks on the main thread, for each file named on the command line
	 * (every shard of a run asks for every file), to tell a package file
	 * from a plain file of the root without opening the package.
	 * Optional: without it, pkgfile_open decides. */
	int (*pkgfile_sniff)(const unsigned char *head, size_t len);
	/* Optional, right after pkgfile_open: only payload members for which
	 * want(path, ctx) is true are read; the others come back without
	 * contents (data NULL, in_file false), and scripts are not handed
	 * out.  Members that are neither wanted, nor hard links, nor symbolic
	 * links may also not come back at all (a backend whose package
	 * manager installs from a file list stops after the last wanted).  The core uses it to read a package set's systemd
	 * units and init scripts before scanning it.  Without it, every member
	 * is read. */
	void (*pkgfile_want)(void *pf, int (*want)(const char *path, void *ctx), void *ctx);
	/* Optional, NULL-ended: the file name endings of this backend's
	 * package files (".deb").  A file named so that no backend reads (an
	 * HTML error page, an empty or truncated download) is an error, never
	 * a plain file scanned in silence. */
	const char *const *pkgfile_suffixes;
	/* Optional, right after pkgfile_open: the payload decompressed for
	 * this file (read or skipped) stays under max_bytes; the member that
	 * would go past it is not read and pkgfile_next fails (-1, err says
	 * so).  Without it, a payload is decompressed whole. */
	void (*pkgfile_limit)(void *pf, uint64_t max_bytes);
	/* Optional, NULL-ended: the files of a root probe and open read (the
	 * database, the distribution marker), relative to the root; one
	 * ending in '/' stands for everything below that directory.  A
	 * container image's copies of these, in a private directory, stand
	 * for the root the backend is given (the image's other files are
	 * never written out). */
	const char *const *root_files;
};

typedef const struct ds_backend *(*ds_backend_entry_fn)(void);

/* What the program offers its loadable backends: a module that exports a
 * function named DS_BACKEND_HOST receives this once, right after loading. */
#define DS_BACKEND_HOST "distsec_backend_host"
struct ds_host {
	/* Removes path if a signal the program can catch ends the run (a
	 * directory with what is in it, two levels deep, when is_dir); returns a
	 * slot, -1 when none is free.  cleanup_done(slot) once the caller has
	 * removed the path itself. */
	int (*cleanup_add)(const char *path, int is_dir);
	void (*cleanup_done)(int slot);
};
typedef void (*ds_backend_host_fn)(const struct ds_host *host);

#endif
