/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rpm backend (loadable module distsec-rpm.so): the root's rpm
 * database read with librpm, once, into an in-process index; and .rpm
 * package files (header through librpm, payload through libarchive).
 *
 * The database is looked for where the scanned distribution keeps it
 * (usr/lib/sysimage/rpm, then var/lib/rpm), never where the host's rpm is
 * configured (Debian's rpm says ~/.rpmdb).  librpm may create lock, -shm
 * or journal files next to a database it opens, so the database files are
 * copied to a private temporary directory and opened there: the scanned
 * root is never written.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <rpm/header.h>
#include <rpm/rpmcrypto.h>
#include <rpm/rpmarchive.h>
#include <rpm/rpmdb.h>
#include <rpm/rpmds.h>
#include <rpm/rpmfi.h>
#include <rpm/rpmlib.h>
#include <rpm/rpmlog.h>
#include <rpm/rpmmacro.h>
#include <rpm/rpmtd.h>
#include <rpm/rpmts.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive-members.h"
#include "distsec/backend.h"
#include "distsec/pkgtable.h"
#include "distsec/rootfile.h"
#include "distsec/util.h"

static const struct {
	const char *dir, *file, *kind;
} db_layouts[] = {
	{ "usr/lib/sysimage/rpm", "rpmdb.sqlite", "sqlite" },
	{ "usr/lib/sysimage/rpm", "Packages.db", "ndb" },
	{ "usr/lib/sysimage/rpm", "Packages", "bdb_ro" },
	{ "var/lib/rpm", "rpmdb.sqlite", "sqlite" },
	{ "var/lib/rpm", "Packages.db", "ndb" },
	{ "var/lib/rpm", "Packages", "bdb_ro" },
};

struct rpm_state {
	struct ds_pkgtable t;   /* first: the handle is the table's (pkgtable.h) */
	const char *dbdir, *kind;
	char *note;             /* what librpm said while the headers were read, or NULL */
};

/* One reading of a root's database (by probe() or open()). */
struct db_read {
	struct ds_error error;  /* why it could not be read */
	char *said;             /* librpm's first message while it was open, or NULL */
	const char *copy;       /* the private copy's directory, left out of what librpm says */
	char *choice;           /* which database was read when the root holds several,
	                         * and why (NULL when it holds one); said by probe() */
};

/* The host path of rel with its symlinks resolved inside the root, as the
 * walk does (var/lib/rpm -> /elsewhere is the image's /elsewhere, never
 * the host's), NULL with errno when there is none. */
static char *in_root(const char *root, const char *rel)
{
	return ds_root_resolve(root, rel);
}

/* The layouts (db_layouts indexes) whose database file is there, in
 * order; how many. */
static size_t find_dbs(const char *root, size_t *found)
{
	size_t n = 0;
	for (size_t i = 0; i < sizeof db_layouts / sizeof db_layouts[0]; i++) {
		char *rel = ds_xasprintf("%s/%s", db_layouts[i].dir, db_layouts[i].file);
		char *p = in_root(root, rel);
		struct stat st;
		if (p && lstat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
			found[n++] = i;
		free(rel);
		free(p);
	}
	return n;
}

/* A database file of the layouts that is there but empty (a zero-byte
 * rpmdb.sqlite): its "dir/file" in buf, or false. */
static char *empty_db(const char *root)
{
	for (size_t i = 0; i < sizeof db_layouts / sizeof db_layouts[0]; i++) {
		char *rel = ds_xasprintf("%s/%s", db_layouts[i].dir, db_layouts[i].file);
		char *p = in_root(root, rel);
		struct stat st;
		bool empty = p && lstat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
		free(p);
		if (empty)
			return rel;
		free(rel);
	}
	return NULL;
}

static void read_config(void)
{
	rpmlogSetMask(RPMLOG_UPTO(RPMLOG_CRIT)); /* errors come back as values */
	rpmReadConfigFiles(NULL, NULL);
}

/* librpm's configuration is the process's: read once, by whichever thread
 * (probe, open, a package file's) comes first. */
static void init_rpm(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, read_config);
}

/* librpm keeps the database path (_dbpath, _db_backend macros) and its log
 * callback for the whole process: one database at a time is opened, so
 * two handles' loads on two threads never see each other's copy. */
static pthread_mutex_t db_lock = PTHREAD_MUTEX_INITIALIZER;

/* The files that make up each kind of database: nothing else in its
 * directory is copied (a 64 GiB file beside it would fill TMPDIR). */
static const char *const sqlite_files[] = {
	"rpmdb.sqlite", "rpmdb.sqlite-wal", "rpmdb.sqlite-shm", NULL,
};
static const char *const ndb_files[] = { "Packages.db", "Index.db", NULL };
static const char *const bdb_files[] = {
	"Packages", "Basenames", "Conflictname", "Dirnames", "Enhancename",
	"Filetriggername", "Group", "Installtid", "Name", "Obsoletename",
	"Providename", "Provideversion", "Recommendname", "Requirename",
	"Requireversion", "Sha1header", "Sigmd5", "Suggestname", "Supplementname",
	"Transfiletriggername", "Triggername", NULL,
};

/* A database copy larger than this is refused (Fedora's full rpmdb.sqlite
 * is ~200 MB). */
#define RPMDB_COPY_MAX (2ull << 30)

static const char *const *db_files(const char *kind)
{
	return !strcmp(kind, "sqlite") ? sqlite_files : !strcmp(kind, "ndb") ? ndb_files : bdb_files;
}

/* The program's signal cleanup (struct ds_host), when it offers one:
 * given once when the module is loaded, the same for every handle after. */
static const struct ds_host *host;

__attribute__((visibility("default"))) void distsec_backend_host(const struct ds_host *h)
{
	host = h;
}

/* Copies dbdir/name (if it is a regular file) into to_dir; 0, or -1 with
 * r->error saying what went wrong with which file. */
static int copy_file(int from_dir, const char *dbdir, const char *name, int to_dir,
                     unsigned long long *budget, struct db_read *r)
{
	int in = openat(from_dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (in < 0 || fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (in >= 0)
			close(in);
		return 0; /* absent, or not a regular file: not part of the database */
	}
	if ((unsigned long long)st.st_size > *budget) {
		ds_error_set(&r->error, DS_ERR_IO,
		             "cannot read %s/%s: %lld bytes, more than the %llu MiB a database copy may take",
		             dbdir, name, (long long)st.st_size, RPMDB_COPY_MAX >> 20);
		close(in);
		return -1;
	}
	*budget -= (unsigned long long)st.st_size;
	int out = openat(to_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int rc = out >= 0 ? ds_copy_fd(in, out, (uint64_t)st.st_size) : -1;
	if (rc != 0)
		ds_error_set(&r->error, DS_ERR_IO, "cannot copy %s/%s to a temporary directory: %s",
		             dbdir, name, strerror(errno));
	close(in);
	if (out >= 0 && close(out) != 0 && rc == 0) {
		ds_error_set(&r->error, DS_ERR_IO, "cannot copy %s/%s to a temporary directory: %s",
		             dbdir, name, strerror(errno));
		rc = -1;
	}
	return rc;
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
}

struct db_copy {
	char *dir;
	int slot;   /* in the program's signal cleanup, or -1 */
};

static void remove_copy(struct db_copy *c)
{
	remove_dir(c->dir);
	if (host)
		host->cleanup_done(c->slot);
	free(c->dir);
	c->dir = NULL;
}

/* Copies the database's own files to a fresh temporary directory, which
 * is removed again on every failure and if a signal ends the run. */
static int copy_db(const char *root, const char *dbdir, const char *file, const char *kind,
                   struct db_copy *c, struct db_read *r)
{
	const char *tmp = getenv("TMPDIR");
	c->dir = ds_xasprintf("%s/distsec-rpmdb-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (ds_mktemp_registered(c->dir, true, host ? host->cleanup_add : NULL,
	                         host ? host->cleanup_done : NULL, &c->slot) != 0) {
		ds_error_set(&r->error, DS_ERR_IO,
		             "cannot read %s/%s: no temporary directory for a copy (%s): %s",
		             dbdir, file, c->dir, strerror(errno));
		free(c->dir);
		c->dir = NULL;
		return -1;
	}
	char *src = in_root(root, dbdir);
	int sfd = src ? open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	int dfd = open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = sfd >= 0 && dfd >= 0 ? 0 : -1;
	if (rc != 0)
		ds_error_set(&r->error, DS_ERR_IO, "cannot read %s/%s: %s", dbdir, file,
		             strerror(errno));
	unsigned long long budget = RPMDB_COPY_MAX;
	for (const char *const *f = db_files(kind); rc == 0 && *f; f++)
		rc = copy_file(sfd, dbdir, *f, dfd, &budget, r);
	if (sfd >= 0)
		close(sfd);
	if (dfd >= 0)
		close(dfd);
	free(src);
	if (rc != 0)
		remove_copy(c);
	return rc;
}

/* What to push as _dbpath for the copy.  librpm expands macros in _dbpath
 * again each time it derives a path from it (three times or more, so no
 * fixed "%%" escaping holds): a copy under a TMPDIR holding '%' is named
 * through /proc/self/fd instead, a name with no '%' in it. */
static char *dbpath_for(const struct db_copy *c, int *dirfd_out)
{
	*dirfd_out = -1;
	if (!strchr(c->dir, '%'))
		return ds_xstrdup(c->dir);
	int fd = open(c->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	*dirfd_out = fd;
	return ds_xasprintf("/proc/self/fd/%d", fd);
}

static char *tag_string(Header h, rpmTagVal tag)
{
	return ds_field_dup(headerGetString(h, tag));   /* capped, as every owner string */
}

static void pkg_from_header(Header h, struct ds_pkg *p)
{
	char *evr = headerGetAsString(h, RPMTAG_EVR);
	p->name = tag_string(h, RPMTAG_NAME);
	p->version = evr ? ds_xstrdup(evr) : NULL;
	/* a source package's ARCH tag is the build host's; rpm names it .src */
	p->arch = headerIsSource(h) ? ds_xstrdup("src") : tag_string(h, RPMTAG_ARCH);
	p->source = tag_string(h, RPMTAG_SOURCERPM);
	p->maintainer = tag_string(h, RPMTAG_PACKAGER);
	if (!p->maintainer)
		p->maintainer = tag_string(h, RPMTAG_VENDOR);
	/* as rpm -q prints it: NAME-VERSION-RELEASE.ARCH, no epoch */
	char *v = tag_string(h, RPMTAG_VERSION), *r = tag_string(h, RPMTAG_RELEASE);
	if (p->name && v && r)
		p->label = ds_xasprintf("%s-%s-%s%s%s", p->name, v, r, p->arch ? "." : "",
		                        p->arch ? p->arch : "");
	free(v);
	free(r);
	free(evr);
}

/* rpm's own build-id links are not package contents worth scanning. */
static int skip_path(const char *fn)
{
	return strncmp(fn, "/usr/lib/.build-id/", 19) == 0;
}

static void add_header(struct rpm_state *st, rpmts ts, Header h)
{
	const char *name = headerGetString(h, RPMTAG_NAME);
	if (!name || !strcmp(name, "gpg-pubkey"))
		return;
	struct ds_pkg p = { 0 };
	pkg_from_header(h, &p);
	ds_pkgid id = ds_pkgtable_add(&st->t, &p);
	rpmfi fi = rpmfiNew(ts, h, RPMTAG_BASENAMES, RPMFI_FLAGS_QUERY);
	while (fi && rpmfiNext(fi) >= 0) {
		const char *fn = rpmfiFN(fi);
		/* multilib: of a path two instances share (glibc.i686 and
		 * glibc.x86_64), the file of the transaction's preferred color is
		 * on disk; the other instance's entry says "wrong color" */
		if (fn && !skip_path(fn) && rpmfiFState(fi) != RPMFILE_STATE_WRONGCOLOR)
			ds_pkgtable_add_file(&st->t, id, fn);
	}
	rpmfiFree(fi);
}

static void free_state(struct rpm_state *st)
{
	if (!st)
		return;
	ds_pkgtable_free(&st->t);
	free(st->note);
	free(st);
}

/* What librpm said, "" when nothing. */
static const char *said(const struct db_read *r)
{
	return r->said ? r->said : "";
}

static void forget_said(struct db_read *r)
{
	free(r->said);
	r->said = NULL;
}

/* What a reading leaves to free. */
static void db_read_done(struct db_read *r)
{
	ds_error_clear(&r->error);
	forget_said(r);
	free(r->choice);
	r->choice = NULL;
}

/* librpm's first message while a database is opened, which says why it
 * could not be (otherwise dropped: errors come back as values), into the
 * db_read of that opening. */
static int note_rpmlog(rpmlogRec rec, rpmlogCallbackData data)
{
	struct db_read *r = data;
	const char *msg = rpmlogRecMessage(rec);
	size_t n = r->copy ? strlen(r->copy) : 0;
	if (msg && n && !strncmp(msg, r->copy, n) && msg[n] == '/')
		msg += n + 1;
	if (!r->said && msg)
		r->said = ds_xstrndup(msg, strcspn(msg, "\n"));
	return 0;
}

/* A format this librpm was built without: say which, and what reads it. */
static void unsupported_format(const char *dbdir, const char *file, const char *kind,
                               struct db_read *r)
{
	ds_error_set(&r->error, DS_ERR_UNSUPPORTED,
	             "cannot read %s/%s: a%s %s database, a format this librpm (rpm %s) cannot read; %s",
	             dbdir, file, strcmp(kind, "ndb") ? "" : "n", kind, RPMVERSION,
	             !strcmp(kind, "ndb")
	             ? "rpm built with ndb support reads it (openSUSE's and SLE's rpm; "
	               "there, rpmdb --rebuilddb --define '_db_backend sqlite' converts it)"
	             : "an rpm built with support for it reads it");
}

typedef int (*db_fn)(rpmts ts, const char *dbdir, const char *kind, struct db_read *r, void *ctx);

/* The file of dbdir's database of that kind. */
static const char *db_file(const char *dbdir, const char *kind)
{
	for (size_t i = 0; i < sizeof db_layouts / sizeof db_layouts[0]; i++)
		if (!strcmp(db_layouts[i].dir, dbdir) && !strcmp(db_layouts[i].kind, kind))
			return db_layouts[i].file;
	return "";
}

/* Runs fn on a private copy of the database of db_layouts[layout], opened
 * read-only; -1 with r->error set when librpm cannot read it. */
static int with_layout(const char *root, size_t layout, db_fn fn, struct db_read *r, void *ctx)
{
	const char *dbdir = db_layouts[layout].dir, *file = db_layouts[layout].file;
	const char *kind = db_layouts[layout].kind;
	init_rpm();
	struct db_copy copy;
	if (copy_db(root, dbdir, file, kind, &copy, r) != 0)
		return -1;
	int copy_fd;
	char *dbpath = dbpath_for(&copy, &copy_fd);
	if (!dbpath) {
		ds_error_set(&r->error, DS_ERR_IO, "cannot read %s: temporary copy %s: %s",
		             dbdir, copy.dir, strerror(errno));
		remove_copy(&copy);
		return -1;
	}
	pthread_mutex_lock(&db_lock);
	rpmPushMacro(NULL, "_dbpath", NULL, dbpath, RMIL_CMDLINE);
	free(dbpath);
	rpmPushMacro(NULL, "_db_backend", NULL, kind, RMIL_CMDLINE);
	rpmts ts = rpmtsCreate();
	rpmtsSetRootDir(ts, "/");
	rpmtsSetVSFlags(ts, RPMVSF_MASK_NOSIGNATURES | RPMVSF_MASK_NODIGESTS);
	int rc = -1;
	forget_said(r);
	r->copy = copy.dir;
	rpmlogSetMask(RPMLOG_UPTO(RPMLOG_WARNING));
	rpmlogCallback was = rpmlogSetCallback(note_rpmlog, r);
	if (rpmtsOpenDB(ts, O_RDONLY) != 0)
		ds_error_set(&r->error, DS_ERR_IO,
		             "cannot read %s/%s: librpm cannot open it as a %s database%s%s%s", dbdir, file,
		             kind, r->said ? " (" : "", said(r), r->said ? ")" : "");
	else if (strstr(said(r), "_db_backend") || strstr(said(r), "dummy database"))
		/* librpm falls back to a "dummy" backend that lists nothing */
		unsupported_format(dbdir, file, kind, r);
	else
		rc = fn(ts, dbdir, kind, r, ctx);
	rpmtsFree(ts);
	rpmlogSetCallback(was, NULL);
	r->copy = NULL;
	rpmlogSetMask(RPMLOG_UPTO(RPMLOG_CRIT));
	rpmPopMacro(NULL, "_db_backend");
	rpmPopMacro(NULL, "_dbpath");
	pthread_mutex_unlock(&db_lock);
	if (copy_fd >= 0)
		close(copy_fd);
	remove_copy(&copy);
	return rc;
}

struct census {
	const char *dbdir, *kind;
	size_t packages;
	bool owns_bin_sh;
};
static int count_packages(rpmts ts, const char *dbdir, const char *kind, struct db_read *r,
                          void *ctx);

/* Runs fn on the root's database.  A root may hold two: an empty one that
 * an image tool initialised in usr/lib/sysimage/rpm beside the populated
 * var/lib/rpm of an older rpm, or the reverse.  The first in db_layouts'
 * order that lists packages is read; one that cannot be read stops the
 * search (its error is said, never skipped for another one). */
static int with_db(const char *root, db_fn fn, struct db_read *r, void *ctx)
{
	size_t found[sizeof db_layouts / sizeof db_layouts[0]];
	size_t n = find_dbs(root, found), pick = 0;
	free(r->choice);
	r->choice = NULL;
	char *empty = n == 0 ? empty_db(root) : NULL;
	if (empty) {
		ds_error_set(&r->error, DS_ERR_IO, "cannot read %s: the file is empty (0 bytes), "
		             "no database is in it", empty);
		free(empty);
		return -1;
	}
	if (n == 0) {
		ds_error_set(&r->error, DS_ERR_IO,
		             "no rpm database in usr/lib/sysimage/rpm or var/lib/rpm");
		return -1;
	}
	for (size_t i = 0; n > 1 && i < n; i++) {
		struct census c = { 0 };
		pick = i;
		if (with_layout(root, found[i], count_packages, r, &c) != 0 || c.packages > 0)
			break;
		if (i == n - 1)
			pick = 0;   /* all empty: the first, as rpm would */
	}
	if (pick > 0) {
		const size_t e = found[0];
		r->choice = ds_xasprintf("%s/%s lists none and is not read", db_layouts[e].dir,
		                         db_layouts[e].file);
	}
	return with_layout(root, found[pick], fn, r, ctx);
}

/* The packages of the Name index (gpg-pubkey keys left out), 0 when it has
 * none or there is no such index (a bdb database with only Packages). */
static size_t index_count(rpmts ts)
{
	size_t n = 0;
	rpmdbIndexIterator ii = rpmdbIndexIteratorInit(rpmtsGetRdb(ts), RPMDBI_NAME);
	const void *key;
	size_t len;
	while (ii && rpmdbIndexIteratorNext(ii, &key, &len) == 0)
		if (len != 10 || memcmp(key, "gpg-pubkey", 10) != 0)
			n += rpmdbIndexIteratorNumPkgs(ii);
	rpmdbIndexIteratorFree(ii);
	return n;
}

/* The headers of Packages, read one by one (gpg-pubkey left out); each
 * to st when given. */
static size_t read_headers(rpmts ts, struct rpm_state *st)
{
	size_t n = 0;
	rpmdbMatchIterator mi = rpmtsInitIterator(ts, RPMDBI_PACKAGES, NULL, 0);
	Header h;
	while (mi && (h = rpmdbNextIterator(mi)) != NULL) {
		const char *name = headerGetString(h, RPMTAG_NAME);
		n += name && strcmp(name, "gpg-pubkey") != 0;
		if (st)
			add_header(st, ts, h);
	}
	rpmdbFreeIterator(mi);
	return n;
}

/* Every header and file list into a package table (open()).  A database
 * whose headers are fewer than its own index lists (pages of a torn
 * rpmdb.sqlite: librpm logs "database disk image is malformed" and its
 * iterator stops) is refused: owners read from part of it would be wrong
 * with no word.  What librpm said while reading is kept as a note. */
static int read_all(rpmts ts, const char *dbdir, const char *kind, struct db_read *r, void *ctx)
{
	struct rpm_state *st = ctx;
	st->dbdir = dbdir;
	st->kind = kind;
	forget_said(r);
	size_t n = read_headers(ts, st), listed = index_count(ts);
	if (listed && n != listed) {
		ds_error_set(&r->error, DS_ERR_IO, "cannot read %s/%s: its index lists %zu "
		             "packages, %zu could be read%s%s%s", dbdir, db_file(dbdir, kind), listed, n,
		             r->said ? " (librpm: " : "", said(r), r->said ? ")" : "");
		return -1;
	}
	if (r->said)
		st->note = ds_xasprintf("%s/%s: librpm: %s", dbdir, db_file(dbdir, kind), r->said);
	return 0;
}

/* A new handle holding root's whole database, or NULL with r->error. */
static struct rpm_state *load(const char *root, struct db_read *r)
{
	struct rpm_state *st = ds_xcalloc(1, sizeof *st);
	ds_pkgtable_init(&st->t);
	if (with_db(root, read_all, r, st) != 0) {
		free_state(st);
		return NULL;
	}
	return st;
}

/* probe(): two index look-ups, no header is read.  gpg-pubkey entries are
 * keys, not packages (add_header skips them too). */
static int count_packages(rpmts ts, const char *dbdir, const char *kind, struct db_read *r,
                          void *ctx)
{
	(void)r;
	struct census *c = ctx;
	c->dbdir = dbdir;
	c->kind = kind;
	/* without a Name index (a bdb database of Packages alone) the headers
	 * are counted: --backend auto must not call such a database empty */
	c->packages = index_count(ts);
	if (!c->packages)
		c->packages = read_headers(ts, NULL);
	static const char *const sh[] = { "/bin/sh", "/usr/bin/sh" };
	for (size_t i = 0; i < 2 && !c->owns_bin_sh; i++) {
		rpmdbMatchIterator mi = rpmtsInitIterator(ts, RPMDBI_INSTFILENAMES, sh[i], 0);
		c->owns_bin_sh = mi && rpmdbGetIteratorCount(mi) > 0;
		rpmdbFreeIterator(mi);
	}
	return 0;
}

static int marker_present(const char *root)
{
	static const char *const markers[] = {
		"etc/redhat-release", "etc/fedora-release", "etc/SuSE-release",
		"etc/system-release", NULL,
	};
	for (size_t i = 0; markers[i]; i++) {
		char *p = in_root(root, markers[i]);
		int ok = p && access(p, F_OK) == 0;
		free(p);
		if (ok)
			return 1;
	}
	return 0;
}

/* Cheap: the database is counted, not read; open() reads it, on the
 * scan's loader thread. */
static int rpm_probe(const char *root, struct ds_probe *out)
{
	memset(out, 0, sizeof *out);
	size_t found[sizeof db_layouts / sizeof db_layouts[0]];
	char *empty = find_dbs(root, found) == 0 ? empty_db(root) : NULL;
	if (empty) {
		out->detail = ds_xasprintf("cannot read %s: the file is empty (0 bytes), "
		                           "no database is in it", empty);
		out->unreadable = 1;
		free(empty);
		return 0;
	}
	if (find_dbs(root, found) == 0) {
		out->detail = ds_xstrdup("no rpm database");
		return 0;
	}
	struct census c = { 0 };
	struct db_read r = { 0 };
	if (with_db(root, count_packages, &r, &c) != 0) {
		out->detail = ds_xstrdup(ds_error_msg(&r.error));
		out->unreadable = 1;
		db_read_done(&r);
		return 0;
	}
	out->packages = c.packages;
	out->usable = c.packages > 0;
	out->owns_bin_sh = c.owns_bin_sh;
	out->native = marker_present(root);
	out->notice = r.choice != NULL;
	out->detail = ds_xasprintf("rpm database %s (%s): %zu packages%s%s", c.dbdir, c.kind,
	                           c.packages, r.choice ? "; " : "", r.choice ? r.choice : "");
	db_read_done(&r);
	return 0;
}

static void *rpm_open(const char *root, unsigned flags, void *started, struct ds_error *err)
{
	(void)flags; /* origins: rpm headers carry no archive information */
	(void)started; /* no start(): librpm reads in this thread */
	struct db_read r = { 0 };
	struct rpm_state *st = load(root, &r);
	if (!st)
		ds_error_set(err, r.error.kind, "%s", ds_error_msg(&r.error));
	else if (st->note)
		ds_error_append(err, "%s", st->note);   /* a note: the core says it */
	db_read_done(&r);
	return st;
}

/* Does spec name p, as rpm -q would: NAME, NAME.ARCH, NAME-VERSION,
 * NAME-VERSION-RELEASE, each with or without the epoch, and with .ARCH. */
static bool rpm_spec_matches(const struct ds_pkg *p, const char *spec)
{
	if (!p->name)
		return false;
	const char *evr = p->version ? p->version : "";
	const char *vr = strchr(evr, ':') ? strchr(evr, ':') + 1 : evr;
	const char *rel = strrchr(vr, '-');
	char *v = ds_xasprintf("%.*s", rel ? (int)(rel - vr) : (int)strlen(vr), vr);
	const char *forms[] = { "", evr, vr, v };
	bool hit = false;
	for (size_t i = 0; !hit && i < sizeof forms / sizeof forms[0]; i++) {
		if (i && !*forms[i])
			continue;
		char *base = i ? ds_xasprintf("%s-%s", p->name, forms[i]) : ds_xstrdup(p->name);
		char *arch = ds_xasprintf("%s.%s", base, p->arch ? p->arch : "");
		hit = !strcmp(spec, base) || (p->arch && !strcmp(spec, arch));
		free(base);
		free(arch);
	}
	free(v);
	return hit;
}

/* The first package from *id on that spec names (every instance: kernels,
 * multilib glibc.i686 and glibc.x86_64). */
static int rpm_find(void *h, const char *spec, ds_pkgid *id)
{
	return ds_pkgtable_find(&((struct rpm_state *)h)->t, spec, id, rpm_spec_matches);
}

static void rpm_close(void *h)
{
	free_state(h);
}

/* ---- .rpm package files -------------------------------------------- */

/*
 * Header and payload both through librpm, as rpm2archive reads them: the
 * payload is decompressed by rpmio and walked with rpm's archive reader,
 * which knows rpm's own cpio variants (the stripped "07070X" headers of
 * v6 packages and of v4 packages with files over 4 GiB) that a generic cpio
 * reader refuses.  File metadata comes from the header, as rpm installs it.
 */
/* A scriptlet of the header, handed out before the payload. */
struct rpm_script {
	char *path;              /* "%post", "%triggerin -- bash" */
	char *text;              /* NULL: not read (why) */
	size_t len;
	char *interp;            /* "/bin/sh", "/usr/bin/python3", "<lua>" */
	char *why;               /* malloc()ed, with text NULL */
};

struct rpm_file {
	struct ds_pkg pkg;
	struct rpm_script *scripts;
	size_t nscripts, scripts_cap, next_script;
	bool payload_only;       /* pkgfile_want: no scripts, unwanted members unread */
	long want_left;          /* ... wanted files of the header not yet read */
	int (*want)(const char *path, void *ctx);
	void *want_ctx;
	Header h;
	FD_t fd;                 /* the package file, then the decompressing stream */
	rpmfiles files;
	rpmfi fi;
	struct ds_payload pl;    /* member buffers and temporary file (pl.a unused) */
	struct ds_member last;   /* the last member read with content, for hard links */
	int last_fx;             /* its file index; -1 none */
	char *user, *group;      /* the current member's owner names, capped */
	char *hardlink;          /* the current member's other name, if any */
	int raw;                 /* the package file, for the payload digest; -1 none */
	off_t payload_at;        /* where its payload starts */
};

static void rpm_file_free(struct rpm_file *pf)
{
	for (size_t i = 0; i < pf->nscripts; i++) {
		free(pf->scripts[i].path);
		free(pf->scripts[i].text);
		free(pf->scripts[i].interp);
		free(pf->scripts[i].why);
	}
	free(pf->scripts);
	rpmfiFree(pf->fi);
	rpmfilesFree(pf->files);
	if (pf->fd)
		Fclose(pf->fd);
	if (pf->raw >= 0)
		close(pf->raw);
	headerFree(pf->h);
	ds_pkg_free(&pf->pkg);
	ds_payload_free(&pf->pl);
	free(pf->user);
	free(pf->group);
	free(pf->hardlink);
	free(pf);
}

/* The i-th string of a header tag (a string or a string array), or NULL. */
static char *tag_nth(Header h, rpmTagVal tag, uint32_t i)
{
	struct rpmtd_s td;
	char *v = NULL;
	if (!headerGet(h, tag, &td, HEADERGET_MINMEM))
		return NULL;
	if (rpmtdSetIndex(&td, (int)i) >= 0) {
		const char *str = rpmtdGetString(&td);
		v = str ? ds_xstrdup(str) : NULL;
	}
	rpmtdFreeData(&td);
	return v;
}

static uint32_t tag_count(Header h, rpmTagVal tag)
{
	struct rpmtd_s td;
	if (!headerGet(h, tag, &td, HEADERGET_MINMEM))
		return 0;
	uint32_t n = rpmtdCount(&td);
	rpmtdFreeData(&td);
	return n;
}

static int tag_uint(Header h, rpmTagVal tag, uint32_t i, uint32_t *out)
{
	struct rpmtd_s td;
	if (!headerGet(h, tag, &td, HEADERGET_MINMEM))
		return -1;
	int rc = -1;
	if (rpmtdSetIndex(&td, (int)i) >= 0 && rpmtdGetUint32(&td)) {
		*out = *rpmtdGetUint32(&td);
		rc = 0;
	}
	rpmtdFreeData(&td);
	return rc;
}

/* One scriptlet: its text (capped like any member held in memory) and
 * interpreter (-p; rpm runs /bin/sh without one).  A scriptlet without a
 * body (%post -p /sbin/ldconfig) runs no script: nothing to check. */
static void add_script(struct rpm_file *pf, char *path, char *text, char *prog)
{
	if (!text || !*text) {
		free(path);
		free(text);
		free(prog);
		return;
	}
	struct rpm_script sc = { .path = path, .text = text, .len = strlen(text),
	                         .interp = prog ? prog : ds_xstrdup("/bin/sh") };
	if (sc.len > DS_MEMBER_IN_MEMORY) {
		sc.why = ds_xasprintf("scriptlet of %zu bytes, over the %u MiB limit: not scanned",
		                      sc.len, DS_MEMBER_IN_MEMORY >> 20);
		free(sc.text);
		sc.text = NULL;
		sc.len = 0;
	}
	ds_push(pf->scripts, pf->nscripts, pf->scripts_cap, sc);
}

/* The trigger kind of a condition's flags: "in", "un", "postun", "prein". */
static const char *trigger_kind(uint32_t flags)
{
	return flags & RPMSENSE_TRIGGERPREIN ? "prein" : flags & RPMSENSE_TRIGGERUN ? "un"
	     : flags & RPMSENSE_TRIGGERPOSTUN ? "postun" : "in";
}

/* The scriptlets of a header, named as in a spec file. */
static void read_scriptlets(struct rpm_file *pf)
{
	static const struct { rpmTagVal script, prog; const char *name; } simple[] = {
		{ RPMTAG_PRETRANS, RPMTAG_PRETRANSPROG, "%pretrans" },
		{ RPMTAG_PREIN, RPMTAG_PREINPROG, "%pre" },
		{ RPMTAG_POSTIN, RPMTAG_POSTINPROG, "%post" },
		{ RPMTAG_PREUN, RPMTAG_PREUNPROG, "%preun" },
		{ RPMTAG_POSTUN, RPMTAG_POSTUNPROG, "%postun" },
		{ RPMTAG_POSTTRANS, RPMTAG_POSTTRANSPROG, "%posttrans" },
		{ RPMTAG_VERIFYSCRIPT, RPMTAG_VERIFYSCRIPTPROG, "%verifyscript" },
	};
	for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
		add_script(pf, ds_xstrdup(simple[i].name), tag_nth(pf->h, simple[i].script, 0),
		           tag_nth(pf->h, simple[i].prog, 0));
	/* triggers: script k runs for the conditions whose index is k */
	static const struct {
		rpmTagVal scripts, progs, names, index, flags;
		const char *kind;
	} trig[] = {
		{ RPMTAG_TRIGGERSCRIPTS, RPMTAG_TRIGGERSCRIPTPROG, RPMTAG_TRIGGERNAME,
		  RPMTAG_TRIGGERINDEX, RPMTAG_TRIGGERFLAGS, "%trigger" },
		{ RPMTAG_FILETRIGGERSCRIPTS, RPMTAG_FILETRIGGERSCRIPTPROG, RPMTAG_FILETRIGGERNAME,
		  RPMTAG_FILETRIGGERINDEX, RPMTAG_FILETRIGGERFLAGS, "%filetrigger" },
		{ RPMTAG_TRANSFILETRIGGERSCRIPTS, RPMTAG_TRANSFILETRIGGERSCRIPTPROG,
		  RPMTAG_TRANSFILETRIGGERNAME, RPMTAG_TRANSFILETRIGGERINDEX,
		  RPMTAG_TRANSFILETRIGGERFLAGS, "%transfiletrigger" },
	};
	for (size_t t = 0; t < sizeof trig / sizeof trig[0]; t++) {
		uint32_t nscripts = tag_count(pf->h, trig[t].scripts);
		uint32_t nconds = tag_count(pf->h, trig[t].index);
		for (uint32_t k = 0; k < nscripts; k++) {
			uint32_t idx, flags = 0;
			char *name = NULL;
			for (uint32_t c = 0; !name && c < nconds; c++)
				if (tag_uint(pf->h, trig[t].index, c, &idx) == 0 && idx == k) {
					tag_uint(pf->h, trig[t].flags, c, &flags);
					name = tag_nth(pf->h, trig[t].names, c);
				}
			char *path = ds_xasprintf("%s%s -- %s", trig[t].kind, trigger_kind(flags),
			                          name ? name : "?");
			free(name);
			add_script(pf, path, tag_nth(pf->h, trig[t].scripts, k),
			           tag_nth(pf->h, trig[t].progs, k));
		}
	}
}

/* The rpm lead's magic. */
static int rpm_pkgfile_sniff(const unsigned char *head, size_t len)
{
	static const unsigned char lead[4] = { 0xed, 0xab, 0xee, 0xdb };
	return len >= 4 && memcmp(head, lead, 4) == 0;
}

/* 1: an rpm package (lead magic); 0: not one; fd is the file, checked to
 * be a regular file. */
static int rpm_magic(const char *path, int *fdp)
{
	unsigned char magic[4];
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    pread(fd, magic, sizeof magic, 0) != (ssize_t)sizeof magic ||
	    !rpm_pkgfile_sniff(magic, sizeof magic)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	*fdp = fd;
	return 1;
}

/* Whether the compressed payload, from offset to the end of fd, has the
 * digest the header names (RPMTAG_PAYLOADDIGEST, what rpm -K checks and
 * rpm refuses to install without): 1 yes or no digest to check, 0 no,
 * -1 with errno when the file cannot be read. */
static int payload_digest_ok(Header h, int fd, off_t offset)
{
	uint32_t algo;
	char *want = tag_nth(h, RPMTAG_PAYLOADDIGEST, 0);
	if (!want || tag_uint(h, RPMTAG_PAYLOADDIGESTALGO, 0, &algo) != 0 ||
	    !rpmDigestLength((int)algo)) {
		free(want);
		return 1;
	}
	DIGEST_CTX ctx = rpmDigestInit((int)algo, RPMDIGEST_NONE);
	unsigned char buf[65536];
	ssize_t n;
	while ((n = pread(fd, buf, sizeof buf, offset)) > 0) {
		rpmDigestUpdate(ctx, buf, (size_t)n);
		offset += n;
	}
	char *got = NULL;
	rpmDigestFinal(ctx, (void **)&got, NULL, 1);
	int ok = n < 0 ? -1 : got && !strcasecmp(got, want);
	free(got);
	free(want);
	return ok;
}

static void *rpm_pkgfile_open(const char *path, const struct ds_pkg **pkg,
                              struct ds_error *err)
{
	int fd;
	if (!rpm_magic(path, &fd))
		return NULL;
	init_rpm();
	struct rpm_file *pf = ds_xcalloc(1, sizeof *pf);
	pf->last_fx = -1;
	pf->raw = -1;
	pf->fd = fdDup(fd);
	close(fd);
	rpmts ts = rpmtsCreate();
	rpmtsSetVSFlags(ts, RPMVSF_MASK_NOSIGNATURES | RPMVSF_MASK_NODIGESTS);
	rpmRC rc = pf->fd && !Ferror(pf->fd) ? rpmReadPackageFile(ts, pf->fd, path, &pf->h)
	                                      : RPMRC_FAIL;
	rpmtsFree(ts);
	if ((rc != RPMRC_OK && rc != RPMRC_NOTTRUSTED && rc != RPMRC_NOKEY) || !pf->h) {
		ds_error_set(err, DS_ERR_PARSE, "not a readable rpm package (bad or truncated header)");
		rpm_file_free(pf);
		return NULL;
	}
	pf->raw = fcntl(Fileno(pf->fd), F_DUPFD_CLOEXEC, 0);
	pf->payload_at = (off_t)Ftell(pf->fd);
	pkg_from_header(pf->h, &pf->pkg);
	/* rpmio names its decompressors as the header does ("xz", "zstd") */
	const char *compr = headerGetString(pf->h, RPMTAG_PAYLOADCOMPRESSOR);
	char mode[64];
	snprintf(mode, sizeof mode, "r.%s", compr && *compr ? compr : "gzip");
	FD_t payload = Fdopen(pf->fd, mode);
	if (!payload || Ferror(payload)) {
		ds_error_set(err, DS_ERR_PARSE, "payload: cannot decompress (%s): %s",
		             compr ? compr : "gzip", payload ? Fstrerror(payload) : "unknown compressor");
		rpm_file_free(pf);
		return NULL;
	}
	pf->fd = payload;
	pf->files = rpmfilesNew(NULL, pf->h, 0, RPMFI_KEEPHEADER);
	pf->fi = pf->files ? rpmfiNewArchiveReader(pf->fd, pf->files,
	                                           RPMFI_ITER_READ_ARCHIVE_CONTENT_FIRST)
	                   : NULL;
	if (!pf->fi) {
		ds_error_set(err, DS_ERR_PARSE, "payload: no file list in the header");
		rpm_file_free(pf);
		return NULL;
	}
	read_scriptlets(pf);
	*pkg = &pf->pkg;
	return pf;
}

/* A hard link without content of its own shares the data of the member of
 * its set read just before it (rpm's content-first order). */
static int shares_last(struct rpm_file *pf)
{
	const int *links = NULL;
	uint32_t n = rpmfiFLinks(pf->fi, &links);
	for (uint32_t i = 0; pf->last_fx >= 0 && i < n && links; i++)
		if (links[i] == pf->last_fx)
			return 1;
	return 0;
}

/* Another name of the current member's hard-link set (the header's), or
 * NULL. */
static char *other_name(struct rpm_file *pf)
{
	const int *links = NULL;
	uint32_t n = rpmfiFLinks(pf->fi, &links);
	for (uint32_t i = 0; links && i < n; i++)
		if (links[i] != rpmfiFX(pf->fi))
			return rpmfilesFN(pf->files, links[i]);
	return NULL;
}

/* rpm's archive reader as a member source (archive-members.h): it skips
 * unread data itself when the next member is asked for. */
static ssize_t rpm_source_read(void *fi, void *buf, size_t len)
{
	return rpmfiArchiveRead(fi, buf, len);
}

static const char *rpm_source_why(void *fi)
{
	(void)fi; /* rpmio decompressors fail with -1 and no message */
	return "corrupt or truncated payload";
}

/* A member of the payload the want pass must see: a wanted regular file,
 * a name of a hard-link set, a symbolic link (ds_backend.pkgfile_want). */
static bool visited(rpmfiles files, int i, int (*want)(const char *path, void *ctx), void *ctx)
{
	mode_t mode = rpmfilesFMode(files, i);
	if ((rpmfilesFFlags(files, i) & RPMFILE_GHOST) || (!S_ISREG(mode) && !S_ISLNK(mode)))
		return false;
	char *fn = rpmfilesFN(files, i);
	bool yes = fn && !skip_path(fn) &&
	           (S_ISLNK(mode) || rpmfilesFNlink(files, i) > 1 || want(fn, ctx));
	free(fn);
	return yes;
}

/* The whole payload read: its digest decides whether that is the end (0)
 * or an error (-1): members were read and judged, but the package is not
 * what its header describes, and rpm would not install it. */
static int payload_end(struct rpm_file *pf, struct ds_error *err)
{
	int ok = pf->raw >= 0 ? payload_digest_ok(pf->h, pf->raw, pf->payload_at) : -1;
	if (ok < 0)
		ds_error_set(err, DS_ERR_IO, "payload: cannot read it to check its digest: %s",
		             strerror(errno));
	else if (!ok)
		ds_error_set(err, DS_ERR_PARSE, "payload digest mismatch: the payload is not the one the "
		             "header describes (rpm -K fails, rpm refuses to install it)");
	return ok == 1 ? 0 : -1;
}

static int rpm_pkgfile_next(void *h, struct ds_member *m, struct ds_error *err)
{
	struct rpm_file *pf = h;
	if (!pf->payload_only && pf->next_script < pf->nscripts) {
		struct rpm_script *sc = &pf->scripts[pf->next_script++];
		ds_member_script(m, sc->path, (unsigned char *)sc->text, sc->len, sc->why, sc->interp);
		return 1;
	}
	if (pf->payload_only && pf->want_left == 0)
		return 0;   /* every wanted file read: the rest is not decompressed */
	for (;;) {
		int rc = rpmfiNext(pf->fi);
		if (rc == RPMERR_ITER_END)
			return payload_end(pf, err);
		const char *fn = rc >= 0 ? rpmfiFN(pf->fi) : NULL;
		if (rc < 0) {
			char *why = rpmfileStrerror(rc);
			ds_error_set(err, DS_ERR_PARSE, "payload%s%s: %s", pf->pl.path ? " after " : "",
			             pf->pl.path ? pf->pl.path : "", why ? why : "unreadable");
			free(why);
			return -1;
		}
		if (!fn || skip_path(fn))
			continue;
		free(pf->pl.path);
		pf->pl.path = ds_xstrdup(fn);
		const char *caps = rpmfiFCaps(pf->fi);   /* %caps(...) in the spec */
		/* owner and group as rpm installs them: the header's names (the
		 * payload's cpio ids are always 0) */
		free(pf->user);
		free(pf->group);
		pf->user = ds_field_dup(rpmfiFUser(pf->fi));
		pf->group = ds_field_dup(rpmfiFGroup(pf->fi));
		free(pf->hardlink);
		pf->hardlink = rpmfiFNlink(pf->fi) > 1 ? other_name(pf) : NULL;
		const char *target = rpmfiFLink(pf->fi);
		*m = (struct ds_member){ .path = pf->pl.path, .mode = rpmfiFMode(pf->fi), .fd = -1,
		                         .user = pf->user, .group = pf->group,
		                         .has_caps = caps && *caps, .caps = caps && *caps ? caps : NULL,
		                         .hardlink = pf->hardlink,
		                         .symlink = target && *target ? target : NULL };
		if (pf->want && visited(pf->files, rpmfiFX(pf->fi), pf->want, pf->want_ctx))
			pf->want_left--;
		if (!S_ISREG(m->mode))
			return 1;
		if (!rpmfiArchiveHasContent(pf->fi)) {
			if (shares_last(pf)) {
				struct ds_member link = pf->last;
				link.path = m->path;
				link.mode = m->mode;
				link.user = m->user;
				link.group = m->group;
				*m = link;
			}
			return 1; /* else: a hard link whose data this reader has not seen */
		}
		pf->last_fx = -1;
		if (ds_payload_budget(&pf->pl, (int64_t)rpmfiFSize(pf->fi), err) != 0)
			return -1;
		if (pf->want && !pf->want(m->path, pf->want_ctx))
			return 1;   /* rpm's reader skips unread data itself */
		const struct ds_member_source src = {
			rpm_source_read, NULL, rpm_source_why, pf->fi,
		};
		if (ds_member_read(&pf->pl, m, (int64_t)rpmfiFSize(pf->fi), &src) != 0) {
			ds_error_set(err, DS_ERR_PARSE, "%s: %s", m->path, m->unreadable);
			return -1; /* the stream is broken here: nothing after it is readable */
		}
		if (!m->unreadable && rpmfiFNlink(pf->fi) > 1) {
			pf->last = *m;
			pf->last_fx = rpmfiFX(pf->fi);
		}
		return 1;
	}
}

static void rpm_pkgfile_close(void *h)
{
	rpm_file_free(h);
}

/* The header lists every path: a package with none to see is not
 * decompressed at all, one with some only up to the last (the payload
 * is in path order).  %ghost files are not in the payload. */
static void rpm_pkgfile_want(void *h, int (*want)(const char *path, void *ctx), void *ctx)
{
	struct rpm_file *pf = h;
	pf->payload_only = true;
	pf->want = want;
	pf->want_ctx = ctx;
	pf->want_left = 0;
	for (int i = 0; i < (int)rpmfilesFC(pf->files); i++)
		pf->want_left += visited(pf->files, i, want, ctx);
}

static void rpm_pkgfile_limit(void *h, uint64_t max_bytes)
{
	struct rpm_file *pf = h;
	pf->pl.max_bytes = max_bytes;
}

static const struct ds_backend rpm_backend = {
	.abi = DS_BACKEND_ABI,
	.name = "rpm",
	.summary = "rpm database (librpm): Fedora, RHEL, openSUSE",
	.order = 10,
	.profile = "fedora",
	.probe = rpm_probe,
	.open = rpm_open,
	.owner_of = ds_pkgtable_owner_of,
	.count = ds_pkgtable_count,
	.find = rpm_find,
	.info = ds_pkgtable_info,
	.contents = ds_pkgtable_contents,
	.close = rpm_close,
	.pkgfile_open = rpm_pkgfile_open,
	.pkgfile_next = rpm_pkgfile_next,
	.pkgfile_close = rpm_pkgfile_close,
	.pkgfile_sniff = rpm_pkgfile_sniff,
	.pkgfile_suffixes = (const char *const[]){ ".rpm", NULL },
	.root_files = (const char *const[]){ "var/lib/rpm/", "usr/lib/sysimage/rpm/",
	                                     "etc/redhat-release", "etc/fedora-release",
	                                     "etc/SuSE-release", "etc/system-release", NULL },
	.pkgfile_want = rpm_pkgfile_want,
	.pkgfile_limit = rpm_pkgfile_limit,
};

__attribute__((visibility("default"))) const struct ds_backend *distsec_backend_entry(void)
{
	return &rpm_backend;
}
