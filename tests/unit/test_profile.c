/* Profiles: the parser's errors, severities and conditional waivers. */
#include <string.h>

#include "harness.h"
#include "profile.h"

static struct ds_profile *parse(const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(fp);
	struct ds_error err = DS_ERROR_INIT;
	struct ds_profile *p = ds_profile_parse(fp, "t", "t.profile", &err);
	assert_true(p ? !err.msg : !strncmp(ds_error_msg(&err), "profile t.profile:", 18));
	ds_error_clear(&err);
	fclose(fp);
	return p;
}

static void test_bad_lines(void **state)
{
	(void)state;
	const char *bad[] = {
		"severity nosuch-check error # why\n",
		"severity file-stig error\n",                 /* no reason */
		"severity file-stig fatal # why\n",
		"severity file-stig error extra # why\n",
		"waive file-stig # why\n",                    /* no glob */
		"waive file-stig /etc/x mode<=0999 # why\n",
		"waive file-stig /etc/x mode # why\n",
		"waive file-stig /etc/x =x # why\n",
		"frobnicate file-stig # why\n",
		NULL,
	};
	for (size_t i = 0; bad[i]; i++)
		if (parse(bad[i]))
			fail_msg("accepted: %s", bad[i]);
	struct ds_profile *p = parse("# comment\n\ndescription  a test profile\n"
	                             "severity elf-pie warning # why\n");
	assert_non_null(p);
	assert_string_equal(ds_profile_description(p), "a test profile");
	assert_string_equal(ds_profile_name(p), "t");
	ds_profile_free(p);
}

static const struct ds_check *check(const char *id)
{
	const struct ds_check *c = ds_check_find(id);
	assert_non_null(c);
	return c;
}

/* A finding as file-stig makes them: rule, mode, group. */
static struct ds_finding *finding(const char *path, const char *rule, const char *mode,
                                  const char *group)
{
	struct ds_finding *d = ds_xcalloc(1, sizeof *d);
	d->check = check("file-stig");
	d->severity = DS_SEV_ERROR;
	d->path = ds_xstrdup(path);
	d->rule = rule ? ds_xstrdup(rule) : NULL;
	d->details = json_object_new_object();
	ds_detail_str(d, "mode", mode);
	ds_detail_str(d, "group", group);
	return d;
}

static void release(struct ds_finding *d)
{
	free(d->path);
	free(d->rule);
	json_object_put(d->details);
	free(d);
}

/* waived: the reason expected, or NULL; sev: the severity after judging */
static void expect(const struct ds_profile *p, const char *path, const char *rule,
                   const char *mode, const char *group, const char *waived, enum ds_severity sev)
{
	struct ds_finding *d = finding(path, rule, mode, group);
	const char *why = ds_profile_judge(p, d);
	if (waived)
		assert_string_equal(why, waived);
	else if (why)
		fail_msg("%s %s %s waived: %s", path, mode, group, why);
	assert_int_equal(d->severity, sev);
	release(d);
}

static void test_judge(void **state)
{
	(void)state;
	struct ds_profile *p = parse(
		"waive file-stig/GEN003080 /etc/cron.daily/*,/etc/cron.weekly/* mode<=0755 # run-parts\n"
		"waive file-stig/GEN001420 /etc/shadow mode<=0640 group=shadow # shadow group\n"
		"severity file-stig/GEN001260 warning # logs\n"
		"severity file-stig/GEN001260 info # later lines win\n");
	assert_non_null(p);
	const enum ds_severity E = DS_SEV_ERROR;
	expect(p, "/etc/cron.daily/apt", "GEN003080", "0755", "root", "t profile: run-parts", E);
	expect(p, "/etc/cron.weekly/x", "GEN003080", "0750", "root", "t profile: run-parts", E);
	/* a bit beyond the limit, another rule, another path: not waived */
	expect(p, "/etc/cron.daily/apt", "GEN003080", "0775", "root", NULL, E);
	expect(p, "/etc/cron.daily/apt", "GEN003100", "0755", "root", NULL, E);
	expect(p, "/etc/cron.d/apt", "GEN003080", "0644", "root", NULL, E);
	expect(p, "/etc/shadow", "GEN001420", "0640", "shadow", "t profile: shadow group", E);
	expect(p, "/etc/shadow", "GEN001420", "0640", "root", NULL, E);
	expect(p, "/etc/shadow", "GEN001420", "0644", "shadow", NULL, E);
	expect(p, "/var/log/dpkg.log", "GEN001260", "0644", "root", NULL, DS_SEV_INFO);
	/* a pass stays a pass */
	struct ds_finding *d = finding("/etc/cron.daily/apt", "GEN003080", "0755", "root");
	d->severity = DS_SEV_PASS;
	assert_null(ds_profile_judge(p, d));
	assert_int_equal(d->severity, DS_SEV_PASS);
	release(d);
	ds_profile_free(p);
	/* no profile: nothing changes */
	expect(NULL, "/etc/cron.daily/apt", "GEN003080", "0755", "root", NULL, E);
}

/* The shipped profiles parse, and stig changes nothing. */
static void test_shipped(void **state)
{
	(void)state;
	const char *names[] = { "debian", "fedora", "stig", NULL };
	for (size_t i = 0; names[i]; i++) {
		struct ds_error err = DS_ERROR_INIT;
		struct ds_profile *p = ds_profile_load(names[i], &err);
		if (!p)
			fail_msg("profile %s does not load: %s", names[i], ds_error_msg(&err));
		assert_true(strlen(ds_profile_description(p)) > 10);
		expect(!strcmp(names[i], "stig") ? p : NULL, "/etc/cron.daily/apt", "GEN003080",
		       "0755", "root", NULL, DS_SEV_ERROR);
		ds_profile_free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_shipped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
