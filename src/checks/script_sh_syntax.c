/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * script-sh-syntax (find-sh4errors): each shell script is parsed by its own
 * interpreter with -n (parse, never run), fed on stdin, with a clean
 * environment, a new session (no terminal), output captured and a 5 s
 * limit.  The script itself is never executed.  A launcher is parsed up to
 * its unconditional top-level exec (sh/Python and sh/Tcl polyglots), a bash script
 * that turns on extglob with -O extglob, and a file without "#!" by the
 * shell its name or content names, or not at all (sh_text.c).  Only interpreters installed
 * on the scanning machine are used: a missing one is noted once, at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "distsec/check.h"
#include "distsec/scan.h"
#include "distsec/util.h"
#include "sh_syntax.h"


/* run_parser's result for a parser a signal ended: this plus the signal */
#define DS_SH_CRASHED 1000

int ds_sh_timeout_ms = 5000;
const char *const *ds_sh_dirs = (const char *const[]){ "/usr/bin", "/bin", "/usr/sbin", "/sbin", NULL };


/* The scan's state: scripts per interpreter not installed here, counted
 * by the workers, reported once by scan_end. */
struct missing {
	atomic_size_t scripts[DS_NSHELLS];
};

static int shell_index(const char *name)
{
	for (int i = 0; ds_shells[i]; i++)
		if (!strcmp(ds_shells[i], name))
			return i;
	return -1;
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

/* Feeds data to argv[0] -n on stdin and collects its stderr.  Returns the
 * exit status, -2 on timeout, -1 if it could not be started, DS_SH_CRASHED
 * + N when signal N ended it. */
static int run_parser(const char *shell, bool extglob, const unsigned char *data, size_t len,
                      char *errbuf, size_t errlen)
{
	int in[2], err[2];
	if (pipe2(in, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(err, O_CLOEXEC) != 0) {
		close(in[0]), close(in[1]);
		return -1;
	}
	char *const plain[] = { (char *)shell, "-n", NULL };
	char *const with_extglob[] = { (char *)shell, "-O", "extglob", "-n", NULL };
	pid_t pid = start_parser(shell, extglob ? with_extglob : plain, in[0], err[1]);
	close(in[0]);
	close(err[1]);
	if (pid < 0) {
		close(in[1]), close(err[0]);
		return -1;
	}
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	size_t sent = 0, got = 0;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int timed_out = 0;
	struct pollfd p[2] = { { in[1], POLLOUT, 0 }, { err[0], POLLIN, 0 } };
	if (len == 0) {
		close(in[1]);
		p[0].fd = -1;
	}
	while (p[1].fd >= 0) {
		long left = ds_sh_timeout_ms - ms_since(&t0);
		if (left <= 0) {
			timed_out = 1;
			break;
		}
		if (poll(p, 2, (int)left) < 0 && errno != EINTR)
			break;
		if (p[0].fd >= 0 && (p[0].revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t w = write(in[1], data + sent, len - sent);
			if (w > 0)
				sent += (size_t)w;
			if (w < 0 && errno != EAGAIN) /* the parser stopped reading */
				sent = len;
			if (sent == len) {
				close(in[1]);
				p[0].fd = -1;
			}
		}
		if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
			char tmp[4096];
			ssize_t r = read(err[0], tmp, sizeof tmp);
			if (r <= 0) {
				p[1].fd = -1;
				continue;
			}
			size_t take = (size_t)r < errlen - 1 - got ? (size_t)r : errlen - 1 - got;
			memcpy(errbuf + got, tmp, take);
			got += take;
		}
	}
	errbuf[got] = '\0';
	if (p[0].fd >= 0)
		close(in[1]);
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
	struct missing *missing = state;
	if (shell_index(f->interp) < 0)
		return;
	size_t len;
	const unsigned char *data = ds_file_script(f, &len);
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
	int idx = shell_index(interp);
	char path[64];
	const char *shell = find_shell(interp, path, sizeof path);
	if (!shell) {
		atomic_fetch_add(&missing->scripts[idx], 1);
		return;
	}
	bool extglob = !strcmp(interp, "bash") && ds_sh_wants_extglob((const char *)data, len);
	/* the whole script first; a launcher's shell part alone only when
	 * that fails (an exec in column 0 may still sit inside an if) */
	char errbuf[2048];
	size_t parsed = len;
	int rc = run_parser(shell, extglob, data, len, errbuf, sizeof errbuf);
	size_t cut = rc > 0 && rc < DS_SH_CRASHED ? ds_sh_launcher_end((const char *)data, len) : len;
	if (cut < len) {
		char cutbuf[2048];
		if (run_parser(shell, extglob, data, cut, cutbuf, sizeof cutbuf) == 0) {
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
		d = ds_report(f, DS_SEV_WARNING, "%s -n: %s", interp,
		              errbuf[0] ? errbuf : "syntax error");
		ds_detail_str(d, "error", errbuf);
	} else {
		d = ds_report(f, DS_SEV_PASS, "%s -n: no syntax error", interp);
	}
	ds_detail_str(d, "interpreter", shell);
	if (extglob)
		ds_detail_bool(d, "extglob", true);
	if (parsed < len) { /* a launcher: what follows its exec is another language */
		ds_detail_int(d, "parsed_bytes", (long long)parsed);
		ds_detail_str(d, "reason", "a launcher: its top-level exec hands the file to another "
		              "interpreter (Python, Tcl), the rest is not shell and is not parsed");
	}
}

extern const struct ds_check ds_check_script_sh_syntax;

static void *scan_begin(struct ds_scan *s)
{
	(void)s;
	struct missing *m = ds_xcalloc(1, sizeof *m);
	for (size_t i = 0; i < DS_NSHELLS; i++)
		atomic_init(&m->scripts[i], 0);
	return m;
}

/* One info finding per missing interpreter, on the root itself. */
static void scan_end(struct ds_scan *s, void *state)
{
	struct missing *missing = state;
	for (size_t i = 0; i < DS_NSHELLS; i++) {
		size_t n = atomic_load(&missing->scripts[i]);
		if (!n)
			continue;
		struct ds_finding *d = ds_scan_report(s, &ds_check_script_sh_syntax, "/", DS_SEV_INFO,
			"%s is not installed on the scanning machine: %zu %s script%s not checked",
			ds_shells[i], n, ds_shells[i], n > 1 ? "s" : "");
		ds_detail_str(d, "interpreter", ds_shells[i]);
		ds_detail_int(d, "scripts", (long long)n);
		ds_detail_int(d, "not_checked", (long long)n);
	}
	free(missing);
}

const struct ds_check ds_check_script_sh_syntax = {
	.id = "script-sh-syntax",
	.severity = DS_SEV_WARNING,
	.applies = DS_ON_SHELL,
	.summary = "shell script its interpreter's -n rejects (parse only, never run)",
	.help = {
		.what = "A shell script its own interpreter cannot parse fails at run time, often "
		  "half-way (a maintainer script that aborts leaves a package half-configured).",
		.detect = "The script is parsed by its own interpreter with -n (parse only, never run), "
		  "fed on stdin with a clean environment, a new session, no core dump and a 5 s "
		  "limit; an interpreter killed by a signal is reported as a crash, not a syntax error.",
		.limits = "Only interpreters installed on the scanning machine are used; a missing one is "
		  "noted once. -n does not see errors that only appear at run time.",
		.fix = "Fix the syntax error the message quotes; run the interpreter with -n in the "
		  "package's tests.",
	},
	.least = DS_SEV_INFO,
	.severity_policy = "warning for a parse error, a parser that does not finish or crashes; "
	  "info when the interpreter cannot be started",
	.precision = "high",
	.scan_begin = scan_begin,
	.run = run,
	.scan_end = scan_end,
};
