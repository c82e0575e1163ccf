/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main() for a fuzz target built without libFuzzer: runs every file named
 * on the command line, and every file in a named directory, through the
 * target once.  The test suite replays the regression corpus this way, so
 * an input that once crashed a target is checked on every build.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		perror(path);
		return -1;
	}
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = ds_xmalloc(cap);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, fp)) > 0) {
		n += got;
		if (n == cap)
			buf = ds_xrealloc(buf, cap *= 2);
	}
	fclose(fp);
	/* as libFuzzer does: the input is const, a target writing it (through
	 * a library given it as its own memory) is a bug */
	uint8_t *copy = ds_xmalloc(n ? n : 1);
	memcpy(copy, buf, n);
	LLVMFuzzerTestOneInput(buf, n);
	if (memcmp(copy, buf, n) != 0) {
		fprintf(stderr, "%s: the target overwrote its const input\n", path);
		abort();
	}
	free(copy);
	free(buf);
	return 0;
}

static int replay(const char *path, size_t *count)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return replay_file(path);
	}
	DIR *d = opendir(path);
	if (!d) {
		perror(path);
		return -1;
	}
	int rc = 0;
	struct dirent *e;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char *child = ds_xasprintf("%s/%s", path, e->d_name);
		rc = replay(child, count);
		free(child);
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	for (int i = 1; i < argc; i++)
		if (replay(argv[i], &count) != 0)
			return 1;
	printf("%s: %zu inputs replayed, no crash\n", argv[0], count);
	return 0;
}
