/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * script-sh-syntax (find-sh4errors): each shell script is parsed by its own
 * interpreter with -n (parse, never run), fed on stdin from a memory file
 * (script_file: bash reads a pipe a byte at a time), with a clean
 * environment, a new session (no terminal), output captured and a 5 s
 * limit.  The script itself is never executed.  A launcher is parsed up to
 * its unconditional top-level exec or exit (sh/Python and sh/Tcl polyglots,
 * Perl's `eval 'exec perl -x $0'`, `:;exec scm`), a bash script
 * that turns on extglob with -O extglob, and a file without "#!" by the
 * shell its name or content names, or not at all (sh_text.c).  A script busybox runs
 * ("#!/bin/busybox sh", or a #! path the scanned root links to its busybox)
 * is parsed by "busybox sh -n".  Only interpreters installed on the scanning
 * machine are used: a missing one gets one finding at the end, naming the
 * scripts it left unchecked.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "distsec/backend.h"
#include "distsec/check.h"
#include "distsec/scan.h"
#include "distsec/util.h"
#include "sh_syntax.h"


/* run_parser's result for a parser a signal ended: this plus the signal */
#define DS_SH_CRASHED 1000

int ds_sh_timeout_ms = 5000;
/* How many launcher ends are parsed up to, at most, after the whole
 * script failed: each is a parser run. */
#define LAUNCHER_TRIES 4
const char *const *ds_sh_dirs = (const char *const[]){ "/usr/bin", "/bin", "/usr/sbin", "/sbin", NULL };


/* How many scripts a missing interpreter's finding names: the first in
 * path order, so the list is the same whatever -j is. */
#define LISTED_MAX 20
/* How many #! paths the state remembers as busybox or not. */
#define LINKS_MAX 32
/* Where a root keeps busybox (Alpine, Debian's busybox, initramfs images). */
static const char *const busybox_paths[] = {
	"/bin/busybox", "/usr/bin/busybox", "/sbin/busybox", "/usr/sbin/busybox",
};
#define NBUSYBOX (sizeof busybox_paths / sizeof busybox_paths[0])
/* The interpreters a script may need: ds_shells, then busybox. */
#define BUSYBOX DS_NSHELLS
#define NINTERP (DS_NSHELLS + 1)

/* Scripts an interpreter not installed here left unchecked. */
struct missing {
	size_t count;
	char *listed[LISTED_MAX];   /* the smallest names, sorted */
	size_t nlisted;
};

/* The scan's state, shared by the workers under lock: the missing
 * interpreters' scripts, reported once by scan_end, and which #! paths
 * the root links to its busybox. */
struct state {
	pthread_mutex_t lock;
	struct missing missing[NINTERP];
	bool busybox_known;
	struct stat busybox[NBUSYBOX];   /* st_ino 0: not there */
	struct link {
		char *path;
		bool busybox;
	} links[LINKS_MAX];
	size_t nlinks;
};

static const char *interp_name(int idx)
{
	return idx == BUSYBOX ? "busybox" : ds_shells[idx];
}

static int shell_index(const char *name)
{
	for (int i = 0; ds_shells[i]; i++)
		if (!strcmp(ds_shells[i], name))
			return i;
	return -1;
}

/* Counts f under its missing interpreter and keeps its name if it is
 * among the LISTED_MAX smallest so far. */
static void note_missing(struct state *st, int idx, const struct ds_file *f)
{
	char *name = f->input && f->input->pkg.name
		? ds_xasprintf("%s (package %s)", f->path, f->input->pkg.name)
		: ds_xstrdup(f->path);
	pthread_mutex_lock(&st->lock);
	struct missing *m = &st->missing[idx];
	m->count++;
	size_t at = m->nlisted;
	while (at > 0 && strcmp(name, m->listed[at - 1]) < 0)
		at--;
	if (at < LISTED_MAX) {
		if (m->nlisted == LISTED_MAX)
			free(m->listed[--m->nlisted]);
		memmove(m->listed + at + 1, m->listed + at, (m->nlisted - at) * sizeof *m->listed);
		m->listed[at] = name;
		m->nlisted++;
		name = NULL;
	}
	pthread_mutex_unlock(&st->lock);
	free(name);
}

/* The command of f's "#!" line: its path as written (cmd), and for an
 * "env NAME" line the name env looks up (env_name, else NULL).  Both
 * point into buf.  False without a command. */
static bool shebang_command(const struct ds_file *f, char *buf, size_t len, const char **cmd,
                            const char **env_name)
{
	size_t n = 0;
	for (size_t i = 2; i < f->head_len && f->head[i] != '\n' && n < len - 1; i++)
		buf[n++] = (char)f->head[i];
	buf[n] = '\0';
	char *save = NULL;
	*cmd = strtok_r(buf, " \t\r", &save);
	*env_name = NULL;
	if (!*cmd)
		return false;
	const char *base = strrchr(*cmd, '/');
	if (!strcmp(base ? base + 1 : *cmd, "env")) {
		const char *tok;
		do
			tok = strtok_r(NULL, " \t\r", &save);
		while (tok && (tok[0] == '-' || strchr(tok, '=')));
		*env_name = tok;
	}
	return true;
}

/* Is path, inside the scanned root, the root's busybox (a symlink to it or
 * a hard link of it)?  Remembered per path. */
static bool root_busybox(struct state *st, struct ds_file *f, const char *path)
{
	pthread_mutex_lock(&st->lock);
	if (!st->busybox_known) {
		for (size_t i = 0; i < NBUSYBOX; i++)
			if (ds_file_stat_in_root(f, busybox_paths[i], &st->busybox[i]) != 0 ||
			    !S_ISREG(st->busybox[i].st_mode))
				st->busybox[i].st_ino = 0;
		st->busybox_known = true;
	}
	bool any = false;
	for (size_t i = 0; i < NBUSYBOX; i++)
		any |= st->busybox[i].st_ino != 0;
	int found = any ? -1 : 0;
	for (size_t i = 0; found < 0 && i < st->nlinks; i++)
		if (!strcmp(st->links[i].path, path))
			found = st->links[i].busybox;
	if (found < 0) {
		struct stat sb;
		found = 0;
		if (ds_file_stat_in_root(f, path, &sb) == 0)
			for (size_t i = 0; i < NBUSYBOX; i++)
				found |= st->busybox[i].st_ino && st->busybox[i].st_ino == sb.st_ino &&
				         st->busybox[i].st_dev == sb.st_dev;
		if (st->nlinks < LINKS_MAX)
			st->links[st->nlinks++] = (struct link){ ds_xstrdup(path), found };
	}
	pthread_mutex_unlock(&st->lock);
	return found;
}

/* Does busybox run f?  "#!/bin/busybox sh" (or through env) anywhere; an
 * sh or ash #! path that the scanned root links to its busybox (an Alpine
 * or initramfs root) for the root's own files only: a package file's
 * script runs on whatever system installs it. */
static bool runs_on_busybox(struct state *st, struct ds_file *f)
{
	if (f->interp_given || f->head_len < 2 || f->head[0] != '#' || f->head[1] != '!')
		return false;
	char buf[DS_HEAD_MAX];
	const char *cmd, *env_name;
	if (!shebang_command(f, buf, sizeof buf, &cmd, &env_name))
		return false;
	const char *base = strrchr(cmd, '/');
	if (!strcmp(env_name ? env_name : base ? base + 1 : cmd, "busybox"))
		return true;
	if (f->input || (strcmp(f->interp, "sh") && strcmp(f->interp, "ash")))
		return false;
	if (!env_name)
		return cmd[0] == '/' && root_busybox(st, f, cmd);
	/* env finds the first of PATH's directories holding the name */
	char path[64];
	for (size_t i = 0; i < 2; i++) {
		struct stat sb;
		snprintf(path, sizeof path, "%s/%s", i ? "/bin" : "/usr/bin", f->interp);
		if (ds_file_stat_in_root(f, path, &sb) == 0)
			return root_busybox(st, f, path);
	}
	return false;
}

/* The interpreter's host path, or NULL if it is not installed. */
static const char *find_shell(const char *name, char *buf, size_t len)
{
	for (size_t i = 0; ds_sh_dirs[i]; i++) {
		snprintf(buf, len, "%s/%s", ds_sh_dirs[i], name);
		if (access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* The parser's side of start_parser, between vfork() and execve(): it
 * shares the scan's memory, so it makes only system calls and writes
 * nothing but *err.  Handlers the scan installed (cleanup.c) are reset
 * before the signals are unblocked: none may run here. */
static _Noreturn void parser_child(const char *shell, char *const argv[], int in, int null,
                                   int err, volatile int *child_errno)
{
	static char *const envp[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };
	const struct rlimit no_core = { 0, 0 };
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL &&
		    sa.sa_handler != SIG_IGN) {
			sa.sa_handler = SIG_DFL;
			sa.sa_flags = 0;
			sigaction(sig, &sa, NULL);
		}
	}
	sigset_t none;
	sigemptyset(&none);
	if (setrlimit(RLIMIT_CORE, &no_core) == 0 && setsid() >= 0 &&
	    dup2(in, 0) == 0 && dup2(null, 1) == 1 && dup2(err, 2) == 2 &&
	    sigprocmask(SIG_SETMASK, &none, NULL) == 0)
		execve(shell, argv, envp);
	*child_errno = errno ? errno : ENOEXEC;
	_exit(127);
}

/* Starts shell with argv in a new session (no terminal), stdin from in,
 * stderr to err, stdout to /dev/null, and no core dump: a script that
 * crashes the interpreter must not make the kernel write a core file into
 * the scanned tree (the parser's working directory may be anywhere).
 * posix_spawn cannot set a limit, and fork() copies the scan's page tables
 * (with the dpkg database and apt's cache loaded, most of a /usr scan's
 * system time): vfork(), all signals blocked until the child has reset
 * their handlers.  Returns the pid, or -1 (errno set) when it could not be
 * started. */
static pid_t start_parser(const char *shell, char *const argv[], int in, int err)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0)
		return -1;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	volatile int child_errno = 0;
	pid_t pid = vfork();
	if (pid == 0)
		parser_child(shell, argv, in, null, err, &child_errno);
	int e = pid < 0 ? errno : child_errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(null);
	if (pid > 0 && e) {   /* the exec failed: the child has exited */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		pid = -1;
	}
	if (pid < 0)
		errno = e;
	return pid;
}

/* The script as a file the parser reads from the start: an anonymous
 * memory file, not a pipe.  From a pipe, bash reads a byte at a time (it
 * must not read past the command it runs), 12 s for an 8 MB script, which
 * the timeout would report as a script that cannot be parsed; from a
 * seekable file it reads in blocks.  No pipe also means no SIGPIPE when a
 * parser stops reading (dash -n exits at its first error).  -1 (errno
 * set) when it cannot be made. */
static int script_file(const unsigned char *data, size_t len)
{
	int fd = memfd_create("distsec-sh-n", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	for (size_t done = 0; done < len;) {
		ssize_t w = write(fd, data + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;
			close(fd);
			errno = e;
			return -1;
		}
		done += (size_t)w;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Runs shell -n on data (busybox: "busybox sh -n") and collects its
 * stderr.  Returns the exit status, -2 on timeout, -1 if it could not be
 * started, DS_SH_CRASHED + N when signal N ended it. */
static int run_parser(const char *shell, bool busybox, bool extglob, const unsigned char *data,
                      size_t len, char *errbuf, size_t errlen)
{
	int in = script_file(data, len), err[2];
	if (in < 0)
		return -1;
	if (pipe2(err, O_CLOEXEC) != 0) {
		close(in);
		return -1;
	}
	char *const plain[] = { (char *)shell, "-n", NULL };
	char *const with_extglob[] = { (char *)shell, "-O", "extglob", "-n", NULL };
	char *const applet[] = { (char *)shell, "sh", "-n", NULL };
	pid_t pid = start_parser(shell, busybox ? applet : extglob ? with_extglob : plain, in, err[1]);
	close(in);
	close(err[1]);
	if (pid < 0) {
		close(err[0]);
		return -1;
	}
	size_t got = 0;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int timed_out = 0;
	struct pollfd p = { err[0], POLLIN, 0 };
	for (;;) {
		long left = ds_sh_timeout_ms - ms_since(&t0);
		if (left <= 0) {
			timed_out = 1;
			break;
		}
		int n = poll(&p, 1, (int)left);
		if (n < 0 && errno != EINTR)
			break;
		if (n <= 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		char tmp[4096];
		ssize_t r = read(err[0], tmp, sizeof tmp);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		size_t take = (size_t)r < errlen - 1 - got ? (size_t)r : errlen - 1 - got;
		memcpy(errbuf + got, tmp, take);
		got += take;
	}
	errbuf[got] = '\0';
	close(err[0]);
	if (timed_out) /* setsid: the parser leads its own group */
		kill(-pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (timed_out)
		return -2;
	return WIFSIGNALED(status) ? DS_SH_CRASHED + WTERMSIG(status) : WEXITSTATUS(status);
}

static void run(struct ds_file *f, void *state)
{
	struct state *st = state;
	if (shell_index(f->interp) < 0)
		return;
	size_t len;
	const unsigned char *data = ds_file_shell_text(f, &len, NULL);
	if (!data)
		return;
	/* without "#!" the name and content say which shell it is written
	 * for (files sourced by bash or zsh); sh is not assumed */
	const char *interp = f->interp;
	if (!f->interp_given && (f->head_len < 2 || f->head[0] != '#' || f->head[1] != '!')) {
		const char *base = strrchr(f->path, '/');
		interp = ds_sh_guess_shell((const char *)data, len, base ? base + 1 : f->path);
		if (!interp) {
			ds_report(f, DS_SEV_INFO, "no #! line, and nothing in it tells which shell it "
			          "is written for: not parsed");
			return;
		}
	}
	bool busybox = runs_on_busybox(st, f);
	int idx = busybox ? BUSYBOX : shell_index(interp);
	if (busybox)
		interp = "busybox sh";
	char path[64];
	const char *shell = find_shell(interp_name(idx), path, sizeof path);
	if (!shell) {
		note_missing(st, idx, f);
		return;
	}
	bool extglob = !strcmp(interp, "bash") && ds_sh_wants_extglob((const char *)data, len);
	/* the whole script first; a launcher's shell part alone only when
	 * that fails (an exec in column 0 may still sit inside an if) */
	char errbuf[2048];
	size_t parsed = len;
	int rc = run_parser(shell, busybox, extglob, data, len, errbuf, sizeof errbuf);
	enum ds_sh_stop how = DS_SH_STOP_EXEC;
	/* an exit in column 0 may close an if's arm (titanver: `exit 0` before
	 * the fi that ends its no-perl branch, then Perl's eval 'exec'): when
	 * the part up to one end does not parse, the next end is tried */
	size_t cut = 0;
	for (int tries = 0; rc > 0 && rc < DS_SH_CRASHED && tries < LAUNCHER_TRIES; tries++) {
		cut = ds_sh_launcher_end((const char *)data, len, cut, &how);
		if (cut >= len)
			break;
		char cutbuf[2048];
		if (run_parser(shell, busybox, extglob, data, cut, cutbuf, sizeof cutbuf) == 0) {
			rc = 0;
			parsed = cut;
		}
	}
	struct ds_finding *d;
	if (rc == -1) {
		d = ds_report(f, DS_SEV_INFO, "%s -n could not be started", shell);
	} else if (rc == -2) {
		d = ds_report(f, DS_SEV_WARNING, "%s -n did not finish within %d s", interp,
		              (ds_sh_timeout_ms + 999) / 1000);
		ds_detail_bool(d, "timeout", true);
	} else if (rc > DS_SH_CRASHED) {
		/* not the script's syntax: the parser itself died */
		d = ds_report(f, DS_SEV_WARNING, "%s -n: the interpreter crashed (signal %d)", interp,
		              rc - DS_SH_CRASHED);
		ds_detail_int(d, "signal", rc - DS_SH_CRASHED);
	} else if (rc != 0) {
		errbuf[strcspn(errbuf, "\n")] = '\0';
		/* the package manager runs it as root at install: one that does
		 * not parse leaves the package half-installed (lintian's
		 * maintainer-shell-script-fails-syntax-check is an error too) */
		d = ds_report(f, f->pkg_script ? DS_SEV_ERROR : DS_SEV_WARNING, "%s -n: %s", interp,
		              errbuf[0] ? errbuf : "syntax error");
		ds_detail_str(d, "error", errbuf);
	} else {
		d = ds_report(f, DS_SEV_PASS, "%s -n: no syntax error", interp);
	}
	ds_detail_str(d, "interpreter", shell);
	if (extglob)
		ds_detail_bool(d, "extglob", true);
	if (parsed < len) { /* a launcher: what follows its exec or exit is another language */
		ds_detail_int(d, "parsed_bytes", (long long)parsed);
		ds_detail_str(d, "reason", how == DS_SH_STOP_EXEC ?
		              "a launcher: its top-level exec hands the file to another "
		              "interpreter (Python, Perl, Tcl), the rest is not shell and is not parsed" :
		              "a launcher: the shell stops at its top-level exit, the rest is "
		              "another language (Python, Perl, Tcl) and is not parsed");
	}
}

extern const struct ds_check ds_check_script_sh_syntax;

static void *scan_begin(struct ds_scan *s, struct ds_error *err)
{
	(void)s;
	(void)err;
	struct state *st = ds_xcalloc(1, sizeof *st);
	pthread_mutex_init(&st->lock, NULL);
	return st;
}

/* The first names of a missing interpreter's list, for its message. */
#define NAMED_MAX 3

/* One info finding per missing interpreter, on the root itself, naming
 * the scripts it left unchecked (details.scripts: the first LISTED_MAX in
 * path order; details.not_checked: how many). */
static void scan_end(struct ds_scan *s, void *state)
{
	struct state *st = state;
	for (int i = 0; i < NINTERP; i++) {
		struct missing *m = &st->missing[i];
		if (!m->count)
			continue;
		char named[1024] = "";
		size_t used = 0;
		for (size_t k = 0; k < m->nlisted && k < NAMED_MAX && used < sizeof named; k++) {
			int w = snprintf(named + used, sizeof named - used, "%s%s", k ? ", " : "",
			                 m->listed[k]);
			used += w > 0 ? (size_t)w : 0;
		}
		size_t more = m->count - (m->nlisted < NAMED_MAX ? m->nlisted : NAMED_MAX);
		char tail[48] = "";
		if (more)
			snprintf(tail, sizeof tail, " and %zu more", more);
		const char *name = interp_name(i);
		struct ds_finding *d = ds_scan_report(s, &ds_check_script_sh_syntax, "/", DS_SEV_INFO,
			"%s is not installed on the scanning machine: %zu %s script%s not checked: %s%s",
			name, m->count, name, m->count > 1 ? "s" : "", named, tail);
		ds_detail_str(d, "interpreter", name);
		for (size_t k = 0; k < m->nlisted; k++) {
			ds_detail_append(d, "scripts", m->listed[k]);
			free(m->listed[k]);
		}
		ds_detail_int(d, "not_checked", (long long)m->count);
	}
	for (size_t i = 0; i < st->nlinks; i++)
		free(st->links[i].path);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

const struct ds_check ds_check_script_sh_syntax = {
	.id = "script-sh-syntax",
	.severity = DS_SEV_ERROR,
	.by_path = true,
	.applies = DS_ON_SHELL,
	.summary = "shell script its interpreter's -n rejects (parse only, never run)",
	.help = {
		.what = "A shell script its own interpreter cannot parse fails at run time, often "
		  "half-way (a maintainer script that aborts leaves a package half-configured).",
		.detect = "The script is parsed by its own interpreter with -n (parse only, never run), "
		  "fed on stdin (a memory file, which bash reads in blocks, not a pipe) with a clean "
		  "environment, a new session, no core dump and a 5 s "
		  "limit; an interpreter killed by a signal is reported as a crash, not a syntax error. "
		  "A script busybox runs (#!/bin/busybox sh, or a #!/bin/sh or ash the scanned root "
		  "links to its busybox) is parsed by busybox sh -n. A launcher that fails to parse "
		  "whole is parsed again up to its top-level exec or exit, as sh/Python and sh/Tcl "
		  "polyglots, Perl's eval 'exec perl -x $0' and a `:;exec` line hand over; up to 4 "
		  "such ends are tried, since an exit in column 0 may still close an if's arm.",
		.limits = "Only interpreters installed on the scanning machine are used; a missing one "
		  "gets one info finding naming the scripts it left unchecked (details.scripts: the "
		  "first 20 by path; details.not_checked: how many). A package file's #!/bin/sh is "
		  "parsed by this machine's sh, whatever the installing system links it to. -n does "
		  "not see errors that only appear at run time.",
		.fix = "Fix the syntax error the message quotes; run the interpreter with -n in the "
		  "package's tests.",
	},
	.least = DS_SEV_INFO,
	.severity_policy = "error for a parse error in a maintainer script or scriptlet (the "
	  "package manager runs it as root at install); warning for a parse error in any other "
	  "script, a parser that does not finish or crashes; info when the interpreter cannot be "
	  "started",
	.precision = "high",
	.scan_begin = scan_begin,
	.run = run,
	.scan_end = scan_end,
};
