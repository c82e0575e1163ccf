/*
 * The script and file checks on a fixture tree written at test time:
 * sh -n through the real interpreters, /tmp use, Python chroot, hidden
 * executables.  Exact severities and details.
 */
#include <libelf.h>
#include <stdio.h>
#include <time.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "harness.h"
#include "checks/sh_syntax.h"

static char *root;
static struct ds_scan *scan;

#define must(path, check, sev) must_record(scan, path, check, sev)

static int setup(void **state)
{
	(void)state;
	root = make_root();
	write_into(root, "usr/bin/good-sh", "#!/bin/sh\necho ok\n", 0755);
	write_into(root, "usr/bin/bad-sh", "#!/bin/sh\necho start\nif then fi\n", 0755);
	write_into(root, "usr/bin/good-bash", "#!/usr/bin/env bash\n[[ -n x ]] && echo y\n", 0755);
	write_into(root, "usr/bin/bad-bash", "#!/bin/bash\nfunction {\n", 0755);
	write_into(root, "usr/lib/x/helper.sh", "case $1 in\n", 0644);
	/* launchers: sh hands over to python on line 2 (polyglot spellings) */
	write_into(root, "usr/bin/launcher",
	           "#!/bin/sh\n''''exec python3 -u -- \"$0\" ${1+\"$@\"} # '''\n"
	           "def f(x):\n    return {x: 1}\n", 0755);
	write_into(root, "usr/bin/launcher-cond",
	           "#!/bin/sh\nif true; then\nexec python3 \"$0\"\nfi\ndef f(x):\n", 0755);
	write_into(root, "usr/bin/launcher-redir", "#!/bin/sh\nexec 2>/dev/null\ndef f(x):\n", 0755);
	/* Tcl's launcher: the comment's backslash hides the indented exec from Tcl */
	write_into(root, "usr/share/doc/x/bench.sh",
	           "#!/bin/sh\n# -*- mode: tcl -*- \\\n\texec wish -f \"$0\" ${1+\"$@\"}\n\n"
	           "package require BLT\nforeach n {1 2} {\n  puts $n\n}\n", 0644);
	/* an indented exec after code is inside it: parsed whole */
	write_into(root, "usr/share/doc/x/indented.sh",
	           "#!/bin/sh\nwhile false; do\n\texec wish \"$0\"\ndone\nforeach n {1 2} {\n  puts $n\n}\n", 0644);
	/* a polyglot that tries interpreters in a loop, then exits */
	write_into(root, "usr/bin/launcher-exit",
	           "#!/bin/sh\n''':'\nfor p in python3 python\ndo\n"
	           "    type \"$p\" >/dev/null 2>&1 && exec \"$p\" \"$0\" \"$@\"\ndone\n"
	           "echo >&2 no python\nexit 1\n':'''\ndef f(x):\n    return {x: 1}\n", 0755);
	/* exit in an unindented if, and in a here-document's text: not the end */
	write_into(root, "usr/bin/exit-in-if",
	           "#!/bin/sh\nif true; then\necho a\nexit 1\nfi\ndef f(x):\n", 0755);
	write_into(root, "usr/bin/exit-in-heredoc",
	           "#!/bin/sh\ncat <<-'EOF'\n\texit 0\nexit 0\n\tEOF\ndef f(x):\n", 0755);
	write_into(root, "usr/bin/exit-or",
	           "#!/bin/sh\nexit 1 || true\ndef f(x):\n", 0755);
	/* Perl's launcher (the exec given to eval, `if 0;` hiding it from
	 * perl) and scm's (`:;exec`); an eval of text that is no exec, and
	 * an eval'd exec in an if, are not the end */
	write_into(root, "usr/bin/launcher-eval",
	           "#! /bin/sh\n#!perl -w # --*- Perl -*--\neval 'exec perl -x $0 ${1+\"$@\"}'\n"
	           "    if 0;\nmy %h = (a => 1);\nprint $h{a}, \"\\n\";\n", 0755);
	write_into(root, "usr/bin/launcher-colon",
	           "#!/bin/sh\n:;exec scm -f $0 \"$@\"\n(define (f x) (display x))\n", 0755);
	write_into(root, "usr/bin/eval-echo",
	           "#!/bin/sh\neval 'echo exec perl'\nmy %h = (a => 1);\n", 0755);
	write_into(root, "usr/bin/eval-in-if",
	           "#!/bin/sh\nif true; then\neval 'exec perl -x $0'\nfi\nmy %h = (a => 1);\n", 0755);
	write_into(root, "usr/bin/uses-extglob",
	           "#!/bin/bash\nshopt -s extglob\ncase $1 in\n  @(a|b)) echo ab ;;\nesac\n", 0755);
	write_into(root, "usr/share/x/completion.sh",
	           "if [[ -n $x ]]; then\n  declare -a arr=(1 2)\nfi\n", 0644);
	write_into(root, "usr/bin/needs-posh", "#!/bin/posh\necho\n", 0755);
	write_into(root, "usr/bin/needs-posh2", "#!/bin/posh\necho\n", 0755);
	write_into(root, "usr/bin/tmp-bad",
	           "#!/bin/sh\n# echo > /tmp/commented\nlog=/tmp/log.$$\n"
	           "echo start > /tmp/fixture.$$\ncp data /tmp/fixture-copy\ncat /tmp/only-read\n", 0755);
	write_into(root, "usr/bin/tmp-opts",
	           "#!/bin/sh\nsort -o /tmp/sorted in\ndd if=/dev/zero of=/tmp/zero count=1\n"
	           "tar -cf /tmp/all.tar .\ntar -xf /tmp/in.tar\n", 0755);
	write_into(root, "usr/bin/tmp-not",
	           "#!/bin/sh\ncp a build/tmp/x\necho \"then copy it: cp a /tmp/x > /tmp/log\"\n", 0755);
	/* a here-document written to a file is text; one a shell reads is commands */
	write_into(root, "usr/bin/tmp-heredoc",
	           "#!/bin/sh\ncat > \"$out\" <<-EOF\n\techo S > /tmp/in-template\n\tEOF\n"
	           "echo x > /tmp/after.$$\nsu - nobody <<'END'\necho y > /tmp/run-by-su\nEND\n", 0755);
	/* "<<" in arithmetic or in quotes opens no here-document */
	write_into(root, "usr/bin/tmp-no-heredoc",
	           "#!/bin/sh\nn=$((1 << 3))\necho x > /tmp/after-shift.$$\n"
	           "echo \"usage: cat <<EOF\"\necho y > /tmp/after-quote.$$\n", 0755);
	write_into(root, "usr/bin/tmp-good",
	           "#!/bin/sh\nt=$(mktemp /tmp/good.XXXXXX) && echo x > \"$t\"\nrm -f \"$t\"\n", 0755);
	write_into(root, "usr/bin/tmp-mixed",
	           "#!/bin/sh\nt=$(mktemp)\necho x > /tmp/also-here.$$\nrm -f \"$t\"\n"
	           "echo y > /tmp/tempfile.log\nu=`tempfile`; echo z > /tmp/x.$$\n", 0755);
	write_into(root, "usr/bin/jail.py",
	           "#!/usr/bin/python3\nimport os\n\nos.chroot('/srv/jail')\n", 0755);
	write_into(root, "usr/bin/jail-ok.py",
	           "#!/usr/bin/python3\nimport os\nos.chroot('/srv')\nos.chdir('/')\n", 0755);
	write_into(root, "usr/bin/jail-from.py",
	           "#!/usr/bin/python3\nfrom os import chroot\nchroot('/srv')\n", 0755);
	write_into(root, "usr/bin/jail-alias.py",
	           "#!/usr/bin/python3\nimport sys, os as o\n\no.chroot('/srv')\n", 0755);
	write_into(root, "usr/bin/jail-alias-ok.py",
	           "#!/usr/bin/python3\nfrom os import (chroot as c,\n    fchdir)\nc('/srv')\nfchdir(3)\n", 0755);
	/* "from os" whose "import" is only on a later line (an overread the
	 * fuzzer found): the import search stays on the line, the script still judged */
	write_into(root, "usr/bin/jail-from-split.py",
	           "#!/usr/bin/python3\nfrom os\nimport os\nos.chroot('/srv')\n"
	           "from os (\nimport (chdir)\n", 0755);
	write_into(root, "usr/bin/jail-from-eof.py", "#!/usr/bin/python3\nos.chroot('/x')\nfrom os", 0755);
	write_into(root, "usr/lib/python3/jail_commented.py",
	           "import os\n# os.chroot('/srv')\ns = 'os.chroot(x)'\nt = \"\"\"\nos.chroot(y)\n\"\"\"\n", 0644);
	copy_into(root, fixture("pie-full"), "usr/lib/.hidden/tool", 0755);
	write_into(root, "usr/bin/.sneaky", "#!/bin/sh\necho\n", 0755);
	write_into(root, "usr/share/doc/.IMG_0001", "\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01", 0755);
	write_into(root, "usr/share/.notexec", "data\n", 0644);
	scan = scan_root(root, "script-sh-syntax,script-sh-tmp,script-py-chroot-chdir,file-hidden-exec");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return scan_and_root_done(&scan, &root);
}

static void test_sh_syntax(void **state)
{
	(void)state;
	must("/usr/bin/good-sh", "script-sh-syntax", DS_SEV_PASS);
	const struct ds_finding *d = must("/usr/bin/bad-sh", "script-sh-syntax", DS_SEV_WARNING);
	assert_non_null(strstr(d->message, "sh -n: "));
	assert_non_null(strstr(detail_str(d, "error"), "3:"));  /* the line number */
	must("/usr/bin/good-bash", "script-sh-syntax", DS_SEV_PASS);
	d = must("/usr/bin/bad-bash", "script-sh-syntax", DS_SEV_WARNING);
	assert_non_null(strstr(d->message, "bash -n: "));
	/* a .sh file without a shebang is checked with sh */
	must("/usr/lib/x/helper.sh", "script-sh-syntax", DS_SEV_WARNING);
	/* ... unless its content is bash's */
	d = must("/usr/share/x/completion.sh", "script-sh-syntax", DS_SEV_PASS);
	assert_non_null(strstr(d->message, "bash -n"));
	/* a launcher is parsed up to its unconditional exec */
	d = must("/usr/bin/launcher", "script-sh-syntax", DS_SEV_PASS);
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "parsed_bytes")), 54);
	must("/usr/bin/launcher-cond", "script-sh-syntax", DS_SEV_WARNING);
	must("/usr/bin/launcher-redir", "script-sh-syntax", DS_SEV_WARNING);
	d = must("/usr/share/doc/x/bench.sh", "script-sh-syntax", DS_SEV_PASS);
	assert_string_equal(d->message, "sh -n: no syntax error");
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "parsed_bytes")), 61);
	assert_non_null(strstr(json_object_get_string(json_object_object_get(d->details, "reason")),
	                       "a launcher: its top-level exec hands the file to another interpreter"));
	must("/usr/share/doc/x/indented.sh", "script-sh-syntax", DS_SEV_WARNING);
	d = must("/usr/bin/launcher-exit", "script-sh-syntax", DS_SEV_PASS);
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "parsed_bytes")), 127);
	assert_non_null(strstr(json_object_get_string(json_object_object_get(d->details, "reason")),
	                       "the shell stops at its top-level exit"));
	must("/usr/bin/exit-in-if", "script-sh-syntax", DS_SEV_WARNING);
	must("/usr/bin/exit-in-heredoc", "script-sh-syntax", DS_SEV_WARNING);
	must("/usr/bin/exit-or", "script-sh-syntax", DS_SEV_WARNING);
	d = must("/usr/bin/launcher-eval", "script-sh-syntax", DS_SEV_PASS);
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "parsed_bytes")), 71);
	d = must("/usr/bin/launcher-colon", "script-sh-syntax", DS_SEV_PASS);
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "parsed_bytes")), 32);
	must("/usr/bin/eval-echo", "script-sh-syntax", DS_SEV_WARNING);
	must("/usr/bin/eval-in-if", "script-sh-syntax", DS_SEV_WARNING);
	d = must("/usr/bin/uses-extglob", "script-sh-syntax", DS_SEV_PASS);
	assert_int_equal(detail_bool(d, "extglob"), 1);
}

static void test_missing_interpreter_once(void **state)
{
	(void)state;
	if (access("/bin/posh", X_OK) == 0 || access("/usr/bin/posh", X_OK) == 0)
		skip();   /* posh is installed here */
	assert_null(record_of(scan, "/usr/bin/needs-posh", "script-sh-syntax"));
	const struct ds_finding *d = must("/", "script-sh-syntax", DS_SEV_INFO);
	assert_string_equal(detail_str(d, "interpreter"), "posh");
	assert_string_equal(d->message, "posh is not installed on the scanning machine: 2 posh "
	                    "scripts not checked: /usr/bin/needs-posh, /usr/bin/needs-posh2");
	assert_string_equal(json_object_to_json_string(json_object_object_get(d->details, "scripts")),
	                    "[ \"\\/usr\\/bin\\/needs-posh\", \"\\/usr\\/bin\\/needs-posh2\" ]");
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "not_checked")), 2);
}

/* A parser that exits without reading a script larger than a pipe's
 * buffer (dash -n stops at the first error) leaves the scan alive: when
 * scripts went down a pipe, the write's SIGPIPE killed it, a scan of one
 * script ended by signal 13; they now go in a memory file, kept as a
 * regression test. */
static void test_sh_stops_reading(void **state)
{
	(void)state;
	char *r = make_root(), *bin = make_root();
	write_into(bin, "sh", "#!/bin/sh\necho 'stopped at line 2' >&2\nexit 2\n", 0755);
	size_t n = 1u << 20;
	char *big = ds_xmalloc(n + 1);
	memcpy(big, "#!/bin/sh\nif then\n", 18);
	memset(big + 18, '#', n - 18);
	big[n] = '\0';
	write_into(r, "usr/bin/big", big, 0755);
	const char *const dirs[] = { bin, NULL };
	const char *const *saved_dirs = ds_sh_dirs;
	ds_sh_dirs = dirs;
	struct ds_scan *s = scan_root(r, "script-sh-syntax");
	ds_sh_dirs = saved_dirs;
	const struct ds_finding *d = must_record(s, "/usr/bin/big", "script-sh-syntax", DS_SEV_WARNING);
	assert_string_equal(d->message, "sh -n: stopped at line 2");
	scan_done(s);
	rm_rf(r), rm_rf(bin);
	free(r), free(bin), free(big);
}

/* Scripts busybox runs: "#!/bin/busybox sh", and sh/ash #! paths the root
 * links to its busybox (a relative and an absolute symlink, and env's
 * lookup), not a bash script beside them; 25 more "#!/bin/busybox sh"
 * scripts for the bounded list. */
static char *busybox_root(void)
{
	char *r = make_root();
	write_into(r, "bin/busybox", "not run\n", 0755);
	char *sh = ds_xasprintf("%s/bin/sh", r), *ash = ds_xasprintf("%s/bin/ash", r);
	assert_int_equal(symlink("busybox", sh), 0);
	assert_int_equal(symlink("/bin/busybox", ash), 0);
	free(sh), free(ash);
	write_into(r, "usr/bin/bb-explicit", "#!/bin/busybox sh\nif then\n", 0755);
	write_into(r, "usr/bin/bb-sh", "#!/bin/sh\nfunction f { echo; }\n", 0755);
	write_into(r, "usr/bin/bb-ash", "#!/bin/ash\necho\n", 0755);
	write_into(r, "usr/bin/bb-env", "#!/usr/bin/env sh\necho\n", 0755);
	write_into(r, "usr/bin/not-bb", "#!/bin/bash\necho\n", 0755);
	for (int i = 0; i < 25; i++) {
		char rel[32];
		snprintf(rel, sizeof rel, "usr/lib/bb/s%02d", i);
		write_into(r, rel, "#!/bin/busybox sh\necho\n", 0755);
	}
	return r;
}

/* They are parsed by "busybox sh -n" with the other parsers' clean
 * environment and no core dumps: the fake busybox says its arguments,
 * core limit and environment, and fails. */
static void test_busybox_runs(void **state)
{
	(void)state;
	char *r = busybox_root(), *bin = make_root();
	write_into(bin, "busybox", "#!/bin/sh\necho \"args=[$*] core=$(ulimit -c) path=$PATH "
	           "lc=$LC_ALL home=${HOME-unset}\" >&2\nexit 2\n", 0755);
	const char *const dirs[] = { bin, NULL };
	const char *const *saved_dirs = ds_sh_dirs;
	ds_sh_dirs = dirs;
	struct ds_scan *s = scan_root(r, "script-sh-syntax");
	ds_sh_dirs = saved_dirs;
	char *fake = ds_xasprintf("%s/busybox", bin);
	const char *const ran[] = { "/usr/bin/bb-explicit", "/usr/bin/bb-sh", "/usr/bin/bb-ash",
	                            "/usr/bin/bb-env", "/usr/lib/bb/s07" };
	for (size_t i = 0; i < sizeof ran / sizeof ran[0]; i++) {
		const struct ds_finding *d = must_record(s, ran[i], "script-sh-syntax", DS_SEV_WARNING);
		assert_string_equal(d->message, "busybox sh -n: args=[sh -n] core=0 path=/usr/bin:/bin "
		                    "lc=C home=unset");
		assert_string_equal(detail_str(d, "interpreter"), fake);
	}
	assert_null(record_of(s, "/usr/bin/not-bb", "script-sh-syntax"));
	const struct ds_finding *d = must_record(s, "/", "script-sh-syntax", DS_SEV_INFO);
	assert_string_equal(d->message, "bash is not installed on the scanning machine: 1 bash "
	                    "script not checked: /usr/bin/not-bb");
	/* 29 busybox scripts and the missing bash: nothing else */
	assert_int_equal(count_findings(s, "script-sh-syntax"), 30);
	scan_done(s);
	rm_rf(r), rm_rf(bin);
	free(r), free(bin), free(fake);
}

/* Without busybox here, one finding names the scripts it left unchecked:
 * the first 20 in path order, and how many. */
static void test_busybox_missing(void **state)
{
	(void)state;
	char *r = busybox_root(), *bin = make_root();
	const char *const dirs[] = { bin, NULL };
	const char *const *saved_dirs = ds_sh_dirs;
	ds_sh_dirs = dirs;
	struct ds_scan *s = scan_root_jobs(r, "script-sh-syntax", 4);
	ds_sh_dirs = saved_dirs;
	const struct ds_finding *bb = NULL;
	for (size_t i = 0; i < s->nfindings; i++)
		if (!strcmp(s->findings[i]->path, "/") &&
		    !strcmp(detail_str(s->findings[i], "interpreter"), "busybox"))
			bb = s->findings[i];
	assert_non_null(bb);
	assert_int_equal(bb->severity, DS_SEV_INFO);
	assert_string_equal(bb->message, "busybox is not installed on the scanning machine: 29 "
	                    "busybox scripts not checked: /usr/bin/bb-ash, /usr/bin/bb-env, "
	                    "/usr/bin/bb-explicit and 26 more");
	json_object *list = json_object_object_get(bb->details, "scripts");
	assert_int_equal(json_object_array_length(list), 20);
	const char *want[] = { "/usr/bin/bb-ash", "/usr/bin/bb-env", "/usr/bin/bb-explicit",
	                       "/usr/bin/bb-sh", "/usr/lib/bb/s00" };
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(json_object_get_string(json_object_array_get_idx(list, i)), want[i]);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(list, 19)),
	                    "/usr/lib/bb/s15");
	assert_int_equal(json_object_get_int(json_object_object_get(bb->details, "not_checked")), 29);
	/* and bash's, for the bash script */
	assert_int_equal(count_findings(s, "script-sh-syntax"), 2);
	scan_done(s);
	rm_rf(r), rm_rf(bin);
	free(r), free(bin);
}

static void test_sh_tmp(void **state)
{
	(void)state;
	const struct ds_finding *d = must("/usr/bin/tmp-bad", "script-sh-tmp", DS_SEV_WARNING);
	json_object *lines = json_object_object_get(d->details, "lines");
	assert_int_equal(json_object_array_length(lines), 2);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(lines, 0)), 4);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(lines, 1)), 5);
	assert_null(record_of(scan, "/usr/bin/tmp-good", "script-sh-tmp"));
	/* a mktemp on another line excuses no fixed name (condor's
	 * kubernetes_submit.sh: mktemp, then cp to /tmp/k8s_sub.$$); a line
	 * only naming a file "tempfile" runs no tempfile; `tempfile` does */
	d = must("/usr/bin/tmp-mixed", "script-sh-tmp", DS_SEV_WARNING);
	lines = json_object_object_get(d->details, "lines");
	assert_int_equal(json_object_array_length(lines), 2);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(lines, 0)), 3);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(lines, 1)), 5);
	/* sort -o, dd of=, tar -cf write; tar -xf reads */
	d = must("/usr/bin/tmp-opts", "script-sh-tmp", DS_SEV_WARNING);
	lines = json_object_object_get(d->details, "lines");
	assert_int_equal(json_object_array_length(lines), 3);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(lines, 2)), 4);
	/* build/tmp/x is not under /tmp; quoted prose is not a command */
	assert_null(record_of(scan, "/usr/bin/tmp-not", "script-sh-tmp"));
	d = must("/usr/bin/tmp-heredoc", "script-sh-tmp", DS_SEV_WARNING);
	lines = json_object_object_get(d->details, "lines");
	assert_int_equal(json_object_array_length(lines), 2);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(lines, 0)), 5);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(lines, 1)), 7);
	d = must("/usr/bin/tmp-no-heredoc", "script-sh-tmp", DS_SEV_WARNING);
	lines = json_object_object_get(d->details, "lines");
	assert_int_equal(json_object_array_length(lines), 2);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(lines, 0)), 3);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(lines, 1)), 5);
	assert_int_equal(count_findings(scan, "script-sh-tmp"), 5);
}

static void test_py_chroot(void **state)
{
	(void)state;
	const struct ds_finding *d = must("/usr/bin/jail.py", "script-py-chroot-chdir", DS_SEV_ERROR);
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "line")), 4);
	must("/usr/bin/jail-ok.py", "script-py-chroot-chdir", DS_SEV_PASS);
	/* through the names the imports give */
	d = must("/usr/bin/jail-from.py", "script-py-chroot-chdir", DS_SEV_ERROR);
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "line")), 3);
	must("/usr/bin/jail-alias.py", "script-py-chroot-chdir", DS_SEV_ERROR);
	must("/usr/bin/jail-alias-ok.py", "script-py-chroot-chdir", DS_SEV_PASS);
	assert_null(record_of(scan, "/usr/lib/python3/jail_commented.py", "script-py-chroot-chdir"));
	d = must("/usr/bin/jail-from-split.py", "script-py-chroot-chdir", DS_SEV_ERROR);
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "line")), 4);
	must("/usr/bin/jail-from-eof.py", "script-py-chroot-chdir", DS_SEV_ERROR);
}

static void test_hidden_exec(void **state)
{
	(void)state;
	/* one finding per hidden directory tree, with the kinds counted */
	write_into(root, "usr/lib/.hidden/sub/run", "#!/bin/sh\necho\n", 0755);
	scan_done(scan);
	scan = scan_root(root, "file-hidden-exec");
	const struct ds_finding *d = must("/usr/lib/.hidden", "file-hidden-exec", DS_SEV_WARNING);
	assert_non_null(strstr(d->message, "hidden directory holding 2 executable files (ELF 64-bit LSB"));
	assert_non_null(strstr(d->message, "POSIX shell script: 1)"));
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "files")), 2);
	assert_int_equal(detail_bool(d, "hidden_name"), 0);
	d = must("/usr/bin/.sneaky", "file-hidden-exec", DS_SEV_WARNING);
	assert_int_equal(detail_bool(d, "hidden_name"), 1);
	d = must("/usr/share/doc/.IMG_0001", "file-hidden-exec", DS_SEV_WARNING);
	assert_non_null(strstr(detail_str(d, "type"), "JPEG"));
	assert_null(record_of(scan, "/usr/share/.notexec", "file-hidden-exec"));
	assert_int_equal(count_findings(scan, "file-hidden-exec"), 3);
}

/* A parser that never finishes (and leaves a child behind) is killed with
 * its whole session when the time is up, and the script is reported. */
static void test_sh_timeout(void **state)
{
	(void)state;
	char *r = make_root(), *bin = make_root();
	char *pidfile = ds_xasprintf("%s/child.pid", bin);
	char *fake = ds_xasprintf("#!/bin/sh\nsleep 60 &\necho $! >%s\nwait\n", pidfile);
	write_into(bin, "sh", fake, 0755);
	write_into(r, "usr/bin/slow", "#!/bin/sh\necho fine\n", 0755);
	const char *const dirs[] = { bin, NULL };
	const char *const *saved_dirs = ds_sh_dirs;
	int saved_ms = ds_sh_timeout_ms;
	ds_sh_dirs = dirs;
	ds_sh_timeout_ms = 300;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct ds_scan *s = scan_root(r, "script-sh-syntax");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ds_sh_dirs = saved_dirs;
	ds_sh_timeout_ms = saved_ms;
	assert_true(t1.tv_sec - t0.tv_sec < 5);
	const struct ds_finding *d = must_record(s, "/usr/bin/slow", "script-sh-syntax", DS_SEV_WARNING);
	assert_int_equal(detail_bool(d, "timeout"), 1);
	assert_non_null(strstr(d->message, "did not finish"));
	/* the parser's own child went with it (gone, or a zombie init reaps) */
	FILE *fp = fopen(pidfile, "r");
	assert_non_null(fp);
	int pid = 0;
	assert_int_equal(fscanf(fp, "%d", &pid), 1);
	fclose(fp);
	char stat[64], line[256] = "";
	snprintf(stat, sizeof stat, "/proc/%d/stat", pid);
	for (int i = 0; i < 50; i++) {
		fp = fopen(stat, "r");
		if (!fp || !fgets(line, sizeof line, fp) || strstr(line, ") Z ")) {
			line[0] = '\0';
			if (fp)
				fclose(fp);
			break;
		}
		fclose(fp);
		usleep(20000);
	}
	assert_string_equal(line, "");
	scan_done(s);
	rm_rf(r), rm_rf(bin);
	free(r), free(bin), free(pidfile), free(fake);
}

/* An interpreter a signal kills is reported as a crash, not a syntax
 * error, and it runs without core dumps: the fake interpreter written here
 * crashes itself (SIGSEGV) only when its core limit is 0, and says its
 * limit otherwise.  Our own limit is raised first, so that the child's 0
 * is distsec's doing. */
static void test_sh_crash(void **state)
{
	(void)state;
	struct rlimit core, saved;
	getrlimit(RLIMIT_CORE, &saved);
	core.rlim_max = saved.rlim_max == 0 ? RLIM_INFINITY : saved.rlim_max;
	core.rlim_cur = core.rlim_max;
	bool raised = setrlimit(RLIMIT_CORE, &core) == 0 && core.rlim_cur != 0;
	char *r = make_root(), *bin = make_root();
	write_into(bin, "sh", "#!/bin/sh\n[ \"$(ulimit -c)\" = 0 ] || { echo \"core limit $(ulimit -c)\" >&2; exit 2; }\n"
	           "cat >/dev/null\nkill -SEGV $$\n", 0755);
	write_into(r, "usr/bin/crasher", "#!/bin/sh\necho fine\n", 0755);
	const char *const dirs[] = { bin, NULL };
	const char *const *saved_dirs = ds_sh_dirs;
	ds_sh_dirs = dirs;
	struct ds_scan *s = scan_root(r, "script-sh-syntax");
	ds_sh_dirs = saved_dirs;
	setrlimit(RLIMIT_CORE, &saved);
	if (!raised)
		print_message("note: RLIMIT_CORE could not be raised here; the child's 0 is not proven ours\n");
	const struct ds_finding *d = must_record(s, "/usr/bin/crasher", "script-sh-syntax", DS_SEV_WARNING);
	assert_string_equal(d->message, "sh -n: the interpreter crashed (signal 11)");
	assert_int_equal(json_object_get_int(json_object_object_get(d->details, "signal")), 11);
	assert_null(json_object_object_get(d->details, "error"));
	scan_done(s);
	rm_rf(r), rm_rf(bin);
	free(r), free(bin);
}

/* A script over DS_SCRIPT_MAX is not read, and says so (even without -v). */
static void test_oversized_script(void **state)
{
	(void)state;
	char *r = make_root();
	size_t n = DS_SCRIPT_MAX + 2;
	char *text = ds_xmalloc(n + 1);
	memset(text, '#', n);
	memcpy(text, "#!/bin/sh\n", 10);
	text[n] = '\0';
	write_into(r, "usr/bin/huge", text, 0755);
	free(text);
	struct ds_scan *s = scan_root(r, "script-sh-syntax,script-sh-tmp,scan-unreadable");
	const struct ds_finding *d = must_record(s, "/usr/bin/huge", "scan-unreadable", DS_SEV_INFO);
	assert_non_null(strstr(detail_str(d, "reason"), "over the 8 MiB a check reads"));
	assert_int_equal(count_findings(s, "scan-unreadable"), 1);
	assert_null(record_of(s, "/usr/bin/huge", "script-sh-syntax"));
	scan_done(s);
	rm_rf(r);
	free(r);
}

int main(void)
{
	elf_version(EV_CURRENT);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sh_syntax),
		cmocka_unit_test(test_oversized_script),
		cmocka_unit_test(test_sh_timeout),
		cmocka_unit_test(test_sh_crash),
		cmocka_unit_test(test_missing_interpreter_once),
		cmocka_unit_test(test_sh_stops_reading),
		cmocka_unit_test(test_busybox_runs),
		cmocka_unit_test(test_busybox_missing),
		cmocka_unit_test(test_sh_tmp),
		cmocka_unit_test(test_py_chroot),
		cmocka_unit_test(test_hidden_exec),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
