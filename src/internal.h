/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Core-private declarations shared by the files in src/ (not for checks or backends). */
#ifndef DISTSEC_INTERNAL_H
#define DISTSEC_INTERNAL_H

#include <magic.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "distsec/check.h"
#include "distsec/scan.h"
#include "distsec/util.h"

/* One scanning thread's state. */
struct ds_worker {
	struct ds_scan *scan;
	magic_t magic;                 /* libmagic handles are not thread-safe */
	const struct ds_check *current;/* the check whose run() is executing */
	struct ds_finding **findings;
	size_t nfindings, cap;
	struct ds_stats stats;
	struct ds_owner owner;         /* owner of the current file */
	bool owner_done;
};

/* arguments.c: what each PATH argument names (see there) */
enum ds_arg_kind { DS_ARG_ROOT_PATH, DS_ARG_PKGFILE, DS_ARG_IMAGE, DS_ARG_ERROR };
struct ds_arg {
	char *path;             /* inside the root, or on the host for a package file */
	enum ds_arg_kind kind;
	struct ds_expect *expect;
	char *error;            /* DS_ARG_ERROR: why */
	bool other_shard;       /* --shard: another share's (its units still
	                         * class the set's daemons, its members are
	                         * not scanned) */
};
struct ds_args {
	struct ds_arg *v;
	size_t n, cap;
	size_t nroot, npkg, nimage;
	char **trees;          /* source trees (real paths) whose debian/ waivers apply */
	size_t ntrees, trees_cap;
};
/* Adds dir (a Debian source tree: it has debian/control) to a->trees once. */
void ds_args_add_tree(struct ds_args *a, const char *dir);
/* Scan-wide private state. */

/* rootalias.c: the root's top-level directory symlinks (merged /usr) */
struct ds_aliases;
struct ds_aliases *ds_aliases_load(int rootfd);
void ds_aliases_free(struct ds_aliases *a);
/* Calls try(alt, ctx) for each other spelling of path through them, until
 * try returns true; returns whether one did. */
bool ds_aliases_each(const struct ds_aliases *a, const char *path,
                     bool (*try)(const char *alt, void *ctx), void *ctx);

/* An architecture as ELF spells it: e_machine, EI_CLASS, EI_DATA. */
struct ds_machine { unsigned machine; int elfclass, data; };
#define DS_ARCHES_MAX 32

struct ds_scan_private {
	struct ds_aliases *aliases;    /* merged-/usr style top-level dir symlinks */
	struct ds_strmap *daemons;     /* ELF paths started by units / init scripts */
	struct ds_inodes *inodes;      /* hard-linked files' findings (hardlinks.c) */
	struct ds_worker main;         /* for scan_begin/scan_end findings */
	struct ds_waivers *waivers;
	struct ds_report *baseline;    /* --baseline's report (report.h) */
	struct ds_profile *profile;
	struct ds_profile **spelling;  /* per backend slot: the profile whose merged-usr
	                                * spells its package files' members, or NULL */
	struct ds_profile *lists_root; /* without --profile: the lists of the root's files
	                                * (the root backend's profile, else stig's) */
	struct ds_profile *lists_stig; /* ... and of a package file's whose backend names none */
	bool classify;                 /* an enabled check wants file kinds */
	unsigned applies;              /* the enabled checks' applies masks, or'ed */
	size_t skipped_cap;
	atomic_size_t reported;        /* findings so far, for the progress line */
	pthread_mutex_t inputs_lock;   /* s->inputs, appended to by the workers */
	size_t inputs_cap;
	atomic_size_t pkg_read, pkg_broken; /* package files read whole / reported broken */
	bool pkgfiles_only;            /* nothing of the root is scanned */
	struct ds_unitset *unitset;    /* the package files' units, during the context pass */
	atomic_bool *named_formats;    /* per backend slot: a package file of its format was
	                                * named (the context pass, every share), or NULL */
	struct ds_args args;           /* what the PATH arguments name */
	pthread_t backend_thread;      /* opening the database during the walk */
	void *backend_started;         /* what the backend's start() began, for its open() */
	atomic_bool backend_pending;   /* backend_thread not yet joined */
	pthread_mutex_t backend_lock;
	int backend_rc;                /* 0 when s->bh is open */
	atomic_bool backend_ready;     /* the open is over (backend_rc is final) */
	void **states;                 /* per ds_checks[] index: what scan_begin returned */
	bool *begun;                   /* per ds_checks[] index: scan_end still owed */
	bool elf_checks;               /* an enabled check runs on ELF files */
	pthread_mutex_t arches_lock;   /* the root's architectures, on first need */
	bool arches_done;
	struct ds_machine arches[DS_ARCHES_MAX];
	size_t narches;
	const char *arches_source;
	struct ds_merged *merged;      /* a result distsec merge rebuilt (merge.c) */
	struct ds_image *image;        /* the container image scanned (image.c), or NULL */
	char *image_root;              /* its private directory of database copies */
	int image_slot;                /* that directory's signal cleanup slot */
	struct ds_debugset *debug;     /* where programs' debug files are, or NULL */
};

/* walk.c: the paths to scan, a bounded ring between the walk and the
 * workers (see there). */
struct ds_job {
	char *path;
	unsigned char type;     /* d_type from readdir, DT_UNKNOWN if none, DS_JOB_PKGFILE */
	struct ds_expect *expect; /* for a package file a .changes lists, else NULL */
	int fd;                 /* the walked entry's own, opened from its directory's
	                         * (the job owns it), or -1: opened by path */
	bool fd_reads;          /* fd is open for reading (else O_PATH) */
};
/* Not a d_type (those are < 16): a host package file, read as one job. */
#define DS_JOB_PKGFILE 0xF0
/* A host package file whose units and init scripts are gathered (the
 * context pass before package files are scanned). */
#define DS_JOB_PKGCTX 0xF1
/* A layer of the scanned image (its index in the path): its members that
 * the flattened view holds. */
#define DS_JOB_LAYER 0xF2
/* What a .changes / .buildinfo says a package file it lists must be. */
struct ds_expect {
	long long size;
	char sha256[65];
	char *via;              /* the .changes / .buildinfo */
};
void ds_expect_free(struct ds_expect *e);
struct ds_expect *ds_expect_dup(const struct ds_expect *e);
struct ds_jobs;
/* dedup: several arguments or package lists may name a path twice. */
struct ds_jobs *ds_jobs_new(bool dedup);
void ds_jobs_free(struct ds_jobs *j);
/* No worker thread runs: each path added is scanned at once by scan(ctx,
 * job) on the adding thread.  The ring calls back rather than naming the
 * workers, which call into it. */
void ds_jobs_scan_inline(struct ds_jobs *j, void (*scan)(void *ctx, const struct ds_job *job),
                         void *ctx);
/* The walk is over: workers stop once the ring is empty. */
void ds_jobs_close(struct ds_jobs *j);
/* Next path (caller frees it), waiting for the walk; false at the end.
 * *total: paths queued so far. */
bool ds_jobs_take(struct ds_jobs *j, struct ds_job *out, size_t *total);
/* A user-named path, resolved inside the root, walked if a directory. */
int ds_walk_argument(struct ds_scan *s, struct ds_jobs *j, const char *arg, struct ds_error *err);
/* The files of --package names or of --all-packages. */
int ds_walk_packages(struct ds_scan *s, struct ds_jobs *j, struct ds_error *err);
/* A host package file for the workers; the ring takes e (may be NULL). */
void ds_jobs_add_pkgfile(struct ds_jobs *j, const char *path, struct ds_expect *e);
/* Layer i of the scan's image, for the workers. */
void ds_jobs_add_layer(struct ds_jobs *j, size_t i);
/* e: what a .changes says of it (the ring takes it), or NULL */
void ds_jobs_add_context(struct ds_jobs *j, const char *path, struct ds_expect *e);
/* Scans one job (a path inside the root or a package file) on w. */
void ds_scan_job(struct ds_worker *w, const struct ds_job *job);

/* workers.c */
struct worker_arg;
struct ds_pool {
	struct ds_worker *workers;
	struct worker_arg *args;
	pthread_t *tids;
	bool *running;           /* tids[i] was created */
	int n;
	struct ds_jobs *jobs;
	atomic_size_t done;
	bool progress;           /* stderr is a terminal and not --quiet */
	struct timespec last;
};

/* Starts --jobs workers on j (before the walk, which feeds them). */
void ds_pool_start(struct ds_scan *s, struct ds_jobs *j, struct ds_pool *p);
/* After ds_jobs_close: waits for them, merges their findings and counts. */
void ds_pool_join(struct ds_scan *s, struct ds_pool *p);
/* Opens and checks one path inside the root; fd as in struct ds_job
 * (taken over). */
void ds_scan_path(struct ds_worker *w, const char *path, unsigned char type, int fd,
                  bool fd_reads);
void ds_worker_init(struct ds_worker *w, struct ds_scan *s);
/* Runs every enabled check that applies to f, then releases f. */
void ds_scan_file(struct ds_worker *w, struct ds_file *f);

/* finding.c */
struct ds_finding *ds_finding_new(const struct ds_check *c, enum ds_severity sev,
                                  const char *path, const struct ds_owner *owner,
                                  const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
void ds_finding_free(struct ds_finding *f);
void ds_worker_add(struct ds_worker *w, struct ds_finding *f);
/* f's owner; NULL while the database is still loading (the finding's
 * owner is then looked up when the scan ends). */
const struct ds_owner *ds_file_owner(struct ds_file *f);

/* file.c */
void ds_file_release(struct ds_file *f);
/* A scan-unreadable finding "what: why" on f (details.reason = why). */
void ds_report_unreadable(struct ds_file *f, const char *what, const char *why);

/* arch.c: is an ELF file one the scanned system would run? */
bool ds_arch_lookup(const char *name, struct ds_machine *out);
const char *ds_machine_name(struct ds_machine m, char *buf, size_t len);
/* NULL when the hardening checks should judge f, else why not (may be
 * written to buf); NULL too for a malformed ELF (already reported). */
const char *ds_elf_not_judged(struct ds_file *f, char *buf, size_t len);
/* The pseudo-check whose passes say why an ELF file was not judged. */
extern const struct ds_check ds_check_elf_not_judged;

/* pathres.c: opening and resolving paths without leaving the root (see
 * distsec/rootfile.h) */
#include "distsec/rootfile.h"

/* backend.c */
struct ds_backend_slot {
	const struct ds_backend *b;
	const char *where;             /* "built in" or the module's path */
};
size_t ds_backends_available(const struct ds_backend_slot **out);
/* For `distsec backends`: each module this build made that no module
 * directory holds, with the directories looked in. */
void ds_backends_print_missing(FILE *out);
/* Failed module loads, for `distsec backends`. */
size_t ds_backend_failures(const char *const **out);
/* Picks the backend per --backend (name "auto": by the root's probes);
 * *why (when why is not NULL; the caller frees it) says why it did; NULL
 * with the reason in err when this build has no backend of that name.
 * auto: each database present but unreadable adds a message to *warnings
 * (when not NULL). */
const struct ds_backend *ds_backend_select(const char *name, const char *root, char **why,
                                           char ***warnings, size_t *nwarnings,
                                           struct ds_error *err);

/* cleanup.c: paths removed when a catchable signal ends the run
 * (see struct ds_host); ds_cleanup_install sets the handlers, once. */
void ds_cleanup_install(void);
int ds_cleanup_add(const char *path, int is_dir);
void ds_cleanup_done(int slot);
/* Removes a temporary directory of the run and what is in it (eight
 * levels deep at most); safe in a signal handler. */
void ds_remove_dir(const char *path);
extern const struct ds_host ds_host;

/* daemons.c: which programs systemd units / init scripts start (the
 * map's value has DS_NAMED_DAEMON), and which programs in data
 * directories a PATH directory's symbolic link names (DS_NAMED_PATH) */
#define DS_NAMED_DAEMON 1u
#define DS_NAMED_PATH 2u
struct ds_strmap *ds_daemons_load(int rootfd);
/* The map's key standing for every name of a hard-linked daemon. */
char *ds_daemon_inode_key(dev_t dev, ino_t ino);
bool ds_file_daemon(const struct ds_file *f);

/* hardlinks.c: the findings of a tree's hard-linked content, made once */
struct ds_inodes;
struct ds_inode_entry;
struct ds_inodes *ds_inodes_new(void);
void ds_inodes_free(struct ds_inodes *c);
struct ds_inode_entry *ds_inodes_claim(struct ds_inodes *c, struct ds_file *f, bool *first);
void ds_inodes_add(struct ds_inode_entry *e, struct ds_worker *w, size_t from);
void ds_inodes_done(struct ds_inodes *c, struct ds_inode_entry *e, struct ds_file *f, unsigned mask);
bool ds_inodes_reuse(struct ds_inodes *c, const struct ds_inode_entry *e, struct ds_worker *w,
                     struct ds_file *f, unsigned mask);
/* /usr/share: where ELF files are data unless something runs them. */
bool ds_in_data_dir(const char *path);
/* The units and init scripts of a set of package files, gathered from
 * several workers (locked) before the set is scanned. */
struct ds_unitset;
struct ds_unitset *ds_unitset_new(void);
void ds_unitset_free(struct ds_unitset *u);
/* Is a member at path one ds_unitset_add wants (under a unit directory or
 * an init script directory)? */
bool ds_unitset_wants(const char *path);
void ds_unitset_add(struct ds_unitset *u, const char *path, const unsigned char *data, size_t len);
/* A member's other name (ds_member.hardlink) and, in a PATH directory, a
 * symbolic link's target: every name of a daemon is the daemon, a program
 * in a data directory that a PATH link names is run. */
void ds_unitset_link(struct ds_unitset *u, const char *path, const char *hardlink, const char *symlink);
/* Adds the programs the set's services and init scripts start to m. */
void ds_daemons_add_set(struct ds_strmap *m, struct ds_unitset *u);

/* waivers.c */
struct ds_waivers;
/* NULL with the reason ("waivers FILE:LINE: why") in err. */
struct ds_waivers *ds_waivers_load(const char *path, struct ds_error *err);
struct ds_waivers *ds_waivers_parse(FILE *fp, const char *name, struct ds_error *err);
struct ds_waivers *ds_waivers_new(void);
/* Appends the waivers of fp (named name) to ws; lines without a package
 * get pkg_default (NULL: any package).  0, or -1 with the reason in err. */
int ds_waivers_read(struct ds_waivers *ws, FILE *fp, const char *name, const char *pkg_default,
                    struct ds_error *err);
int ds_waivers_add_file(struct ds_waivers *ws, const char *path, const char *pkg_default,
                        struct ds_error *err);
void ds_waivers_free(struct ds_waivers *ws);
/* The reason a waiver gives for d, or NULL. */
const char *ds_waiver_for(struct ds_waivers *ws, const struct ds_finding *d);
/* The same, the path glob matched against alt, another spelling of d->path. */
const char *ds_waiver_as(struct ds_waivers *ws, const struct ds_finding *d, const char *alt);
/* After the last ds_waiver_for: lists (and, unless quiet, notes on stderr)
 * the waivers that matched nothing. */
void ds_waivers_seal(struct ds_waivers *ws, bool quiet);
/* Waivers that only list these as unused (strings the caller's), for a
 * merged result. */
struct ds_waivers *ds_waivers_unused_only(const char *const *where, size_t n);

/* pkgfile.c: a host package file read on w (1), not one any backend reads
 * or broken (-1, reported as an error naming it); e: what a .changes
 * lists for it, or NULL. */
int ds_scan_pkgfile_job(struct ds_worker *w, const char *path, const struct ds_expect *e);
/* The context pass: the package file's units and init scripts into the
 * scan's unit set; nothing reported (the scan proper says what is wrong). */
void ds_pkgfile_context_job(struct ds_worker *w, const char *path, const struct ds_expect *e);
/* Layer i of the scan's image: the members of the flattened view it
 * holds, each scanned as a package file's member is, owned as the image's
 * database says. */
void ds_scan_layer_job(struct ds_worker *w, size_t i);
/* An error (scan-unreadable, on the image's root) and a message naming the image. */
void ds_report_image_error(struct ds_worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same on the main worker (fuzz targets). */
int ds_scan_package_file(struct ds_scan *s, const char *path);
/* Scans one in-memory file (a package member, a fuzz input) on the main
 * worker; owner may be NULL (then looked up by path). */
void ds_scan_member(struct ds_scan *s, const struct ds_member *m, const struct ds_owner *owner);
/* An error finding (scan-unreadable) and a message naming a package file. */
void ds_report_input_error(struct ds_worker *w, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Is the open host file fd a package file, by its first bytes? */
bool ds_pkgfile_sniff(int fd);
/* The package-file name ending of path some backend declares, or NULL. */
const char *ds_pkgfile_suffix(const char *path);
/* Why the open host file fd, which no backend reads, is no package file
 * (empty, a web page, damaged): a static string. */
const char *ds_pkgfile_not_one(int fd);
void ds_inputs_sort(struct ds_scan *s);
void ds_inputs_free(struct ds_scan *s);

void ds_args_classify(struct ds_scan *s, struct ds_args *out);
void ds_args_free(struct ds_args *a);
/* --shard K/N: the shard (0 .. n-1) a path's file name falls in; marks
 * the arguments of other shards than k (1 .. n) other_shard. */
unsigned ds_shard_of(const char *path, unsigned n);
/* The most shares --shard takes (and a report's "shard" record holds). */
#define DS_SHARD_MAX 1000000u
void ds_args_shard(struct ds_args *a, unsigned k, unsigned n);
/* changes.c: the binary package files a .changes or .buildinfo lists,
 * appended to out with the size and sha256 it gives; 0, or -1 with the
 * reason (the path left to the caller) in err. */
int ds_changes_expand(const char *path, struct ds_args *out, struct ds_error *err);
/* Does the name end in .changes or .buildinfo? */
bool ds_changes_named(const char *path);

/* baseline.c: --baseline, and the reports `distsec diff` reads */
/* What makes two findings of two builds the same one. */
char *ds_finding_key(const char *check, const char *path, const char *rule, const char *severity);
/* Reads --baseline into s (fatal message on failure). */
/* The packages of a result: every package file scanned and every owner of
 * a record, one per name, version and architecture (summary.packages). */
size_t ds_count_packages(const struct ds_scan *s, struct ds_finding *const *f, size_t n);
/* diff.c: the explanation of a regression id of `distsec diff`
 * (lost-pie ...), or NULL; caller frees. */
char *ds_diff_explain(const char *id);
int ds_baseline_load(struct ds_scan *s, struct ds_error *err);
/* Counts each --history report's errors and warnings per check into
 * s->history; -1 with the reason in err. */
int ds_history_load(struct ds_scan *s, struct ds_error *err);
/* Marks (*f)[0..*n) new or unchanged, collects s->absent, counts; adds a
 * new error finding for each privilege regression `distsec diff` would
 * report (the array grows, sorted again).  Before the waivers are sealed. */
void ds_baseline_apply(struct ds_scan *s, struct ds_finding ***f, size_t *n, size_t *cap);

/* merge.c: `distsec merge`: the JSON reports of --shard runs as one scan
 * result (opt kept; its baseline set from the reports'), or NULL with the
 * reason in err.  ds_scan_free frees it; ds_merge_free is its part for what
 * only a merged result holds (inputs, owners, the reports, s->priv). */
struct ds_scan *ds_merge_reports(struct ds_options *opt, const char *const *files, size_t n,
                                 struct ds_error *err);
void ds_merge_free(struct ds_scan *s);

/* diff.c: the `distsec diff` command */
int ds_cmd_diff(int argc, char **argv);

/* reports.c: --report-dir */
struct ds_output;
/* 0, or -1 with the reason in err. */
int ds_write_reports(const struct ds_scan *s, const struct ds_output *fmt, const char *dir,
                     struct ds_error *err);
/* outfile.c: a report to -o FILE through a temporary file renamed over it
 * (NULL: to stdout), written by write(fp, arg), which returns 0 or -1;
 * -1, the reason in err, when it could not be written whole. */
int ds_write_output(const char *out, int (*write)(FILE *fp, void *arg), void *arg,
                    struct ds_error *err);

/* scan.c */
/* The one constructor: the checks the options enable (comma lists, opt-in,
 * whole-system rule), nothing opened yet.  NULL with the reason in err
 * when the options name an unknown check. */
struct ds_scan *ds_scan_new(const struct ds_options *opt, struct ds_error *err);
/* What c's scan_begin returned for this scan (tests, fuzz targets). */
void *ds_scan_check_state(const struct ds_scan *s, const struct ds_check *c);
/* 0, or -1 with the reason in err; a reason already said as a warning
 * (a broken database, every named package file broken) leaves err
 * empty. */
int ds_scan_run(struct ds_scan *s, struct ds_error *err);
/* The first half of ds_scan_run: root, backend, checks' scan_begin; no
 * walking.  The fuzz targets scan buffers through ds_scan_file after it. */
int ds_scan_open(struct ds_scan *s, struct ds_error *err);

/* Waits for the package database the scan opens in the background; 0 when
 * s->bh is usable.  Anything that touches s->bh calls it first. */
int ds_scan_backend_wait(const struct ds_scan *s);
/* Without waiting: is the open over? */
bool ds_scan_backend_ready(const struct ds_scan *s);
/* The owner of path spelled as given (ds_scan_owner tries the root's
 * other spellings too); after ds_scan_backend_wait returned 0. */
enum ds_owner_status ds_scan_owner_as(const struct ds_scan *s, const char *path,
                                      struct ds_owner *out);
/* Ends the checks still begun, closes everything, frees s (NULL is fine). */
void ds_scan_free(struct ds_scan *s);

/* The build's own flags (DESIGN.md, The build's own flags). */
#include <libelf.h>
#include "distsec/buildflags.h"
struct ds_member;
#define DS_BUILD_ID_MAX 64
/* dwz's supplementary file (.gnu_debugaltlink), where the strings
 * several debug files share are: its .debug_str (strs, len bytes), or,
 * while it is not found yet, pend(ctx, ...) takes each unit whose
 * producer is there (its offset; the unit's name, or its offset there). */
struct ds_dwarf_alt {
	const char *strs;
	size_t len;
	void (*pend)(void *ctx, uint64_t producer_off, const char *name, uint64_t name_off);
	void *ctx;
};
/* dwarf.c (dwarf_none.c without libdw): the compile units of a separate
 * debug file into bf, its build-id note into id (*idlen bytes, set as
 * soon as it is read); 0, or -1 with the reason in err. */
int ds_dwarf_read(Elf *elf, const struct ds_dwarf_alt *alt, struct ds_buildflags *bf,
                  unsigned char *id, size_t *idlen, struct ds_error *err);
/* The .gnu_debugaltlink of a debug file: the supplementary file's name
 * and build-id; 0, or -1 when it has none. */
int ds_dwarf_altlink(Elf *elf, char *name, size_t namelen, unsigned char *id, size_t *idlen);
/* A copy of the .debug_str of a supplementary file (malloc()ed, *len
 * bytes); 0, or -1 with the reason in err. */
int ds_dwarf_strings(Elf *elf, char **strs, size_t *len, struct ds_error *err);
extern const bool ds_have_dwarf;
/* debugfiles.c: where each program's debug file is found. */
struct ds_debugset;
struct ds_debugset *ds_debugset_new(void);
void ds_debugset_free(struct ds_debugset *d);
/* --debug-dir: 0, or -1 with the reason in err. */
int ds_debugset_dir(struct ds_debugset *d, const char *dir, struct ds_error *err);
/* The root's /usr/lib/debug/.build-id, when it has one. */
void ds_debugset_root(struct ds_debugset *d, int rootfd);
/* Any place to look at all. */
bool ds_debugset_used(const struct ds_debugset *d);
/* A debug package's name (-dbgsym, -debuginfo, -dbg) and its debug
 * files' paths (/usr/lib/debug/...debug). */
bool ds_debug_package(const char *name);
bool ds_debug_member(const char *path);
/* A debug member of a package file of the run (label names the package),
 * read at once; only its record is kept.  Thread-safe. */
void ds_debugset_add_member(struct ds_debugset *d, const char *label, const struct ds_member *m);
/* After the context pass: the units whose producer is in a dwz file of
 * the run are judged, and the dwz files' strings dropped. */
void ds_debugset_resolve(struct ds_debugset *d);
/* The record of the program whose build-id is id: 1 found, 0 no debug
 * file, -1 one found and not read (err names it). */
int ds_debugset_find(struct ds_debugset *d, const unsigned char *id, size_t n,
                     struct ds_buildflags *bf, struct ds_error *err);

#endif
