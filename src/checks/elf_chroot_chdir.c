/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-chroot-chdir (find-chroot): chroot() without chdir()/fchdir() leaves
 * the working directory outside the jail, so "../" walks straight out.
 * On the instruction stream (include/distsec/disasm.h): every chroot call
 * site must have a path to a chdir or fchdir call in the same function, as
 * the original read it from the disassembly (details.method
 * "disassembly"); a chdir with a path to the chroot call passes too, the
 * chdir(dir); chroot(dir) idiom (shadow's --root) keeps the working
 * directory inside.  chroot(".") passes wherever the chdir was made (the
 * working directory becomes the new root): its argument is the address
 * of a "." in the read-only data (or a string's "." tail), or the site is
 * a wrapper's (the argument is its caller's) and every direct caller of
 * the wrapper passes such an address (vsftpd's vsf_sysutil_chroot(".")).
 * A site whose path is a constant below 4096 (chroot((char *)1): flatpak's
 * try-syscall probing a seccomp filter) can only fail with EFAULT, the
 * first page is never mapped: the root never changes, info when no other
 * site is bare.
 * A site with none of these, in a program, is looked at across functions
 * (the layer's bounded deep walks): a chdir in a function called on a path
 * after it, up to CHDIR_DEPTH levels of direct calls (Rust's
 * std::env::set_current_dir("/") after nix's chroot), or after the call
 * in every direct caller of its function (a chroot wrapper) passes, with
 * its own details.reason; one in a function nothing in the file can run
 * (ds_site_unreached: what names it only from dead code is no caller;
 * for programs, a dynamic symbol naming it is no
 * caller unless the program loads plugins or looks names up with dlsym)
 * is dead code, info; one whose function is named only by a binding's
 * table entry { "chroot", fn, ... } (ds_site_bound_by_name: CPython's
 * os.chroot built into a program) is the script's, info.  A shared
 * library, or a program exporting an API of
 * 200+ functions (an interpreter), only offers chroot to its callers
 * (os.chroot, perl's chroot): info at most.  A file importing neither chdir
 * nor fchdir is decoded too (its sites, chroot("."), the library rule), with
 * no deep walk.  Without a decoder for the machine: from imports
 * (details.method "imports").
 */
#include <stdio.h>
#include <string.h>

#include "distsec/check.h"
#include "distsec/disasm.h"
#include "distsec/elfview.h"

static const char *const chroot_call[] = { "chroot", NULL };
static const char *const chdir_calls[] = { "chdir", "fchdir", NULL };

/* The bare sites whose argument is looked up; more: not looked up. */
#define MAX_BARE 16
/* The callers of a wrapper looked at; more: not judged. */
#define MAX_ARGS 8

struct bare_site {
	uint64_t at, fn;
	uint64_t arg[MAX_ARGS];   /* the addresses chroot gets: its own, or its callers' */
	bool dot[MAX_ARGS];
	size_t narg;
	bool unknown;             /* an argument that is not a known address */
	bool wrapper;             /* the argument is the function's caller's */
};

struct sites {
	bool library;             /* no deep walk: info at most */
	bool no_chdir;            /* neither imported: no deep walk either */
	size_t called, callers;   /* the chdir is in a called function, in the callers */
	uint64_t via;             /* the first such function */
	size_t total, bare, before, dot, dead, bound, unmapped;
	int64_t unmapped_at;      /* the first never-mapped path address */
	uint64_t first_bare, first_bare_fn;
	const char *followed_by;
	struct bare_site b[MAX_BARE];
};

/* The path argument of a chroot or wrapper call, when it is an address
 * the decoder knows (a string's, to be looked up). */
static bool arg_address(const struct ds_site *site, uint64_t *out)
{
	struct ds_argsrc a = ds_site_arg(site, 0);
	if ((a.kind != DS_SRC_ADDR && a.kind != DS_SRC_CONST) || a.value <= 0)
		return false;
	*out = (uint64_t)a.value;
	return true;
}

/* The lowest address a pointer can hold: the first page is never mapped
 * (vm.mmap_min_addr is 4096 at least, 65536 by default), so a path that
 * is a constant below it makes chroot fail with EFAULT. */
#define FIRST_MAPPED 4096

/* The path argument is a constant below FIRST_MAPPED (flatpak's
 * try-syscall probes a seccomp filter with chroot((char *)1)): the call
 * can only fail, the root never changes.  Not when the constant was
 * tested on the way (`if (p) chroot(p)`: the path the site is on need
 * not carry it). */
static bool never_mapped(const struct ds_site *site, int64_t *at)
{
	struct ds_argsrc a = ds_site_arg(site, 0);
	if (a.kind != DS_SRC_CONST || a.guarded || a.value < 0 || a.value >= FIRST_MAPPED)
		return false;
	*at = a.value;
	return true;
}

/* How many levels of direct calls a chdir is looked for in. */
#define CHDIR_DEPTH 3

/* A caller of a chroot site's function: chdir after its call, in it or in
 * a function it calls. */
static bool caller_chdirs(const struct ds_site *caller, void *ctx)
{
	(void)ctx;
	return ds_site_calls_after_deep(caller, chdir_calls, CHDIR_DEPTH, NULL) != NULL;
}

/* A site with no chdir in its own function: is it in a function called
 * after it (Rust's std::env::set_current_dir("/") after nix's chroot), or
 * after the call in every caller of the site's function (the chroot in a
 * wrapper)?  Only for would-be errors: a library is info anyway. */
static bool chdir_deep(const struct ds_site *site, struct sites *s)
{
	uint64_t via = 0;
	if (s->library || s->no_chdir)
		return false;
	if (ds_site_calls_after_deep(site, chdir_calls, CHDIR_DEPTH, &via)) {
		s->via = s->called++ || s->callers ? s->via : via;
		return true;
	}
	if (ds_site_callers_all(site, caller_chdirs, NULL)) {
		s->via = s->callers++ || s->called ? s->via : ds_site_function(site);
		return true;
	}
	return false;
}

static int on_chroot(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	(void)c;
	struct sites *s = ctx;
	const char *cd = ds_site_calls_after(site, chdir_calls);
	int64_t at;
	s->total++;
	if (cd) {
		s->followed_by = s->followed_by ? s->followed_by : cd;
	} else if (ds_site_calls_before(site, chdir_calls)) {
		/* chdir(dir); chroot(dir) or chroot("."): already inside */
		s->before++;
	} else if (never_mapped(site, &at)) {
		/* EFAULT: no chroot happens */
		s->unmapped_at = s->unmapped++ ? s->unmapped_at : at;
	} else if (chdir_deep(site, s)) {
		/* counted in s->called or s->callers */
	} else if (!s->library && ds_site_unreached(site)) {
		s->dead++;   /* in a function nothing in the file can run */
	} else if (!s->library && ds_site_bound_by_name(site, chroot_call)) {
		s->bound++;   /* a binding's: the script gives the path */
	} else if (s->bare++ < MAX_BARE) {
		struct bare_site *b = &s->b[s->bare - 1];
		*b = (struct bare_site){ .at = ds_site_addr(site), .fn = ds_site_function(site) };
		if (arg_address(site, &b->arg[b->narg]))
			b->narg++;
		else if (ds_site_arg_from_caller(site, 0))
			b->wrapper = true;
		else
			b->unknown = true;
	}
	return 0;
}

/* A wrapper's caller: the address it passes, if it is one. */
static int on_wrapper_call(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	(void)c;
	struct bare_site *b = ctx;
	if (b->narg == MAX_ARGS || !arg_address(site, &b->arg[b->narg])) {
		b->unknown = true;
		return 1;
	}
	b->narg++;
	return 0;
}

/* The arguments the callers of the wrapper sites pass (not for a library,
 * whose callers are elsewhere). */
static void follow_wrappers(struct ds_code *c, struct sites *s, bool library)
{
	for (size_t i = 0; i < s->bare && i < MAX_BARE; i++) {
		struct bare_site *b = &s->b[i];
		if (!b->wrapper)
			continue;
		bool was_capped = ds_code_capped(c);
		if (library || ds_code_each_call_to(c, b->fn, on_wrapper_call, b) <= 0 ||
		    (!was_capped && ds_code_capped(c)))
			b->unknown = true;
	}
}

/* Marks the bare sites whose argument points at a "." string. */
static int on_dot_string(const char *str, size_t len, uint64_t addr, void *ctx)
{
	struct sites *s = ctx;
	if (!len || str[len - 1] != '.')
		return 0;
	for (size_t i = 0; i < s->bare && i < MAX_BARE; i++)
		for (size_t j = 0; j < s->b[i].narg; j++)
			if (s->b[i].arg[j] == addr + len - 1)
				s->b[i].dot[j] = true;
	return 0;
}

/* Takes the chroot(".") sites out of the bare ones, when all were looked up. */
static void resolve_dots(const struct ds_elfview *v, struct sites *s)
{
	if (s->bare && s->bare <= MAX_BARE)
		ds_elf_strings_at(v, 1, '.', on_dot_string, s);
	bool first = true;
	for (size_t i = 0; i < s->bare && i < MAX_BARE; i++) {
		const struct bare_site *b = &s->b[i];
		bool dot = !b->unknown && b->narg > 0;
		for (size_t j = 0; j < b->narg; j++)
			dot = dot && b->dot[j];
		if (dot) {
			s->dot++;
		} else if (first) {
			first = false;
			s->first_bare = s->b[i].at;
			s->first_bare_fn = s->b[i].fn;
		}
	}
	s->bare -= s->dot;
}

static void by_imports(struct ds_file *f, const struct ds_elfview *v, const char *why)
{
	const char *cd = ds_elf_imports_any(v, chdir_calls);
	struct ds_finding *d = cd
		? ds_report(f, DS_SEV_PASS, "calls chroot() and %s()", cd)
		: ds_report(f, DS_SEV_ERROR,
		            "calls chroot() but never chdir() or fchdir(): the working directory can stay outside the jail");
	ds_detail_str(d, "method", "imports");
	if (why && cd)
		ds_detail_str(d, "no_disassembly", why);
}

static void hex(char *buf, size_t n, uint64_t a)
{
	snprintf(buf, n, "0x%llx", (unsigned long long)a);
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || !ds_elf_imports(v, "chroot"))
		return;
	/* A library only offers chroot to its callers (bindings, wrappers);
	 * so does an interpreter exporting its C API (perl, python3). */
	bool library = ds_elf_offers_api(v);
	const char *why = NULL;
	struct ds_code *c = ds_file_code(f, &why);
	/* Without chdir and fchdir imported no site is followed by one, but
	 * the sites are still found: chroot("."), a library's, and where. */
	struct sites s = { .library = library, .no_chdir = !ds_elf_imports_any(v, chdir_calls) };
	int n = c ? ds_code_each_call(c, chroot_call, on_chroot, &s) : -1;
	if (n < 0 || (ds_code_capped(c) && !s.bare) || n == 0) {
		/* no site found (a call through a pointer) or reading cut short */
		by_imports(f, v, c ? (n == 0 && !ds_code_capped(c) ? "no direct chroot call site found"
		                                                   : "code too large, read partly") : why);
		return;
	}
	follow_wrappers(c, &s, library);
	resolve_dots(v, &s);
	struct ds_finding *d;
	if (s.bare) {
		char at[32], fn[32];
		hex(at, sizeof at, s.first_bare);
		hex(fn, sizeof fn, s.first_bare_fn);
		d = ds_report(f, library ? DS_SEV_INFO : DS_SEV_ERROR,
		              "calls chroot() at %s with no chdir() or fchdir() after it in the same function: the working directory can stay outside the jail",
		              at);
		ds_detail_str(d, "call_site", at);
		ds_detail_str(d, "function", fn);
		ds_detail_bool(d, "library", library);
	} else if (s.unmapped) {
		/* dead code besides, if any: info either way */
		d = ds_report(f, DS_SEV_INFO, "calls chroot() without chdir() or fchdir() after it, but only with a path that can never be valid: the call fails");
		char why[96];
		snprintf(why, sizeof why, "the path is the constant address %lld, never mapped: chroot fails with EFAULT",
		         (long long)s.unmapped_at);
		ds_detail_str(d, "reason", why);
	} else if (s.dead) {
		d = ds_report(f, DS_SEV_INFO, "calls chroot() without chdir() or fchdir() after it, but only in code nothing runs");
		ds_detail_str(d, "reason", "chroot() without chdir() " DS_DEAD_CODE_WHERE);
	} else if (s.bound) {
		d = ds_report(f, DS_SEV_INFO, "calls chroot() without chdir() or fchdir() after it, but only in a binding that offers chroot to the scripts the program runs");
		ds_detail_str(d, "reason", "chroot() only in a function reached through a table entry naming "
		              "the call, or an entry of a table registered with an embedded interpreter "
		              "(a binding, such as a built-in interpreter's os.chroot): the script it runs "
		              "decides what follows, and is not followed");
	} else if (s.called || s.callers) {
		char via[32];
		hex(via, sizeof via, s.via);
		d = ds_report(f, DS_SEV_PASS, "every chroot() call has chdir() or fchdir() after it, %s",
		              s.callers ? "in its function, a function it calls, or its function's callers"
		                        : "in its function or a function it calls");
		ds_detail_str(d, "reason", !s.callers
		              ? "chdir() or fchdir() in a function called after chroot()"
		              : !s.called ? "chdir() or fchdir() in every caller, after its call of the function calling chroot()"
		                          : "chdir() or fchdir() in a function called after chroot(), or in every caller after the call");
		ds_detail_str(d, "chdir_via", via);
	} else if (s.dot == s.total) {
		d = ds_report(f, DS_SEV_PASS, "every chroot() call is chroot(\".\"): the working directory becomes the new root");
		ds_detail_str(d, "reason", "chroot(\".\") after chdir(dir), wherever the chdir is made");
	} else {
		d = ds_report(f, DS_SEV_PASS, "every chroot() call has chdir() or fchdir() %s it in its function%s",
		              s.followed_by ? "after" : "before", s.dot ? ", or is chroot(\".\")" : "");
		ds_detail_str(d, "reason", s.before
		              ? "chdir() or fchdir() after chroot(), or before it (chdir(dir); chroot(dir))"
		              : "chdir() or fchdir() after every chroot()");
	}
	ds_detail_str(d, "method", "disassembly");
	ds_detail_int(d, "chroot_calls", (long long)s.total);
	ds_detail_int(d, "chdir_before", (long long)s.before);
	ds_detail_int(d, "chroot_dot", (long long)s.dot);
	ds_detail_int(d, "chdir_called", (long long)s.called);
	ds_detail_int(d, "chdir_in_callers", (long long)s.callers);
	ds_detail_int(d, "without_chdir", (long long)s.bare);
	ds_detail_int(d, "dead_code", (long long)s.dead);
	ds_detail_int(d, "binding", (long long)s.bound);
	ds_detail_int(d, "unmapped_path", (long long)s.unmapped);
}

const struct ds_check ds_check_elf_chroot_chdir = {
	.id = "elf-chroot-chdir",
	.severity = DS_SEV_ERROR,
	.applies = DS_ON_ELF,
	.summary = "a chroot call not followed by chdir/fchdir in the same function",
	.help = {
		.what = "chroot() without chdir() leaves the working directory outside the new root, so "
		  "relative paths (\"../\") still reach the real file system.",
		.detect = "On the disassembled code (capstone): a call to chroot not followed by a "
		  "call to chdir or fchdir in the same function, nor preceded by one (chdir(dir); "
		  "chroot(dir)), whose argument is not the string \".\" (chroot(\".\") makes the "
		  "working directory the new root), and with no chdir in a function called after it "
		  "(up to 3 levels of direct calls) nor after the call in every direct caller of "
		  "its function; a chroot in a function nothing in the file calls, jumps to or "
		  "takes the address of, or only functions that are dead code themselves do "
		  "(a chain or cycle of them, followed 4 functions deep), is dead code (info), even when the function is one of "
		  "the program's dynamic symbols, unless the program loads plugins or looks names "
		  "up (dlopen, dlsym, libglade's or GtkBuilder's signal autoconnection: they may "
		  "call its exports); a chroot whose path is a constant "
		  "below 4096 (chroot((char *)1), a probe of a seccomp filter) fails with EFAULT, the "
		  "first page is never mapped: info (a path member of a record on the stack that a "
		  "function of the file's own was given the record's start to fill is not taken for "
		  "the constant it was set to first); a chroot in a function whose only references "
		  "are entries of a table pairing it with the string \"chroot\" ({ \"chroot\", fn, "
		  "... }, or a name ending in it after a module's separator: \"os.chroot\", "
		  "\"os/posix-chroot\", \"posix_chroot\"; a binding, as an interpreter built into "
		  "the program offers os.chroot to its scripts), or entries of a { name, function } "
		  "table the program registers with an embedded Lua (luaL_setfuncs, luaL_register, "
		  "luaL_openlib), is the script's, info (x86 and aarch64).",
		.limits = "Calls through function pointers are not followed; a chdir in another "
		  "function counts only when that function is called after the chroot (3 levels "
		  "deep at most) or is a direct caller of the chroot's function (one level); a "
		  "wrapper's callers are followed one level, for chroot(\".\"); a library the "
		  "program is linked with that calls one of its exports by name is not seen (the "
		  "function is taken for dead code, info). A chroot behind an option or a field "
		  "the program never sets (an embedded library's feature no caller asks for: a "
		  "daemonizing crate's chroot directory) is reported: which options a program sets is "
		  "not evaluated, and on packages the rules were not written for it is the most "
		  "frequent false error (bench/PRECISION.md).",
		.fix = "Call chdir(\"/\") right after chroot().",
	},
	.cwe = 243,
	.precision = "medium",
	.run = run,
};
