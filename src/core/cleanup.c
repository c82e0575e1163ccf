/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Temporary files and directories that must not outlive a run killed by a
 * signal it can catch: -o's temporary report, the rpm and pacman backends'
 * database copies.  Registration may happen on any thread; the handler only
 * reads fixed slots and calls async-signal-safe system calls (open,
 * getdents64, unlinkat, rmdir), then lets the signal kill the process as it
 * would have, so the exit status still tells the shell what happened.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

#define SLOTS 16

enum { FREE, FILLING, ARMED };

static struct slot {
	atomic_int state;
	bool dir;
	char path[4096];
} slots[SLOTS];

/* Empties the directory fd: files, and directories down to depth more
 * levels. */
static void empty_dir(int fd, int depth)
{
	char buf[4096];
	long n;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
		for (long off = 0; off < n;) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			unsigned short reclen;
			memcpy(&reclen, buf + off + 16, sizeof reclen);
			const char *name = buf + off + 19;
			if (strcmp(name, ".") && strcmp(name, "..") && unlinkat(fd, name, 0) != 0 &&
			    errno == EISDIR && depth > 0) {
				int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (sub >= 0) {
					empty_dir(sub, depth - 1);
					close(sub);
				}
				unlinkat(fd, name, AT_REMOVEDIR);
			}
			off += reclen;
		}
}

/* A directory and what a copy, a database library or an image's
 * database copies create in it (var/lib/pacman/local/NAME/desc: eight
 * levels of directories at most).  Twice, in case a file appeared
 * meanwhile. */
void ds_remove_dir(const char *path)
{
	for (int pass = 0; pass < 2 && rmdir(path) != 0 && errno == ENOTEMPTY; pass++) {
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return;
		empty_dir(fd, 8);
		close(fd);
	}
}

static void on_signal(int sig)
{
	int saved = errno;
	for (int i = SLOTS - 1; i >= 0; i--) {
		if (atomic_load(&slots[i].state) != ARMED)
			continue;
		if (slots[i].dir)
			ds_remove_dir(slots[i].path);
		else
			unlink(slots[i].path);
	}
	errno = saved;
	/* SA_RESETHAND restored the default action: on return the pending
	 * signal ends the process as if no handler had been there */
	raise(sig);
}

void ds_cleanup_install(void)
{
	static atomic_bool done;
	if (atomic_exchange(&done, true))
		return;
	/* every signal whose default action ends the process and that can be
	 * caught (SIGKILL cannot; SIGSEGV and friends mean the state is not to
	 * be trusted); SIGPIPE too: a report written into a pipe whose reader
	 * quit ends the run as it always did, its temporary files removed */
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
	                            SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGPIPE };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction sa, old;
		/* nohup and friends keep what they asked for (SIG_IGN), and so
		 * does a profiler's handler (SIGPROF) or a sanitizer's */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sa.sa_flags = SA_RESETHAND;
		sigfillset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

int ds_cleanup_add(const char *path, int is_dir)
{
	if (strlen(path) >= sizeof slots[0].path)
		return -1;
	for (int i = 0; i < SLOTS; i++) {
		int expect = FREE;
		if (!atomic_compare_exchange_strong(&slots[i].state, &expect, FILLING))
			continue;
		strcpy(slots[i].path, path);
		slots[i].dir = is_dir;
		atomic_store(&slots[i].state, ARMED);
		return i;
	}
	return -1;
}

void ds_cleanup_done(int slot)
{
	if (slot >= 0 && slot < SLOTS)
		atomic_store(&slots[slot].state, FREE);
}

const struct ds_host ds_host = {
	.cleanup_add = ds_cleanup_add,
	.cleanup_done = ds_cleanup_done,
};
