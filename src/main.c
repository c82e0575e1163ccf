/* SPDX-License-Identifier: GPL-2.0-or-later */
/* distsec: the command table (git-style) and the scan command line. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "distsec/output.h"
#include "internal.h"
#include "profile.h"

static const char usage_text[] =
	"usage: distsec scan [OPTIONS] [PATH | PACKAGE-FILE | UPLOAD.changes]...\n"
	"       distsec scan [OPTIONS] --package NAME...\n"
	"       distsec scan [OPTIONS] --all-packages\n"
	"       distsec scan [OPTIONS] IMAGE   an OCI image layout or archive, or a Docker\n"
	"                               archive (oci:DIR, oci-archive:FILE,\n"
	"                               docker-archive:FILE, or by its contents)\n"
	"       distsec diff [OPTIONS] OLD NEW  what got worse between two builds (JSON\n"
	"                               reports, package files, .changes or directories)\n"
	"       distsec merge [OPTIONS] REPORT.json...  one report from the JSON reports\n"
	"                               of scan --shard K/N (--format, -o, --group-by,\n"
	"                               --summary, --fail-on, --report-dir, --history, -v\n"
	"                               as for scan)\n"
	"       distsec checks [--format text|json|markdown|man]  list the checks and what they look for\n"
	"       distsec explain ID      what a check (or a diff regression id) finds, how, the fix\n"
	"       distsec backends [--root DIR]  list backends and which one the root would use\n"
	"       distsec profiles        list the profiles --profile takes\n"
	"       distsec --version | --help\n"
	"\n"
	"Scan options:\n"
	"  --root DIR             scanned root (default /); PATHs, owners and rules are\n"
	"                         resolved inside it; with no PATH the whole root is scanned\n"
	"  --backend NAME         auto (default), none, or a backend 'distsec backends' lists\n"
	"  --package NAME         scan the files an installed package owns (repeatable)\n"
	"  --package-file FILE    scan a package file (.deb, .rpm; a .changes or .buildinfo:\n"
	"                         the package files it lists) on the host (repeatable);\n"
	"                         ./FILE and host files not in --root are package files too\n"
	"  --files-from FILE      read PATHs and package files one a line from FILE (- stdin)\n"
	"  --shard K/N            scan only share K of N (N <= 1000000) of the PATHs and\n"
	"                         package files, by a hash of the file name (distsec merge\n"
	"                         joins the reports)\n"
	"  --max-decompressed SIZE  stop reading a package file's payload (an image's\n"
	"                         layer) past SIZE decompressed bytes (K, M, G, T; default\n"
	"                         64G): an error\n"
	"  --platform OS/ARCH[/VARIANT]  the image of a multi-platform index to scan\n"
	"                         (default: the host's)\n"
	"  --installed-state      also read the root's package database and units when\n"
	"                         only package files are scanned (not read by default)\n"
	"  --all-packages         scan every file of every installed package\n"
	"  --check ID,...         run only these checks; --skip ID,... leaves checks out\n"
	"  --format FMT           text (default), json, sarif, junit, tmt (custom\n"
	"                         results of a tmt test: results.json) or html (one\n"
	"                         page; with --report-dir a site: index.html, a page\n"
	"                         per package or maintainer and per check)\n"
	"  --sarif-category CAT   SARIF runAutomationDetails id (default distsec): one\n"
	"                         per scan of the same commit\n"
	"  -o, --output FILE      write the report to FILE (atomically) instead of stdout\n"
	"  --group-by WHAT        none (default), package or maintainer\n"
	"  --fail-on SEV          exit 1 on findings at or above error (default), warning,\n"
	"                         info, or never\n"
	"  -j, --jobs N           worker threads (default: online CPUs)\n"
	"  --waivers FILE         waive findings: lines 'check-id path-glob [package] # reason'\n"
	"  --baseline OLD.json    mark findings new, unchanged or absent against an older\n"
	"                         JSON report; privileges gained (as distsec diff says)\n"
	"                         are new findings; --fail-on counts new findings only;\n"
	"                         text lists only new ones unless -v\n"
	"  --history OLD.json     html: an earlier JSON report of the same archive, a point\n"
	"                         of the trend chart of errors and warnings per check\n"
	"                         (repeatable, oldest first)\n"
	"  --report-dir DIR       with --group-by: one report per package or maintainer in\n"
	"                         DIR, plus index.json (html: index.html, checks/ID.html)\n"
	"  --rules FILE           STIG rules file, in place of the built-in one\n"
	"  --debug-dir DIR        programs' separate debug files by build-id\n"
	"                         (DIR/.build-id/xx/rest.debug, as /usr/lib/debug): the\n"
	"                         compile options they record judge the stack protector,\n"
	"                         stack-clash and cf-protection flags and -O0 units\n"
	"  --profile NAME|FILE    judge findings by this profile (default: the one the\n"
	"                         package files' or the root's package manager names)\n"
	"  --color WHEN           auto (default: terminal, NO_COLOR unset or empty), always, never\n"
	"  --cross-mounts         descend into other file systems below the root\n"
	"  -q, --quiet            no progress or notes on stderr\n"
	"  -v, --verbose          also print passes\n"
	"  --summary              text: rpm-chksec's per-package table (package NAME.ARCH,\n"
	"                         RELRO, PIE, worst class) instead of the findings\n"
	"\n"
	"Exit status: 0 no finding at or above --fail-on, 1 such findings, 2 usage or\n"
	"fatal error.\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("distsec: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'distsec --help'.\n", stderr);
	return 2;
}

struct render { const struct ds_output *fmt; const struct ds_scan *s; };

static int render(FILE *fp, void *arg)
{
	const struct render *r = arg;
	return r->fmt->render(r->s, fp);
}

static int exit_status(const struct ds_scan *s)
{
	for (size_t i = 0; i < s->nfindings; i++)
		if (ds_finding_gates(s, s->findings[i]))
			return 1;
	return 0;
}

/* no-color.org: only a non-empty value turns colour off. */
static bool nonempty_env(const char *name)
{
	const char *v = getenv(name);
	return v && *v;
}

/* The finished result to its reports (--report-dir, then -o or stdout):
 * 0, 1 when a finding gates, 2 when a report could not be written. */
static int deliver(struct ds_scan *s, const struct ds_options *o)
{
	s->use_color = o->color == 1 ||
	               (o->color < 0 && !o->output && isatty(STDOUT_FILENO) && !nonempty_env("NO_COLOR"));
	const struct ds_output *fmt = ds_output_find(o->format);
	/* the reports first: a tmt results file points at them */
	struct ds_error err = DS_ERROR_INIT;
	int rc = 0;
	if (o->report_dir && ds_write_reports(s, fmt, o->report_dir, &err) != 0) {
		ds_warn("%s", ds_error_msg(&err));
		ds_error_clear(&err);
		rc = 2;
	}
	if (ds_write_output(o->output, render, &(struct render){ fmt, s }, &err)) {
		ds_warn("%s", ds_error_msg(&err));
		ds_error_clear(&err);
		rc = 2;
	} else if (rc == 0) {
		rc = exit_status(s);
	}
	return rc;
}

enum { OPT_ROOT = 256, OPT_BACKEND, OPT_PACKAGE, OPT_ALL, OPT_CHECK, OPT_SKIP,
       OPT_FORMAT, OPT_GROUP, OPT_FAIL, OPT_RULES, OPT_DEBUG_DIR, OPT_COLOR, OPT_CROSS, OPT_SUMMARY, OPT_WAIVERS,
       OPT_REPORT_DIR, OPT_PKGFILE, OPT_FILES_FROM, OPT_INSTALLED, OPT_SARIF_CATEGORY,
       OPT_PROFILE, OPT_BASELINE, OPT_SHARD, OPT_HISTORY, OPT_MAX_DECOMPRESSED,
       OPT_PLATFORM };

static const struct option scan_options[] = {
	{ "root", required_argument, 0, OPT_ROOT },
	{ "backend", required_argument, 0, OPT_BACKEND },
	{ "package", required_argument, 0, OPT_PACKAGE },
	{ "all-packages", no_argument, 0, OPT_ALL },
	{ "package-file", required_argument, 0, OPT_PKGFILE },
	{ "files-from", required_argument, 0, OPT_FILES_FROM },
	{ "installed-state", no_argument, 0, OPT_INSTALLED },
	{ "check", required_argument, 0, OPT_CHECK },
	{ "skip", required_argument, 0, OPT_SKIP },
	{ "format", required_argument, 0, OPT_FORMAT },
	{ "output", required_argument, 0, 'o' },
	{ "group-by", required_argument, 0, OPT_GROUP },
	{ "fail-on", required_argument, 0, OPT_FAIL },
	{ "jobs", required_argument, 0, 'j' },
	{ "rules", required_argument, 0, OPT_RULES },
	{ "debug-dir", required_argument, 0, OPT_DEBUG_DIR },
	{ "profile", required_argument, 0, OPT_PROFILE },
	{ "waivers", required_argument, 0, OPT_WAIVERS },
	{ "baseline", required_argument, 0, OPT_BASELINE },
	{ "history", required_argument, 0, OPT_HISTORY },
	{ "shard", required_argument, 0, OPT_SHARD },
	{ "max-decompressed", required_argument, 0, OPT_MAX_DECOMPRESSED },
	{ "platform", required_argument, 0, OPT_PLATFORM },
	{ "report-dir", required_argument, 0, OPT_REPORT_DIR },
	{ "sarif-category", required_argument, 0, OPT_SARIF_CATEGORY },
	{ "color", required_argument, 0, OPT_COLOR },
	{ "colour", required_argument, 0, OPT_COLOR },
	{ "cross-mounts", no_argument, 0, OPT_CROSS },
	{ "summary", no_argument, 0, OPT_SUMMARY },
	{ "quiet", no_argument, 0, 'q' },
	{ "verbose", no_argument, 0, 'v' },
	{ "help", no_argument, 0, 'h' },
	{ 0, 0, 0, 0 },
};

/* The growable lists of the scan command line (freed by lists_free). */
struct scan_lists {
	const char **pkgs, **pkgfiles, **paths, **history;
	size_t pkgcap, pfcap, npaths, pathcap, histcap;
	char **lines;           /* --files-from's, owned */
	size_t nlines, linecap;
	const char *files_from;
};

static void lists_free(struct scan_lists *l)
{
	for (size_t i = 0; i < l->nlines; i++)
		free(l->lines[i]);
	free(l->lines);
	free(l->pkgs);
	free(l->pkgfiles);
	free(l->paths);
	free(l->history);
}

/* --files-from: one PATH or package file a line (empty lines skipped).
 * A line is a path: longer than a path can be written on a command line
 * (128 KiB) or with a NUL byte, the list is not one; a read error is an
 * error, never the end of the list (which would scan the whole root). */
#define FILES_FROM_LINE_MAX (128u << 10)
static int read_files_from(struct scan_lists *l)
{
	bool in = !strcmp(l->files_from, "-");
	FILE *fp = in ? stdin : fopen(l->files_from, "re");
	if (!fp) {
		ds_warn("--files-from %s: %s", l->files_from, strerror(errno));
		return 2;
	}
	char *line = NULL;
	size_t cap = 0, len, lineno = 0;
	struct ds_error err = DS_ERROR_INIT;
	int r;
	while ((r = ds_read_line(fp, &line, &cap, &len, FILES_FROM_LINE_MAX, &err)) > 0) {
		lineno++;
		if (len)
			ds_push(l->lines, l->nlines, l->linecap, ds_xstrdup(line));
	}
	free(line);
	if (!in)
		fclose(fp);
	if (r < 0 && err.kind != DS_ERR_IO)
		ds_warn("--files-from %s: line %zu %s (a path a line, at most %u KiB): not a list "
		        "of paths", l->files_from, lineno + 1, ds_error_msg(&err), FILES_FROM_LINE_MAX >> 10);
	else if (r < 0)
		ds_warn("--files-from %s: %s", l->files_from, ds_error_msg(&err));
	ds_error_clear(&err);
	return r < 0 ? 2 : 0;
}

static int parse_scan_option(int c, struct ds_options *o, struct scan_lists *l)
{
	switch (c) {
	case OPT_ROOT: o->root = optarg; break;
	case OPT_BACKEND: o->backend = optarg; break;
	case OPT_PACKAGE:
		ds_push(l->pkgs, o->npackages, l->pkgcap, optarg);
		o->packages = l->pkgs;
		break;
	case OPT_PKGFILE:
		ds_push(l->pkgfiles, o->npackage_files, l->pfcap, optarg);
		o->package_files = l->pkgfiles;
		break;
	case OPT_FILES_FROM: l->files_from = optarg; break;
	case OPT_INSTALLED: o->installed_state = true; break;
	case OPT_ALL: o->all_packages = true; break;
	case OPT_CHECK: o->checks = optarg; break;
	case OPT_SKIP: o->skip = optarg; break;
	case OPT_FORMAT:
		if (!ds_output_find(optarg))
			return usage_error("unknown format '%s'", optarg);
		o->format = optarg;
		break;
	case 'o': o->output = optarg; break;
	case OPT_GROUP:
		if (!strcmp(optarg, "none")) o->group_by = DS_GROUP_NONE;
		else if (!strcmp(optarg, "package")) o->group_by = DS_GROUP_PACKAGE;
		else if (!strcmp(optarg, "maintainer")) o->group_by = DS_GROUP_MAINTAINER;
		else return usage_error("--group-by takes none, package or maintainer, not '%s'", optarg);
		break;
	case OPT_FAIL:
		o->fail_on = strcmp(optarg, "never") ? ds_severity_parse(optarg) : -1;
		if ((o->fail_on < DS_SEV_INFO && strcmp(optarg, "never")))
			return usage_error("--fail-on takes error, warning, info or never, not '%s'", optarg);
		break;
	case 'j': {
		char *end;
		long n = strtol(optarg, &end, 10);
		if (*end || n < 1 || n > 1024)
			return usage_error("--jobs takes a number from 1 to 1024, not '%s'", optarg);
		o->jobs = (int)n;
		break;
	}
	case OPT_RULES: o->rules = optarg; break;
	case OPT_DEBUG_DIR: o->debug_dir = optarg; break;
	case OPT_PROFILE: o->profile = optarg; break;
	case OPT_WAIVERS: o->waivers = optarg; break;
	case OPT_BASELINE: o->baseline = optarg; break;
	case OPT_HISTORY:
		ds_push(l->history, o->nhistory, l->histcap, optarg);
		o->history = l->history;
		break;
	case OPT_SHARD: {
		/* digits only, each number in range before it is narrowed: sscanf's
		 * %u took 4294967297 for 1 and a sign for a number */
		char *slash = optarg, *end = optarg;
		unsigned long k = 0, n = 0;
		if (isdigit((unsigned char)optarg[0]))
			k = strtoul(optarg, &slash, 10);
		if (k && *slash == '/' && isdigit((unsigned char)slash[1]))
			n = strtoul(slash + 1, &end, 10);
		if (!n || *end || n > DS_SHARD_MAX || k > n)
			return usage_error("--shard takes K/N, 1 <= K <= N <= %u (shard K of N), not '%s'",
			                   DS_SHARD_MAX, optarg);
		o->shard_k = (unsigned)k;
		o->shard_n = (unsigned)n;
		break;
	}
	case OPT_PLATFORM:
		o->platform = optarg;
		break;
	case OPT_MAX_DECOMPRESSED: {
		/* digits, then at most one of K, M, G, T (binary) */
		char *end;
		unsigned long long n = isdigit((unsigned char)optarg[0]) ? strtoull(optarg, &end, 10) : 0;
		int shift = !n ? -1 : !*end ? 0 : end[1] ? -1
		          : *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : *end == 'T' ? 40 : -1;
		if (shift < 0 || n > (UINT64_MAX >> shift))
			return usage_error("--max-decompressed takes a size in bytes (suffix K, M, G or T), "
			                   "not '%s'", optarg);
		o->max_decompressed = (uint64_t)n << shift;
		break;
	}
	case OPT_REPORT_DIR: o->report_dir = optarg; break;
	case OPT_SARIF_CATEGORY: o->sarif_category = optarg; break;
	case OPT_COLOR:
		if (!strcmp(optarg, "auto")) o->color = -1;
		else if (!strcmp(optarg, "always")) o->color = 1;
		else if (!strcmp(optarg, "never")) o->color = 0;
		else return usage_error("--color takes auto, always or never, not '%s'", optarg);
		break;
	case OPT_CROSS: o->cross_mounts = true; break;
	case OPT_SUMMARY: o->summary = true; break;
	case 'q': o->quiet = true; break;
	case 'v': o->verbose = true; break;
	case 'h': fputs(usage_text, stdout); exit(0);
	default: /* getopt named the option; the way on is the same as for usage_error */
		fputs("Try 'distsec --help'.\n", stderr);
		return 2;
	}
	return 0;
}

/* What scan and merge refuse alike once the options are read. */
static int check_report_options(const struct ds_options *o)
{
	if (o->report_dir && o->group_by == DS_GROUP_NONE)
		return usage_error("--report-dir needs --group-by package or maintainer");
	if (o->nhistory && strcmp(o->format, "html") != 0)
		return usage_error("--history draws a trend chart of --format html only");
	return 0;
}

static int cmd_scan(int argc, char **argv)
{
	struct ds_options o = {
		.root = "/", .backend = "auto", .format = "text", .fail_on = DS_SEV_ERROR,
		.color = -1,
	};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	o.jobs = cpus > 0 ? (int)cpus : 1;
	struct scan_lists lists = { 0 };
	int c, rc = 0;
	optind = 1;
	while (rc == 0 && (c = getopt_long(argc, argv, "o:j:qvh", scan_options, NULL)) != -1)
		rc = parse_scan_option(c, &o, &lists);
	if (rc == 0 && o.all_packages && o.npackages)
		rc = usage_error("--package and --all-packages exclude each other");
	if (rc == 0)
		rc = check_report_options(&o);
	if (rc == 0 && lists.files_from)
		rc = read_files_from(&lists);
	if (rc == 0 && o.shard_n && optind == argc && !lists.nlines && !o.npackage_files)
		rc = usage_error("--shard shares out the PATHs and package files named; name some "
		                 "(or --files-from)");
	if (rc) {
		lists_free(&lists);
		return rc;
	}
	for (int i = optind; i < argc; i++)
		ds_push(lists.paths, lists.npaths, lists.pathcap, argv[i]);
	for (size_t i = 0; i < lists.nlines; i++)
		ds_push(lists.paths, lists.npaths, lists.pathcap, lists.lines[i]);
	o.paths = lists.paths;
	o.npaths = lists.npaths;

	struct ds_error err = DS_ERROR_INIT;
	struct ds_scan *s = ds_scan_new(&o, &err);
	if (!s) {
		ds_warn("%s", ds_error_msg(&err));
		fputs("Try 'distsec --help'.\n", stderr);
		rc = 2;
	} else if (ds_history_load(s, &err) != 0 || ds_scan_run(s, &err) != 0) {
		if (err.msg)   /* else said already, as a warning */
			ds_warn("%s", err.msg);
		rc = 2;
	} else {
		rc = deliver(s, &o);
	}
	ds_error_clear(&err);
	ds_scan_free(s);
	lists_free(&lists);
	return rc;
}

/* distsec merge: the shards' JSON reports as one result (merge.c), through
 * the same outputs, -o and exit status as a scan. */
static int cmd_merge(int argc, char **argv)
{
	/* scan's options that only shape the report */
	static const char *const names[] = { "format", "output", "group-by", "fail-on", "report-dir",
		"sarif-category", "color", "colour", "summary", "quiet", "verbose", "help", "history" };
	enum { N = sizeof names / sizeof names[0] };
	struct option opts[N + 1] = { { 0, 0, 0, 0 } };
	for (size_t i = 0, k = 0; i < N; i++)
		for (const struct option *so = scan_options; so->name; so++)
			if (!strcmp(so->name, names[i]))
				opts[k++] = *so;
	struct ds_options o = { .format = "text", .fail_on = DS_SEV_ERROR, .color = -1 };
	struct scan_lists lists = { 0 };
	int c, rc = 0;
	optind = 1;
	while (rc == 0 && (c = getopt_long(argc, argv, "o:qvh", opts, NULL)) != -1)
		rc = parse_scan_option(c, &o, &lists);
	if (rc == 0)
		rc = check_report_options(&o);
	if (rc == 0 && optind == argc)
		rc = usage_error("merge takes the JSON reports of the shards (scan --shard K/N "
		                 "--format json)");
	if (rc) {
		lists_free(&lists);
		return rc;
	}
	struct ds_error err = DS_ERROR_INIT;
	struct ds_scan *s = ds_merge_reports(&o, (const char *const *)argv + optind,
	                                     (size_t)(argc - optind), &err);
	if (!s) {
		ds_warn("%s", ds_error_msg(&err));
		ds_error_clear(&err);
		lists_free(&lists);
		return 2;
	}
	if (ds_history_load(s, &err) != 0) {
		ds_warn("%s", ds_error_msg(&err));
		ds_error_clear(&err);
		rc = 2;
	} else {
		rc = deliver(s, &o);
	}
	lists_free(&lists);
	ds_scan_free(s);
	return rc;
}

/* getopt_long for a subcommand with only long options: every unknown
 * option or stray argument is an error.  Returns the option code, -1 at
 * the end, or -2 after printing a usage error. */
static int next_option(int argc, char **argv, const struct option *opts, const char *cmd)
{
	int c = getopt_long(argc, argv, "h", opts, NULL);
	if (c == 'h') {
		fputs(usage_text, stdout);
		exit(0);
	}
	if (c == '?') {
		fputs("Try 'distsec --help'.\n", stderr);
		return -2;
	}
	if (c == -1 && optind < argc) {
		fprintf(stderr, "distsec %s: unexpected argument '%s'\nTry 'distsec --help'.\n", cmd,
		        argv[optind]);
		return -2;
	}
	return c;
}

static int cmd_checks(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, 0, 'f' }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
	};
	const char *format = "text";
	int c;
	optind = 1;
	while ((c = next_option(argc, argv, opts, "checks")) != -1) {
		if (c == -2)
			return usage_error("checks takes only --format text|json|markdown|man");
		if (strcmp(optarg, "text") && strcmp(optarg, "json") && strcmp(optarg, "markdown") &&
		    strcmp(optarg, "man"))
			return usage_error("checks --format takes text, json, markdown or man, not '%s'", optarg);
		format = optarg;
	}
	if (!strcmp(format, "markdown") || !strcmp(format, "man")) {
		(!strcmp(format, "man") ? ds_checks_man : ds_checks_markdown)(stdout);
		return 0;
	}
	if (!strcmp(format, "json")) {
		json_object *arr = json_object_new_array();
		for (size_t i = 0; i < ds_nchecks; i++)
			json_object_array_add(arr, ds_check_json(ds_checks[i]));
		puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY |
		                                    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(arr);
		return 0;
	}
	for (size_t i = 0; i < ds_nchecks; i++) {
		const struct ds_check *c = ds_checks[i];
		printf("%-26s %-8s %s%s\n", c->id, ds_severity_name(c->severity), c->summary,
		       c->opt_in ? " (opt-in: --check)" : "");
	}
	return 0;
}

static int cmd_explain(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
	optind = 1;
	if (getopt_long(argc, argv, "h", opts, NULL) == 'h') {
		fputs(usage_text, stdout);
		return 0;
	}
	if (optind != argc - 1)
		return usage_error("explain takes one check id (see 'distsec checks') or a "
		                   "regression id of diff");
	const struct ds_check *c = ds_check_find(argv[optind]);
	char *text = c ? ds_check_help(c, false) : ds_diff_explain(argv[optind]);
	if (!text)
		return usage_error("unknown check '%s' (see 'distsec checks')", argv[optind]);
	fputs(text, stdout);
	free(text);
	return 0;
}

static int cmd_backends(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", required_argument, 0, 'r' }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
	};
	const char *root = "/";
	int c;
	optind = 1;
	while ((c = next_option(argc, argv, opts, "backends")) != -1) {
		if (c == -2)
			return usage_error("backends takes only --root DIR");
		root = optarg;
	}
	const struct ds_backend_slot *slots;
	size_t n = ds_backends_available(&slots);
	printf("available backends:\n");
	for (size_t i = 0; i < n; i++) {
		const struct ds_backend *b = slots[i].b;
		struct ds_probe p = { 0 };
		printf("  %-6s %s (%s)\n", b->name, b->summary, slots[i].where);
		if (b->probe && b->probe(root, &p) == 0)
			printf("         in %s: %s\n", root,
			       p.detail && p.detail[0] ? p.detail : "nothing found");
		free(p.detail);
	}
	const char *const *fails;
	size_t nf = ds_backend_failures(&fails);
	for (size_t i = 0; i < nf; i++)
		printf("  unavailable: %s\n", fails[i]);
	ds_backends_print_missing(stdout);
	char *why = NULL;
	const struct ds_backend *b = ds_backend_select("auto", root, &why, NULL, NULL, NULL);
	/* auto always chooses, backend none at worst */
	printf("root %s would use: %s (%s)\n", root, b ? b->name : "nothing", why ? why : "");
	free(why);
	return 0;
}

static int cmd_profiles(int argc, char **argv)
{
	if (argc > 1)
		return usage_error("profiles: unknown argument '%s'", argv[1]);
	return ds_profiles_list(stdout) == 0 ? 0 : 2;
}

static const struct {
	const char *name;
	int (*fn)(int, char **);
} commands[] = {
	{ "scan", cmd_scan },
	{ "diff", ds_cmd_diff },
	{ "merge", cmd_merge },
	{ "checks", cmd_checks },
	{ "explain", cmd_explain },
	{ "backends", cmd_backends },
	{ "profiles", cmd_profiles },
};

int main(int argc, char **argv)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		ds_warn("libelf: %s", elf_errmsg(-1));
		return 2;
	}
	/* temporary files (the report's, a database copy) go with the run */
	ds_cleanup_install();
	if (argc < 2)
		return usage_error("missing command (scan, diff, merge, checks, explain, backends or profiles)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("distsec %s\n", DS_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	return usage_error("unknown command '%s'", argv[1]);
}
