/*
 * rpminspect's file inspections through the core: a root with world-writable
 * files and directories (with and without the sticky bit) and a symlink;
 * exact findings of each check.
 */
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "harness.h"

static char *root;
static struct ds_scan *scan;

static void make_dir(const char *rel, mode_t mode)
{
	char *dir = ds_xasprintf("%s/%s", root, rel);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(chmod(dir, mode), 0);
	free(dir);
}

static void make_link(const char *target, const char *rel)
{
	char *path = ds_xasprintf("%s/%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
	free(path);
}

static int setup(void **state)
{
	(void)state;
	root = make_root();
	write_into(root, "etc/open.conf", "x=1\n", 0666);
	write_into(root, "etc/closed.conf", "x=1\n", 0644);
	write_into(root, "usr/bin/tool", "#!/bin/sh\n", 0757);
	make_dir("srv", 0755);
	make_dir("srv/drop", 0777);
	make_dir("srv/tmp", 01777);
	make_link("/etc/open.conf", "srv/link");
	make_link("../etc/./closed.conf", "srv/rel");
	make_link("../usr/lib/gone.so", "srv/dangle");
	make_link("../../etc/passwd", "srv/escape");
	scan = scan_root(root, "file-world-writable,file-symlink");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return scan_and_root_done(&scan, &root);
}

/* Every finding of check, "path|severity|message" in the scan's order. */
static void assert_findings(const char *check, const char *const *want, size_t nwant)
{
	size_t n = 0;
	for (size_t i = 0; i < scan->nfindings; i++) {
		const struct ds_finding *d = scan->findings[i];
		if (strcmp(d->check->id, check) != 0)
			continue;
		char *got = ds_xasprintf("%s|%s|%s", d->path, ds_severity_name(d->severity), d->message);
		if (n >= nwant)
			fail_msg("unexpected %s finding: %s", check, got);
		assert_string_equal(got, want[n]);
		free(got);
		n++;
	}
	assert_int_equal(n, nwant);
}

/* VFS_CAP_REVISION_2, effective: cap_net_raw; cap_net_raw and cap_sys_admin */
static const unsigned char net_raw[20] = { 0x01, 0, 0, 0x02, 0x00, 0x20, 0x00, 0x00 };
static const unsigned char wide[20] = { 0x01, 0, 0, 0x02, 0x00, 0x20, 0x20, 0x00 };

static void test_capabilities(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();   /* setting security.capability needs root */
	char *r = make_root();
	write_into(r, "usr/bin/ping", "#!/bin/sh\n", 0755);
	write_into(r, "usr/bin/wide", "#!/bin/sh\n", 0755);
	write_into(r, "usr/bin/plain", "#!/bin/sh\n", 0755);
	char *p1 = ds_xasprintf("%s/usr/bin/ping", r), *p2 = ds_xasprintf("%s/usr/bin/wide", r);
	bool refused = setxattr(p1, "security.capability", net_raw, sizeof net_raw, 0) != 0 ||
	               setxattr(p2, "security.capability", wide, sizeof wide, 0) != 0;
	free(p1);
	free(p2);
	struct ds_scan *saved = scan;
	scan = refused ? NULL : scan_root(r, "file-capabilities");
	if (scan) {
		static const char *const want[] = {
			"/usr/bin/ping|info|file capabilities cap_net_raw=ep",
			("/usr/bin/wide|warning|file capabilities cap_net_raw,cap_sys_admin=ep: "
			 "cap_sys_admin is outside the allow-list"),
		};
		assert_findings("file-capabilities", want, 2);
		assert_string_equal(detail_str(finding_of(scan, "/usr/bin/wide", "file-capabilities"),
		                               "capabilities"), "cap_net_raw,cap_sys_admin=ep");
		scan_done(scan);
	}
	scan = saved;
	rm_rf(r);
	free(r);
	if (refused)
		skip();   /* this file system refuses security.capability */
}

static void test_world_writable(void **state)
{
	(void)state;
	static const char *const want[] = {
		"/etc/open.conf|error|world-writable file (mode 0666): any user can change it",
		("/srv/drop|error|world-writable directory without the sticky bit (mode 0777): any "
		 "user can delete or replace the files in it"),
		"/usr/bin/tool|error|world-writable file (mode 0757): any user can change it",
	};
	assert_findings("file-world-writable", want, 3);
	assert_string_equal(detail_str(finding_of(scan, "/srv/drop", "file-world-writable"), "mode"),
	                    "0777");
}

static void test_symlink(void **state)
{
	(void)state;
	static const char *const want[] = {
		"/srv/dangle|warning|dangling symlink: /usr/lib/gone.so does not exist",
		"/srv/escape|warning|symlink to ../../etc/passwd climbs above /: it leads out of the root it is installed in",
	};
	assert_findings("file-symlink", want, 2);
	assert_string_equal(detail_str(finding_of(scan, "/srv/dangle", "file-symlink"), "target"),
	                    "../usr/lib/gone.so");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_world_writable),
		cmocka_unit_test(test_capabilities),
		cmocka_unit_test(test_symlink),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
