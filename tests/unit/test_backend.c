/*
 * The backend contract's start()/open() pair (backend.h, docs/DESIGN.md
 * threading), on the dpkg backend, whose start() forks the loader child:
 * open() without start(), open() of the root start() named, and open() of
 * another root, which ends the first child and removes its private copy.
 */
#include <errno.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "harness.h"

static const struct ds_backend *dpkg_backend(void)
{
	const struct ds_backend_slot *slots;
	size_t n = ds_backends_available(&slots);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(slots[i].b->name, "dpkg"))
			return slots[i].b;
	return NULL;
}

/* A root whose dpkg database lists package pkg owning /usr/bin/pkg. */
static char *dpkg_root(const char *pkg)
{
	char *root = make_root();
	char *status = ds_xasprintf("Package: %s\nStatus: install ok installed\nPriority: optional\n"
	                            "Section: misc\nMaintainer: T <t@example.org>\n"
	                            "Architecture: amd64\nVersion: 1.0\nDescription: test\n test\n\n",
	                            pkg);
	char *list = ds_xasprintf("var/lib/dpkg/info/%s.list", pkg);
	char *file = ds_xasprintf("/usr/bin/%s", pkg);
	char *lines = ds_xasprintf("/.\n/usr\n/usr/bin\n%s\n", file);
	write_into(root, "var/lib/dpkg/status", status, 0644);
	write_into(root, "var/lib/dpkg/available", "", 0644);
	write_into(root, list, lines, 0644);
	write_into(root, file + 1, "#!/bin/sh\n", 0755);
	free(status);
	free(list);
	free(file);
	free(lines);
	return root;
}

/* The package that owns path, or "" when none does. */
static const char *owner(const struct ds_backend *b, void *h, const char *path)
{
	const ds_pkgid *ids;
	size_t n;
	if (b->owner_of(h, path, &ids, &n) != DS_OWNER_PACKAGE || n != 1)
		return "";
	return b->info(h, ids[0])->name;
}

/* Entries of dir (the test's TMPDIR: loader copies left behind). */
static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static char *tmpdir;

static int setup(void **state)
{
	(void)state;
	tmpdir = make_root();
	setenv("TMPDIR", tmpdir, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unsetenv("TMPDIR");
	rm_rf(tmpdir);
	free(tmpdir);
	return 0;
}

/* What open() of root, given started, loads: pkg owns /usr/bin/pkg; no
 * child and no copy is left. */
static void expect_loaded(const struct ds_backend *b, const char *root, void *started,
                          const char *pkg)
{
	struct ds_error err = DS_ERROR_INIT;
	void *h = b->open(root, 0, started, &err);
	assert_non_null(h);
	assert_null(err.msg);   /* neither an error nor a note */
	assert_int_equal(b->count(h), 1);
	char *file = ds_xasprintf("/usr/bin/%s", pkg);
	assert_string_equal(owner(b, h, file), pkg);
	free(file);
	b->close(h);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	assert_int_equal(entries(tmpdir), 0);
}

/* start() for a root of package started (none when NULL), then open() of
 * a root of package opened (the same root when the names are equal). */
static void start_open(const char *started, const char *opened)
{
	const struct ds_backend *b = dpkg_backend();
	if (!b)
		skip();
	assert_non_null(b->start);
	char *first = started ? dpkg_root(started) : NULL;
	char *second = started && !strcmp(started, opened) ? NULL : dpkg_root(opened);
	void *begun = first ? b->start(first, 0) : NULL;
	expect_loaded(b, second ? second : first, begun, opened);
	if (first)
		rm_rf(first);
	if (second)
		rm_rf(second);
	free(first);
	free(second);
}

static void test_open_without_start(void **state)
{
	(void)state;
	start_open(NULL, "alpha");
}

static void test_start_then_open(void **state)
{
	(void)state;
	start_open("beta", "beta");
}

/* The child started for one root is ended and its copy removed when the
 * other root is opened. */
static void test_start_other_root(void **state)
{
	(void)state;
	start_open("gamma", "delta");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_without_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_start_then_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_start_other_root, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
