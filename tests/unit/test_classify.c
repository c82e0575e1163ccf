/* Classification from the first bytes, the name and the mode. */
#include <string.h>
#include <sys/stat.h>

#include "distsec/file.h"
#include "harness.h"

static struct ds_worker worker;

static struct ds_file file_of(const char *path, const char *head, mode_t mode)
{
	struct ds_file f = { .path = path, .fd = -1, .pfd = -1, .mode = S_IFREG | mode, .worker = &worker };
	f.head_len = strlen(head);
	memcpy(f.head, head, f.head_len);
	f.mem = f.head;
	f.size = (off_t)f.head_len;
	ds_classify(&f);
	return f;
}

static void expect(const char *path, const char *head, mode_t mode, enum ds_kind kind,
                   const char *interp)
{
	struct ds_file f = file_of(path, head, mode);
	assert_int_equal(f.kind, kind);
	assert_string_equal(f.interp, interp);
	free(f.magic);
}

static void test_shebangs(void **state)
{
	(void)state;
	expect("/x", "#!/bin/sh\necho\n", 0755, DS_KIND_SHELL, "sh");
	expect("/x", "#! /bin/bash -e\n", 0755, DS_KIND_SHELL, "bash");
	expect("/x", "#!/usr/bin/env bash\n", 0755, DS_KIND_SHELL, "bash");
	expect("/x", "#!/usr/bin/env -S zsh -f\n", 0755, DS_KIND_SHELL, "zsh");
	expect("/x", "#!/usr/bin/python3.11\n", 0755, DS_KIND_PYTHON, "python3.11");
	expect("/x", "#!/usr/bin/env python3\n", 0644, DS_KIND_PYTHON, "python3");
	expect("/x", "#!/usr/bin/perl -w\n", 0755, DS_KIND_OTHER, "perl");
	expect("/x", "#!\n", 0755, DS_KIND_OTHER, "");
	/* busybox's sh applet is ash: parsed by script-sh-syntax like one */
	expect("/x", "#!/bin/busybox sh\n", 0755, DS_KIND_SHELL, "ash");
	expect("/x", "#!/bin/busybox awk -f\n", 0755, DS_KIND_OTHER, "busybox");
}

static void test_magic_bytes_and_names(void **state)
{
	(void)state;
	expect("/lib/x.so", "\177ELF\2\1\1", 0644, DS_KIND_ELF, "");
	expect("/usr/lib/m.py", "import os\n", 0644, DS_KIND_PYTHON, "python3");
	expect("/etc/x.sh", "echo hi\n", 0644, DS_KIND_SHELL, "sh");
	expect("/usr/share/doc/README", "plain words\n", 0644, DS_KIND_OTHER, "");
}

/* An executable text file without a shebang: libmagic decides. */
static void test_libmagic_fallback(void **state)
{
	(void)state;
	expect("/usr/bin/bom", "\xef\xbb\xbf#!/bin/sh\necho\n", 0755, DS_KIND_SHELL, "sh");
	expect("/usr/bin/bombash", "\xef\xbb\xbf#!/bin/bash\necho\n", 0755, DS_KIND_SHELL, "bash");
	/* libmagic recognises scripts only by "#!": no guessing from words */
	expect("/usr/bin/old", "if [ -f /etc/x ]; then\n  echo yes\nfi\n", 0755,
	       DS_KIND_OTHER, "");
	expect("/usr/bin/words", "just some words here\n", 0755, DS_KIND_OTHER, "");
}

static int setup(void **state)
{
	(void)state;
	worker.magic = magic_open(MAGIC_ERROR);
	return worker.magic && magic_load(worker.magic, NULL) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	magic_close(worker.magic);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shebangs),
		cmocka_unit_test(test_magic_bytes_and_names),
		cmocka_unit_test(test_libmagic_fallback),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
