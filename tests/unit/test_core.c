/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The core utilities every check and backend leans on: path normalisation
 * and resolution inside the root, the string map, the path index, waiver
 * matching, UTF-8 cleaning and the growable arrays' overflow check. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "distsec/buildflags.h"
#include "distsec/pathindex.h"

static void expect_normal(const char *in, const char *out)
{
	char *got = ds_path_normalize(in);
	if (strcmp(got, out) != 0)
		fail_msg("normalize(\"%s\") = \"%s\", want \"%s\"", in, got, out);
	free(got);
}

static void test_normalize(void **state)
{
	(void)state;
	expect_normal("/a//b/./c", "/a/b/c");
	expect_normal("a/b/", "/a/b");
	expect_normal("", "/");
	expect_normal("///", "/");
	expect_normal("/a/../b", "/b");
	expect_normal("/../../etc/passwd", "/etc/passwd");   /* ".." stops at the root */
	expect_normal("/a/b/../../..", "/");
	expect_normal("/./.", "/");
	expect_normal("/a/..b/.c", "/a/..b/.c");              /* names that merely start with dots */
}

/* A root with the shapes a hostile image uses to point outside it. */
static char *hostile_root(void)
{
	char *r = make_root();
	write_into(r, "etc/passwd", "root:x:0:0::/:/bin/sh\n", 0644);
	write_into(r, "usr/bin/true", "", 0755);
	const char *links[][2] = {
		{ "abs", "/etc/passwd" },            /* absolute: the root's /etc, not the host's */
		{ "up", "../../../../../etc/passwd" },/* climbs: stops at the root */
		{ "bin", "usr/bin" },                /* merged /usr */
		{ "loop1", "loop2" }, { "loop2", "loop1" },
		{ "self", "self" },
		{ "dangling", "/nowhere" },
		{ "usr/bin/up2", "../../.." },       /* a directory link to the root itself */
	};
	for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
		char *p = ds_xasprintf("%s/%s", r, links[i][0]);
		assert_int_equal(symlink(links[i][1], p), 0);
		free(p);
	}
	return r;
}

static void expect_resolved(int rootfd, const char *in, const char *out, int err)
{
	errno = 0;
	char *got = ds_resolve_in_root(rootfd, in);
	if (out ? !got || strcmp(got, out) != 0 : got != NULL)
		fail_msg("resolve(\"%s\") = \"%s\", want \"%s\"", in, got ? got : "(null)",
		         out ? out : "(null)");
	if (!out && errno != err)
		fail_msg("resolve(\"%s\"): errno %d, want %d", in, errno, err);
	free(got);
}

/* ds_path_same_file: what a maintainer calls the same file across builds */
static void test_same_file(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "/usr/lib/x86_64-linux-gnu/libisc-9.18.49-1~deb12u3-Debian.so",
		  "/usr/lib/x86_64-linux-gnu/libisc-#-Debian.so" },
		{ "/usr/lib/x86_64-linux-gnu/libisc-9.18.33-1~deb12u2-Debian.so",
		  "/usr/lib/x86_64-linux-gnu/libisc-#-Debian.so" },
		{ "/usr/lib/libfix-1.2.so", "/usr/lib/libfix-#.so" },
		{ "/usr/lib/python3.11/lib-dynload/x.so", "/usr/lib/python#/lib-dynload/x.so" },
		{ "/usr/share/doc/pkg-1.2/README", "/usr/share/doc/pkg-#/README" },
		{ "/usr/lib/modules/6.1.0-28-amd64/kernel/x.ko", "/usr/lib/modules/#-amd64/kernel/x.ko" },
		{ "/lib/modules/6.5.6-300.fc39.x86_64/vmlinuz", "/lib/modules/#/vmlinuz" },
		{ "/usr/lib/libfoo.so.1.2.3", "/usr/lib/libfoo.so.#" },
		/* no version: kept, so different files stay apart */
		{ "/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6" },
		{ "/usr/lib64/libc.so.6", "/usr/lib64/libc.so.6" },
		{ "/usr/share/man/man1/ls.1.gz", "/usr/share/man/man1/ls.1.gz" },
		{ "/usr/bin/2to3", "/usr/bin/2to3" },
		{ "/usr/lib/i386-linux-gnu/libz.so.1", "/usr/lib/i386-linux-gnu/libz.so.1" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = ds_path_same_file(cases[i][0]);
		assert_string_equal(got, cases[i][1]);
		free(got);
	}
}

static void test_resolve_in_root(void **state)
{
	(void)state;
	char *r = hostile_root();
	int rootfd = open(r, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(rootfd >= 0);
	expect_resolved(rootfd, "/etc/passwd", "/etc/passwd", 0);
	expect_resolved(rootfd, "/abs", "/etc/passwd", 0);
	expect_resolved(rootfd, "/up", "/etc/passwd", 0);
	expect_resolved(rootfd, "/../../../etc/passwd", "/etc/passwd", 0);
	expect_resolved(rootfd, "/bin/true", "/usr/bin/true", 0);
	expect_resolved(rootfd, "/usr/bin/up2/etc/passwd", "/etc/passwd", 0);
	expect_resolved(rootfd, "/usr/bin/up2/up2", NULL, ENOENT);   /* "up2" is in usr/bin only */
	expect_resolved(rootfd, "/", "/", 0);
	expect_resolved(rootfd, "/loop1", NULL, ELOOP);
	expect_resolved(rootfd, "/self/x", NULL, ELOOP);
	expect_resolved(rootfd, "/dangling", NULL, ENOENT);
	expect_resolved(rootfd, "/missing/file", NULL, ENOENT);

	/* the host path handed to a library is the root's file */
	char *host = ds_root_resolve(r, "abs");
	char *want = ds_xasprintf("%s/etc/passwd", r);
	assert_string_equal(host, want);
	free(host);
	free(want);
	/* opened below the root; a directory or a link out is refused */
	int fd = ds_root_open(r, "up", 1 << 20);
	assert_true(fd >= 0);
	close(fd);
	errno = 0;
	assert_int_equal(ds_root_open(r, "usr/bin", 1 << 20), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ds_root_open(r, "etc/passwd", 4), -1);
	assert_int_equal(errno, EFBIG);
	/* ds_open_beneath follows no symlink at all */
	assert_int_equal(ds_open_beneath(rootfd, "abs", O_RDONLY | O_CLOEXEC), -1);
	assert_int_equal(ds_open_beneath(rootfd, "../etc/passwd", O_RDONLY | O_CLOEXEC), -1);
	close(rootfd);
	rm_rf(r);
	free(r);
}

static void test_strmap(void **state)
{
	(void)state;
	struct ds_strmap *m = ds_strmap_new();
	assert_null(ds_strmap_get(m, "a"));
	enum { N = 20000 };
	for (uintptr_t i = 0; i < N; i++) {
		char key[32];
		snprintf(key, sizeof key, "/usr/bin/k%lu", (unsigned long)i);
		uintptr_t *slot = ds_strmap_put(m, key);
		assert_int_equal(*slot, 0);
		*slot = i + 1;
	}
	assert_int_equal(ds_strmap_size(m), N);
	*ds_strmap_put(m, "/usr/bin/k7") += 100;   /* a second put is the same slot */
	assert_int_equal(ds_strmap_size(m), N);
	assert_int_equal(*ds_strmap_get(m, "/usr/bin/k7"), 108);
	assert_int_equal(*ds_strmap_get(m, "/usr/bin/k19999"), 20000);
	assert_null(ds_strmap_get(m, "/usr/bin/k20000"));
	assert_null(ds_strmap_get(m, ""));
	/* a key larger than an arena block */
	char *big = ds_xmalloc(100000);
	memset(big, 'x', 99999);
	big[99999] = '\0';
	*ds_strmap_put(m, big) = 42;
	assert_int_equal(*ds_strmap_get(m, big), 42);
	big[5] = 'y';
	assert_null(ds_strmap_get(m, big));
	free(big);
	/* iteration sees every key once */
	size_t pos = 0, seen = 0;
	uintptr_t val, sum = 0;
	while (ds_strmap_next(m, &pos, &val)) {
		seen++;
		sum += val;
	}
	assert_int_equal(seen, N + 1);
	assert_int_equal(sum, (uintptr_t)N * (N + 1) / 2 + 100 + 42);
	ds_strmap_free(m);
}

static void test_pathindex(void **state)
{
	(void)state;
	struct ds_pathindex *x = ds_pathindex_new();
	const ds_pkgid *ids;
	assert_int_equal(ds_pathindex_get(x, "/bin/sh", &ids), 0);
	ds_pathindex_add(x, "/bin/sh", 3);
	ds_pathindex_add(x, "/bin/sh", 3);   /* the same pair twice: one owner */
	assert_int_equal(ds_pathindex_get(x, "/bin/sh", &ids), 1);
	assert_int_equal(ids[0], 3);
	/* a directory many packages list: the inline id moves to a growing list */
	for (ds_pkgid id = 0; id < 40; id++)
		ds_pathindex_add(x, "/usr/share/doc", id);
	ds_pathindex_add(x, "/usr/share/doc", 17);
	assert_int_equal(ds_pathindex_get(x, "/usr/share/doc", &ids), 40);
	for (ds_pkgid id = 0; id < 40; id++)
		assert_int_equal(ids[id], id);   /* in the order added */
	assert_int_equal(ds_pathindex_size(x), 2);
	assert_int_equal(ds_pathindex_get(x, "/usr/share", &ids), 0);
	ds_pathindex_free(x);
}

static struct ds_waivers *waivers(const char *text, struct ds_error *err)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(fp);
	ds_error_clear(err);
	struct ds_waivers *ws = ds_waivers_parse(fp, "w", err);
	fclose(fp);
	return ws;
}

static void test_waivers(void **state)
{
	(void)state;
	struct ds_error err = DS_ERROR_INIT;
	struct ds_waivers *ws = waivers(
		"# a comment\n"
		"\n"
		"elf-pie /usr/lib/*/helper-? libfoo # built by an old toolchain upstream\n"
		"* /opt/* # third-party tree\n"
		"elf-relro /never/matched # stale\n", &err);
	assert_non_null(ws);
	assert_string_equal(ds_error_msg(&err), "");
	static const struct ds_pkg foo = { .name = "libfoo", .version = "1" };
	static const struct ds_pkg bar = { .name = "bar", .version = "1" };
	struct ds_finding d = {
		.check = ds_check_find("elf-pie"), .path = (char *)"/usr/lib/x86_64-linux-gnu/helper-a",
		.owner = { .status = DS_OWNER_PACKAGE, .npkgs = 2, .pkgs = { &bar, &foo } },
	};
	/* '*' crosses '/', the package is one of the owners */
	assert_string_equal(ds_waiver_for(ws, &d), "built by an old toolchain upstream");
	d.owner.npkgs = 1;            /* owned by bar only */
	assert_null(ds_waiver_for(ws, &d));
	d.owner = (struct ds_owner){ .status = DS_OWNER_NOT_OWNED };
	assert_null(ds_waiver_for(ws, &d));
	d.path = (char *)"/usr/lib/x86_64-linux-gnu/helper-ab";   /* '?' is one character */
	d.owner = (struct ds_owner){ .status = DS_OWNER_PACKAGE, .npkgs = 1, .pkgs = { &foo } };
	assert_null(ds_waiver_for(ws, &d));
	d.check = ds_check_find("file-stig");
	d.path = (char *)"/opt/vendor/bin/x";
	assert_string_equal(ds_waiver_for(ws, &d), "third-party tree");   /* '*' as the check */
	ds_waivers_seal(ws, true);
	struct ds_scan s = { .priv = &(struct ds_scan_private){ .waivers = ws } };
	const char *const *unused;
	assert_int_equal(ds_scan_unused_waivers(&s, &unused), 1);
	assert_string_equal(unused[0], "w:5: elf-relro /never/matched");
	ds_waivers_free(ws);

	/* a package glob with :arch; the package's own spelling of the path */
	ws = waivers("elf-pie /bin/* lib*:i3?6 # i386 only\n", &err);
	assert_non_null(ws);
	static const struct ds_pkg foo64 = { .name = "libfoo", .arch = "amd64" };
	static const struct ds_pkg foo32 = { .name = "libfoo", .arch = "i386" };
	d = (struct ds_finding){
		.check = ds_check_find("elf-pie"), .path = (char *)"/usr/bin/x",
		.pkg_path = (char *)"/bin/x",
		.owner = { .status = DS_OWNER_PACKAGE, .npkgs = 1, .pkgs = { &foo64 } },
	};
	assert_null(ds_waiver_for(ws, &d));
	d.owner.pkgs[0] = &foo32;
	assert_string_equal(ds_waiver_for(ws, &d), "i386 only");
	d.pkg_path = NULL;
	assert_null(ds_waiver_for(ws, &d));
	ds_waivers_free(ws);

	static const char *const bad[][2] = {
		{ "elf-pie /x\n", "w:1: no reason" },
		{ "elf-pie /x #   \n", "w:1: no reason" },
		{ "# c\nelf-pie # why\n", "w:2: expected 'check-id path-glob" },
		{ "elf-pie /x a b # why\n", "w:1: too many words" },
		{ "no-such-check /x # why\n", "w:1: unknown check id" },
		{ "elf-pie usr/bin/x # why\n", "w:1: the path glob must be absolute" },
		{ "elf-pie /x foo: # why\n", "w:1: expected package-glob[:arch-glob]" },
		{ "elf-pie /x :amd64 # why\n", "w:1: expected package-glob[:arch-glob]" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_null(waivers(bad[i][0], &err));
		char *want = ds_xasprintf("waivers %s", bad[i][1]);
		if (strncmp(ds_error_msg(&err), want, strlen(want)) != 0)
			fail_msg("\"%s\": \"%s\", want \"%s...\"", bad[i][0], ds_error_msg(&err), want);
		free(want);
	}
	ds_error_clear(&err);
}

static void expect_clean(const char *in, const char *out)
{
	char *got = ds_utf8_clean(in);
	if (strcmp(got, out) != 0)
		fail_msg("clean(\"%s\") = \"%s\", want \"%s\"", in, got, out);
	free(got);
}

static void test_utf8(void **state)
{
	(void)state;
	expect_clean("plain /usr/bin", "plain /usr/bin");
	expect_clean("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	expect_clean("a\xff" "b", "a\\xffb");
	expect_clean("\xc0\xaf", "\\xc0\\xaf");                 /* overlong '/' */
	expect_clean("\xe0\x80\xaf", "\\xe0\\x80\\xaf");        /* overlong, 3 bytes */
	expect_clean("\xed\xa0\x80", "\\xed\\xa0\\x80");        /* a UTF-16 surrogate */
	expect_clean("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");/* above U+10FFFF */
	expect_clean("\xc3", "\\xc3");                          /* cut short at the end */
	expect_clean("\xe2\x82" "x", "\\xe2\\x82x");            /* cut short mid-string */
	uint32_t cp = 0;
	assert_int_equal(ds_utf8_decode((const unsigned char *)"\xf4\x8f\xbf\xbf", &cp), 4);
	assert_int_equal(cp, 0x10FFFF);

	/* a field longer than DS_FIELD_MAX is cut at a character boundary */
	char *s = ds_xmalloc(DS_FIELD_MAX * 2 + 1);
	for (size_t i = 0; i < DS_FIELD_MAX; i++)
		memcpy(s + 2 * i, "\xc3\xa9", 2);
	s[DS_FIELD_MAX * 2] = '\0';
	char *f = ds_field_dup(s);
	size_t n = strlen(f);
	assert_true(n <= DS_FIELD_MAX);
	assert_string_equal(f + n - 3, "...");
	char *again = ds_utf8_clean(f);
	assert_string_equal(again, f);   /* still valid UTF-8 */
	free(again);
	free(f);
	free(s);
	assert_null(ds_field_dup(""));
	assert_null(ds_field_dup(NULL));
}

static void expect_join(const char *dir, const char *name, const char *out)
{
	char *got = ds_path_join(dir, name);
	if (strcmp(got, out) != 0)
		fail_msg("join(\"%s\", \"%s\") = \"%s\", want \"%s\"", dir, name, got, out);
	free(got);
}

static void test_path_join(void **state)
{
	(void)state;
	expect_join("/", "etc/passwd", "/etc/passwd");
	expect_join("/", "/etc/passwd", "/etc/passwd");
	expect_join("/srv/root", "/etc/passwd", "/srv/root/etc/passwd");
	expect_join("/srv/root/", "etc", "/srv/root/etc");
	expect_join("/srv/root", "/", "/srv/root");
	expect_join("/", "/", "/");
	expect_join("/srv/root", "", "/srv/root");
	expect_join("rel", "x", "rel/x");
}

static void test_split_list(void **state)
{
	(void)state;
	char **v = ds_split_list(",elf-pie,,elf-relro,");
	assert_string_equal(v[0], "elf-pie");
	assert_string_equal(v[1], "elf-relro");
	assert_null(v[2]);
	ds_list_free(v);
}

/* Runs fn in a child; true when it ended on SIGABRT. */
static bool aborts(void (*fn)(void))
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, STDERR_FILENO);
		fn();
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void grow_past_size_max(void)
{
	/* an array of 2^61 eight-byte elements needs more than SIZE_MAX bytes */
	ds_grow_cap((size_t)1 << 61, ((size_t)1 << 61) + 1, 8);
}

static void mult_past_size_max(void)
{
	ds_st_mult(SIZE_MAX / 2 + 1, 2);
}

static void push_past_size_max(void)
{
	struct big { char b[1 << 20]; } *arr = NULL;
	size_t n = SIZE_MAX >> 20, cap = n;   /* "full" at a size no realloc can give */
	ds_push(arr, n, cap, (struct big){ { 0 } });
}

static void test_grow(void **state)
{
	(void)state;
	int *v = NULL;
	size_t n = 0, cap = 0;
	for (int i = 0; i < 1000; i++)
		ds_push(v, n, cap, i);
	assert_int_equal(n, 1000);
	assert_true(cap >= 1000 && cap <= 2048);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(v[i], i);
	ds_grow(v, 5000, cap);
	assert_true(cap >= 5000);
	free(v);
	assert_int_equal(ds_grow_cap(0, 1, 8), 16);
	assert_int_equal(ds_grow_cap(16, 17, 8), 32);
	assert_int_equal(ds_grow_cap(16, 100, 8), 100);
	assert_int_equal(ds_st_mult(3, 5), 15);
	assert_true(aborts(grow_past_size_max));
	assert_true(aborts(mult_past_size_max));
	assert_true(aborts(push_past_size_max));
}

/* DW_AT_producer: the compiler named, GCC's switches applied in order
 * (the last of a group wins), other compilers counted and not judged. */
static void test_producer(void **state)
{
	(void)state;
	struct ds_gcc_flags fl;
	assert_int_equal(ds_producer_parse("GNU C17 12.2.0 -mtune=generic -march=x86-64 -g -O2 "
	                                   "-fstack-protector-strong -fno-stack-protector "
	                                   "-fno-stack-clash-protection", &fl), DS_PROD_GCC);
	assert_int_equal(fl.stack_protector, 0);
	assert_false(fl.stack_clash);
	assert_int_equal(fl.opt, 2);
	assert_true(fl.any_switch);
	ds_producer_parse("GNU C++17 12.2.0 -fno-stack-protector -fstack-protector-all -O3 -Og "
	                  "-fstack-clash-protection -fcf-protection=branch", &fl);
	assert_int_equal(fl.stack_protector, 3);
	assert_true(fl.stack_clash);
	assert_int_equal(fl.opt, 'g');
	assert_int_equal(fl.cf_protection, 1);
	ds_producer_parse("GNU C11 13.2.1 -fcf-protection=none -fcf-protection -O -O4 -fstack-protector", &fl);
	assert_int_equal(fl.cf_protection, 3);
	assert_int_equal(fl.opt, 3);
	assert_int_equal(fl.stack_protector, 1);
	ds_producer_parse("GNU C17 12.2.0", &fl);
	assert_false(fl.any_switch);
	assert_int_equal(ds_producer_parse("GNU GIMPLE 13.2.1 -O2 -flto", &fl), DS_PROD_GCC);
	assert_int_equal(ds_producer_parse("clang LLVM (rustc version 1.70.0 (90c541806 2023-05-31))", &fl),
	                 DS_PROD_RUST);
	assert_int_equal(ds_producer_parse("Debian clang version 14.0.6", &fl), DS_PROD_CLANG);
	assert_int_equal(ds_producer_parse("Go cmd/compile go1.19.8; regabi", &fl), DS_PROD_GO);
	assert_int_equal(ds_producer_parse("GNU AS 2.40", &fl), DS_PROD_ASM);
	assert_int_equal(ds_producer_parse("\xff\x01U C17 12.2.0 -O2", &fl), DS_PROD_OTHER);
	assert_int_equal(ds_producer_parse(NULL, &fl), DS_PROD_OTHER);

	/* units counted; the names kept are the first in byte order */
	struct ds_buildflags bf;
	memset(&bf, 0, sizeof bf);
	const char *const weak = "GNU C17 12.2.0 -O0 -fno-stack-protector";
	ds_buildflags_add(&bf, weak, "z.c", true);
	ds_buildflags_add(&bf, weak, "b.c", true);
	ds_buildflags_add(&bf, "GNU C17 12.2.0 -O2 -fstack-protector-strong -fstack-clash-protection "
	                  "-fcf-protection", "ok.c", true);
	ds_buildflags_add(&bf, weak, "a.c", true);
	ds_buildflags_add(&bf, weak, "y.c", false);
	ds_buildflags_add(&bf, "rustc version 1.70.0", "lib.rs", true);
	ds_buildflags_add(&bf, "GNU C17 12.2.0", "quiet.c", true);
	assert_int_equal(bf.units, 7);
	assert_int_equal(bf.judged, 5);
	assert_int_equal(bf.rust, 1);
	assert_int_equal(bf.unrecorded, 1);
	assert_int_equal(bf.no_canary.count, 4);
	assert_int_equal(bf.no_canary.nnames, 3);
	assert_string_equal(bf.no_canary.names[0], "a.c");
	assert_string_equal(bf.no_canary.names[1], "b.c");
	assert_string_equal(bf.no_canary.names[2], "y.c");
	assert_int_equal(bf.no_cf.count, 3);   /* y.c is no x86 unit */
	assert_int_equal(bf.o0.count, 4);
	assert_int_equal(bf.no_stack_clash.count, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_same_file),
		cmocka_unit_test(test_resolve_in_root),
		cmocka_unit_test(test_strmap),
		cmocka_unit_test(test_pathindex),
		cmocka_unit_test(test_waivers),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_path_join),
		cmocka_unit_test(test_split_list),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_producer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
