/* SPDX-License-Identifier: GPL-2.0-or-later */
/* struct ds_error: messages of any length, errno wording, context added
 * in front, NULL for a caller that does not want the reason. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "distsec/error.h"

static void test_none(void **state)
{
	(void)state;
	struct ds_error e = DS_ERROR_INIT;
	assert_int_equal(e.kind, DS_ERR_NONE);
	assert_string_equal(ds_error_msg(&e), "");
	assert_string_equal(ds_error_msg(NULL), "");
	ds_error_prefix(&e, "f:%d: ", 3);          /* no error: no context either */
	assert_null(e.msg);
	ds_error_clear(&e);
	assert_null(e.msg);
}

static void test_set(void **state)
{
	(void)state;
	struct ds_error e = DS_ERROR_INIT;
	assert_int_equal(ds_error_set(&e, DS_ERR_PARSE, "bad %s at %d", "key", 7), -1);
	assert_int_equal(e.kind, DS_ERR_PARSE);
	assert_int_equal(e.errnum, 0);
	assert_string_equal(ds_error_msg(&e), "bad key at 7");
	/* a new message replaces the old, which may be one of its arguments */
	assert_int_equal(ds_error_set(&e, DS_ERR_LIMIT, "(%s) too big", e.msg), -1);
	assert_int_equal(e.kind, DS_ERR_LIMIT);
	assert_string_equal(ds_error_msg(&e), "(bad key at 7) too big");
	ds_error_clear(&e);
	assert_int_equal(e.kind, DS_ERR_NONE);
	assert_string_equal(ds_error_msg(&e), "");
}

static void test_errno(void **state)
{
	(void)state;
	struct ds_error e = DS_ERROR_INIT;
	assert_int_equal(ds_error_errno(&e, ENOENT, "open %s", "/etc/x"), -1);
	assert_int_equal(e.kind, DS_ERR_IO);
	assert_int_equal(e.errnum, ENOENT);
	char *want = ds_xasprintf("open /etc/x: %s", strerror(ENOENT));
	assert_string_equal(ds_error_msg(&e), want);
	free(want);
	/* set after errno: the errno no longer applies */
	ds_error_set(&e, DS_ERR_USAGE, "no");
	assert_int_equal(e.errnum, 0);
	ds_error_clear(&e);
}

static void test_prefix_append(void **state)
{
	(void)state;
	struct ds_error e = DS_ERROR_INIT;
	ds_error_set(&e, DS_ERR_PARSE, "unknown key");
	ds_error_prefix(&e, "%s:%d: ", "waivers", 12);
	assert_string_equal(ds_error_msg(&e), "waivers:12: unknown key");
	ds_error_append(&e, " (%s)", "ignored");
	assert_string_equal(ds_error_msg(&e), "waivers:12: unknown key (ignored)");
	assert_int_equal(e.kind, DS_ERR_PARSE);
	ds_error_clear(&e);
	/* appending to no message starts one */
	ds_error_append(&e, "note %d\n", 1);
	ds_error_append(&e, "note %d\n", 2);
	assert_string_equal(ds_error_msg(&e), "note 1\nnote 2\n");
	ds_error_clear(&e);
}

/* The fixed buffers this type replaces cut messages at 80 to 2048 bytes. */
static void test_long(void **state)
{
	(void)state;
	size_t n = 100000;
	char *path = ds_xmalloc(n + 1);
	memset(path, 'a', n);
	path[n] = '\0';
	struct ds_error e = DS_ERROR_INIT;
	ds_error_errno(&e, EACCES, "open %s", path);
	ds_error_prefix(&e, "%s: ", path);
	ds_error_append(&e, "%s", path);
	char *want = ds_xasprintf("%s: open %s: %s%s", path, path, strerror(EACCES), path);
	assert_string_equal(ds_error_msg(&e), want);
	assert_int_equal(strlen(ds_error_msg(&e)), strlen(want));
	free(want);
	free(path);
	ds_error_clear(&e);
}

/* A caller that does not want the reason passes NULL. */
static void test_null(void **state)
{
	(void)state;
	assert_int_equal(ds_error_set(NULL, DS_ERR_IO, "x %d", 1), -1);
	assert_int_equal(ds_error_errno(NULL, EIO, "x"), -1);
	ds_error_prefix(NULL, "p");
	ds_error_append(NULL, "a");
	ds_error_clear(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_errno),
		cmocka_unit_test(test_prefix_append),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
