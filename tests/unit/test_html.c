/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's one escape (ds_html_put): what a hostile package name,
 * version, maintainer, path or message becomes in a page's text and in an
 * attribute value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "output/output.h"

static void expect_html(const char *in, bool lines, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	assert_non_null(m);
	ds_html_put(m, in, lines);
	fclose(m);
	if (strcmp(buf, want) != 0)
		fail_msg("ds_html_put(\"%s\", %d) = \"%s\", want \"%s\"", in, lines, buf, want);
	free(buf);
}

static void test_markup(void **state)
{
	(void)state;
	expect_html("<script>alert(1)</script>", false, "&lt;script&gt;alert(1)&lt;/script&gt;");
	/* closing an attribute value, in either quote, and an event attribute */
	expect_html("1.0\" onerror=\"alert(1)", false, "1.0&quot; onerror=&quot;alert(1)");
	expect_html("x' onerror='alert(1)", false, "x&apos; onerror=&apos;alert(1)");
	expect_html("<img src=x onerror=alert(1)>", false, "&lt;img src=x onerror=alert(1)&gt;");
	/* a reference written by the author stays text, not the character */
	expect_html("&lt;b&gt; &#60;", false, "&amp;lt;b&amp;gt; &amp;#60;");
	expect_html("", false, "");
	expect_html("plain ascii 1.2-3+deb12u1", false, "plain ascii 1.2-3+deb12u1");
}

static void test_bytes(void **state)
{
	(void)state;
	/* invalid UTF-8: a lone continuation byte, a truncated sequence, an
	 * overlong '/', a surrogate: each byte visible, never passed through */
	expect_html("a\xff" "b", false, "a\\xffb");
	expect_html("\xc3", false, "\\xc3");
	expect_html("c\xc0\xaf" "d", false, "c\\xc0\\xafd");
	expect_html("e\xed\xa0\x80" "f", false, "e\\xed\\xa0\\x80f");
	/* valid UTF-8 kept */
	expect_html("Jos\xc3\xa9 \xe2\x9c\x93", false, "Jos\xc3\xa9 \xe2\x9c\x93");
	/* C0 controls, DEL, C1 controls, bidi overrides, noncharacters */
	expect_html("a\x01\x1b[31m\x7f", false, "a\\x01\\x1b[31m\\x7f");
	expect_html("\xc2\x9b" "x", false, "\\u009Bx");
	expect_html("evil\xe2\x80\xae" "txt.exe", false, "evil\\u202Etxt.exe");
	expect_html("\xe2\x81\xa6" "i", false, "\\u2066i");
	expect_html("\xef\xbf\xbe\xef\xbf\xbf\xef\xb7\x90", false, "\\uFFFE\\uFFFF\\uFDD0");
	expect_html("\xf4\x8f\xbf\xbf", false, "\\u10FFFF");
	/* newline, tab and backslash: visible in a name, kept in our own text */
	expect_html("new\nline\tx\\y", false, "new\\nline\\tx\\\\y");
	expect_html("new\nline\tx\\y <", true, "new\nline\tx\\y &lt;");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markup),
		cmocka_unit_test(test_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
