/*
 * The scan object: ds_scan_new decides the enabled checks in one place
 * (exact ids, opt-in, --skip, the whole-system rule), and each scan keeps
 * its checks' state to itself, so two scans in one process do not meet.
 */
#include <libelf.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "checks/stig.h"

static struct ds_options options(const char *checks, const char *skip)
{
	return (struct ds_options){ .root = "/", .backend = "none", .format = "text",
	                            .checks = checks, .skip = skip, .jobs = 1,
	                            .fail_on = DS_SEV_ERROR, .quiet = true };
}

static bool enabled(const struct ds_scan *s, const char *id)
{
	return ds_scan_enabled(s, ds_check_find(id));
}

static size_t nenabled(const struct ds_scan *s)
{
	size_t n = 0;
	for (size_t i = 0; i < ds_nchecks; i++)
		n += s->enabled[i];
	return n;
}

static void test_default_checks(void **state)
{
	(void)state;
	struct ds_options o = options(NULL, "file-stig");
	struct ds_scan *s = ds_scan_new(&o, NULL);
	assert_non_null(s);
	assert_true(enabled(s, "elf-pie"));
	assert_true(enabled(s, "selinux-dev-label"));  /* a whole-root scan */
	assert_false(enabled(s, "elf-cet"));           /* opt-in */
	assert_false(enabled(s, "file-stig"));         /* --skip */
	assert_int_equal(nenabled(s), ds_nchecks - 2);
	ds_scan_free(s);
}

static void test_exact_ids(void **state)
{
	(void)state;
	struct ds_options o = options("elf-cet,script-sh-tmp", NULL);
	struct ds_scan *s = ds_scan_new(&o, NULL);
	assert_non_null(s);
	assert_true(enabled(s, "elf-cet"));
	assert_true(enabled(s, "script-sh-tmp"));
	assert_int_equal(nenabled(s), 2);
	ds_scan_free(s);
	/* a prefix of ids is no id: never "every check whose id contains it" */
	struct ds_error err = DS_ERROR_INIT;
	o = options("script-sh", NULL);
	assert_null(ds_scan_new(&o, &err));
	assert_string_equal(ds_error_msg(&err), "unknown check 'script-sh' (see 'distsec checks')");
	o = options(NULL, "elf");
	assert_null(ds_scan_new(&o, &err));
	assert_string_equal(ds_error_msg(&err), "unknown check 'elf' (see 'distsec checks')");
	ds_error_clear(&err);
}

static void test_whole_system_rule(void **state)
{
	(void)state;
	const char *paths[] = { "/usr/bin" };
	struct ds_options o = options(NULL, NULL);
	o.paths = paths;
	o.npaths = 1;
	struct ds_scan *s = ds_scan_new(&o, NULL);
	assert_false(enabled(s, "selinux-dev-label"));
	assert_false(enabled(s, "selinux-unconfined-daemon"));
	assert_true(enabled(s, "file-stig"));
	ds_scan_free(s);
	o.checks = "selinux-dev-label";
	s = ds_scan_new(&o, NULL);
	assert_true(enabled(s, "selinux-dev-label"));
	ds_scan_free(s);
}

/* Scan A has begun (file-stig loaded its rules) when scan B runs from
 * start to end with other rules; A then judges a file with its own. */
static void test_two_scans(void **state)
{
	(void)state;
	char *root = make_root();
	write_into(root, "etc/passwd", "root:x:0:0::/root:/bin/sh\n", 0644);
	write_into(root, "etc/group", "root:x:0:\n", 0644);
	write_into(root, "rules-a", "GEN000001 type=file paths=/x mode=0600 | rule a\n", 0644);
	write_into(root, "rules-b", "GEN000002 type=file paths=/y mode=0600 | rule b\n", 0644);
	char *rules_a = ds_xasprintf("%s/rules-a", root), *rules_b = ds_xasprintf("%s/rules-b", root);

	struct ds_options oa = options("file-stig", NULL), ob = options("file-stig", NULL);
	oa.root = ob.root = root;
	oa.rules = rules_a;
	ob.rules = rules_b;
	const char *paths[] = { "/rules-b" };
	ob.paths = paths;
	ob.npaths = 1;
	struct ds_scan *a = ds_scan_new(&oa, NULL), *b = ds_scan_new(&ob, NULL);
	assert_int_equal(ds_scan_open(a, NULL), 0);
	assert_non_null(ds_scan_check_state(a, &ds_check_file_stig));
	assert_int_equal(ds_scan_run(b, NULL), 0);
	ds_scan_free(b);

	static const unsigned char text[] = "x\n";
	struct ds_member m = { .path = "/x", .mode = S_IFREG | 0644, .data = text, .size = 2 };
	ds_scan_member(a, &m, NULL);
	struct ds_worker *w = &a->priv->main;
	assert_int_equal(w->nfindings, 1);
	assert_string_equal(w->findings[0]->rule, "GEN000001");
	ds_scan_free(a);
	free(rules_a);
	free(rules_b);
	rm_rf(root);
	free(root);
}

int main(void)
{
	elf_version(EV_CURRENT);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_checks),
		cmocka_unit_test(test_exact_ids),
		cmocka_unit_test(test_whole_system_rule),
		cmocka_unit_test(test_two_scans),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
