/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -o FILE of every command that writes a report (scan, merge, diff): the
 * report goes to a temporary file beside FILE that is renamed over it once
 * complete, so a reader never sees half a report and a failed write (a
 * full disk, RLIMIT_FSIZE) leaves the old one as it was.  The temporary
 * file is in the signal cleanup (cleanup.c) while it exists.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* Past RLIMIT_FSIZE a write raises SIGXFSZ, whose default action would
 * end the run with the temporary file left behind: held while the report
 * is written, the write fails with EFBIG instead and the old report stays.
 * One sent from outside meanwhile is delivered before the rename. */
static int write_to(FILE *fp, int (*write)(FILE *, void *), void *arg)
{
	sigset_t mask;
	ds_sig_hold(SIGXFSZ, &mask);
	errno = 0;
	int rc = write(fp, arg);
	if (fp == stdout && fflush(fp) != 0)
		rc = -1;
	if (ferror(fp))
		rc = -1;
	int e = errno;
	if (fp != stdout && fclose(fp) != 0) {
		rc = -1;
		e = errno;
	}
	ds_sig_release(SIGXFSZ, &mask, rc != 0 && e == EFBIG);
	errno = e;
	return rc;
}

/* The new file gets the old one's mode, or the umask's.  A device, FIFO
 * or socket (-o /dev/null, /dev/stdout) is written directly: renaming over
 * it would replace the node itself.  A symlink is written through, at its
 * target; one that leads to no file is refused, neither replaced nor
 * followed to create a file wherever it points (a planted link in a shared
 * directory). */
static int write_file(const char *out, int (*write)(FILE *, void *), void *arg, struct ds_error *err)
{
	struct stat st;
	bool exists = stat(out, &st) == 0;
	if (!exists && lstat(out, &st) == 0 && S_ISLNK(st.st_mode))
		return ds_error_set(err, DS_ERR_USAGE, "%s: a symlink that leads to no file (dangling, or a "
		                    "loop): not written through; name the file itself", out);
	if (exists && !S_ISREG(st.st_mode)) {
		FILE *fp = fopen(out, "we");
		if (!fp || write_to(fp, write, arg) != 0)
			return ds_error_errno(err, errno, "%s", out);
		return 0;
	}
	char *target = exists ? realpath(out, NULL) : NULL;
	if (!target)
		target = ds_xstrdup(out);
	mode_t mask = umask(0);
	umask(mask);
	mode_t mode = exists ? st.st_mode & 07777 : 0666 & ~mask;
	char *tmp = ds_xasprintf("%s.XXXXXX", target);
	int slot;
	int fd = ds_mktemp_registered(tmp, false, ds_cleanup_add, ds_cleanup_done, &slot);
	FILE *fp = fd >= 0 && fchmod(fd, mode) == 0 ? fdopen(fd, "w") : NULL;
	int rc = -1;
	if (fp)
		rc = write_to(fp, write, arg);
	else if (fd >= 0)
		close(fd);
	if (rc == 0 && rename(tmp, target) != 0)
		rc = -1;
	if (rc != 0) {
		int e = errno;
		if (fd >= 0)
			unlink(tmp);
		ds_error_errno(err, e, "%s", out);
		errno = e;
	}
	ds_cleanup_done(slot);
	free(tmp);
	free(target);
	return rc;
}

int ds_write_output(const char *out, int (*write)(FILE *, void *), void *arg, struct ds_error *err)
{
	if (out)
		return write_file(out, write, arg, err);
	int rc = write_to(stdout, write, arg);
	if (rc != 0 && errno)
		ds_error_errno(err, errno, "standard output");
	else if (rc != 0)
		ds_error_set(err, DS_ERR_IO, "standard output: write error");
	return rc;
}
