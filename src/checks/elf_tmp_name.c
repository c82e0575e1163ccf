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
 * display lock "/tmp/.X%d-lock" or "/tmp/.X0-lock" (mutter, wlroots,
 * asmon) and the perf JIT map
 * "/tmp/perf-<pid>.map" (beam.smp, libguile: names X and perf fix, the
 * program cannot choose another), over-long
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
 * calls, only unlink, remove, chmod or chown: the name is a unix socket's
 * (wpa_ctrl's "/tmp/wpa_ctrl_%d-%d"; bind fails on an existing name, it
 * follows no link); a literal only passed to those calls, by such
 * functions, is a socket's name too (libferret's unlink("/tmp/mag_client")
 * before its bind) -- details.method "disassembly".  Where the function
 * opens other files too (jserver's main reopens stderr on a log), the
 * name's own sites are looked at (bound_socket): printed, given to those
 * calls or copied into a buffer (strcpy, strncpy, memcpy, snprintf's
 * "%s"...), each in a function that calls socket(AF_UNIX, ...), one of
 * them there reaching a bind, and no file call but unlink, remove,
 * chmod or chown reached from any of them unless given another literal:
 * the name is bound, not opened (jserver's "/tmp/jd_sockV4": unlink,
 * copied to sun_path, bind, listen, chmod); a file call given another
 * buffer than a printing's (other_buffer, below) does not count
 * (likwid-accessD's MSR device files, printed into buffers of their
 * own).  A socket's name is info with details.socket_names: bind
 * fails on any pre-made name or symlink (EADDRINUSE), so a planted name
 * only stops the program.
 *
 * Each call a name reaches is classed (use_of): exclusive -- open with a
 * constant flags argument holding O_CREAT|O_EXCL (the machine's values),
 * mkdir, mkfifo, mknod, link's or symlink's new name: an existing name or
 * symlink makes it fail, it follows none; read -- open with constant
 * read-only flags (no O_CREAT, O_TRUNC or write access); removed --
 * unlink, remove, rmdir; template -- the mkstemp family (mkstemps and
 * mkostemps with their suffix too), which opens a random name O_EXCL or
 * fails; loose -- everything else, flags not constant included.  A loose
 * or read call reached only through the success of an exclusive creation
 * (ds_site_only_after_success: a conditional jump on what mknod, mkfifo,
 * mkdir or an O_CREAT|O_EXCL open returned, whose failing arm does not
 * lead to the call; when either is given a literal, the same one) opens
 * the program's own file, a planted name having made the creation fail:
 * exclusive too (mdadm's and ledmon's mknod, then open of the node).  For
 * a printed format the file calls of the printing function that a path
 * from the printing reaches count (which buffer each gets is followed
 * only so far: one given a literal, or a global buffer other than the
 * printing's, does not get it, nor, where the printing fills a stack
 * slot, one given another slot of the frame or what an allocator
 * returned, unless a call that might copy the name is given the slot:
 * other_buffer; an mkstemp-family call counts as
 * exclusive), the exclusive creation looked for between the printing and
 * the call (smartlist's unlink, O_CREAT|O_EXCL open exiting on failure,
 * then fopen of other files and a reopen); with more than MAX_SITES of
 * either in the function, all its file calls count.  In a function that
 * binds a unix socket, a printed name reaching an exclusive creation
 * (mkdir) is a private directory for the socket: the unlink, chmod and
 * chown the printing reaches are taken for the socket's in it, not the
 * directory's (sawfish's /tmp/.sawfish-%s: mkdir 0700, on EEXIST an owner
 * and mode check, then unlink, bind and chmod of <dir>/<host>).  A name with a loose
 * use is a warning, and so is one read
 * without being created exclusively (a planted file is read).  One
 * created only exclusively (and otherwise only read or removed:
 * courier's "/tmp/.%lx.%lx" lock, snap-confine's mkdir'd and
 * O_NOFOLLOW-opened directory, dropbear's random mkdir'd directory) is
 * info with details.exclusive_names: a planted name or link makes the
 * call fail (a denial of service at most), no write follows it.  One only
 * removed (and perhaps tested with stat or access) is info with
 * details.removed_names: unlink removes a planted link, not its target,
 * and nothing is read or written through the name -- the check's claim
 * is a file created or read under a name another user can plant.  Such a
 * literal is looked up once more in every imported call: given to any
 * other (a C++ stream's open, QString for QProcess's output file,
 * posix_spawn's file actions), what happens to it is not known and it
 * stays a warning.
 * A literal reaching only the mkstemp family is a template, not reported.
 * In a program or a library (not a program offering an API), a name
 * that would be a warning but whose every use -- each file call given it,
 * each printing of it as a format -- is in a function nothing in the
 * file can run (ds_site_unreached: gcin's debug printer linked into
 * helpers that never call it, ohcount's log_it; in a library, a function
 * it does not export, libindigo's unused SharedMemory constructor; a
 * library's exports are what its callers run) is dead code: info with
 * details.dead_names and the reason the other checks give; one live use
 * keeps it a warning.  The question is asked once per function, for
 * the warned names only, and answered on x86 and aarch64.
 * Without a decoder, every candidate is reported (details.method
 * "imports").  A file importing mkstemp is judged like any other: it may
 * still use other fixed names.
 */
#include <ctype.h>
#include <elf.h>
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
#define MAX_KEPT 4

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
	{ "__xmknod", 2 }, { "__xmknodat", 4 },
	{ "unlink", 1 }, { "unlinkat", 2 }, { "remove", 1 }, { "rmdir", 1 },
	{ "rename", 3 }, { "renameat", 10 }, { "renameat2", 10 },
	{ "link", 3 }, { "linkat", 10 }, { "symlink", 2 }, { "symlinkat", 4 },
	{ "truncate", 1 }, { "truncate64", 1 }, { "chmod", 1 }, { "chown", 1 }, { "lchown", 1 },
};
#define NPATH_CALLS (sizeof path_calls / sizeof path_calls[0])

/* The mkstemp family: they replace the template's XXXXXX with random
 * characters (mkstemps and mkostemps keep a suffix of the length their
 * last argument gives) and create the result with O_CREAT|O_EXCL, or
 * fail (EINVAL on a template without them): whatever a name reaching
 * them says, no fixed name is opened. */
static const struct path_call template_calls[] = {
	{ "mkstemp", 1 }, { "mkstemp64", 1 }, { "mkostemp", 1 }, { "mkostemp64", 1 },
	{ "mkstemps", 1 }, { "mkstemps64", 1 }, { "mkostemps", 1 }, { "mkostemps64", 1 },
	{ "mkdtemp", 1 },
};
#define NTEMPLATE_CALLS (sizeof template_calls / sizeof template_calls[0])

/* Calls building a name from a format (argument bit): "/tmp/.nstat.u%d"
 * printed into a buffer by a function that also creates a file is a
 * predictable name too (a uid or pid is no secret). */
static const struct format_call {
	const char *name;
	unsigned args; /* the format argument (bit) */
	int into;      /* the buffer printed into; -1: the text is returned */
} format_calls[] = {
	{ "sprintf", 2, 0 }, { "snprintf", 4, 0 }, { "asprintf", 2, -1 }, { "__sprintf_chk", 8, 0 },
	{ "__snprintf_chk", 16, 0 }, { "__asprintf_chk", 4, -1 }, { "g_strdup_printf", 1, -1 },
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

/* What a file call does with a name (enum use, bits). */
enum use {
	USE_READ = 1,    /* opens it read-only: no write, but a planted file is read */
	USE_EXCL = 2,    /* creates it exclusively: fails on an existing name or link */
	USE_LOOSE = 4,   /* anything else: creates, writes, renames, chmods through it */
	USE_GONE = 8,    /* removes it: unlink removes a link, not what it points to */
	USE_TEMPLATE = 16,   /* an mkstemp-family template: a random name, made O_EXCL */
	USE_OTHER = 32,  /* handed to a call not classed here (a C++ stream, a QString) */
};

struct cand {
	uint64_t addr;
	size_t len;
	char text[128];
	unsigned uses;        /* enum use bits of the calls it reaches */
	uint64_t format_fn;   /* a function printing it into a name, or 0 */
	unsigned fmt_uses;    /* enum use bits of the file calls a printing reaches */
	unsigned fmt_sock;    /* the same of its socket_ok calls (a socket's in it?) */
	bool fmt_all;         /* too many calls to tell: its function's all count */
	bool made;            /* passed to a file call other than socket_ok's */
	bool other;           /* given to a call not classed here, not a copy */
	bool sock_bad;        /* a use of it not a bound unix socket's (bound_socket) */
	bool sock;            /* a unix socket's name: bind creates it */
	uint16_t nsock;       /* its name sites (printings, socket_ok calls, copies) */
	uint8_t nkept;        /* functions passing it to socket_ok calls (MAX_KEPT+1: more) */
	uint64_t kept_fn[MAX_KEPT];
	uint8_t reach;        /* enum reach bits of the functions using it (dead_uses) */
};

/* Where a warned name's uses are (dead_uses). */
enum reach {
	REACH_ASKED = 1,   /* a warning: its uses are looked at */
	REACH_DEAD = 2,    /* a use in a function ds_site_unreached says is dead */
	REACH_LIVE = 4,    /* a use anywhere else, or the question not answered */
	REACH_CONST = 8,   /* a use behind a test no value of a global passes
	                      (ds_site_const_dead), or in a function whose
	                      every call is (ds_site_callers_const_dead) */
};

#define MAX_SITES 32

/* A call of the function being read: a file call and its use, or a
 * printing of candidate cand. */
struct fsite {
	uint64_t addr;
	unsigned uses;
	size_t cand;
	struct ds_argsrc name;   /* a file call's path argument, a printing's buffer */
	bool kept;               /* a file call of socket_ok's; a name site reaching a bind */
	bool has_slot;           /* name is the address of a stack slot: slot */
	struct ds_slot slot;
	const char *fresh;       /* a file call's path is what this allocator returned */
};

/* Whether a printed stack buffer is given to a call that may copy it
 * where a file call might get it (ds_site_slot_passed), asked once per
 * printing and file call. */
struct passed {
	uint64_t print, call;
	bool yes;
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
	uint64_t excl_fns[MAX_FNS];   /* functions with a USE_EXCL file call */
	size_t nexcl_fns;
	uint64_t read_fns[MAX_FNS];   /* functions with a USE_READ file call */
	size_t nread_fns;
	uint64_t gone_fns[MAX_FNS];   /* functions with a USE_GONE file call */
	size_t ngone_fns;
	uint64_t loose_fns[MAX_FNS];  /* functions with a USE_LOOSE file call */
	size_t nloose_fns;
	unsigned o_creat, o_excl, o_trunc;   /* the machine's open(2) flags, 0: unknown */
	uint64_t site_fn;                 /* the function the sites below are in */
	struct fsite files[MAX_SITES], prints[MAX_SITES];
	size_t nfiles, nprints;
	bool sites_over;                  /* more than MAX_SITES of either in it */
	/* where a name is made or handed on in it (bound_socket): printed,
	 * given to a socket_ok call or copied; kept: a bind follows */
	struct fsite names[MAX_SITES];
	size_t nnames;
	uint64_t binds[MAX_SITES];
	size_t nbinds;
	bool unix_socket;                 /* it calls socket(AF_UNIX, ...) */
	struct passed passed[MAX_SITES];
	size_t npassed;
};

/* Calls that create their path argument (bit) exclusively: they fail on
 * an existing name, a symlink included, and follow none. */
static const struct path_call excl_calls[] = {
	{ "mkdir", 1 }, { "mkdirat", 2 }, { "mkfifo", 1 }, { "mkfifoat", 2 },
	{ "mknod", 1 }, { "mknodat", 2 }, { "__xmknod", 2 }, { "__xmknodat", 4 },
	{ "link", 2 }, { "linkat", 8 }, { "symlink", 2 }, { "symlinkat", 4 },
};
#define NEXCL_CALLS (sizeof excl_calls / sizeof excl_calls[0])

/* Calls that may create a name exclusively and return -1 on failure (an
 * open only with O_CREAT|O_EXCL: made_first checks): an open reached only
 * when one of them succeeded opens what the program itself just made. */
static const char *const creations[] = {
	"mkdir", "mkdirat", "mkfifo", "mkfifoat", "mknod", "mknodat", "__xmknod", "__xmknodat",
	"open", "open64", "__open_2", "__open64_2", "openat", "openat64", "__openat_2",
	"__openat64_2", NULL,
};

/* Calls that remove a name: they write nothing through a link. */
static const char *const removals[] = { "unlink", "unlinkat", "remove", "rmdir", NULL };

/* Calls that only test a name: they neither open nor change it. */
static const char *const tests[] = {
	"stat", "stat64", "lstat", "lstat64", "__xstat", "__xstat64", "__lxstat", "__lxstat64",
	"fstatat", "fstatat64", "__fxstatat", "__fxstatat64", "statx", "access", "faccessat",
	"euidaccess", "eaccess", NULL,
};

/* Calls returning fresh memory: a name printed into a stack buffer is
 * not in it unless a call given the buffer copies it there. */
static const char *const allocators[] = {
	"malloc", "calloc", "realloc", "reallocarray", "g_malloc", "g_malloc0", "g_malloc_n",
	"g_malloc0_n", "g_realloc", "_Znwm", "_Znam", "_Znwj", "_Znaj", NULL,
};

/* Calls given a printed buffer that copy it into no memory of the
 * program: they connect to it, print, measure or compare it, or only
 * write into it (a frame's slot reused for a struct stat). */
static const char *const no_copy[] = {
	"connect", "bind", "perror", "puts", "fputs", "printf", "__printf_chk", "fprintf",
	"__fprintf_chk", "syslog", "__syslog_chk", "strlen", "strcmp", "strncmp", "fstat",
	"fstat64", "__fxstat", "__fxstat64", "read", "__read_chk", "memset", NULL,
};

/* File calls a socket's name also gets: a stale one removed, its mode set. */
static const char *const socket_ok[] = { "unlink", "unlinkat", "remove", "chmod", "chown", "lchown", NULL };

/* Calls copying a name into a buffer (a sockaddr_un's sun_path), as an
 * argument other than a format: they open nothing. */
static const char *const copies[] = {
	"strcpy", "strncpy", "stpcpy", "stpncpy", "memcpy", "memmove", "strlcpy", "g_strlcpy",
	"__strcpy_chk", "__strncpy_chk", "__stpcpy_chk", "__stpncpy_chk", "__memcpy_chk",
	"__memmove_chk", "sprintf", "snprintf", "__sprintf_chk", "__snprintf_chk", NULL,
};

#define NCOPIES (sizeof copies / sizeof copies[0] - 1)

/* AF_UNIX (AF_LOCAL), the same on every Linux machine. */
#define DS_AF_UNIX 1

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

/* The perf JIT map "/tmp/perf-<pid>.map" (beam.smp, libguile, V8): the
 * perf tool reads that name (tools/perf/Documentation/jit-interface.txt),
 * so the program cannot choose another; not its predictable-name bug. */
static bool perf_map(const char *s)
{
	if (strncmp(s, "/tmp/perf-%", 11) != 0)
		return false;
	const char *p = s + 11;
	while (*p == 'h' || *p == 'l' || *p == 'j' || *p == 'z' || *p == 't')
		p++;   /* length modifiers */
	return (*p == 'd' || *p == 'i' || *p == 'u') && strcmp(p + 1, ".map") == 0;
}

/* The X display lock of a numbered display, "/tmp/.X0-lock" (asmon reads
 * it for the X server's pid): like "/tmp/.X%d-lock", a name X fixes and
 * makes O_EXCL. */
static bool x_lock(const char *s)
{
	if (strncmp(s, "/tmp/.X", 7) != 0)
		return false;
	const char *p = s + 7;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return strcmp(p, "-lock") == 0;
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
	if (perf_map(s) || x_lock(s))
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
		*c = (struct cand){ .addr = addr, .len = len };
		snprintf(c->text, sizeof c->text, "%s", s);
	}
	return 0;
}

static bool in_list(const char *const *v, const char *s)
{
	for (; *v; v++)
		if (strcmp(*v, s) == 0)
			return true;
	return false;
}

static unsigned args_of(const char *callee, const struct path_call *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(callee, v[i].name) == 0)
			return v[i].args;
	return 0;
}

static const struct format_call *format_of(const char *callee)
{
	for (size_t i = 0; i < NFORMAT_CALLS; i++)
		if (strcmp(callee, format_calls[i].name) == 0)
			return &format_calls[i];
	return NULL;
}

static unsigned format_args(const char *callee)
{
	const struct format_call *f = format_of(callee);
	return f ? f->args : 0;
}

/* open(2)'s O_CREAT, O_EXCL and O_TRUNC on the machines with a decoder:
 * the generic values (asm-generic/fcntl.h) on x86-64, x32, i386, aarch64,
 * s390x, powerpc and arm (their own fcntl.h changes other flags only);
 * mips's own (arch/mips/include/uapi/asm/fcntl.h).  Elsewhere (alpha,
 * parisc, sparc differ) unknown: every open counts as USE_LOOSE. */
static void open_flags(const struct ds_elfview *v, struct found *fd)
{
	if (v->machine == EM_X86_64 || v->machine == EM_386 || v->machine == EM_AARCH64 ||
	    v->machine == EM_S390 || v->machine == EM_PPC64 || v->machine == EM_PPC ||
	    v->machine == EM_ARM) {
		fd->o_creat = 0100;
		fd->o_excl = 0200;
		fd->o_trunc = 01000;
	} else if (v->machine == EM_MIPS) {
		fd->o_creat = 0x100;
		fd->o_excl = 0x400;
		fd->o_trunc = 0x200;
	}
}

/* Which argument of an open-family call holds its flags, or -1. */
static int flags_arg(const char *callee)
{
	if (strncmp(callee, "openat", 6) == 0 || strncmp(callee, "__openat", 8) == 0)
		return 2;
	if (strncmp(callee, "open", 4) == 0 || strncmp(callee, "__open", 6) == 0)
		return 1;
	return -1;
}

/* What the call does with its path argument n (-1: whichever it is):
 * an open with constant flags holding O_CREAT|O_EXCL, or mkdir, mknod,
 * link's new name, creates exclusively; an open with constant read-only
 * flags (no O_CREAT, O_TRUNC, write access) or a removal writes nothing;
 * the rest, and flags not known, is loose. */
static unsigned use_of(const struct found *fd, const struct ds_site *site, const char *callee, int n)
{
	int fa = flags_arg(callee);
	if (fa >= 0) {
		struct ds_argsrc a = ds_site_arg(site, (unsigned)fa);
		if (a.kind != DS_SRC_CONST || !fd->o_creat)
			return USE_LOOSE;
		uint64_t fl = (uint64_t)a.value, ce = fd->o_creat | fd->o_excl;
		if ((fl & ce) == ce)
			return USE_EXCL;
		return fl & (fd->o_creat | fd->o_trunc | 3) ? USE_LOOSE : USE_READ;
	}
	unsigned excl = args_of(callee, excl_calls, NEXCL_CALLS);
	if (excl)
		return n < 0 || (excl & (1u << n)) ? USE_EXCL : USE_LOOSE;
	return in_list(removals, callee) ? USE_GONE : USE_LOOSE;
}

/* The path argument of a file call (the first its path_calls bits name). */
static int path_arg(const char *callee)
{
	unsigned a = args_of(callee, path_calls, NPATH_CALLS);
	for (int n = 0; n < 6; n++)
		if (a & (1u << n))
			return n;
	return -1;
}

struct made {
	const struct found *fd;
	struct ds_argsrc name;   /* what the open is given */
};

/* The exclusive creation guarding an open: it creates exclusively, and
 * when either call is given a literal, the other is given the same one
 * (a buffer is not followed: any buffer counts). */
static bool made_first(const struct ds_site *call, void *ctx)
{
	const struct made *m = ctx;
	const char *callee = ds_site_callee(call);
	int n = path_arg(callee);
	if (n < 0 || !(use_of(m->fd, call, callee, n) & USE_EXCL))
		return false;
	struct ds_argsrc a = ds_site_arg(call, (unsigned)n);
	if (a.kind == DS_SRC_ADDR || m->name.kind == DS_SRC_ADDR)
		return a.kind == m->name.kind && a.value == m->name.value;
	return true;
}

/* A file call (to: its address; 0, the site) with path argument name
 * reached from from (0: its function's start) only once an exclusive
 * creation of the same name succeeded (mdadm's and ledmon's mknod, then
 * open of the node; smartlist's unlink, open O_CREAT|O_EXCL, exit on
 * failure): the name is the program's own file by then, a planted one
 * made the creation fail. */
static bool after_own_creation(const struct found *fd, const struct ds_site *site, uint64_t from,
                               uint64_t to, struct ds_argsrc name)
{
	struct made m = { fd, name };
	return ds_site_only_after_success(site, from, to, creations, made_first, &m);
}

/* A call given a printed buffer as argument n that puts the name in no
 * other memory (it opens, removes, tests, connects to, prints, measures
 * or only writes the buffer: a copy's or printing's destination),
 * or in none the file call asking might get: a copy into another slot of
 * the frame (sun_path), not the file call's, which is given to no call
 * that might copy it on (a bind, a connect: depth 1). */
struct other_ask {
	const struct fsite *call;   /* the file call: its slot or fresh memory */
	bool nested;                /* asked about a copy's destination */
};

static bool keeps_name(const struct ds_site *call, unsigned n, void *ctx)
{
	struct other_ask *ask = ctx;
	const char *callee = ds_site_callee(call);
	if (!callee)
		return false;
	if (args_of(callee, path_calls, NPATH_CALLS) || in_list(removals, callee) ||
	    in_list(tests, callee) || in_list(no_copy, callee) || (n == 0 && in_list(copies, callee)))
		return true;
	struct ds_slot d;
	if (ask->nested || !in_list(copies, callee) || !ds_site_arg_slot(call, 0, &d))
		return false;
	const struct fsite *fc = ask->call;
	if (fc->has_slot && d.base == fc->slot.base && d.key == fc->slot.key)
		return false;
	struct other_ask inner = { fc, true };
	return !ds_site_slot_passed(call, &d, ds_site_addr(call), keeps_name, &inner);
}

/* A file call given another buffer than the stack buffer a printing
 * reaching it filled -- another slot of the frame (likwid's device names
 * printed into their own buffers), or fresh memory from an allocator
 * (libsndio prints its socket's name into a sockaddr it connects to, then
 * opens a cookie file named in malloc'd memory) -- when no call but the
 * printing and keeps_name's is given the printed slot, which might put
 * the name into the other (snprintf(path, n, "%s/%s", dir, host)). */
static bool other_buffer(struct found *fd, const struct ds_site *site, const struct fsite *print,
                         const struct fsite *call)
{
	if (!print->has_slot)
		return false;
	if (call->has_slot ? call->slot.base != print->slot.base || call->slot.key == print->slot.key
	                   : !call->fresh)
		return false;
	for (size_t j = 0; j < fd->npassed; j++) {
		const struct passed *p = &fd->passed[j];
		if (p->print == print->addr && p->call == call->addr)
			return !p->yes;
	}
	struct other_ask ask = { call, false };
	bool yes = ds_site_slot_passed(site, &print->slot, print->addr, keeps_name, &ask);
	if (fd->npassed < MAX_SITES)
		fd->passed[fd->npassed++] = (struct passed){ print->addr, call->addr, yes };
	return !yes;
}

/* What a file call does to the name a printing reaching it made: nothing
 * when it is given a literal (or a global buffer) other than the
 * printing's buffer, or another buffer (other_buffer); exclusive when it
 * is reached only after the name's own exclusive creation succeeded. */
static unsigned use_after(struct found *fd, const struct ds_site *site, const struct fsite *print,
                          const struct fsite *call)
{
	if (call->name.kind == DS_SRC_ADDR &&
	    (print->name.kind != DS_SRC_ADDR || print->name.value != call->name.value))
		return 0;
	if (other_buffer(fd, site, print, call))
		return 0;
	if (!(call->uses & (USE_LOOSE | USE_READ)))
		return call->uses;
	return after_own_creation(fd, site, print->addr, call->addr, call->name) ? USE_EXCL
	                                                                          : call->uses;
}

/* A file call reached from a name site that may be given the name: not
 * one of socket_ok's, nor given a literal (or a global buffer) other
 * than the site's, nor another buffer (use_after's tests). */
static bool may_get(struct found *fd, const struct ds_site *site, const struct fsite *name,
                    const struct fsite *call)
{
	if (call->kept)
		return false;
	if (call->name.kind == DS_SRC_ADDR)
		return name->name.kind == DS_SRC_ADDR && name->name.value == call->name.value;
	return !other_buffer(fd, site, name, call);
}

/* Where candidate i is made (printed) or handed on (given to a
 * socket_ok call, copied) in the function, name its buffer or the
 * literal: a bind before it that it reaches keeps it, a file call that
 * may get the name and that it reaches spoils it (bound_socket). */
static void name_site(struct found *fd, const struct ds_site *site, size_t i, struct ds_argsrc name,
                      int buf)
{
	struct cand *k = &fd->c[i];
	if (k->nsock < UINT16_MAX)
		k->nsock++;
	if (fd->nnames == MAX_SITES || fd->sites_over) {
		k->sock_bad = true;
		return;
	}
	uint64_t at = ds_site_addr(site);
	struct fsite *ns = &fd->names[fd->nnames++];
	*ns = (struct fsite){ .addr = at, .cand = i, .name = name };
	if (buf >= 0)   /* the buffer a printing fills */
		ns->has_slot = ds_site_arg_slot(site, (unsigned)buf, &ns->slot);
	for (size_t j = 0; j < fd->nbinds && !ns->kept; j++)
		ns->kept = ds_site_path(site, at, fd->binds[j]);
	for (size_t j = 0; j < fd->nfiles; j++)
		if (may_get(fd, site, ns, &fd->files[j]) && ds_site_path(site, at, fd->files[j].addr))
			k->sock_bad = true;
}

/* A bind of the function: the name sites before it that reach it. */
static void bind_site(struct found *fd, const struct ds_site *site)
{
	uint64_t at = ds_site_addr(site);
	if (fd->nbinds < MAX_SITES)
		fd->binds[fd->nbinds++] = at;
	for (size_t j = 0; j < fd->nnames; j++)
		if (!fd->names[j].kept)
			fd->names[j].kept = ds_site_path(site, fd->names[j].addr, at);
}

/* The end of a function's sites: a name handled there is a socket's only
 * when the function makes an AF_UNIX socket and one of the name's sites
 * there reaches a bind (a stale socket removed first, its mode set
 * after). */
static void names_end(struct found *fd)
{
	for (size_t j = 0; j < fd->nnames; j++) {
		bool bound = false;
		for (size_t m = 0; m < fd->nnames && !bound; m++)
			bound = fd->names[m].cand == fd->names[j].cand && fd->names[m].kept;
		if (!fd->unix_socket || !bound)
			fd->c[fd->names[j].cand].sock_bad = true;
	}
	fd->nnames = fd->nbinds = 0;
	fd->unix_socket = false;
}

/* A file call reached from a printing of k: a socket_ok call's use is
 * kept apart (the socket's in the directory, when the function binds). */
static void print_use(struct cand *k, const struct fsite *call, unsigned uses)
{
	if (call->kept)
		k->fmt_sock |= uses;
	else
		k->fmt_uses |= uses;
}

/* A file call of the function: the printings before it that reach it
 * give it their names. */
static void file_site(struct found *fd, const struct ds_site *site, unsigned uses, int n)
{
	uint64_t at = ds_site_addr(site);
	if (fd->nfiles == MAX_SITES) {
		fd->sites_over = true;
		for (size_t j = 0; j < fd->nprints; j++)
			fd->c[fd->prints[j].cand].fmt_all = true;
		for (size_t j = 0; j < fd->nnames; j++)
			fd->c[fd->names[j].cand].sock_bad = true;
		return;
	}
	struct fsite *fs = &fd->files[fd->nfiles++];
	*fs = (struct fsite){ .addr = at, .uses = uses, .name = { .kind = DS_SRC_UNKNOWN },
	                      .kept = in_list(socket_ok, ds_site_callee(site)) };
	if (n >= 0) {
		fs->name = ds_site_arg(site, (unsigned)n);
		fs->has_slot = ds_site_arg_slot(site, (unsigned)n, &fs->slot);
		const char *r = fs->has_slot ? NULL : ds_site_arg_returned(site, (unsigned)n);
		fs->fresh = r && in_list(allocators, r) ? r : NULL;
	}
	for (size_t j = 0; j < fd->nprints; j++)
		if (ds_site_path(site, fd->prints[j].addr, at))
			print_use(&fd->c[fd->prints[j].cand], fs, use_after(fd, site, &fd->prints[j], fs));
	for (size_t j = 0; j < fd->nnames; j++)
		if (may_get(fd, site, &fd->names[j], fs) && ds_site_path(site, fd->names[j].addr, at))
			fd->c[fd->names[j].cand].sock_bad = true;
}

/* A printing of candidate i: the file calls before it (in address order)
 * that it reaches are the name's uses; those after, file_site. */
static void print_site(struct found *fd, const struct ds_site *site, size_t i)
{
	uint64_t at = ds_site_addr(site);
	if (fd->nprints == MAX_SITES || fd->sites_over) {
		fd->c[i].fmt_all = true;
		return;
	}
	struct fsite *p = &fd->prints[fd->nprints++];
	*p = (struct fsite){ .addr = at, .cand = i, .name = { .kind = DS_SRC_UNKNOWN } };
	/* the buffer: the first argument of sprintf and snprintf and their
	 * _chk twins (asprintf's is a pointer to it) */
	if (strstr(ds_site_callee(site), "printf") && !strstr(ds_site_callee(site), "asprintf") &&
	    strcmp(ds_site_callee(site), "g_strdup_printf") != 0) {
		p->name = ds_site_arg(site, 0);
		p->has_slot = ds_site_arg_slot(site, 0, &p->slot);
	}
	for (size_t j = 0; j < fd->nfiles; j++)
		if (ds_site_path(site, at, fd->files[j].addr))
			print_use(&fd->c[i], &fd->files[j], use_after(fd, site, p, &fd->files[j]));
}

/* The candidate naming the string at address at, which starts at "/tmp/"
 * or "/var/tmp/", or fd->nc.  A string read from inside a candidate (the
 * linker merged a shorter string into a longer one's tail, or the longer
 * one is no string: 16-byte constants with no NUL that a program copies
 * to its stack, run on into the next string) is the tail from there: a
 * candidate of its own, so that the name shown is the one used. */
static size_t named_at(struct found *fd, uint64_t at)
{
	size_t in = fd->nc, off = 0;
	for (size_t i = 0; i < fd->nc; i++) {
		struct cand *k = &fd->c[i];
		if (at < k->addr || at >= k->addr + k->len)
			continue;
		size_t o = (size_t)(at - k->addr);
		const char *p = o < sizeof k->text ? k->text + o : "";
		if (strncmp(p, "/tmp/", 5) != 0 && strncmp(p, "/var/tmp/", 9) != 0)
			continue;
		if (!o)
			return i;
		if (in == fd->nc) {
			in = i;
			off = o;
		}
	}
	if (in == fd->nc || fd->nc == MAX_CANDS)
		return in;
	struct cand *k = &fd->c[in], *t = &fd->c[fd->nc];
	*t = (struct cand){ .addr = at, .len = k->len - off };
	size_t n = strnlen(k->text + off, sizeof t->text - 1);
	memcpy(t->text, k->text + off, n);   /* another element: no overlap */
	t->text[n] = '\0';
	return fd->nc++;
}

/* Argument n of the site, when args (bits) names it and it is an
 * address or a constant: where a literal would be. */
static bool literal_arg(const struct ds_site *site, unsigned args, unsigned n, uint64_t *at)
{
	if (!(args & (1u << n)))
		return false;
	struct ds_argsrc a = ds_site_arg(site, n);
	*at = (uint64_t)a.value;
	return a.kind == DS_SRC_ADDR || a.kind == DS_SRC_CONST;
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
	const struct format_call *printer = format_of(callee);
	unsigned fmt = printer ? printer->args : 0;
	unsigned tmpl = args_of(callee, template_calls, NTEMPLATE_CALLS);
	uint64_t fn = ds_site_function(site);
	if (fn != fd->site_fn) {
		names_end(fd);
		fd->site_fn = fn;
		fd->nfiles = fd->nprints = fd->npassed = 0;
		fd->sites_over = false;
	}
	if (strcmp(callee, "bind") == 0) {
		add_fn(fd->bind_fns, &fd->nbind_fns, fn);
		bind_site(fd, site);
		return 0;
	}
	if (strcmp(callee, "socket") == 0) {
		struct ds_argsrc dom = ds_site_arg(site, 0);
		if (dom.kind == DS_SRC_CONST && dom.value == DS_AF_UNIX)
			fd->unix_socket = true;
		return 0;
	}
	uint64_t at;
	for (unsigned n = 0; in_list(copies, callee) && n < 6; n++) {
		size_t i = fmt & (1u << n) || !literal_arg(site, 0x3f, n, &at) ? fd->nc : named_at(fd, at);
		if (i < fd->nc)
			name_site(fd, site, i, ds_site_arg(site, n), -1);
	}
	/* an open of what the function's own exclusive creation made */
	unsigned u0 = args ? use_of(fd, site, callee, -1) : 0;
	int pa = args ? path_arg(callee) : -1;
	bool own = pa >= 0 && (u0 & (USE_LOOSE | USE_READ)) && !in_list(removals, callee) &&
	           after_own_creation(fd, site, 0, 0, ds_site_arg(site, (unsigned)pa));
	if (args || tmpl)
		file_site(fd, site, tmpl ? USE_EXCL : own ? USE_EXCL : u0, tmpl ? 0 : pa);
	if (args) {
		add_fn(fd->file_fns, &fd->nfile_fns, fn);
		unsigned u = own ? USE_EXCL : u0;
		if (u & USE_EXCL)
			add_fn(fd->excl_fns, &fd->nexcl_fns, fn);
		if (u & USE_LOOSE)
			add_fn(fd->loose_fns, &fd->nloose_fns, fn);
		if (u & USE_READ)
			add_fn(fd->read_fns, &fd->nread_fns, fn);
		if (u & USE_GONE)
			add_fn(fd->gone_fns, &fd->ngone_fns, fn);
	}
	if (tmpl) {
		/* for a name the function prints, a random file made O_EXCL */
		add_fn(fd->file_fns, &fd->nfile_fns, fn);
		add_fn(fd->excl_fns, &fd->nexcl_fns, fn);
	}
	bool kept = args && in_list(socket_ok, callee);
	if (args && !kept)
		add_fn(fd->make_fns, &fd->nmake_fns, fn);
	args |= fmt | tmpl;
	for (unsigned n = 0; n < 6; n++) {
		if (!literal_arg(site, args, n, &at))
			continue;
		size_t i = named_at(fd, at);
		if (i < fd->nc) {
			struct cand *k = &fd->c[i];
			if (fmt & (1u << n)) {
				k->format_fn = fn;
				print_site(fd, site, i);
				/* the buffer, as print_site reads it */
				struct ds_argsrc buf = { .kind = DS_SRC_UNKNOWN };
				if (printer->into >= 0)
					buf = ds_site_arg(site, (unsigned)printer->into);
				name_site(fd, site, i, buf, printer->into);
				continue;
			}
			if (tmpl & (1u << n)) {
				k->uses |= USE_TEMPLATE;
				continue;
			}
			k->uses |= own ? USE_EXCL : use_of(fd, site, callee, (int)n);
			if (!kept)
				k->made = true;
			else
				name_site(fd, site, i, ds_site_arg(site, n), -1);
			if (kept && k->nkept <= MAX_KEPT && (!k->nkept || k->kept_fn[k->nkept - 1] != fn)) {
				if (k->nkept < MAX_KEPT)
					k->kept_fn[k->nkept] = fn;
				k->nkept++;
			}
		}
	}
	return 0;
}

/* Any imported call given a literal that so far is only removed: unless
 * it is a removal or a test, what it does with the name is not known (a
 * C++ stream's open, a QString handed to QFile or QProcess). */
static int on_other(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	(void)c;
	struct found *fd = ctx;
	const char *callee = ds_site_callee(site);
	if (in_list(removals, callee) || in_list(tests, callee))
		return 0;
	for (unsigned n = 0; n < 6; n++) {
		struct ds_argsrc a = ds_site_arg(site, n);
		if (a.kind != DS_SRC_ADDR && a.kind != DS_SRC_CONST)
			continue;
		for (size_t i = 0; i < fd->nc; i++) {
			struct cand *k = &fd->c[i];
			uint64_t at = (uint64_t)a.value;
			if (k->uses == USE_GONE && at >= k->addr && at < k->addr + k->len) {
				k->uses |= USE_OTHER;
				k->other |= !in_list(copies, callee);
			}
		}
	}
	return 0;
}

/* The literals only removed so far: every imported call they reach is
 * looked at once more; false when the reading was cut short. */
static bool removed_only(const struct ds_elfview *v, struct ds_code *c, struct found *fd,
                         struct ds_range *refs)
{
	size_t nr = 0;
	for (size_t i = 0; i < fd->nc; i++)
		if (fd->c[i].uses == USE_GONE && !fd->c[i].format_fn)
			refs[nr++] = (struct ds_range){ fd->c[i].addr, fd->c[i].addr + fd->c[i].len };
	if (!nr || !v->nimports)
		return true;
	const char **all = ds_xcalloc(v->nimports + 1, sizeof *all);
	for (size_t i = 0; i < v->nimports; i++)
		all[i] = v->imports[i];
	int n = ds_code_each_call_ref(c, all, refs, nr, on_other, fd);
	free(all);
	return n >= 0 && !ds_code_capped(c);
}

/* A function that binds a socket and, of the file calls, only removes,
 * chmods or chowns: the names it handles are the socket's (bind fails on
 * an existing name, it follows no link). */
static bool socket_fn(const struct found *fd, uint64_t fn)
{
	return has_fn(fd->bind_fns, fd->nbind_fns, fn) && !has_fn(fd->make_fns, fd->nmake_fns, fn);
}

/* A literal only removed (or chmod'ed) by socket functions before they
 * bind: libferret's unlink("/tmp/mag_client") then bind. */
static bool socket_name(const struct found *fd, const struct cand *k)
{
	if (k->made || !k->nkept || k->nkept > MAX_KEPT)
		return false;
	for (size_t j = 0; j < k->nkept; j++)
		if (!socket_fn(fd, k->kept_fn[j]))
			return false;
	return true;
}

/* A name whose sites (name_site) all are in functions making an AF_UNIX
 * socket, at least one there reaching its bind, with no file call
 * reached from them that might be given the name but socket_ok's; given
 * itself to no other file call, nor to a call not classed here but a
 * copy (into sun_path): a unix socket's name, which bind creates or
 * fails on (jserver's unlink, bind, chmod of "/tmp/jd_sockV4"; likwid's
 * snprintf of "/tmp/likwid-%d", strncpy to sun_path, bind, chmod). */
static bool bound_socket(const struct cand *k)
{
	return k->nsock && !k->sock_bad && !k->made && !k->other;
}

/* A name with a loose use, or read without being created exclusively
 * (a planted file is read unless the program made the name itself), or
 * any name when the code was not read: a warning. */
static bool warned(const struct cand *k, bool decoded)
{
	unsigned u = k->uses & ~(unsigned)USE_TEMPLATE;
	return !decoded || (u & (USE_LOOSE | USE_OTHER)) || ((u & USE_READ) && !(u & USE_EXCL));
}

/* The functions whose deadness was asked (ds_site_unreached answers
 * only so many questions per file: past them, a use counts as live). */
#define MAX_DEAD_FNS 8

struct deadpass {
	struct found *fd;
	uint64_t fn[MAX_DEAD_FNS];
	bool dead[MAX_DEAD_FNS];
	int8_t callers_cut[MAX_DEAD_FNS];   /* -1: not asked yet */
	size_t nfn;
};

/* The function holding the site in p's list, asked whether it is dead
 * code when added; (size_t)-1 when the list is full. */
static size_t fn_index(struct deadpass *p, const struct ds_site *site)
{
	uint64_t fn = ds_site_function(site);
	for (size_t i = 0; i < p->nfn; i++)
		if (p->fn[i] == fn)
			return i;
	if (p->nfn == MAX_DEAD_FNS)
		return (size_t)-1;
	p->fn[p->nfn] = fn;
	p->dead[p->nfn] = ds_site_unreached(site);
	p->callers_cut[p->nfn] = -1;
	return p->nfn++;
}

static bool fn_dead(struct deadpass *p, const struct ds_site *site)
{
	size_t i = fn_index(p, site);
	return i != (size_t)-1 && p->dead[i];
}

/* Is every call of the site's function behind a test no value of a
 * global passes (ds_site_callers_const_dead)?  Asked once per function. */
static bool fn_callers_cut(struct deadpass *p, const struct ds_site *site)
{
	size_t i = fn_index(p, site);
	if (i == (size_t)-1)
		return false;
	if (p->callers_cut[i] < 0)
		p->callers_cut[i] = ds_site_callers_const_dead(site);
	return p->callers_cut[i] > 0;
}

/* A call given a warned name (as a path, a format or a template, as
 * on_call reads it): a use in a live or a dead function. */
static int on_use(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	(void)c;
	struct deadpass *p = ctx;
	const char *callee = ds_site_callee(site);
	unsigned args = args_of(callee, path_calls, NPATH_CALLS) |
	                format_args(callee) |
	                args_of(callee, template_calls, NTEMPLATE_CALLS);
	uint64_t at;
	for (unsigned n = 0; n < 6; n++) {
		if (!literal_arg(site, args, n, &at))
			continue;
		for (size_t i = 0; i < p->fd->nc; i++) {
			struct cand *k = &p->fd->c[i];
			if ((k->reach & REACH_ASKED) && !(k->reach & REACH_LIVE) && k->addr == at)
				k->reach |= fn_dead(p, site) ? REACH_DEAD
				          : ds_site_const_dead(site) || fn_callers_cut(p, site) ? REACH_CONST
				          : REACH_LIVE;
		}
	}
	return 0;
}

/* The warned names of a program whose every use -- each file call given
 * it, each printing of it as a format (whose file calls are in the same
 * function) -- is in a function nothing in the program can run (gcin's
 * debug printer linked into helpers that never call it, ohcount's
 * log_it): those get REACH_DEAD alone, and are info.  A name given to a
 * call not classed here (USE_OTHER) is not looked at; a reading cut
 * short leaves every name a warning. */
static void dead_uses(struct ds_code *c, const char *const *names, struct found *fd,
                      struct ds_range *refs)
{
	size_t nr = 0;
	for (size_t i = 0; i < fd->nc; i++) {
		struct cand *k = &fd->c[i];
		if (!warned(k, true) || (k->uses & USE_OTHER))
			continue;
		k->reach = REACH_ASKED;
		refs[nr++] = (struct ds_range){ k->addr, k->addr + k->len };
	}
	struct deadpass p = { .fd = fd };
	if (!nr)
		return;
	if (ds_code_each_call_ref(c, names, refs, nr, on_use, &p) < 0 || ds_code_capped(c))
		for (size_t i = 0; i < fd->nc; i++)
			fd->c[i].reach |= REACH_LIVE;
}

/* A shared library, not a program: its exports are what others call. */
static bool library(const struct ds_elfview *v)
{
	return ds_elf_pie(v) == DS_ELF_SHLIB;
}

/* Marks the candidates that reach a file call; false without a decoder. */
static bool trace(struct ds_file *f, const struct ds_elfview *v, struct found *fd,
                  const char **why)
{
	const char *names[NPATH_CALLS + NFORMAT_CALLS + NTEMPLATE_CALLS + NCOPIES + 3];
	size_t nn = 0;
	for (size_t i = 0; i < NPATH_CALLS; i++)
		if (ds_elf_imports(v, path_calls[i].name))
			names[nn++] = path_calls[i].name;
	if (!nn)
		return true;   /* no file call imported: nothing reaches one */
	for (size_t i = 0; i < NFORMAT_CALLS; i++)
		if (ds_elf_imports(v, format_calls[i].name))
			names[nn++] = format_calls[i].name;
	for (size_t i = 0; i < NTEMPLATE_CALLS; i++)
		if (ds_elf_imports(v, template_calls[i].name))
			names[nn++] = template_calls[i].name;
	if (ds_elf_imports(v, "bind")) {
		names[nn++] = "bind";
		if (ds_elf_imports(v, "socket"))
			names[nn++] = "socket";
		for (size_t i = 0; copies[i]; i++)
			if (!format_of(copies[i]) && ds_elf_imports(v, copies[i]))
				names[nn++] = copies[i];
	}
	names[nn] = NULL;
	struct ds_code *c = ds_file_code(f, why);
	if (!c)
		return false;
	open_flags(v, fd);
	struct ds_range refs[MAX_CANDS];
	for (size_t i = 0; i < fd->nc; i++)
		refs[i] = (struct ds_range){ fd->c[i].addr, fd->c[i].addr + fd->c[i].len };
	int n = ds_code_each_call_ref(c, names, refs, fd->nc, on_call, fd);
	names_end(fd);
	bool capped = ds_code_capped(c) || (n >= 0 && !removed_only(v, c, fd, refs));
	if (n < 0 || capped) {
		*why = "code too large, read partly";
		return false;
	}
	for (size_t i = 0; i < fd->nc; i++) {
		struct cand *k = &fd->c[i];
		uint64_t fn = k->format_fn;
		/* printed into a socket's name (bound, not opened, there), or
		 * a literal only removed or chmod'ed by socket functions */
		if (socket_name(fd, k) || bound_socket(k) ||
		    (socket_fn(fd, fn) && !(k->uses & ~(unsigned)USE_TEMPLATE))) {
			k->uses = 0;
			k->sock = true;
			continue;
		}
		if (socket_fn(fd, fn) || !has_fn(fd->file_fns, fd->nfile_fns, fn))
			continue;
		if (!fd->c[i].fmt_all) {
			/* the file calls a path from the printing reaches count
			 * (but those given another literal or buffer); but a
			 * name made with mkdir (or another exclusive creation)
			 * by a function that binds a unix socket: its unlink,
			 * chmod and chown are of the socket made in the
			 * directory (sawfish's /tmp/.sawfish-%s: mkdir 0700, on
			 * EEXIST an owner and mode check, then unlink, bind and
			 * chmod of <dir>/<host>) */
			unsigned u = fd->c[i].fmt_uses, sk = fd->c[i].fmt_sock;
			if ((u & USE_EXCL) && has_fn(fd->bind_fns, fd->nbind_fns, fn))
				sk = 0;
			fd->c[i].uses |= u | sk;
			continue;
		}
		/* too many calls in the function: they all count, a list
		 * that overflowed as loose or read */
		unsigned u = 0;
		if (has_fn(fd->excl_fns, fd->nexcl_fns, fn))
			u |= USE_EXCL;
		if (fd->nloose_fns == MAX_FNS || has_fn(fd->loose_fns, fd->nloose_fns, fn))
			u |= USE_LOOSE;
		if (fd->nread_fns == MAX_FNS || has_fn(fd->read_fns, fd->nread_fns, fn))
			u |= USE_READ;
		if (has_fn(fd->gone_fns, fd->ngone_fns, fn))
			u |= USE_GONE;
		fd->c[i].uses |= u;
	}
	/* not in a program offering an API: its exports may be called by
	 * what it loads, which ds_site_unreached does not know of (a
	 * library's exports count as callers there) */
	if (library(v) || !ds_elf_offers_api(v))
		dead_uses(c, names, fd, refs);
	return true;
}

/* DS_DEAD_CODE_WHERE in a library's words. */
#define LIB_DEAD_WHERE \
	"only in a function the library does not export and nothing in it calls, jumps to or " \
	"takes the address of (dead code)"

/* Why a unix socket's name is not a predictable-name race. */
#define SOCKET_REASON \
	"bound as a unix socket's address (an AF_UNIX socket, the name copied into sun_path, " \
	"bind), otherwise only removed or chmod'ed: bind creates the socket exclusively and " \
	"fails on any pre-made name or symlink (EADDRINUSE), so a planted name can only stop " \
	"the program, nothing is opened, read or written through it"

static void keep_listed(const char **v, size_t *n, const char *s)
{
	if (*n < MAX_LISTED)
		v[*n] = s;
	(*n)++;
}

/* Only the scalars are zeroed (a new one must be added here): the tables
 * (most of the ~110 KiB) are read below their counts, and clearing them
 * for every ELF file was 5 % of an ELF-checks scan's instructions. */
static struct found *found_new(void)
{
	struct found *fd = ds_xmalloc(sizeof *fd);
	fd->nc = fd->nbuild = 0;
	fd->too_many = false;
	fd->nfile_fns = fd->nbind_fns = fd->nmake_fns = fd->nexcl_fns = 0;
	fd->nread_fns = fd->ngone_fns = fd->nloose_fns = 0;
	fd->o_creat = fd->o_excl = fd->o_trunc = 0;
	fd->site_fn = 0;
	fd->nfiles = fd->nprints = fd->npassed = 0;
	fd->sites_over = false;
	fd->nnames = fd->nbinds = 0;
	fd->unix_socket = false;
	return fd;
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v)
		return;
	struct found *fd = found_new();
	ds_elf_strings_at(v, 6, '/', on_string, fd);
	const char *why = NULL;
	bool decoded = !fd->nc || trace(f, v, fd, &why);
	const char *listed[MAX_LISTED], *excl[MAX_LISTED], *gone[MAX_LISTED], *dead[MAX_LISTED];
	const char *sock[MAX_LISTED];
	size_t ntmp = 0, nexcl = 0, ngone = 0, ndead = 0, nsock = 0;
	unsigned dead_by = 0;   /* REACH_DEAD, REACH_CONST: why names are dead */
	for (size_t i = 0; i < fd->nc; i++) {
		unsigned u = fd->c[i].uses & ~(unsigned)USE_TEMPLATE;
		const char *t = fd->c[i].text;
		unsigned r = fd->c[i].reach;
		if (warned(&fd->c[i], decoded) && (r & REACH_ASKED) && !(r & REACH_LIVE) &&
		    (r & (REACH_DEAD | REACH_CONST))) {
			keep_listed(dead, &ndead, t);
			dead_by |= r & (REACH_DEAD | REACH_CONST);
		}
		else if (warned(&fd->c[i], decoded))
			keep_listed(listed, &ntmp, t);
		else if (fd->c[i].sock)
			keep_listed(sock, &nsock, t);
		else if (u & USE_EXCL)
			keep_listed(excl, &nexcl, t);
		else if (u == USE_GONE)
			keep_listed(gone, &ngone, t);
	}
	if (ntmp || ndead || nsock || nexcl || ngone || fd->nbuild) {
		struct ds_finding *d;
		if (ntmp)
			d = ds_report(f, DS_SEV_WARNING, "uses %zu fixed name%s under /tmp%s: %s",
			              ntmp, ntmp > 1 ? "s" : "",
			              decoded ? " as file names" : "", listed[0]);
		else if (ndead)
			d = ds_report(f, DS_SEV_INFO, "uses %zu fixed name%s under /tmp as file names, but only in code nothing runs: %s",
			              ndead, ndead > 1 ? "s" : "", dead[0]);
		else if (nsock)
			d = ds_report(f, DS_SEV_INFO, "binds %zu fixed name%s under /tmp as unix socket%s, opens none: %s",
			              nsock, nsock > 1 ? "s" : "", nsock > 1 ? "s" : "", sock[0]);
		else if (nexcl)
			d = ds_report(f, DS_SEV_INFO, "creates %zu fixed name%s under /tmp only exclusively: %s",
			              nexcl, nexcl > 1 ? "s" : "", excl[0]);
		else if (ngone)
			d = ds_report(f, DS_SEV_INFO, "only removes %zu fixed name%s under /tmp, opens none: %s",
			              ngone, ngone > 1 ? "s" : "", gone[0]);
		else
			d = ds_report(f, DS_SEV_INFO, "carries %zu build-machine path%s: %s",
			              fd->nbuild, fd->nbuild > 1 ? "s" : "", fd->build[0]);
		for (size_t i = 0; i < ntmp && i < MAX_LISTED; i++)
			ds_detail_append(d, "tmp_strings", listed[i]);
		for (size_t i = 0; i < ndead && i < MAX_LISTED; i++)
			ds_detail_append(d, "dead_names", dead[i]);
		for (size_t i = 0; i < nsock && i < MAX_LISTED; i++)
			ds_detail_append(d, "socket_names", sock[i]);
		for (size_t i = 0; i < nexcl && i < MAX_LISTED; i++)
			ds_detail_append(d, "exclusive_names", excl[i]);
		for (size_t i = 0; i < ngone && i < MAX_LISTED; i++)
			ds_detail_append(d, "removed_names", gone[i]);
		for (size_t i = 0; i < fd->nbuild && i < MAX_LISTED; i++)
			ds_detail_append(d, "build_paths", fd->build[i]);
		if (ndead) {
			const char *where = library(v) ? LIB_DEAD_WHERE : DS_DEAD_CODE_WHERE;
			bool both = dead_by == (REACH_DEAD | REACH_CONST);
			char why[1024];
			snprintf(why, sizeof why, "uses each fixed name under /tmp %s%s%s",
			         dead_by == REACH_CONST ? DS_CONST_DEAD_WHERE : where, both ? ", or " : "",
			         both ? DS_CONST_DEAD_WHERE : "");
			ds_detail_str(d, ntmp ? "dead_reason" : "reason", why);
		}
		if (nsock)
			ds_detail_str(d, !ntmp && !ndead ? "reason" : "socket_reason", SOCKET_REASON);
		if (nexcl)
			ds_detail_str(d, "exclusive_reason",
			              "created only with open(O_CREAT|O_EXCL), mkdir, mknod, link's new "
			              "name or the mkstemp family, otherwise only read or removed: a "
			              "pre-made name or symlink makes the call fail, no write follows it");
		if (ngone)
			ds_detail_str(d, "removed_reason",
			              "given only to unlink, remove or rmdir, and perhaps stat or access: "
			              "removing a pre-made name or symlink writes and reads nothing "
			              "through it; a planted name can change only what the program "
			              "decides from its existence");
		if (ntmp || ndead || nsock || nexcl || ngone) {
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
		  "file or a symlink there, and so read or clobber what the program writes, or "
		  "choose what it reads.",
		.detect = "On the disassembled code (capstone): literal \"/tmp/...\" and "
		  "\"/var/tmp/...\" strings passed as the file name to open, fopen, mkdir and "
		  "friends, or printed as a format by a function calling them. A name created only "
		  "exclusively (open with O_CREAT|O_EXCL, mkdir, mknod, link's new name, the mkstemp "
		  "family, or an open reached only when such a creation of the name succeeded: "
		  "mdadm's mknod, then open of the node) is info, and so is a literal only "
		  "removed (unlink, remove, rmdir, perhaps after stat or access, and given to no other call: nothing is created, read or "
		  "written through it), and so is a unix socket's name: made an AF_UNIX socket's address "
		  "(copied into sun_path, bind) and otherwise only removed, chmod'ed or chown'ed, as "
		  "bind fails on a pre-made name or symlink; a template reaching only the mkstemp "
		  "family (mkstemps and mkostemps with a suffix too), "
		  "the perf JIT map /tmp/perf-<pid>.map and the X lock, names perf and X fix, are "
		  "not reported. Build-machine paths are listed as info. In a program or a library, "
		  "a name whose every use (file call, printing) is in a function nothing in the file "
		  "calls, jumps to or takes the address of is dead code (info): in a library, a "
		  "function it does not export; in a program, even one of its dynamic symbols, "
		  "unless the program loads plugins or looks names up (dlopen, dlsym, libglade's or "
		  "GtkBuilder's signal autoconnection), or exports 200 functions or more; so "
		  "is a use reached only through the arm of a test of a global (equal or not to a "
		  "constant) that none of its values takes: its initial value and every constant "
		  "stored to it, with no other store, its address never taken and no dynamic "
		  "symbol naming it (`if (ppid)` where ppid is only ever set to 0), or of the "
		  "function's own argument, passed in a register, when the function is named only "
		  "by direct calls and each passes a constant (0 to 127) the arm does not take "
		  "(`if (debug)`, every call passing 0); and a use in a function named only by "
		  "direct calls each reached so in its caller (one level).",
		.limits = "A name printed into a buffer (sprintf) is judged by every file call a path "
		  "from the printing reaches in its function, not only the one its buffer reaches, "
		  "but those given another literal and, on x86 (where the stack pointer is followed "
		  "and no string is copied inline, as s390x's compilers do), those given another buffer: another slot of the stack frame the name was "
		  "printed into, or what malloc and friends returned, when that slot is given to no "
		  "call that might copy it (not connect, a test, a file call or a copy into it); a "
		  "buffer whose address is computed (&sun + 2 at -O0), a printing returning the "
		  "name (g_strdup_printf) and a copy made inline are not told apart; in a function binding a unix socket, a printed "
		  "name made with mkdir is taken for the socket's private directory (the unlink, "
		  "chmod and chown it reaches are the socket's, even one of the directory itself); "
		  "a name stored in a table or "
		  "passed through a helper is not followed. Checks the program makes after an "
		  "open (O_NOFOLLOW, then fstat of the owner and link count: nstat, exim_lock) "
		  "are not seen: still a warning. An open reached only after its own exclusive "
		  "creation succeeded (mdadm's mknod) is seen where the branch's condition is "
		  "read (a compare and a conditional jump); a failure branch into a cold part "
		  "outside the function (gcc's) counts only where that part runs straight into "
		  "exit or another call that does not return; elsewhere it is still a warning. fopen's \"x\" mode is not read (loose). A pre-made name "
		  "still makes an exclusive creation fail (info: a denial of service at most). A name "
		  "tested and then only removed (a debugging switch turned on by the file's "
		  "existence) is info; a printed name whose function only removes files is info "
		  "too, although its buffer may go to a helper that opens it. Dead code is told on "
		  "x86 and aarch64 only; in a stripped program, a global up to 512 bytes above an "
		  "address the program computes (in the same section) may be a member of a record "
		  "set through a pointer, and its tests are not judged, while a member further into "
		  "such a record is taken for a global of its own (info where a pointer sets it); "
		  "and a library the program is linked with that calls one of its exports by name "
		  "is not seen (the function is taken for dead code, info). A socket's name is told "
		  "from the calls around it (socket(AF_UNIX), a bind its use reaches, no other file "
		  "call reached that might get it), not from the sockaddr bind is given.",
		.fix = "Use mkstemp(3)/mkdtemp(3), or $XDG_RUNTIME_DIR, instead of a fixed name.",
	},
	.least = DS_SEV_INFO,
	.severity_policy = "warning for fixed /tmp names created or read; info for names created only exclusively, bound as unix sockets or only removed, or used only in dead code, and for build-machine paths",
	.cwe = 377,
	.precision = "low",
	.run = run,
};
