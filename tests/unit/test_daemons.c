/*
 * The daemon class: unit files parsed as systemd does (unitfile.c), and
 * units, drop-ins, masks and init scripts looked up in a root (daemons.c).
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "unitfile.h"

/* The programs of a unit made of these texts, joined by spaces. */
static char *daemons_of(const char *name, const char *text, const char *dropin)
{
	struct ds_unit *u = ds_unit_new(name);
	ds_unit_read(u, text, strlen(text));
	if (dropin)
		ds_unit_read(u, dropin, strlen(dropin));
	const char *const *progs;
	size_t n = ds_unit_daemons(u, &progs);
	char *s = ds_xstrdup("");
	for (size_t i = 0; i < n; i++) {
		char *t = ds_xasprintf("%s%s%s", s, i ? " " : "", progs[i]);
		free(s);
		s = t;
	}
	ds_unit_free(u);
	return s;
}

static void expect(const char *name, const char *text, const char *dropin, const char *want)
{
	char *got = daemons_of(name, text, dropin);
	assert_string_equal(got, want);
	free(got);
}

static void test_exec_prefixes(void **state)
{
	(void)state;
	const char *s = "a.service";
	expect(s, "[Service]\nExecStart=/usr/sbin/a -f\n", NULL, "/usr/sbin/a");
	expect(s, "[Service]\nExecStart=-/usr/sbin/a\n", NULL, "/usr/sbin/a");
	expect(s, "[Service]\nExecStart=+/usr/bin/install -d /x\n", NULL, "/usr/bin/install");
	expect(s, "[Service]\nExecStart=!/usr/sbin/a\n", NULL, "/usr/sbin/a");
	expect(s, "[Service]\nExecStart=!!/usr/sbin/a\n", NULL, "/usr/sbin/a");
	expect(s, "[Service]\nExecStart=:/usr/sbin/a $X\n", NULL, "/usr/sbin/a");
	expect(s, "[Service]\nExecStart=-@+/usr/sbin/a argv0 -x\n", NULL, "/usr/sbin/a");
	/* "@": the word after the path is argv[0], never a program */
	expect(s, "[Service]\nExecStart=@/usr/sbin/a /usr/sbin/b\n", NULL, "/usr/sbin/a");
	expect(s, "[Service]\nExecStart=\"/usr/lib/my prog/a\" 'x y'\n", NULL, "/usr/lib/my prog/a");
	expect(s, "[Service]\nExecStart = food --foreground\n", NULL, "food");
	/* a prefix alone is no program */
	expect(s, "[Service]\nExecStart=-\n", NULL, "");
}

static void test_sections_comments_continuations(void **state)
{
	(void)state;
	const char *s = "a.service";
	expect(s, "[Unit]\nExecStart=/usr/bin/not\n[Service]\nExecStart=/usr/sbin/a\n", NULL,
	       "/usr/sbin/a");
	expect(s, "[Service]\n#ExecStart=/usr/bin/x\n;ExecStart=/usr/bin/y\n", NULL, "");
	expect(s, "[Service]\nExecStart=\\\n  /usr/sbin/a \\\n# a comment line\n  -x\n", NULL,
	       "/usr/sbin/a");
	expect(s, "[Service]\r\nType=simple\r\nExecStart=/usr/sbin/a\r\n", NULL, "/usr/sbin/a");
	expect(s, "[Install]\nExecStart=/usr/sbin/a\n", NULL, "");
}

/* postgresql.service and man-db.service: oneshot units start no daemon */
static void test_oneshot(void **state)
{
	(void)state;
	expect("postgresql.service",
	       "[Service]\nType=oneshot\nExecStart=/bin/true\nExecReload=/bin/true\n"
	       "RemainAfterExit=on\n", NULL, "");
	expect("man-db.service",
	       "[Service]\nType=oneshot\nExecStart=+/usr/bin/install -d -o man -g man -m 0755 "
	       "/var/cache/man\nExecStart=/usr/bin/mandb --quiet\n", NULL, "");
	/* a oneshot's several commands separated by ";" are all parsed */
	expect("a.service", "[Service]\nExecStart=/usr/bin/a ; /usr/bin/b \\; c\n", NULL,
	       "/usr/bin/a /usr/bin/b");
	/* only services run programs */
	expect("a.socket", "[Service]\nExecStart=/usr/sbin/a\n", NULL, "");
	expect("a.timer", "[Service]\nExecStart=/usr/sbin/a\n", NULL, "");
}

static void test_dropins_override(void **state)
{
	(void)state;
	const char *s = "a.service";
	const char *unit = "[Service]\nExecStart=/usr/sbin/a\n";
	/* an empty ExecStart= resets the list, as in an override */
	expect(s, unit, "[Service]\nExecStart=\nExecStart=/usr/sbin/b\n", "/usr/sbin/b");
	expect(s, unit, "[Service]\nExecStart=/usr/sbin/c\n", "/usr/sbin/a /usr/sbin/c");
	expect(s, unit, "[Service]\nType=oneshot\n", "");
	expect(s, "[Service]\nType=oneshot\nExecStart=/usr/sbin/a\n", "[Service]\nType=notify\n",
	       "/usr/sbin/a");
}

static void link_in(const char *root, const char *target, const char *rel)
{
	char *p = ds_xasprintf("%s/%s", root, rel);
	assert_int_equal(symlink(target, p), 0);
	free(p);
}

/* A root: precedence of etc over lib, masks, drop-ins, bare names, init
 * scripts; every program resolved inside the root. */
static void test_root(void **state)
{
	(void)state;
	char *r = make_root();
	const char *bins[] = { "usr/sbin/a", "usr/sbin/b", "usr/sbin/c", "usr/sbin/masked",
	                       "usr/bin/true", "usr/bin/install", "usr/sbin/bare", "usr/sbin/oldd",
	                       "usr/sbin/pref", "usr/sbin/lib-only", NULL };
	for (size_t i = 0; bins[i]; i++)
		write_into(r, bins[i], "x", 0755);
	write_into(r, "lib/systemd/system/a.service", "[Service]\nExecStart=/usr/sbin/lib-only\n", 0644);
	write_into(r, "etc/systemd/system/a.service", "[Service]\nExecStart=/sbin/a\n", 0644);
	write_into(r, "lib/systemd/system/b.service", "[Service]\nExecStart=/usr/sbin/c\n", 0644);
	write_into(r, "etc/systemd/system/b.service.d/10-x.conf",
	           "[Service]\nExecStart=\nExecStart=/usr/sbin/b\n", 0644);
	/* the same drop-in name in lib is hidden by etc's */
	write_into(r, "lib/systemd/system/b.service.d/10-x.conf",
	           "[Service]\nExecStart=/usr/sbin/c\n", 0644);
	write_into(r, "lib/systemd/system/masked.service", "[Service]\nExecStart=/usr/sbin/masked\n", 0644);
	link_in(r, "/dev/null", "etc/systemd/system/masked.service");
	write_into(r, "lib/systemd/system/oneshot.service",
	           "[Service]\nType=oneshot\nExecStart=/bin/true\nExecStart=+/usr/bin/install -d /x\n", 0644);
	write_into(r, "lib/systemd/system/bare.service", "[Service]\nExecStart=bare\n", 0644);
	write_into(r, "lib/systemd/system/pre-fix.service", "[Service]\nType=oneshot\nExecStart=/usr/sbin/pref\n", 0644);
	write_into(r, "lib/systemd/system/pre-.service.d/t.conf", "[Service]\nType=simple\n", 0644);
	write_into(r, "etc/init.d/oldd", "#!/bin/sh\n  DAEMON='/usr/sbin/oldd'\n", 0755);
	link_in(r, "usr/sbin", "sbin");
	link_in(r, "usr/bin", "bin");
	int fd = open(r, O_PATH | O_DIRECTORY);
	struct ds_strmap *m = ds_daemons_load(fd);
	close(fd);
	const char *yes[] = { "/usr/sbin/a", "/usr/sbin/b", "/usr/sbin/bare", "/usr/sbin/oldd",
	                      "/usr/sbin/pref", NULL };
	const char *no[] = { "/usr/sbin/lib-only", "/usr/sbin/c", "/usr/sbin/masked",
	                     "/usr/bin/true", "/usr/bin/install", NULL };
	for (size_t i = 0; yes[i]; i++)
		if (!ds_strmap_get(m, yes[i]))
			fail_msg("%s should be a daemon", yes[i]);
	for (size_t i = 0; no[i]; i++)
		if (ds_strmap_get(m, no[i]))
			fail_msg("%s should not be a daemon", no[i]);
	assert_int_equal(ds_strmap_size(m), 5);
	ds_strmap_free(m);
	rm_rf(r);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_prefixes),
		cmocka_unit_test(test_sections_comments_continuations),
		cmocka_unit_test(test_oneshot),
		cmocka_unit_test(test_dropins_override),
		cmocka_unit_test(test_root),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
