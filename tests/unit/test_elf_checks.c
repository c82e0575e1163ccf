/*
 * The ELF checks beyond PIE/RELRO/execstack, on fixtures that do and do
 * not call each function: exact severity and details for each.
 */
#include <libelf.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

static char *root;
static struct ds_scan *scan;

#define must(path, check, sev) must_record(scan, path, check, sev)

static size_t array_len(const struct ds_finding *d, const char *key)
{
	json_object *a;
	return json_object_object_get_ex(d->details, key, &a) ? json_object_array_length(a) : 0;
}

static const char *array_at(const struct ds_finding *d, const char *key, size_t i)
{
	json_object *a;
	assert_true(json_object_object_get_ex(d->details, key, &a));
	return json_object_get_string(json_object_array_get_idx(a, i));
}

static int setup(void **state)
{
	(void)state;
	root = make_root();
	copy_into(root, fixture("dropgroups-bad"), "usr/sbin/dropper", 0755);
	copy_into(root, fixture("dropgroups-bad"), "usr/bin/setuid-dropper", 04755);
	copy_into(root, fixture("dropgroups-good"), "usr/sbin/dropper-ok", 0755);
	copy_into(root, fixture("chroot-bad"), "usr/sbin/jailer", 0755);
	copy_into(root, fixture("chroot-good"), "usr/sbin/jailer-ok", 0755);
	copy_into(root, fixture("chroot-dot"), "usr/sbin/jailer-dot", 0755);
	copy_into(root, fixture("chroot-sub"), "usr/sbin/jailer-sub", 0755);
	copy_into(root, fixture("chroot-dot-wrap"), "usr/sbin/jailer-dot-wrap", 0755);
	copy_into(root, fixture("chroot-sub-wrap"), "usr/sbin/jailer-sub-wrap", 0755);
	copy_into(root, fixture("chroot-got"), "usr/sbin/jailer-got", 0755);
	copy_into(root, fixture("tmp-bad"), "usr/bin/tmpuser", 0755);
	copy_into(root, fixture("tmp-good"), "usr/bin/tmpuser-ok", 0755);
	copy_into(root, fixture("tmp-sock"), "usr/bin/tmpsock", 0755);
	copy_into(root, fixture("tmp-sock-file"), "usr/bin/tmpsock-file", 0755);
	copy_into(root, fixture("tmp-sock-open"), "usr/bin/tmpsock-open", 0755);
	copy_into(root, fixture("tmp-xlock"), "usr/bin/tmp-xlock", 0755);
	copy_into(root, fixture("tmp-xlock0"), "usr/bin/tmp-xlock0", 0755);
	copy_into(root, fixture("hardened"), "usr/bin/hardened", 0755);
	copy_into(root, fixture("unhardened"), "usr/bin/unhardened", 0755);
	copy_into(root, fixture("nobuf-nosp"), "usr/bin/nobuf-nosp", 0755);
	copy_into(root, fixture("nobuf-sp"), "usr/bin/nobuf-sp", 0755);
	copy_into(root, fixture("rpath-origin"), "usr/bin/origin", 0755);
	copy_into(root, fixture("rpath-origin"), "usr/bin/origin-setuid", 04755);
	copy_into(root, fixture("rpath-relative"), "usr/bin/relative", 0755);
	copy_into(root, fixture("rpath-abs"), "usr/bin/abs", 0755);
	copy_into(root, fixture("rpath-tmp"), "usr/bin/tmprpath", 0755);
	write_into(root, "usr/lib/fixture/.keep", "", 0644);
	char *dir = ds_xasprintf("%s/usr/lib/fixture", root);
	assert_int_equal(chmod(dir, 0777), 0);
	free(dir);
	copy_into(root, fixture("libtextrel.so"), "usr/lib/libtextrel.so.1", 0644);
	copy_into(root, fixture("libfix.so"), "usr/lib/libfix.so.1", 0644);
	copy_into(root, fixture("cet-on"), "usr/bin/cet-on", 0755);
	copy_into(root, fixture("cet-off"), "usr/bin/cet-off", 0755);
	copy_into(root, fixture("badfuncs"), "usr/bin/badfuncs", 0755);
	scan = scan_root(root, "elf-nodrop-groups,elf-chroot-chdir,elf-tmp-name,elf-canary,"
	                       "elf-fortify,elf-rpath,elf-textrel,elf-cet,elf-badfuncs");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return scan_and_root_done(&scan, &root);
}

static void test_nodrop_groups(void **state)
{
	(void)state;
	const struct ds_finding *d = must("/usr/sbin/dropper", "elf-nodrop-groups", DS_SEV_ERROR);
	assert_int_equal(array_len(d, "calls"), 2);
	assert_string_equal(array_at(d, "calls", 0), "setgid");
	assert_string_equal(array_at(d, "calls", 1), "setuid");
	assert_int_equal(detail_bool(d, "setid_file"), 0);
	assert_string_equal(detail_str(d, "method"), "disassembly");
	d = must("/usr/bin/setuid-dropper", "elf-nodrop-groups", DS_SEV_WARNING);
	assert_int_equal(detail_bool(d, "setid_file"), 1);
	d = must("/usr/sbin/dropper-ok", "elf-nodrop-groups", DS_SEV_PASS);
	assert_string_equal(detail_str(d, "reason"),
	                    "calls initgroups() or setgroups() before changing its gid");
	assert_null(record_of(scan, "/usr/bin/hardened", "elf-nodrop-groups"));
}

static void test_chroot(void **state)
{
	(void)state;
	const struct ds_finding *d = must("/usr/sbin/jailer", "elf-chroot-chdir", DS_SEV_ERROR);
	/* no chdir imported: the site is still found, and named */
	assert_string_equal(detail_str(d, "method"), "disassembly");
	assert_non_null(detail_str(d, "call_site"));
	must("/usr/sbin/jailer-ok", "elf-chroot-chdir", DS_SEV_PASS);
	/* chdir(dir) in another function, then chroot("."): the cwd is the root */
	d = must("/usr/sbin/jailer-dot", "elf-chroot-chdir", DS_SEV_PASS);
	assert_string_equal(d->message, "every chroot() call is chroot(\".\"): the working directory becomes the new root");
	assert_string_equal(detail_str(d, "method"), "disassembly");
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "chroot_dot")), 1);
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "without_chdir")), 0);
	/* ... chroot("jail") there leaves the cwd outside the new root */
	d = must("/usr/sbin/jailer-sub", "elf-chroot-chdir", DS_SEV_ERROR);
	assert_string_equal(detail_str(d, "method"), "disassembly");
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "chroot_dot")), 0);
	/* the same through a wrapper: its callers' argument counts */
	d = must("/usr/sbin/jailer-dot-wrap", "elf-chroot-chdir", DS_SEV_PASS);
	assert_string_equal(d->message, "every chroot() call is chroot(\".\"): the working directory becomes the new root");
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "chroot_dot")), 1);
	d = must("/usr/sbin/jailer-sub-wrap", "elf-chroot-chdir", DS_SEV_ERROR);
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "chroot_dot")), 0);
	/* chdir("/") in go_home(), called after chroot (through the GOT with gcc) */
	d = must("/usr/sbin/jailer-got", "elf-chroot-chdir", DS_SEV_PASS);
	assert_string_equal(detail_str(d, "reason"), "chdir() or fchdir() in a function called after chroot()");
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "chdir_called")), 1);
	assert_non_null(detail_str(d, "chdir_via"));
	assert_int_equal(count_findings(scan, "elf-chroot-chdir"), 3);
}

static void test_tmp_name(void **state)
{
	(void)state;
	const struct ds_finding *d = must("/usr/bin/tmpuser", "elf-tmp-name", DS_SEV_WARNING);
	/* the prose and /tmp/.X11-unix strings are not listed */
	assert_int_equal(array_len(d, "tmp_strings"), 1);
	assert_string_equal(array_at(d, "tmp_strings", 0), "/tmp/fixture-scratch.txt");
	assert_int_equal(array_len(d, "build_paths"), 1);
	assert_string_equal(array_at(d, "build_paths", 0), "/home/builder/src/project/main.c");
	assert_string_equal(detail_str(d, "method"), "disassembly");
	/* mkstemp imported and no fixed name used: only the build path */
	d = must("/usr/bin/tmpuser-ok", "elf-tmp-name", DS_SEV_INFO);
	assert_int_equal(array_len(d, "tmp_strings"), 0);
	assert_int_equal(array_len(d, "build_paths"), 1);
	/* a /tmp format printed into a name its function binds: a socket's
	 * name, info (bind creates it exclusively) */
	d = must("/usr/bin/tmpsock", "elf-tmp-name", DS_SEV_INFO);
	assert_int_equal(array_len(d, "tmp_strings"), 0);
	assert_int_equal(array_len(d, "socket_names"), 1);
	assert_string_equal(array_at(d, "socket_names", 0), "/tmp/fixture_ctrl_%d");
	assert_non_null(strstr(detail_str(d, "reason"), "bind creates the socket exclusively"));
	/* ... the same name opened as a file */
	d = must("/usr/bin/tmpsock-file", "elf-tmp-name", DS_SEV_WARNING);
	assert_int_equal(array_len(d, "tmp_strings"), 1);
	assert_string_equal(array_at(d, "tmp_strings", 0), "/tmp/fixture_ctrl_%d");
	/* ... or bound by a function that also opens a file */
	d = must("/usr/bin/tmpsock-open", "elf-tmp-name", DS_SEV_WARNING);
	assert_string_equal(array_at(d, "tmp_strings", 0), "/tmp/fixture_ctrl_%d");
	/* the X display lock is a name X fixes */
	assert_null(record_of(scan, "/usr/bin/tmp-xlock", "elf-tmp-name"));
	assert_null(record_of(scan, "/usr/bin/tmp-xlock0", "elf-tmp-name"));
}

static void test_canary_and_fortify(void **state)
{
	(void)state;
	must("/usr/bin/hardened", "elf-canary", DS_SEV_PASS);
	const struct ds_finding *d = must("/usr/bin/unhardened", "elf-canary", DS_SEV_INFO);
	assert_int_equal(detail_bool(d, "canary"), 0);
	d = must("/usr/bin/hardened", "elf-fortify", DS_SEV_PASS);
	assert_true(json_object_get_int(json_object_object_get(d->details, "fortified")) >= 1);
	d = must("/usr/bin/unhardened", "elf-fortify", DS_SEV_INFO);
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "fortified")), 0);
	/* no buffer function imported, but a stack buffer: judged by its frame */
	d = must("/usr/bin/nobuf-nosp", "elf-canary", DS_SEV_INFO);
	assert_true(json_object_get_int(json_object_object_get(d->details, "stack_frame")) >= 64);
	must("/usr/bin/nobuf-sp", "elf-canary", DS_SEV_PASS);
	/* hello.c only calls printf, which is fortifiable but shows no buffer use */
	assert_null(record_of(scan, "/usr/bin/origin", "elf-canary"));
}

static void test_rpath(void **state)
{
	(void)state;
	const struct ds_finding *d = must("/usr/bin/origin", "elf-rpath", DS_SEV_INFO);
	assert_string_equal(detail_str(d, "runpath"), "$ORIGIN/../lib");
	d = must("/usr/bin/origin-setuid", "elf-rpath", DS_SEV_WARNING);
	assert_string_equal(detail_str(d, "problem"), "$ORIGIN in a setuid/setgid program");
	d = must("/usr/bin/relative", "elf-rpath", DS_SEV_WARNING);
	assert_string_equal(detail_str(d, "problem"),
	                    "relative entry 'lib': searched from the current directory");
	d = must("/usr/bin/abs", "elf-rpath", DS_SEV_WARNING);
	assert_string_equal(detail_str(d, "problem"), "world-writable directory /usr/lib/fixture");
	d = must("/usr/bin/tmprpath", "elf-rpath", DS_SEV_WARNING);
	assert_string_equal(detail_str(d, "problem"),
	                    "forbidden directory /var/tmp/build/lib: under /var/tmp, which users write");
	assert_null(record_of(scan, "/usr/bin/hardened", "elf-rpath"));
}

static void test_textrel(void **state)
{
	(void)state;
	must("/usr/lib/libtextrel.so.1", "elf-textrel", DS_SEV_WARNING);
	assert_null(record_of(scan, "/usr/lib/libfix.so.1", "elf-textrel"));
	assert_int_equal(count_findings(scan, "elf-textrel"), 1);
}

static void test_cet(void **state)
{
	(void)state;
	const struct ds_finding *d = must("/usr/bin/cet-on", "elf-cet", DS_SEV_PASS);
	assert_int_equal(detail_bool(d, "ibt"), 1);
	assert_int_equal(detail_bool(d, "shstk"), 1);
	d = must("/usr/bin/cet-off", "elf-cet", DS_SEV_INFO);
	assert_int_equal(detail_bool(d, "ibt"), 0);
}

/* Every elf-badfuncs finding, in the scan's order (rule order on one path). */
static void test_badfuncs(void **state)
{
	(void)state;
	static const char *const want[][3] = {
		{ "gets", "error", "imports gets(), which reads a line of any length into a fixed "
		  "buffer (removed from C11)" },
		{ "mktemp", "warning", "imports mktemp(), which returns a temporary name another user "
		  "can create first" },
		{ "tempnam", "warning", "imports tempnam(), which returns a temporary name another user "
		  "can create first" },
	};
	size_t n = 0;
	for (size_t i = 0; i < scan->nfindings; i++) {
		const struct ds_finding *d = scan->findings[i];
		if (strcmp(d->check->id, "elf-badfuncs") != 0)
			continue;
		assert_true(n < 3);
		assert_string_equal(d->path, "/usr/bin/badfuncs");
		assert_string_equal(d->rule, want[n][0]);
		assert_string_equal(detail_str(d, "function"), want[n][0]);
		assert_string_equal(ds_severity_name(d->severity), want[n][1]);
		assert_string_equal(d->message, want[n][2]);
		n++;
	}
	assert_int_equal(n, 3);
}

int main(void)
{
	elf_version(EV_CURRENT);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nodrop_groups),
		cmocka_unit_test(test_chroot),
		cmocka_unit_test(test_tmp_name),
		cmocka_unit_test(test_canary_and_fortify),
		cmocka_unit_test(test_rpath),
		cmocka_unit_test(test_textrel),
		cmocka_unit_test(test_cet),
		cmocka_unit_test(test_badfuncs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
