/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf-nodrop-groups (find-nodrop-groups, rpm-drop-groups): a program that
 * changes its gid to a user's but never calls initgroups() or setgroups()
 * first keeps root's supplementary groups.
 *
 * On the instruction stream (include/distsec/disasm.h), for a file that
 * imports a gid call and a uid call: at each setgid/setegid/setregid/
 * setresgid call site, where do the gid arguments come from?
 * - straight from getgid/getegid/getresgid (or -1: unchanged), or from a
 *   stack slot the latest call given its address was getresgid's
 *   (shellinaboxd's getresgid(&r, &e, &s) ... setresgid(r, e, s)): dropping
 *   back to the real or saved ids, nothing to keep -- harmless; but
 *   getegid() is another gid when a setegid (or setregid's, setresgid's
 *   effective gid) that something in the file runs moves the effective gid
 *   to a gid not its own with no groups call on a path before it, as the
 *   groups rules below find one (logrotate's `su`: setegid(user's gid),
 *   later setgid(getegid()) makes it permanent with root's groups); not
 *   after initgroups(user), nor when the setegid is dead code, nor when
 *   it runs only on the arm of a geteuid() or getuid() test that is not
 *   root's (ds_site_not_root: hylafax's setupPermissions() calls
 *   initgroups, setegid, seteuid when geteuid() is 0, else setegid alone;
 *   a process that is not root cannot move its egid to a gid not its own
 *   and has no root's groups to keep) (moves_egid);
 * - loaded from a global (bash's current_user.gid, dash's and screen's
 *   saved ids) that every store in the file sets from getgid/getegid/
 *   getresgid or -1 (ds_code_each_store), or copies from such a global
 *   (ksh93's egroupid = groupid; two copies deep): the real id saved at
 *   start-up, the same -- harmless, its own reason; a global with no store found,
 *   another one, or one the layer cannot see (its address taken) counts as
 *   any other gid;
 * - a member of a record read through a pointer, where the same function
 *   stored getgid/getegid/getresgid's result into that member through the
 *   same pointer on every path to the read, with nothing between able to
 *   write it (ds_site_member_stores, x86 and aarch64; xgterm's spawn():
 *   screen->gid = getgid(), calls, setgid(screen->gid)): the real id, a
 *   drop back; asked only of would-be errors, as it decodes the functions
 *   called between;
 * - a member of getpwuid(getuid())'s record, directly or kept in a global
 *   (filter's saved gid), or read through the record's pointer kept in a
 *   callee-saved register however far back, that register written on no
 *   path to the read but with that call's result (ds_site_arg_held, x86
 *   and aarch64: xonix keeps it in r15 from its score function's start to
 *   the forked child's setgid(pw->pw_gid) many blocks and calls on): the
 *   caller's own ids, a drop back;
 * - 0: becoming root's group -- harmless here; but a constant the value
 *   was tested against on the way (`gid = 0; if (opt) gid = pw->pw_gid;
 *   ... if (gid) setgid(gid)`: minidlnad) is what the test turns away,
 *   and counts as any other gid; the value a test leaves on the only way
 *   to the call is the gid (`cmp r4, #0; bne` then setgid(r4): captest);
 * - only the effective id changes (setegid, or -1/0 or its own id from
 *   getgid/getegid left in another slot, or setresgid's saved gid from
 *   getegid(): lpd's setresgid(g, g, getegid())): a temporary switch that
 *   keeps a root id -- info;
 * - anything else, with an initgroups/setgroups call (syscall() with the
 *   machine's setgroups number counts: diod) that has a path to the
 *   site in the same function -- fine; or one the site reaches before any
 *   uid change (QEMU: setgid, initgroups, setuid -- setgroups still works
 *   while the uid is root) -- fine;
 * - a gid the enclosing function got from its caller (parameter registers,
 *   stack arguments, memory read through them: Go's cgo setgid wrapper,
 *   OCaml's unix_setgid, Haskell's process spawner) -- the decision is the
 *   caller's, which is not followed: info; but not in main, whose
 *   parameters are the command line;
 * - anything else, with the next uid change on every path from the site
 *   back to the real uid (courier's sendmail: setgid(its group), then
 *   setuid(getuid())): no other user is become -- fine; a return from
 *   main ends a path, as exit() does;
 * - anything else, with the groups dropped in another function (the
 *   layer's bounded deep walks, only for these would-be errors): a
 *   function called on a path to the site that calls initgroups/setgroups,
 *   up to GROUPS_DEPTH levels of direct calls (nix's setgroups wrapper), or
 *   such a call on a path to the call in every direct caller of the site's
 *   function (sshd's permanently_set_uid()), or in main on every path it
 *   runs as root before anything that may change a gid (slurmd's
 *   `if (geteuid() == 0) setgroups(0, NULL)`: the arm where the id was not
 *   0 is no root's), where a function main
 *   calls that itself calls initgroups/setgroups on every path it returns
 *   by, before any gid change, counts as such a call (a daemon's init
 *   function dropping the groups before its own setgid) -- fine;
 * - anything else, in a function nothing in the file can run
 *   (ds_site_unreached: no call, jump, address, relocation or data word
 *   names it, but from code that cannot run itself; pppoe's dropPrivs()) --
 *   dead code, info.  A dynamic symbol
 *   naming it is a caller in a library, but in a program only when the
 *   program loads plugins or looks names up (dlopen, dlsym: pcapdump's
 *   exported, never called envuidgid() is dead code); a library the
 *   program links calling back into it by name is not seen, and such a
 *   function is taken for dead: info with the reason, not an error;
 * - anything else, where every path from its function's entry takes both
 *   an arm of a test of geteuid()'s (or getuid()'s) result where it was 0
 *   and one where it was not 0, with no call between the two tests that
 *   could change the id (ds_site_contra_id: any call but geteuid, getuid,
 *   getegid and getgid counts as one; read from the jumps' conditions,
 *   which every decoder lifts): clamscan's scan loop, where checkaccess()'s `if
 *   (!geteuid())` getpwnam/setgid/setuid is inlined on the arm where
 *   geteuid() was not 0 -- it never runs, info with the reason;
 * - anything else, with the next uid change on every path changing only
 *   the effective uid (seteuid(x), setreuid(-1, x), setresuid(-1, x, y);
 *   e2guardian: setgid(its group), setreuid(-1, its user), later
 *   setreuid(-1, root) for each reload): the real uid stays root's, so
 *   the process can become root again whenever it likes -- a temporary
 *   switch, info; a setuid(x) or setreuid(x, x) on any of those paths,
 *   or after them (brightd: seteuid(uid), then setuid(uid)), keeps the
 *   finding;
 * - anything else, in a function named only by entries of a table that pair
 *   it with a string naming a gid call ({ "setresgid", os_setresgid, ... }:
 *   CPython's os module built into a program, in its PyMethodDef table;
 *   ds_site_bound_by_name) -- a binding: the script the program runs passes
 *   the gid, info, as a wrapper's;
 * - anything else -- the finding, even if setgroups is imported and called
 *   elsewhere; its text names the gid when it is a constant (bidentd's
 *   setregid(65534, 65534)).
 * The worst site decides.  A setuid/setgid file (switching between its own
 * real and effective ids) gets a warning instead of an error; a shared
 * library, or a program exporting an API of 200+ functions (python3.11,
 * clisp's lisp.run, GHC programs such as pandoc, proftpd's and uwsgi's
 * module hosts), only offers the calls to the code it runs or loads
 * (language bindings): info at most (ds_elf_offers_api, as elf-chroot-chdir).  Without a decoder: from imports, as the original
 * (details.method says which).
 */
#include <string.h>
#include <sys/stat.h>

#include "distsec/check.h"
#include "distsec/disasm.h"
#include "distsec/elfview.h"

static const char *const gid_calls[] = { "setgid", "setegid", "setresgid", "setregid", NULL };
static const char *const uid_calls[] = { "setuid", "seteuid", "setresuid", "setreuid", NULL };
static const char *const group_calls[] = { "initgroups", "setgroups", NULL };
static const char *const real_gid[] = { "getgid", "getegid", "getresgid", NULL };

/* Per site, in increasing order of concern. */
enum verdict { V_DROPBACK, V_SAVED, V_SAVED_MEMBER, V_OWN_PW, V_ROOT, V_OWN_UID, V_GROUPED, V_GROUPED_LATE,
               V_GROUPED_CALLED, V_GROUPED_CALLER, V_GROUPED_MAIN, V_TEMP, V_TEMP_UID, V_FORWARD,
               V_BOUND, V_DEAD, V_CONTRA_EUID, V_CONTRA_UID, V_BAD, V_NONE };

static const char *const reasons[] = {
	[V_DROPBACK] = "drops back to its real or saved gid (from getgid/getegid/getresgid)",
	[V_SAVED] = "drops back to its real or saved gid, kept in a global that is only ever "
	  "assigned from getgid/getegid/getresgid",
	[V_SAVED_MEMBER] = "drops back to its real or saved gid, stored from getgid/getegid/"
	  "getresgid into a record's member earlier in the same function through the same "
	  "pointer, with nothing between that may write the member",
	[V_OWN_PW] = "drops back to its real user's own gid, a member of getpwuid(getuid())'s "
	  "record",
	[V_ROOT] = "switches to gid 0",
	[V_OWN_UID] = "changes its uid next only back to its real uid (getuid()): it becomes no "
	  "other user, so the groups it keeps are root's as root or its caller's own",
	[V_GROUPED] = "calls initgroups() or setgroups() before changing its gid",
	/* setgroups() needs CAP_SETGID, which the process keeps until its
	 * uid changes: QEMU's change_process_uid() order drops them too */
	[V_GROUPED_LATE] = "calls initgroups() or setgroups() after its gid but before any uid change",
	[V_GROUPED_CALLED] = "calls initgroups() or setgroups() in a function it calls before changing its gid",
	[V_GROUPED_CALLER] = "every caller of the function changing its gid calls initgroups() or "
	  "setgroups() before calling it",
	[V_GROUPED_MAIN] = "main calls initgroups() or setgroups() on every path it runs as root, "
	  "itself or in a function it calls that does so on every path it returns by, before "
	  "anything that may change a gid (the arm where geteuid() or getuid() returned not 0 "
	  "is no root's)",
	[V_BOUND] = "changes its gid only in a function reached through a table entry naming "
	  "the call, or an entry of a table registered with an embedded interpreter (a "
	  "binding, such as a built-in interpreter's os.setgid): the script it runs passes the "
	  "gid, and is not followed",
	[V_DEAD] = "changes its gid " DS_DEAD_CODE_WHERE,
	[V_CONTRA_EUID] = "runs only on paths where geteuid() returned both 0 and not 0, with no "
	  "call between the tests that could change the effective uid: never",
	[V_CONTRA_UID] = "runs only on paths where getuid() returned both 0 and not 0, with no "
	  "call between the tests that could change the real uid: never",
	[V_TEMP] = "switches its effective gid only, keeping a root id to switch back",
	[V_TEMP_UID] = "changes its uid next, on every path, only as an effective uid (seteuid(uid), "
	  "setreuid(-1, uid), setresuid(-1, uid, ...)): the real uid stays root's, so the process "
	  "can become root again at any time (a temporary switch) and the groups it keeps add nothing",
	[V_FORWARD] = "passes on a gid its own caller gave it (a wrapper: a language runtime's or "
	  "binding's setgid): the caller decides, and is not followed",
	[V_BAD] = NULL,
};

enum argv { A_REAL, A_KEEP, A_ZERO, A_OTHER };

/* Where gid argument n comes from.  A member read through a pointer the
 * walk back loses (xonix: getpwuid(getuid()) kept in r15 across many
 * blocks and calls, the child's setgid(pw->pw_gid) far on) is asked again
 * of the writes of the register holding the pointer. */
static struct ds_argsrc gid_arg(const struct ds_site *site, unsigned n)
{
	struct ds_argsrc a = ds_site_arg(site, n);
	if (a.kind == DS_SRC_LOAD && a.value == 0) {
		struct ds_argsrc held = ds_site_arg_held(site, n);
		if (held.kind == DS_SRC_FIELD)
			return held;
	}
	return a;
}

static bool is_result(struct ds_argsrc a, const char *callee)
{
	return a.kind == DS_SRC_RESULT && a.callee && strcmp(a.callee, callee) == 0;
}

/* A member of the caller's own passwd record, getpwuid(getuid()) (filter:
 * its pw_gid saved in a global): the real user's ids. */
static bool own_record(struct ds_argsrc a)
{
	return a.kind == DS_SRC_FIELD && a.callee && strcmp(a.callee, "getpwuid") == 0 &&
	       a.of && strcmp(a.of, "getuid") == 0;
}

/* egid_moved: getegid() may return a gid the program moved to itself,
 * keeping root's groups (logrotate's `su` directive: setegid(user's gid)
 * with no groups call, later setgid(getegid()) makes it permanent): only
 * getgid and getresgid count as the real or saved id then.  See
 * moves_egid for when a file is taken to do that. */
static enum argv classify(struct ds_argsrc a, bool egid_moved)
{
	if (a.kind == DS_SRC_RESULT && a.callee)
		for (size_t i = 0; real_gid[i]; i++)
			if (strcmp(a.callee, real_gid[i]) == 0 &&
			    !(egid_moved && strcmp(a.callee, "getegid") == 0))
				return A_REAL;
	if (own_record(a))
		return A_REAL;
	/* `gid = 0; if (opt) gid = pw->pw_gid; ... if (gid) setgid(gid)`:
	 * the constant is what the test turns away (minidlnad) */
	if (a.kind == DS_SRC_CONST && a.guarded)
		return A_OTHER;
	if (a.kind == DS_SRC_CONST && (a.value == -1 || a.value == 0xffffffff))
		return A_KEEP;
	if (a.kind == DS_SRC_CONST && a.value == 0)
		return A_ZERO;
	return A_OTHER;
}

#define SAVED_MAX 16   /* globals looked at per file */

/* The verdicts of the sites, read one way of getegid(). */
struct tally {
	enum verdict worst;
	size_t bad;
	uint64_t bad_at;
	const char *bad_call;
	struct ds_argsrc bad_gid;   /* the first gid argument judged another gid */
};

struct sites {
	bool library;   /* info at most: no deep walk */
	bool may_move;   /* the file calls setegid: getegid() is read both ways */
	bool moved;      /* a site found that moves the effective gid (moves_egid) */
	struct tally t[2];   /* [egid_moved]; t[1] only with may_move */
	struct ds_argsrc other;   /* judge_site's first gid argument of another gid */
	struct { uint64_t addr; bool real[2]; } saved[SAVED_MAX];
	size_t nsaved;
};

/* [egid_moved]: a store of getegid()'s result is real only when false,
 * so other[0] implies other[1].  A store copying another global (ksh's
 * egroupid = groupid, which holds getgid()) is set aside in from[] and
 * judged as that global, once the walk is over. */
#define COPIES_MAX 4
struct stores {
	bool real[2], other[2];
	uint64_t addr;   /* the global being judged */
	uint64_t from[COPIES_MAX];
	size_t nfrom;
};

static int on_store(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	(void)c;
	struct stores *st = ctx;
	struct ds_argsrc v = ds_site_stored(site);
	if (v.kind == DS_SRC_LOAD && v.value != 0 && (uint64_t)v.value != st->addr &&
	    st->nfrom < COPIES_MAX) {
		st->from[st->nfrom++] = (uint64_t)v.value;
		return 0;
	}
	for (int m = 0; m < 2; m++) {
		enum argv a = classify(v, m);
		st->real[m] |= a == A_REAL;
		st->other[m] |= a != A_REAL && a != A_KEEP;
	}
	return st->other[0];
}

/* How many globals deep a copy is followed (a copy of a copy, and no
 * further: a cycle of copies ends there as another gid). */
#define COPY_DEPTH 2

/* Is the global at addr one that every store in the file sets from
 * getgid/getegid/getresgid (or -1), or copies from such a global? */
static bool saved_real_at(struct ds_code *c, struct sites *s, uint64_t addr, bool egid_moved,
                          unsigned depth)
{
	for (size_t i = 0; i < s->nsaved; i++)
		if (s->saved[i].addr == addr)
			return s->saved[i].real[egid_moved];
	if (s->nsaved == SAVED_MAX)
		return false;
	struct stores st = { .addr = addr };
	bool seen = ds_code_each_store(c, addr, 4 /* gid_t */, on_store, &st) > 0;
	for (size_t i = 0; i < st.nfrom && seen; i++)
		for (int m = 0; m < 2; m++) {
			bool real = depth < COPY_DEPTH && saved_real_at(c, s, st.from[i], m, depth + 1);
			st.real[m] |= real;
			st.other[m] |= !real;
		}
	if (s->nsaved == SAVED_MAX)   /* filled by the copies' globals */
		return false;
	s->saved[s->nsaved].addr = addr;
	for (int m = 0; m < 2; m++)
		s->saved[s->nsaved].real[m] = seen && st.real[m] && !st.other[m];
	return s->saved[s->nsaved++].real[egid_moved];
}

/* A gid loaded from a global (bash's current_user.gid, dash's, screen's,
 * mtools' saved ids) that every store in the file sets from getgid/getegid/
 * getresgid (or -1), directly or by copying such a global: the real id
 * saved at start-up.  No store found, one of anything else, or one the
 * layer cannot see: no. */
static bool saved_real(struct ds_code *c, struct sites *s, struct ds_argsrc a, bool egid_moved)
{
	if (a.kind != DS_SRC_LOAD || a.value == 0)
		return false;
	return saved_real_at(c, s, (uint64_t)a.value, egid_moved, 0);
}

/* The stores of a member (ds_site_member_stores): all of what the real
 * gid calls returned? */
struct member_values {
	bool egid_moved, other;
};

static int on_member_store(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	(void)c;
	struct member_values *mv = ctx;
	mv->other |= classify(ds_site_stored(site), mv->egid_moved) != A_REAL;
	return mv->other;
}

/* A gid read from a record's member that the same function set from
 * getgid/getegid/getresgid through the same pointer, nothing between
 * able to change it (xgterm's screen->gid = getgid(), a few calls, then
 * setgid(screen->gid)): the real id. */
static bool member_real(const struct ds_site *site, unsigned n, bool egid_moved)
{
	struct member_values mv = { .egid_moved = egid_moved };
	return ds_site_member_stores(site, n, 4 /* gid_t */, on_member_store, &mv) > 0 && !mv.other;
}

/* Every gid argument judged another gid is member_real. */
static bool members_real(const struct ds_site *site, unsigned nargs, bool egid_moved)
{
	for (unsigned i = 0; i < nargs; i++)
		if (classify(gid_arg(site, i), egid_moved) == A_OTHER && !member_real(site, i, egid_moved))
			return false;
	return true;
}

static enum verdict judge_site(struct ds_code *c, struct sites *s, const struct ds_site *site,
                               bool egid_moved)
{
	const char *callee = ds_site_callee(site);
	unsigned nargs = strcmp(callee, "setresgid") == 0 ? 3 : strcmp(callee, "setregid") == 0 ? 2 : 1;
	unsigned count[4] = { 0 }, forwarded = 0, saved = 0, own = 0;
	s->other = (struct ds_argsrc){ .kind = DS_SRC_UNKNOWN };
	for (unsigned i = 0; i < nargs; i++) {
		struct ds_argsrc src = gid_arg(site, i);
		enum argv a = classify(src, egid_moved);
		if (a == A_OTHER && saved_real(c, s, src, egid_moved)) {
			a = A_REAL;
			saved++;
		}
		own += own_record(src);
		count[a]++;
		if (a == A_OTHER && count[a] == 1)
			s->other = src;
		if (a == A_OTHER && ds_site_arg_from_caller(site, i))
			forwarded++;
	}
	if (!count[A_OTHER])
		return count[A_ZERO] ? V_ROOT : saved ? V_SAVED : own ? V_OWN_PW : V_DROPBACK;
	/* with root's groups already gone, no kind of switch keeps them
	 * (milter-greylist: initgroups, then setgid and setegid) */
	if (ds_site_calls_before(site, group_calls))
		return V_GROUPED;
	/* a real/effective swap (atd: setregid(getegid(), daemon_gid)) keeps
	 * its own id in one slot to switch back to; setresgid(g, g,
	 * getegid()) keeps the current effective gid as the saved one (lpd),
	 * whatever that gid is: the call is no permanent drop */
	if (strcmp(callee, "setegid") == 0 || count[A_KEEP] || count[A_ZERO] || count[A_REAL] ||
	    (nargs == 3 && is_result(ds_site_arg(site, 2), "getegid")))
		return V_TEMP;
	if (ds_site_calls_after_unless(site, group_calls, uid_calls))
		return V_GROUPED_LATE;
	/* main's parameters are the command line (minidlnad's -u/-g), not a
	 * caller's decision */
	if (forwarded == count[A_OTHER] && !ds_site_in_main(site))
		return V_FORWARD;
	/* asked last, of would-be errors only: it decodes the functions called */
	return members_real(site, nargs, egid_moved) ? V_SAVED_MEMBER : V_BAD;
}

/* What the uid changes a gid change meets next do, on every path. */
struct next_uid {
	bool own;         /* each goes back to the real uid */
	bool effective;   /* each leaves the real uid as it is, and so do the later ones */
	unsigned depth;   /* uid changes followed after the first */
};

/* How many uid changes after the first are followed for `effective`. */
#define LATER_UID_DEPTH 3

static bool uid_unchanged(struct ds_argsrc a)
{
	return a.kind == DS_SRC_CONST && !a.guarded && (a.value == -1 || a.value == 0xffffffff);
}

/* A uid change to anything but the real uid (getuid(), the caller's own
 * passwd record, or -1: unchanged) ends `own`; one that sets the real
 * uid (setuid, or a first argument of setreuid/setresuid other than -1
 * or getuid()) ends `effective`; the walk stops when both are. */
static int on_uid(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	(void)c;
	struct next_uid *w = ctx;
	const char *callee = ds_site_callee(site);
	unsigned nargs = strcmp(callee, "setresuid") == 0 ? 3 : strcmp(callee, "setreuid") == 0 ? 2 : 1;
	for (unsigned i = 0; i < nargs && w->own; i++) {
		struct ds_argsrc a = ds_site_arg(site, i);
		w->own = is_result(a, "getuid") || own_record(a) || uid_unchanged(a);
	}
	if (w->effective && strcmp(callee, "seteuid") != 0) {
		struct ds_argsrc real = ds_site_arg(site, 0);
		w->effective = nargs > 1 && (uid_unchanged(real) || is_result(real, "getuid"));
	}
	/* brightd: seteuid(uid), then setuid(uid), meant as the permanent
	 * drop: a later change of the real uid keeps the finding */
	if (w->effective && w->depth < LATER_UID_DEPTH) {
		struct next_uid later = { false, true, w->depth + 1 };
		ds_site_each_call_after(site, uid_calls, on_uid, &later);
		w->effective = later.effective;
	}
	return !w->own && !w->effective;
}

/* The uid changes met next on every path from the site (none when a path
 * leaves the function first). */
static struct next_uid next_uid_changes(const struct ds_site *site)
{
	struct next_uid w = { true, true, 0 };
	if (ds_site_each_call_after(site, uid_calls, on_uid, &w) <= 0)
		w.own = w.effective = false;
	return w;
}

/* How many levels of direct calls a groups call is looked for in: before
 * the site, and in the callers of the site's function. */
#define GROUPS_DEPTH 3
#define CALLER_GROUPS_DEPTH 1

/* A caller of the site's function: a groups call with a path to the call,
 * in it or in a function it calls directly. */
static bool caller_grouped(const struct ds_site *caller, void *ctx)
{
	(void)ctx;
	return ds_site_calls_before_deep(caller, group_calls, CALLER_GROUPS_DEPTH, NULL) != NULL;
}

/* A would-be error: are the groups dropped in another function -- one
 * called on a path to the site (sshd's, proftpd's), or before the call in
 * every caller of the site's function (a change_user() helper)? */
static enum verdict judge_deep(const struct ds_site *site)
{
	/* the next uid change on every path back to the real uid (courier's
	 * sendmail: setgid(its group), setuid(getuid())): this gid change
	 * leads to no other user, the process stays root, with root's groups,
	 * or stays its caller, with the caller's own groups */
	struct next_uid next = next_uid_changes(site);
	if (next.own)
		return V_OWN_UID;
	if (ds_site_calls_before_deep(site, group_calls, GROUPS_DEPTH, NULL))
		return V_GROUPED_CALLED;
	if (ds_site_callers_all(site, caller_grouped, NULL))
		return V_GROUPED_CALLER;
	if (ds_site_main_first(site, group_calls, gid_calls, GROUPS_DEPTH))
		return V_GROUPED_MAIN;
	/* e2guardian: setgid(its group), setreuid(-1, its user), and back to
	 * root with setreuid(-1, the saved euid) for each reload.  setreuid
	 * with an effective uid other than the real one sets the saved uid
	 * too, but the real uid, still root's, is enough to return to root */
	if (next.effective)
		return V_TEMP_UID;
	if (ds_site_unreached(site))
		return V_DEAD;
	if (ds_site_bound_by_name(site, gid_calls))
		return V_BOUND;
	/* clamscan's checkaccess(), inlined where geteuid() was not 0, runs
	 * its getpwnam/setgid/setuid only when geteuid() is 0 */
	const char *id = ds_site_contra_id(site);
	if (id)
		return strcmp(id, "geteuid") == 0 ? V_CONTRA_EUID : V_CONTRA_UID;
	return V_BAD;
}

/* Does the site move the effective gid to another user's with root's
 * groups kept, so that a later getegid() is no id of the process's own?
 * Not when its effective gid is the process's own (from getgid/getegid/
 * getresgid, its own passwd record, a global saved from them, -1 or 0),
 * when the groups were set first on a path to it (the same function, or
 * judge_deep's deep and caller rules: initgroups(user), setegid(user's
 * gid) moves it to a gid with that user's groups), or when nothing runs
 * it (dead code). */
static bool moves_egid(struct ds_code *c, struct sites *s, const struct ds_site *site,
                       enum verdict deep)
{
	const char *callee = ds_site_callee(site);
	unsigned n = strcmp(callee, "setegid") == 0 ? 0 :
	             strcmp(callee, "setregid") == 0 || strcmp(callee, "setresgid") == 0 ? 1 : 9;
	if (n == 9)
		return false;   /* setgid: judged as a site of its own */
	struct ds_argsrc a = gid_arg(site, n);
	/* a process whose euid is not 0 cannot set a gid not its own (no
	 * CAP_SETGID) and has no root groups to keep: the arm of a geteuid()
	 * test without the groups call (hylafax's setupPermissions) moves no
	 * egid of root's */
	if (classify(a, false) != A_OTHER || saved_real(c, s, a, false) ||
	    ds_site_calls_before(site, group_calls) || ds_site_not_root(site, group_calls))
		return false;
	if (s->library || deep == V_BAD)
		return true;
	/* judge_deep's answer, made already */
	if (deep == V_GROUPED_CALLED || deep == V_GROUPED_CALLER || deep == V_GROUPED_MAIN ||
	    deep == V_BOUND || deep == V_DEAD || deep == V_CONTRA_EUID || deep == V_CONTRA_UID)
		return false;
	if (deep == V_TEMP_UID)
		return !ds_site_unreached(site);
	return !ds_site_calls_before_deep(site, group_calls, GROUPS_DEPTH, NULL) &&
	       !ds_site_callers_all(site, caller_grouped, NULL) &&
	       !ds_site_main_first(site, group_calls, gid_calls, GROUPS_DEPTH) &&
	       !ds_site_unreached(site) && !ds_site_contra_id(site);
}

static void count_site(struct tally *t, enum verdict v, const struct ds_site *site,
                       struct ds_argsrc gid)
{
	if (v == V_BAD && !t->bad++) {
		t->bad_at = ds_site_addr(site);
		t->bad_call = ds_site_callee(site);
		t->bad_gid = gid;
	}
	if (t->worst == V_NONE || v > t->worst)
		t->worst = v;
}

/* Each site is judged both ways of getegid() in a file that calls
 * setegid (one pass over the calls; the deep walk, which does not depend
 * on it, made once), and whether it moves the effective gid decides at
 * the end which way holds. */
static int on_site(struct ds_code *c, const struct ds_site *site, void *ctx)
{
	struct sites *s = ctx;
	enum verdict deep = V_NONE;
	int ways = s->may_move ? 2 : 1;   /* getegid() as its own gid, then as moved */
	for (int m = 0; m < ways; m++) {
		enum verdict v = judge_site(c, s, site, m);
		if (v == V_BAD && !s->library)
			v = deep = deep == V_NONE ? judge_deep(site) : deep;
		count_site(&s->t[m], v, site, s->other);
	}
	if (s->may_move && !s->moved)
		s->moved = moves_egid(c, s, site, deep);
	return 0;
}

static void list_imported(struct ds_finding *d, const struct ds_elfview *v,
                          const char *const *calls)
{
	for (; *calls; calls++)
		if (ds_elf_imports(v, *calls))
			ds_detail_append(d, "calls", *calls);
}

static struct ds_finding *report_bad(struct ds_file *f, const struct ds_elfview *v,
                                     enum ds_severity sev, const struct tally *s)
{
	struct ds_finding *d;
	if (!s) {
		d = ds_report(f, sev, "changes gid and uid without initgroups() or setgroups(): root's supplementary groups are kept");
	} else if (s->bad_gid.kind == DS_SRC_CONST && !s->bad_gid.guarded) {
		/* setregid(0xfffe, 0xfffe) (bidentd): a fixed group, not root's */
		d = ds_report(f, sev, "calls %s() at 0x%llx switching to gid %llu, a constant other than 0, with no initgroups() or setgroups() before it in that function: root's supplementary groups are kept",
		              s->bad_call, (unsigned long long)s->bad_at,
		              (unsigned long long)(uint32_t)s->bad_gid.value);
	} else {
		d = ds_report(f, sev, "calls %s() at 0x%llx with a gid from neither getgid() nor a constant, and no initgroups() or setgroups() before it in that function: root's supplementary groups are kept",
		              s->bad_call, (unsigned long long)s->bad_at);
	}
	list_imported(d, v, gid_calls);
	list_imported(d, v, uid_calls);
	return d;
}

/* What capped the severity: a setid file, a library or API host. */
static void detail_file(struct ds_finding *d, const struct ds_elfview *v, bool setid, bool library)
{
	ds_detail_bool(d, "setid_file", setid);
	ds_detail_bool(d, "library", library);
	if (library && ds_elf_pie(v) != DS_ELF_SHLIB)
		ds_detail_int(d, "exported_functions", (long long)v->defined_funcs);
}

static enum ds_severity cap(enum ds_severity sev, bool setid, bool library)
{
	if (library)
		return sev < DS_SEV_INFO ? sev : DS_SEV_INFO;
	if (setid)
		return sev < DS_SEV_WARNING ? sev : DS_SEV_WARNING;
	return sev;
}

static void by_imports(struct ds_file *f, const struct ds_elfview *v, bool setid, bool library,
                       const char *why)
{
	struct ds_finding *d;
	if (ds_elf_imports_any(v, group_calls))
		d = ds_report(f, DS_SEV_PASS, "drops supplementary groups before changing ids");
	else
		d = report_bad(f, v, cap(DS_SEV_ERROR, setid, library), NULL);
	ds_detail_str(d, "method", "imports");
	if (why)
		ds_detail_str(d, "no_disassembly", why);
	detail_file(d, v, setid, library);
}

static void run(struct ds_file *f, void *state)
{
	(void)state;
	const struct ds_elfview *v = ds_file_elf(f);
	if (!v || !ds_elf_imports_any(v, gid_calls) || !ds_elf_imports_any(v, uid_calls))
		return;
	bool setid = (f->mode & (S_ISUID | S_ISGID)) != 0;
	bool library = ds_elf_offers_api(v);
	const char *why = NULL;
	struct ds_code *c = ds_file_code(f, &why);
	struct sites s = { .library = library, .may_move = ds_elf_imports(v, "setegid"),
	                   .t = { { .worst = V_NONE }, { .worst = V_NONE } } };
	int n = c ? ds_code_each_call(c, gid_calls, on_site, &s) : -1;
	const struct tally *t = &s.t[s.may_move && s.moved];
	bool capped = c && ds_code_capped(c);
	if (n < 0 || (capped && !t->bad)) {
		by_imports(f, v, setid, library, c ? "code too large, read partly" : why);
		return;
	}
	struct ds_finding *d;
	if (n == 0) {
		d = ds_report(f, cap(DS_SEV_INFO, setid, library),
		              "imports gid-changing calls but calls none directly (through a pointer?)");
	} else if (t->worst == V_BAD) {
		d = report_bad(f, v, cap(DS_SEV_ERROR, setid, library), t);
	} else if (t->worst == V_DEAD || t->worst == V_CONTRA_EUID || t->worst == V_CONTRA_UID) {
		d = ds_report(f, DS_SEV_INFO, "changes its gid without dropping supplementary groups, but only in code nothing runs");
		ds_detail_str(d, "reason", reasons[t->worst]);
	} else if (t->worst == V_TEMP || t->worst == V_TEMP_UID) {
		d = ds_report(f, DS_SEV_INFO, "changes its gid without dropping supplementary groups, but only as a temporary switch that keeps a root id");
		ds_detail_str(d, "reason", reasons[t->worst]);
	} else if (t->worst == V_FORWARD || t->worst == V_BOUND) {
		d = ds_report(f, DS_SEV_INFO, "changes its gid only in a wrapper that passes on its caller's gid");
		ds_detail_str(d, "reason", reasons[t->worst]);
	} else {
		d = ds_report(f, DS_SEV_PASS, "does not keep root's supplementary groups: %s", reasons[t->worst]);
		ds_detail_str(d, "reason", reasons[t->worst]);
	}
	ds_detail_str(d, "method", "disassembly");
	ds_detail_int(d, "gid_calls", n);
	ds_detail_int(d, "without_groups", (long long)t->bad);
	detail_file(d, v, setid, library);
}

const struct ds_check ds_check_elf_nodrop_groups = {
	.id = "elf-nodrop-groups",
	.severity = DS_SEV_ERROR,
	.applies = DS_ON_ELF,
	.summary = "changes gid to a user's without initgroups/setgroups before it",
	.help = {
		.what = "A program that changes its gid and uid but never calls initgroups() or "
		  "setgroups() keeps the supplementary groups of root after \"dropping\" "
		  "privileges.",
		.detect = "On the disassembled code (capstone): a change of gid to a user's without "
		  "a call to initgroups or setgroups before it: in its function, in a function "
		  "called before it (up to 3 levels of direct calls), or before the call in every "
		  "direct caller of its function, or in main on every path it runs as root before "
		  "anything that may change a gid (a function main calls that calls one on every "
		  "path it returns by, before any gid change, counts as main's call; the arm "
		  "where geteuid() or getuid(), just called, returned not 0 is not root's -- on "
		  "from the jump's condition; where it is not read, the arm of such a test whose "
		  "other arm calls one); a gid "
		  "from getgid/getegid/getresgid or "
		  "getpwuid(getuid()), directly or through a global only ever assigned from them "
		  "(or copied from such a global, two levels deep), or stored by the same "
		  "function into a record's member through the same pointer on every path to the "
		  "change, nothing between able to write that member (no other store at its "
		  "offset, no write through an index, no address of it or off the pointer "
		  "computed, the pointer not among a call's first two arguments, no indirect call, "
		  "and no store at its "
		  "offset in the functions called, 6 levels; x86, aarch64), "
		  "or read through that record's pointer kept in a callee-saved register which "
		  "nothing on any path to the change writes but with that call's result (x86, "
		  "aarch64), is a drop back, and so is any gid when the next uid change is back to getuid() "
		  "(a return from main ends a path), "
		  "and a gid read from a stack slot getresgid() filled (its address the last "
		  "call was given: getresgid(&r, &e, &s) ... setresgid(r, e, s)); "
		  "getegid() is no drop back in a file where a setegid (or setregid's or "
		  "setresgid's effective gid) moves the effective gid to a gid not its own "
		  "with no initgroups or setgroups before it by the rules above, outside "
		  "dead code and not only on the arm of a geteuid() or getuid() test that is "
		  "not root's (setegid(user's gid), later setgid(getegid())); "
		  "syscall(SYS_setgroups, ...) with the machine's number counts as setgroups(); "
		  "a constant the gid was tested against on the way (if (gid) setgid(gid)) is not "
		  "taken as the gid, but the value a test leaves on the only way to the call is "
		  "(if (gid == 0) setgid(gid): gid 0); setresgid() "
		  "keeping getegid() as the saved gid is a temporary switch, and so is any gid "
		  "when the next uid change on every path changes only the effective uid "
		  "(seteuid(x), setreuid(-1, x), setresuid(-1, x, y): the real uid stays root's); "
		  "a change in a "
		  "function nothing in the file calls, jumps to or takes the address of, or only "
		  "functions that are dead code themselves do (a chain or cycle of them, followed "
		  "4 functions deep), is dead code (info), even when the function is one of a program's dynamic symbols, "
		  "unless the program loads plugins or looks names up (dlopen, dlsym, libglade's "
		  "or GtkBuilder's signal autoconnection: they may "
		  "call its exports); a shared library's exports are always callers.  A "
		  "change in a function whose only references are entries of a table pairing it "
		  "with a string naming the call ({ \"setgid\", fn, ... }, or a name ending in it "
		  "after one of . : / - _, as \"os.setgid\", \"POSIX::setgid\", \"posix_setgid\": a "
		  "binding, as an interpreter built into the program offers os.setgid to its "
		  "scripts), or entries of a { name, function } table the program registers with "
		  "an embedded Lua (the table given to luaL_setfuncs, luaL_register or luaL_openlib: "
		  "xmake's os.gid), is the "
		  "script's choice (info, x86 and aarch64).  A "
		  "change every path to which takes both the arm where geteuid() (or getuid()) "
		  "returned 0 and an arm where it returned not 0, with no call between the two "
		  "tests but geteuid, getuid, getegid or getgid (any other may change the id): it "
		  "never runs (info).",
		.limits = "Ids computed at run time, and calls through function pointers, are not "
		  "followed; a gid a function other than main receives from its caller is info (the "
		  "caller is not followed), so a program's own drop_privileges(uid, gid) helper is "
		  "not an error; "
		  "a program exporting 200+ functions (an interpreter or plugin host) is judged "
		  "like a library, info at most, even where the call is its own (on mips, whose "
		  "linker exports every global function of a program, any program of 200+); groups dropped in "
		  "a function neither called before the change nor a direct caller's (named's "
		  "named_os_inituserinfo()) are not seen. "
		  "A gid kept in a global is followed to the global's stores, one level: a gid "
		  "saved from getgid() passes; in a stripped file, a write through a pointer to the "
		  "start of a struct holding the gid further in is not seen. Through syscall() only "
		  "setgroups is known: a gid or uid changed by syscall() is not a site. "
		  "Only a file that imports setegid reads getegid() as possibly moved. A "
		  "test of a global (nscd's `if (server_user)` both before its setgroups in "
		  "nscd_init() and before restart()'s setgid) is not matched across functions: "
		  "a function main calls that skips the groups call on one arm of such a test "
		  "does not count as dropping them. "
		  "A library a program is linked with that calls one of the "
		  "program's exports by name without a call the program makes (GTK 4's "
		  "builder finding a UI file's signal handlers) is not seen: a "
		  "function only that export names is taken for dead code (info). "
		  "The uid changes after a gid change are followed in its own "
		  "function only: a helper that returns to its caller (on a failure path too) "
		  "leaves them unknown. "
		  "A gid stored into a record's member is followed within one function: a member "
		  "set in another (an init function filling the record) is any other gid; an "
		  "import writing the member through a copy of the pointer it keeps or given the "
		  "pointer as its third or later argument, a signal handler or another thread "
		  "writing it between the store and the change are not seen. "
		  "A record's pointer kept in a stack slot (-O0 builds) is followed back over a "
		  "few blocks only, and one kept in a register is taken as its function's: code "
		  "elsewhere jumping into the function (a split-off cold part) is not seen. "
		  "Tests of geteuid() or getuid() are read where the branches' conditions are "
		  "(a compare and a conditional jump or compare-and-branch on every machine, not a "
		  "Thumb-2 IT block's conditional return); a signal handler changing the id between two tests is not "
		  "considered. A switch behind an option value or a field the program never sets "
		  "(an embedded web server's run_as_user option no caller passes) is reported: which "
		  "options a program sets is not evaluated, and on packages the rules were not "
		  "written for it is the most frequent false error (bench/PRECISION.md).",
		.fix = "Call setgroups() (or initgroups()) before setgid() and setuid() when dropping "
		  "from root to a user.",
	},
	.least = DS_SEV_INFO,
	.severity_policy = "error for programs; warning for setuid/setgid programs; info for shared "
	  "libraries and programs exporting 200+ functions (interpreters, plugin hosts), temporary "
	  "switches that keep a root id, wrappers that pass on their caller's gid or sit in a binding's "
	  "table, dead code (code behind "
	  "contradictory geteuid() or getuid() tests included), and "
	  "calls it cannot follow",
	.cwe = 273,
	.precision = "medium",
	.run = run,
};
