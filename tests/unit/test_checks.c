/*
 * The ELF checks end to end through the core: a root assembled from the
 * fixtures, scanned with backend none; exact check, severity and details.
 */
#include <libelf.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "harness.h"

static char *root;
static struct ds_scan *scan;

static void expect(const char *path, const char *check, enum ds_severity sev,
                   const char *key, const char *val)
{
	const struct ds_finding *d = record_of(scan, path, check);
	if (!d)
		fail_msg("no %s record for %s", check, path);
	assert_int_equal(d->severity, sev);
	if (key)
		assert_string_equal(detail_str(d, key), val);
}

static int setup(void **state)
{
	(void)state;
	root = make_root();
	copy_into(root, fixture("pie-full"), "usr/bin/pie-full", 0755);
	copy_into(root, fixture("nopie-norelro"), "usr/bin/nopie-norelro", 0755);
	copy_into(root, fixture("nopie-partial"), "usr/bin/setuid-nopie", 04755);
	copy_into(root, fixture("pie-partial"), "usr/bin/setgid-partial", 02755);
	copy_into(root, fixture("pie-partial"), "usr/bin/plain-partial", 0755);
	copy_into(root, fixture("execstack"), "usr/bin/execstack", 0755);
	copy_into(root, fixture("libfix.so"), "usr/lib/libfix.so.1", 0644);
	copy_into(root, fixture("libfix-norelro.so"), "usr/lib/libnorelro.so.1", 0644);
	copy_into(root, fixture("netclient-partial"), "usr/bin/netclient", 0755);
	copy_into(root, fixture("netlocal-nopie"), "usr/bin/netlocal", 0755);
	copy_into(root, fixture("pie-partial"), "usr/sbin/food", 0755);
	write_into(root, "lib/systemd/system/food.service",
	           "[Service]\nExecStart=-/usr/sbin/food --foreground\n", 0644);
	copy_into(root, fixture("pie-partial"), "usr/sbin/oldd", 0755);
	write_into(root, "etc/init.d/oldd", "#!/bin/sh\nDAEMON=\"/usr/sbin/oldd\"\n", 0755);
	scan = scan_root(root, "elf-pie,elf-relro,elf-execstack,scan-unreadable");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return scan_and_root_done(&scan, &root);
}

static void test_pie_by_class(void **state)
{
	(void)state;
	expect("/usr/bin/pie-full", "elf-pie", DS_SEV_PASS, "class", "exec");
	expect("/usr/bin/nopie-norelro", "elf-pie", DS_SEV_INFO, "class", "exec");
	expect("/usr/bin/setuid-nopie", "elf-pie", DS_SEV_ERROR, "class", "setuid");
	expect("/usr/bin/netlocal", "elf-pie", DS_SEV_WARNING, "class", "network-local");
	assert_int_equal(detail_bool(record_of(scan, "/usr/bin/setuid-nopie", "elf-pie"), "pie"), 0);
	/* a shared library is not judged by elf-pie */
	assert_null(record_of(scan, "/usr/lib/libfix.so.1", "elf-pie"));
}

static void test_relro_by_class(void **state)
{
	(void)state;
	expect("/usr/bin/pie-full", "elf-relro", DS_SEV_PASS, "relro", "full");
	expect("/usr/bin/nopie-norelro", "elf-relro", DS_SEV_ERROR, "relro", "none");
	expect("/usr/bin/plain-partial", "elf-relro", DS_SEV_PASS, "relro", "partial");
	expect("/usr/bin/setuid-nopie", "elf-relro", DS_SEV_WARNING, "relro", "partial");
	expect("/usr/bin/setgid-partial", "elf-relro", DS_SEV_WARNING, "class", "setgid");
	expect("/usr/bin/netclient", "elf-relro", DS_SEV_WARNING, "class", "network-ip");
	expect("/usr/bin/netlocal", "elf-relro", DS_SEV_PASS, "relro", "full");
	expect("/usr/lib/libfix.so.1", "elf-relro", DS_SEV_PASS, "class", "library");
	expect("/usr/lib/libnorelro.so.1", "elf-relro", DS_SEV_ERROR, "relro", "none");
	expect("/usr/sbin/food", "elf-relro", DS_SEV_WARNING, "class", "daemon");
	expect("/usr/sbin/oldd", "elf-relro", DS_SEV_WARNING, "class", "daemon");
	assert_int_equal(detail_bool(record_of(scan, "/usr/sbin/food", "elf-relro"), "bind_now"), 0);
}

static void test_execstack(void **state)
{
	(void)state;
	expect("/usr/bin/execstack", "elf-execstack", DS_SEV_ERROR, NULL, NULL);
	assert_int_equal(detail_bool(finding_of(scan, "/usr/bin/execstack", "elf-execstack"),
	                             "stack_exec"), 1);
	expect("/usr/bin/pie-full", "elf-execstack", DS_SEV_PASS, NULL, NULL);
	assert_int_equal(count_findings(scan, "elf-execstack"), 1);
}

/* setcap needs CAP_SETFCAP: only as root. */
static void test_setcap_class(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();   /* setting security.capability needs root */
	char *r = make_root();
	copy_into(r, fixture("pie-partial"), "usr/bin/capped", 0755);
	char *p = ds_xasprintf("%s/usr/bin/capped", r);
	/* VFS_CAP_REVISION_2 with CAP_NET_RAW permitted */
	unsigned char cap[20] = { 0x00, 0x00, 0x00, 0x02, 0x00, 0x20, 0x00, 0x00 };
	bool refused = setxattr(p, "security.capability", cap, sizeof cap, 0) != 0;
	struct ds_scan *s = refused ? NULL : scan_root(r, "elf-relro");
	const struct ds_finding *d = s ? finding_of(s, "/usr/bin/capped", "elf-relro") : NULL;
	const char *class = d ? detail_str(d, "class") : NULL;
	bool setcap = class && !strcmp(class, "setcap");
	scan_done(s);
	free(p);
	rm_rf(r);
	free(r);
	if (refused)
		skip();   /* this file system refuses security.capability */
	assert_true(setcap);
}

static void test_truncated_elf_is_unreadable(void **state)
{
	(void)state;
	char *r = make_root();
	size_t n;
	unsigned char *buf = slurp(fixture("pie-full"), &n);
	char *dst = ds_xasprintf("%s/usr/bin/cut", r);
	copy_into(r, fixture("pie-full"), "usr/bin/cut", 0755);
	assert_int_equal(truncate(dst, 100), 0);
	write_into(r, "usr/bin/empty", "", 0755);
	write_into(r, "usr/bin/tiny", "\177ELF\2\1", 0755);
	struct ds_scan *s = scan_root(r, "elf-pie,elf-relro,elf-execstack,scan-unreadable");
	const struct ds_finding *d = finding_of(s, "/usr/bin/cut", "scan-unreadable");
	assert_non_null(d);
	assert_string_equal(detail_str(d, "reason"), "program headers are truncated or out of bounds");
	assert_null(record_of(s, "/usr/bin/cut", "elf-relro"));
	assert_non_null(finding_of(s, "/usr/bin/tiny", "scan-unreadable"));
	assert_null(record_of(s, "/usr/bin/empty", "scan-unreadable"));
	assert_int_equal(s->nfindings, 2);
	scan_done(s);
	free(buf);
	free(dst);
	rm_rf(r);
	free(r);
}

/* More paths than the job ring holds (4,096): the walk waits for the
 * workers and every file is still scanned exactly once, with one worker
 * and with three. */
static void test_more_files_than_the_ring(void **state)
{
	(void)state;
	char *r = make_root();
	for (int d = 0; d < 3; d++)
		for (int i = 0; i < 2000; i++) {
			char rel[64];
			snprintf(rel, sizeof rel, "usr/share/d%d/f%04d", d, i);
			write_into(r, rel, "x\n", 0644);
		}
	write_into(r, "usr/share/d1/.hidden/run", "#!/bin/sh\n", 0755);
	for (int jobs = 1; jobs <= 3; jobs += 2) {
		struct ds_scan *s = scan_root_jobs(r, "file-hidden-exec", jobs);
		assert_int_equal(s->stats.files, 6001);
		assert_int_equal(count_findings(s, "file-hidden-exec"), 1);
		scan_done(s);
	}
	rm_rf(r);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pie_by_class),
		cmocka_unit_test(test_relro_by_class),
		cmocka_unit_test(test_execstack),
		cmocka_unit_test(test_setcap_class),
		cmocka_unit_test(test_truncated_elf_is_unreadable),
		cmocka_unit_test(test_more_files_than_the_ring),
	};
	elf_version(EV_CURRENT);
	return cmocka_run_group_tests(tests, setup, teardown);
}
