/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The file object every check receives.
 *
 * A file comes either from the scanned tree (an fd opened O_NOFOLLOW inside
 * the root) or from memory (a member of a .deb/.rpm payload).  Checks never
 * reopen paths: they read through the accessors below, which load and cache
 * what is asked for (first bytes, whole contents, ELF view, libmagic type,
 * program class) at most once.
 */
#ifndef DISTSEC_FILE_H
#define DISTSEC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

struct ds_elfview;
struct ds_code;
struct ds_worker;
struct ds_owner;
struct ds_input;
struct ds_profile;

enum ds_kind {
	DS_KIND_OTHER = 0,   /* regular file of no kind a check cares about */
	DS_KIND_ELF,
	DS_KIND_SHELL,       /* sh, bash, dash, ksh, zsh, mksh, ash, posh */
	DS_KIND_PYTHON,
	DS_KIND_DIR,
	DS_KIND_DEVICE,      /* character or block device */
	DS_KIND_SPECIAL,     /* FIFO, socket, symlink */
};

enum ds_class {
	DS_CLASS_NONE = 0,   /* not computed / not an ELF */
	DS_CLASS_DAEMON, DS_CLASS_SETUID, DS_CLASS_SETGID, DS_CLASS_SETCAP,
	DS_CLASS_NETWORK_IP, DS_CLASS_NETWORK_LOCAL, DS_CLASS_LIBRARY, DS_CLASS_EXEC,
};

#define DS_HEAD_MAX 512
/* The most of a script any check reads (ds_file_script). */
#define DS_SCRIPT_MAX (8u << 20)

/* The shell interpreters a DS_KIND_SHELL file's interp names (one list for
 * classification and for the shell syntax check), NULL-terminated. */
#define DS_NSHELLS 11
extern const char *const ds_shells[DS_NSHELLS + 1];

struct ds_file {
	const char *path;        /* absolute, as seen inside the root */
	mode_t mode;
	uid_t uid;
	gid_t gid;
	const char *user, *group;/* names a package file gives its member, else NULL */
	off_t size;
	int fd;                  /* read fd, opened on first need (ds_file_fd); -1 if none */
	int pfd;                 /* O_PATH fd the read fd is opened from; -1 if none */
	const unsigned char *mem;/* in-memory contents (package members), else NULL */
	bool has_caps;           /* security.capability xattr present */
	const char *caps;        /* a member's capabilities as text, else NULL */
	const char *symlink;     /* a symlink member's target, else NULL */
	const struct ds_owner *preset_owner; /* owner from a package file, else NULL */
	const struct ds_input *input;  /* the package file it is a member of, or NULL */
	const struct ds_profile *profile; /* a member's distribution's profile, or NULL
	                          * (core-private: checks ask ds_file_list) */
	const char *layer;             /* an image's file: the digest of the layer that
	                                * last wrote it, else NULL */
	const char *pkg_path;    /* a member's spelling in its package when path is
	                          * another (merged /usr), else NULL */
	bool pkg_script;         /* a script the package manager runs (path names it:
	                          * "DEBIAN/postinst", "%post"), not a file on disk:
	                          * only checks of shell or Python text see it */

	enum ds_kind kind;
	char interp[32];         /* script interpreter basename ("bash"), if any */
	bool interp_given;       /* interp is what runs the file (a package manager's
	                          * scriptlet interpreter), not read from a #! line */
	unsigned char head[DS_HEAD_MAX];
	size_t head_len;

	/* lazily filled caches (private to file.c) */
	struct ds_worker *worker;
	unsigned char *data;     /* whole contents, when read */
	size_t data_len;
	int data_state;          /* 0 not tried, 1 ok, -1 failed */
	int fd_state;            /* 0 not tried, 1 open, -1 failed */
	ino_t ino;               /* from the O_PATH fstat, to check the reopen */
	dev_t dev;               /* ... and, with nlink, to know its other names */
	nlink_t nlink;
	unsigned char *shell;    /* the script without its NUL bytes, when it has some */
	size_t shell_len, nuls;
	int shell_state;         /* 0 not made, 1 made (shell NULL: no NUL byte) */
	struct ds_elfview *elf;
	int elf_state;
	struct ds_code *code;    /* ds_file_code's */
	const char *code_why;
	int code_state;
	char *magic;
	enum ds_class cls;
	struct ds_buildflags *bflags;
	int bflags_state;
};

/* The fd to read the file through, opened on first use from its O_PATH fd
 * (so the file cannot be swapped for another); -1 if it cannot be read,
 * in which case a scan-unreadable finding has been reported once. */
int ds_file_fd(struct ds_file *f);
/* Whole contents (up to limit bytes; more = error).  NULL with errno set. */
const unsigned char *ds_file_data(struct ds_file *f, size_t limit, size_t *len);
/* A script's contents (up to DS_SCRIPT_MAX): a bigger one is reported
 * scan-unreadable once, whichever script check asks first. */
const unsigned char *ds_file_script(struct ds_file *f, size_t *len);
/* A shell script's text as the shell reads it: dash and bash drop NUL
 * bytes, so ">/tm\0p/x" writes /tmp/x; the script checks read this, not
 * the bytes.  NULL as ds_file_script; *nuls (may be NULL) is how many
 * NUL bytes were dropped. */
const unsigned char *ds_file_shell_text(struct ds_file *f, size_t *len, size_t *nuls);
/* The ELF view, or NULL when the file is not a well-formed ELF (a
 * scan-unreadable finding is then reported once by the core). */
const struct ds_elfview *ds_file_elf(struct ds_file *f);
/* The decoder of the ELF view's machine code (disasm.h), opened once for
 * all the checks of the file and freed with it (not by the caller); each
 * call rewinds its caps (ds_code_rewind).  NULL with *why set, as
 * ds_code_open, or when the file is not ELF. */
struct ds_code *ds_file_code(struct ds_file *f, const char **why);
/* How the file was compiled, from its separate debug file's compile
 * units (paired by build-id: buildflags.h); NULL when no debug file is
 * found, or one is found and cannot be read (then reported
 * scan-unreadable once). */
const struct ds_buildflags *ds_file_buildflags(struct ds_file *f);
/* libmagic's description ("POSIX shell script, ASCII text executable"). */
const char *ds_file_magic(struct ds_file *f);
/* The scanned root's O_PATH directory fd, for checks that look at other
 * paths inside the root (through ds_file_stat_in_root). */
int ds_file_rootfd(const struct ds_file *f);
/* fstat of a path inside the root (no symlink followed out of it). */
int ds_file_stat_in_root(const struct ds_file *f, const char *path, struct stat *st);
/* The file capabilities as text ("cap_net_raw=ep", ds_caps_text) in buf,
 * or NULL when the file has none. */
const char *ds_file_caps(struct ds_file *f, char *buf, size_t len);
/* A symlink's target as stored, in buf (a tree's) or the member's; NULL
 * when f is no symlink or it cannot be read. */
const char *ds_file_symlink(struct ds_file *f, char *buf, size_t len);
/* A check's list (check's NAME list, NULL-terminated) from the profile of
 * the file's distribution: --profile's, else for a package file's member
 * the profile its backend names, for a file of the root the root backend's
 * (stig's when none names one).  NULL when that profile gives none: the
 * check uses its own. */
const char *const *ds_file_list(const struct ds_file *f, const char *check, const char *name);
/* The rpm-chksec program class of an ELF file. */
enum ds_class ds_file_class(struct ds_file *f);
const char *ds_class_name(enum ds_class c);
bool ds_class_important(enum ds_class c);

/* Classification from the first bytes (and mode/name): sets kind, interp. */
void ds_classify(struct ds_file *f);
/* The kind of a script an interpreter (a basename: "dash", "python3.11")
 * runs: a shell's, Python's, else other. */
enum ds_kind ds_interp_kind(const char *interp, enum ds_kind other);

#endif
