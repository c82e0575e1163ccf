# Shared by the end-to-end tests: a temporary root removed on exit, and
# helpers to place fixtures in it.  Expects FIXTURES, DISTSEC, SRCDIR.
set -eu
# (E2E_TMPDIR: where, /tmp unless given; signals-ignored.sh checks a
# test's trees are gone)
root=$(mktemp -d "${E2E_TMPDIR:-/tmp}/distsec-e2e-XXXXXX")
work=$(mktemp -d "${E2E_TMPDIR:-/tmp}/distsec-e2e-out-XXXXXX")
# cleanup: the temporary trees gone (a test with its own EXIT trap calls it)
cleanup() {
	chmod -R u+rwx "$root" 2>/dev/null || true
	rm -rf "$root" "$work"
}
trap cleanup EXIT
# a test ended by a signal (meson's timeout, ^C, a closed terminal) removes
# them too: sh runs the EXIT trap on exit, not on a signal's default action
# (a signal ignored when the test started stays ignored: sh sets no trap)
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# $default_signals CMD...: CMD with HUP, INT, QUIT and TERM at their
# default action, whatever the test was started with (nohup or a CI
# runner's `trap '' HUP`, a background job's INT and QUIT): distsec keeps
# an ignored signal ignored, so a test that sends it one starts it so.  A
# command prefix, not a function: it goes right before distsec, after any
# wrapper (strace ignores INT and QUIT in what it starts from a script)
default_signals="env --default-signal=HUP,INT,QUIT,TERM"

# place FIXTURE PATH-IN-ROOT [MODE]
place() {
	mkdir -p "$root/$(dirname "$2")"
	cp "$FIXTURES/$1" "$root/$2"
	chmod "${3:-0755}" "$root/$2"
}

# distsec ARGS...: the program under test, through $DISTSEC_WRAPPER when
# set (meson test --setup valgrind: valgrind --error-exitcode=99 ...)
distsec() {
	${DISTSEC_WRAPPER:-} "$DISTSEC" "$@"
}

# bulk_runs: true where a test's runs on bulk inputs (a GiB member, a
# report of 10^5 records, 300,001 waivers) are to be made: not under a
# $DISTSEC_WRAPPER (memcheck would take minutes of CPU over the bulk and
# check nothing a small input of the same kind does not).  A test runs the
# small input of each kind through the wrapper; ci/test's ASan stage runs
# the bulk, unwrapped, so the valgrind stage leaves it out (and says so)
# rather than run the same unwrapped commands a second time
bulk_runs() {
	[ -z "${DISTSEC_WRAPPER:-}" ] && return
	echo "left out under $DISTSEC_WRAPPER: $1 (a bulk input: the unwrapped stages run it)"
	return 1
}

# run_distsec ARGS...: sets rc, output in $work/out, stderr in $work/err
run_distsec() {
	rc=0
	distsec "$@" >"$work/out" 2>"$work/err" || rc=$?
	# valgrind's notes about itself ("--PID-- WARNING: unhandled syscall
	# 437", openat2) are not distsec's stderr; its error reports (==PID==) stay
	[ -z "${DISTSEC_WRAPPER:-}" ] || sed -i '/^--[0-9]*-- /d' "$work/err"
}

# fixture_file_hash FILE: fx_h, the sha256 of FILE and the .h files beside
# it, worked out once per test (kept under $work, as fixtures are looked up
# from parallel subshells: read back with the shell's own read)
fixture_file_hash() {
	case $1 in /*) fx_m=$work/fixture-hashes$1 ;; *) fx_m=$work/fixture-hashes$PWD/$1 ;; esac
	if [ ! -s "$fx_m" ]; then
		mkdir -p "${fx_m%/*}"
		fx_t=$(mktemp "$fx_m.XXXXXX")
		cat "$1" "${1%/*}"/*.h 2>/dev/null | sha256sum >"$fx_t" || :
		mv -f "$fx_t" "$fx_m"
	fi
	read -r fx_h _ <"$fx_m"
}

# cached OUT CMD...: CMD, which compiles a fixture into OUT; with
# $DISTSEC_FIXTURE_CACHE set (ci/test sets it for all its stages), OUT is
# copied from there when the same command was run before on the same
# inputs (fixture_key).  A failed command stores nothing.
cached() {
	fixture_cached file "$@"
}

# cached_tree DIR CMD...: CMD, which fills the directory DIR with a set of
# fixtures, or DIR's contents unpacked from the cache as cached does for one
# file: one lookup for a whole set (the disassembly tests' ten targets of
# some 220 fixtures each)
cached_tree() {
	fixture_cached tree "$@"
}

# fixture_cached file|tree OUT CMD...: cached and cached_tree, OUT a file
# copied or a directory kept as a tar
fixture_cached() {
	fx_kind=$1 fx_out=$2
	shift 2
	if [ -z "${DISTSEC_FIXTURE_CACHE:-}" ]; then
		"$@"
		return
	fi
	fixture_key "$@"
	fx_c=$DISTSEC_FIXTURE_CACHE/$fx_key
	[ "$fx_kind" = file ] || fx_c=$fx_c.tar
	if [ -f "$fx_c" ]; then
		case $fx_kind in
		file) cp -p "$fx_c" "$fx_out" ;;
		tree) tar -xpf "$fx_c" -C "$fx_out" ;;
		esac
		return
	fi
	"$@" || return
	mkdir -p "$DISTSEC_FIXTURE_CACHE"
	# written aside (a file's mode kept), then renamed: tests of two stages
	# may share the cache
	fx_t=$(mktemp "$fx_c.XXXXXX") || return
	case $fx_kind in
	file) cp -p "$fx_out" "$fx_t" ;;
	tree) tar -cf "$fx_t" -C "$fx_out" . ;;
	esac && mv -f "$fx_t" "$fx_c"
}

# fixture_key CMD...: fx_key, the cache key of CMD run for $fx_out: the
# command ($fx_out written @OUT@), the contents of every argument naming a
# file (and of the .h files beside it) or a directory (every file in it), the
# calling test script or the file it names in $fixture_key_script (its build
# recipes) and the installed packages' versions (the compilers and cross
# libcs)
fixture_key() {
	if [ -z "${fixture_env_key:-}" ]; then
		fixture_env_key=$({
			cat "${fixture_key_script:-$0}"
			dpkg-query -W 2>/dev/null || :
			for fx_cc in cc gcc clang "${CLANG:-clang}"; do
				command -v "$fx_cc" && "$fx_cc" --version 2>&1 || :
			done
		} | sha256sum | cut -c1-64)
	fi
	# built in the shell, one sha256sum per fixture (some tests look up
	# dozens)
	fx_parts=$fixture_env_key
	for fx_a in "$@"; do
		if [ "$fx_a" = "$fx_out" ]; then
			fx_a=@OUT@
		elif [ -f "$fx_a" ]; then
			# a file by its name and contents, not its directory: two
			# checkouts of the tree share a cache
			fixture_file_hash "$fx_a"
			fx_a="${fx_a##*/} $fx_h"
		elif [ -d "$fx_a" ]; then
			fx_h=$(cd "$fx_a" && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum)
			fx_a="${fx_a##*/}/ ${fx_h%% *}"
		fi
		fx_parts="$fx_parts
$fx_a"
	done
	fx_key=$(printf '%s\n' "$fx_parts" | sha256sum)
	fx_key=${fx_key%% *}
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

expect_rc() {
	[ "$rc" = "$1" ] || { cat "$work/err" >&2; fail "exit status $rc, expected $1"; }
}

expect_line() {
	grep -qF -- "$1" "$work/out" || { cat "$work/out" >&2; fail "missing line: $1"; }
}

# mkdeb_files NAME ARCH FILE=PATH[=MODE]...: $work/NAME.deb of version
# 1.0-1 holding each $work/FILE at PATH (mode 0755 unless given)
mkdeb_files() {
	n=$1 a=$2
	shift 2
	d="$work/pkg-$n"
	mkdir -p "$d/DEBIAN"
	for fp in "$@"; do
		f=${fp%%=*} rest=${fp#*=}
		dest=${rest%%=*} mode=0755
		[ "$dest" = "$rest" ] || mode=${rest#*=}
		mkdir -p "$d/$(dirname "$dest")"
		cp "$work/$f" "$d/$dest"
		chmod "$mode" "$d/$dest"
	done
	printf 'Package: %s\nVersion: 1.0-1\nArchitecture: %s\nMaintainer: Fix Er <fix@example.org>\nDescription: fixture\n' \
		"$n" "$a" >"$d/DEBIAN/control"
	dpkg-deb --root-owner-group -b "$d" "$work/$n.deb" >/dev/null
}

# measured DESC CMD...: runs CMD under timeout, through $DISTSEC_WRAPPER
# when set, else under GNU time when there is one: prints the peak RSS and
# the CPU seconds (user+sys) and the wall-clock seconds, fails over
# 256 MiB of peak RSS (rss_limit_kb when set), sets cpu_ms
# (empty when not measured: under a wrapper, or without /usr/bin/time).
# Sets desc and rc; output in $work/out, stderr in $work/err.
measured() {
	desc=$1
	shift
	rc=0
	cpu_ms=
	if [ -x /usr/bin/time ] && [ -z "${DISTSEC_WRAPPER:-}" ]; then
		timeout 60 /usr/bin/time -f '%M %U %S %e' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || rc=$?
		read -r kb user sys wall <<EOF
$(tail -n 1 "$work/time")
EOF
		echo "$desc: peak RSS ${kb} KB, CPU ${user}+${sys} s, wall ${wall} s"
		[ "$kb" -lt "${rss_limit_kb:-262144}" ] || fail "$desc: peak RSS $kb KB"
		cpu_ms=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')
	else
		timeout 600 ${DISTSEC_WRAPPER:-} "$@" >"$work/out" 2>"$work/err" || rc=$?
	fi
	[ "$rc" != 124 ] || fail "$desc: timed out"
	# GNU time reports a status it did not give as "Command exited with..."
	case $rc in 0|1) ;; *) cat "$work/err" >&2; fail "$desc: exit status $rc" ;; esac
}

# pie_findings FILE: "severity check path" of a JSON report's elf-pie and
# scan-unreadable findings, sorted
pie_findings() {
	python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["check"] in ("elf-pie", "scan-unreadable"):
        print(f["severity"], f["check"], f["path"])' "$1" | LC_ALL=C sort
}

# expect_pie_findings LINE...: $work/out has exactly these ($desc: the case)
expect_pie_findings() {
	pie_findings "$work/out" >"$work/got"
	printf '%s\n' "$@" | LC_ALL=C sort >"$work/want"
	cmp -s "$work/got" "$work/want" || { diff "$work/want" "$work/got" >&2; fail "$desc: findings"; }
}

# fixture_rpm NAME INSTALL FILES: NAME-1.0-1 built by rpmbuild in
# $work/rpmbuild, Source0 the fixture nopie-norelro ("tool"), INSTALL the
# %install script, FILES the %files list; sets rpm_file
fixture_rpm() {
	top="$work/rpmbuild"
	mkdir -p "$top/SOURCES" "$top/SPECS"
	cp "$FIXTURES/nopie-norelro" "$top/SOURCES/tool"
	printf '%s\n' "Name: $1" "Version: 1.0" "Release: 1" "Summary: distsec test fixture" \
		"License: GPL-2.0-or-later" "Source0: tool" "%description" "distsec test fixture" \
		"%install" "$2" "%files" "$3" >"$top/SPECS/$1.spec"
	rpmbuild --define "_topdir $top" --define "__os_install_post %{nil}" \
		--define "debug_package %{nil}" -bb "$top/SPECS/$1.spec" >"$work/rpmbuild.log" 2>&1 ||
		{ cat "$work/rpmbuild.log" >&2; fail "rpmbuild failed"; }
	rpm_file=$(echo "$top"/RPMS/*/"$1"-1.0-1.*.rpm)
}

# error_lines REPORT.json: its profile and backend, then each error as
# "error CHECK RULE PATH" ("waived ..." when a profile or waiver file
# waived it; RULE "-" when none), sorted
error_lines() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("profile", d["profile"], "backend", d["backend"])
for f in d["findings"]:
    if f["severity"] == "error":
        print("waived" if f.get("waived") else "error", f["check"], f.get("rule") or "-", f["path"])' "$1" |
		LC_ALL=C sort
}

# expect_errors REPORT.json WHAT LINE...: error_lines of REPORT are the
# LINEs, in any order; else a failure about WHAT
expect_errors() {
	ee_report=$1 ee_what=$2
	shift 2
	error_lines "$ee_report" >"$work/errors-got"
	printf '%s\n' "$@" | LC_ALL=C sort >"$work/errors-want"
	diff -u "$work/errors-want" "$work/errors-got" || fail "$ee_what"
}
