/*
 * The SELinux checks' logic without an SELinux kernel: a small
 * file_contexts file through selabel_open's path option, an injected label
 * reader, and a fixture root with its own etc/selinux policy files.
 */
#include <libelf.h>
#include <selinux/label.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "checks/selinux.h"
#include "harness.h"

static const char contexts[] =
	"/dev(/.*)?\t\tsystem_u:object_r:device_t:s0\n"
	"/dev/null\t-c\tsystem_u:object_r:null_device_t:s0\n"
	"/dev/sd[a-z]*\t-b\tsystem_u:object_r:fixed_disk_device_t:s0\n";

static void test_compare(void **state)
{
	(void)state;
	char *root = make_root();
	write_into(root, "file_contexts", contexts, 0644);
	char *path = ds_xasprintf("%s/file_contexts", root);
	struct selinux_opt opt = { SELABEL_OPT_PATH, path };
	struct selabel_handle *h = selabel_open(SELABEL_CTX_FILE, &opt, 1);
	assert_non_null(h);
	char want[128];
	assert_int_equal(ds_selinux_compare(h, "/dev/null", S_IFCHR | 0666,
	                                    "system_u:object_r:device_t:s0", want, sizeof want), 1);
	assert_string_equal(want, "null_device_t");
	/* users, roles and levels may differ: only the type is compared */
	assert_int_equal(ds_selinux_compare(h, "/dev/null", S_IFCHR | 0666,
	                                    "other_u:object_r:null_device_t:s0:c1", want, sizeof want), 0);
	assert_int_equal(ds_selinux_compare(h, "/dev/sda", S_IFBLK | 0660,
	                                    "system_u:object_r:device_t:s0", want, sizeof want), 1);
	assert_string_equal(want, "fixed_disk_device_t");
	assert_int_equal(ds_selinux_compare(h, "/etc/passwd", S_IFREG | 0644, "x:y:etc_t", want,
	                                    sizeof want), -1);
	selabel_close(h);
	free(path);
	rm_rf(root);
	free(root);
}

static void test_unconfined_domains(void **state)
{
	(void)state;
	assert_true(ds_selinux_unconfined("system_u:system_r:initrc_t:s0"));
	assert_true(ds_selinux_unconfined("system_u:system_r:unconfined_service_t:s0"));
	assert_true(ds_selinux_unconfined("unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023"));
	assert_false(ds_selinux_unconfined("system_u:system_r:sshd_t:s0-s0:c0.c1023"));
	assert_false(ds_selinux_unconfined("garbage"));
}

/* The injected reader: labels by basename. */
static int fake_label(const char *path, char **label)
{
	const char *base = strrchr(path, '/') + 1;
	const char *l = !strcmp(base, "null") ? "system_u:object_r:device_t:s0"
	              : !strcmp(base, "zero") ? "system_u:object_r:device_t:s0"
	              : !strcmp(base, "sda") ? "system_u:object_r:fixed_disk_device_t:s0" : NULL;
	if (!l)
		return -1;
	*label = strdup(l);
	return 0;
}

static void test_dev_label_check(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();   /* device nodes need root (mknod) */
	char *root = make_root();
	write_into(root, "etc/selinux/config", "SELINUX=enforcing\nSELINUXTYPE=fixture\n", 0644);
	write_into(root, "etc/selinux/fixture/contexts/files/file_contexts", contexts, 0644);
	write_into(root, "dev/.keep", "", 0644);
	const char *nodes[][2] = { { "dev/null", "c" }, { "dev/zero", "c" }, { "dev/sda", "b" },
	                           { "dev/unlabelled", "c" } };
	for (size_t i = 0; i < 4; i++) {
		char *p = ds_xasprintf("%s/%s", root, nodes[i][0]);
		mode_t type = nodes[i][1][0] == 'c' ? S_IFCHR : S_IFBLK;
		assert_int_equal(mknod(p, type | 0600, makedev(1, 3 + (unsigned)i)), 0);
		free(p);
	}
	int (*saved)(const char *, char **) = ds_selinux_get_label;
	ds_selinux_get_label = fake_label;
	struct ds_scan *s = scan_root(root, "selinux-dev-label");
	ds_selinux_get_label = saved;
	const struct ds_finding *d = finding_of(s, "/dev/null", "selinux-dev-label");
	assert_non_null(d);
	assert_string_equal(d->message, "device node labelled device_t, the policy says null_device_t");
	assert_string_equal(detail_str(d, "expected_type"), "null_device_t");
	/* /dev/zero: the policy's generic rule says device_t, as labelled */
	assert_null(finding_of(s, "/dev/zero", "selinux-dev-label"));
	assert_null(finding_of(s, "/dev/sda", "selinux-dev-label"));
	d = finding_of(s, "/dev/unlabelled", "selinux-dev-label");
	assert_non_null(d);
	assert_string_equal(d->message, "device node has no SELinux label");
	assert_int_equal(s->nskipped, 0);
	scan_done(s);
	rm_rf(root);
	free(root);
}

static void test_skipped_without_policy(void **state)
{
	(void)state;
	char *root = make_root();
	struct ds_scan *s = scan_root(root, "selinux-dev-label,selinux-unconfined-daemon");
	assert_int_equal(s->nskipped, 2);
	assert_string_equal(s->skipped[0].why,
	                    "the root has no SELinux policy (etc/selinux/config and its file_contexts)");
	assert_int_equal(s->nfindings, 0);
	scan_done(s);
	rm_rf(root);
	free(root);
}

int main(void)
{
	elf_version(EV_CURRENT);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_unconfined_domains),
		cmocka_unit_test(test_dev_label_check),
		cmocka_unit_test(test_skipped_without_policy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
