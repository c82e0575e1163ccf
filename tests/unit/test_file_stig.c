/*
 * file-stig with the shipped rules on a fixture root that has its own
 * etc/passwd and etc/group: files violating and satisfying each rule family.
 * Ownership cases need chown and mknod, so they run only as root (CI).
 */
#include <libelf.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "harness.h"

static char *root;
static struct ds_scan *scan;
static bool as_root;

/* The finding of rule on path, or NULL. */
static const struct ds_finding *rule_on(const char *path, const char *rule)
{
	for (size_t i = 0; i < scan->nfindings; i++) {
		const struct ds_finding *d = scan->findings[i];
		if (!strcmp(d->path, path) && d->rule && !strcmp(d->rule, rule))
			return d;
	}
	return NULL;
}

static void owned(const char *rel, uid_t uid, gid_t gid)
{
	char *p = ds_xasprintf("%s/%s", root, rel);
	assert_int_equal(lchown(p, uid, gid), 0);
	free(p);
}

static void mode_of(const char *rel, mode_t mode)
{
	char *p = ds_xasprintf("%s/%s", root, rel);
	assert_int_equal(chmod(p, mode), 0);
	free(p);
}

static int setup(void **state)
{
	(void)state;
	as_root = geteuid() == 0;
	root = make_root();
	mode_of("", 0755);
	write_into(root, "etc/passwd", "root:x:0:0:root:/root:/bin/sh\n"
	           "daemon:x:1:1::/:/usr/sbin/nologin\nalice:x:1000:1000::/home/alice:/bin/sh\n", 0666);
	write_into(root, "etc/group", "root:x:0:\ndaemon:x:1:\nalice:x:1000:\n", 0644);
	write_into(root, "etc/shadow", "root:*:1::::::\n", 0640);
	write_into(root, "etc/gshadow", "root:*::\n", 0400);
	write_into(root, "var/log/syslog", "x\n", 0644);
	write_into(root, "var/log/auth.log", "x\n", 0640);
	write_into(root, "var/log/wtmp", "", 0664);
	write_into(root, "var/log/apt/history.log", "x\n", 0644);
	write_into(root, "etc/cron.d/job", "* * * * * root true\n", 0644);
	write_into(root, "etc/cron.daily/ok", "#!/bin/sh\n", 0700);
	write_into(root, "root/.profile", "", 0644);
	mode_of("root", 0755);
	write_into(root, "home/alice/.profile", "", 0644);
	mode_of("home/alice", 0755);
	write_into(root, "tmp/.keep", "", 0644);
	mode_of("tmp", 0777);                     /* world-writable, no sticky bit */
	write_into(root, "srv/drop/.keep", "", 0644);
	mode_of("srv/drop", 01777);
	write_into(root, "usr/bin/tool", "", 0775);  /* group-writable command */
	write_into(root, "usr/lib/libok.so", "", 0644);
	write_into(root, "etc/systemd/system/x.service", "[Unit]\n", 0755);
	if (as_root) {
		owned("srv/drop", 1000, 1000);        /* world-writable, user-owned */
		owned("usr/lib/libok.so", 4242, 4343); /* ids unknown to the root */
		owned("usr/bin", 1000, 0);
		char *dev = ds_xasprintf("%s/srv/null", root);
		assert_int_equal(mknod(dev, S_IFCHR | 0666, makedev(1, 3)), 0);
		free(dev);
	}
	scan = scan_root(root, "file-stig");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return scan_and_root_done(&scan, &root);
}

static void test_modes(void **state)
{
	(void)state;
	const struct ds_finding *d = rule_on("/etc/shadow", "GEN001420");
	assert_non_null(d);
	assert_int_equal(d->severity, DS_SEV_ERROR);
	assert_string_equal(d->message,
		"/etc/shadow is mode 0640, should be 0400 or less (the shadow password file)");
	assert_string_equal(detail_str(d, "mode"), "0640");
	assert_non_null(rule_on("/etc/passwd", "GEN001380"));
	assert_null(rule_on("/etc/group", "GEN001392"));
	assert_null(rule_on("/etc/gshadow", "GEN000000-LNX001433"));
	assert_non_null(rule_on("/var/log/syslog", "GEN001260"));
	assert_non_null(rule_on("/var/log/apt/history.log", "GEN001260"));
	assert_null(rule_on("/var/log/auth.log", "GEN001260"));
	assert_null(rule_on("/var/log/wtmp", "GEN001260"));      /* excepted */
	assert_non_null(rule_on("/etc/cron.d/job", "GEN003080"));
	assert_null(rule_on("/etc/cron.daily/ok", "GEN003080"));
	assert_non_null(rule_on("/root", "GEN000920"));
	assert_non_null(rule_on("/home/alice", "GEN001480"));
	assert_null(rule_on("/home/alice/.profile", "GEN001560")); /* opt-in rule */
	assert_non_null(rule_on("/usr/bin/tool", "GEN001200"));
	assert_null(rule_on("/usr/lib/libok.so", "GEN001300"));
	assert_non_null(rule_on("/etc/systemd/system/x.service", "GEN001580"));
}

static void test_world_writable_dirs(void **state)
{
	(void)state;
	const struct ds_finding *d = rule_on("/tmp", "GEN002500");
	assert_non_null(d);
	assert_non_null(strstr(d->message, "world-writable (0777) without the sticky bit"));
	assert_null(rule_on("/srv/drop", "GEN002500"));
}

static void test_owners(void **state)
{
	(void)state;
	if (!as_root)
		skip();   /* chown and mknod need root */
	assert_non_null(rule_on("/srv/drop", "GEN002520"));   /* world-writable, user-owned */
	assert_null(rule_on("/tmp", "GEN002520"));            /* root-owned (the test's own user) */
	const struct ds_finding *d = rule_on("/usr/lib/libok.so", "GEN001160");
	assert_non_null(d);
	assert_non_null(strstr(d->message, "uid 4242, which is not in the root's etc/passwd"));
	assert_non_null(rule_on("/usr/lib/libok.so", "GEN001170"));
	d = rule_on("/usr/bin", "GEN001220");
	assert_non_null(d);
	assert_non_null(strstr(d->message, "owned by alice, should be root"));
	assert_null(rule_on("/usr/bin", "GEN001240"));
	assert_non_null(rule_on("/srv/null", "GEN002260"));
	assert_null(rule_on("/etc/shadow", "GEN001400"));
}

int main(void)
{
	elf_version(EV_CURRENT);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_world_writable_dirs),
		cmocka_unit_test(test_owners),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
