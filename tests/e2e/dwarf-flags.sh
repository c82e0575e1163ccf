#!/bin/sh
# The build's own flags: programs paired by build-id with their debug
# files, whose compile units' DW_AT_producer (GCC's recorded switches)
# judge elf-canary (details.source dwarf), elf-stack-clash,
# elf-cf-protection and elf-optimization.  A program "weak" with one unit
# built -fno-stack-protector -fno-stack-clash-protection and one "strong",
# found through the root's /usr/lib/debug/.build-id, --debug-dir (laid out
# as /usr/lib/debug, and as an unpacked -debuginfo rpm with its relative
# links), a package built by dpkg-buildpackage with its -dbgsym in the
# .changes (dh_dwz moves the shared producer strings to a .dwz file), and
# a -debuginfo rpm built by rpmbuild; debug files that lie, are cut short
# or are FIFOs are findings, never a crash.
. "$(dirname "$0")/lib.sh"

command -v gcc >/dev/null || { echo "*skipped*: no gcc"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)

# ---- fixtures: a.c (main, buffers) and b.c (a helper with a buffer)
src="$work/src"
mkdir -p "$src"
cat >"$src/a.c" <<'C'
#include <stdio.h>
#include <string.h>
int helper(const char *s);
int main(int argc, char **argv)
{
	char buf[64];
	strncpy(buf, argc > 1 ? argv[1] : "x", sizeof buf - 1);
	buf[sizeof buf - 1] = 0;
	puts(buf);
	return helper(buf);
}
C
cat >"$src/b.c" <<'C'
#include <string.h>
int helper(const char *s)
{
	char t[128];
	strcpy(t, s);
	return (int)strlen(t);
}
C
cat >"$src/Makefile" <<'M'
CFLAGS += -fstack-clash-protection
all: strong weak
strong: a.c b.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ a.c b.c
b-weak.o: b.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -fno-stack-protector -fno-stack-clash-protection -c -o $@ b.c
weak: a.c b-weak.o
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ a.c b-weak.o
install:
	install -D -m 0755 strong $(DESTDIR)/usr/bin/strong
	install -D -m 0755 weak $(DESTDIR)/usr/bin/weak
M
make -s -C "$src" CFLAGS="-g -O2 -fstack-protector-strong -fcf-protection -fstack-clash-protection" \
	LDFLAGS="-Wl,--build-id" >/dev/null

# debug ID: the hex build-id of a program
buildid() { readelf -n "$1" | sed -n 's/.*Build ID: *//p'; }

# the programs installed stripped, their debug files beside them
for p in weak strong; do
	mkdir -p "$root/usr/bin"
	strip -o "$root/usr/bin/$p" "$src/$p"
	objcopy --only-keep-debug "$src/$p" "$work/$p.debug"
done
idw=$(buildid "$src/weak") ids=$(buildid "$src/strong")
[ -n "$idw" ] && [ -n "$ids" ] || fail "the fixtures have no build-id"

# findings FILE: "severity check path source units_without first_units"
# of a JSON report's ELF-flag and scan-unreadable findings, sorted
findings() {
	python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    d = f["details"]
    print(f["severity"], f["check"], f["path"], d.get("source", "-"),
          d.get("units_without", "-"), ",".join(d.get("first_units", [])) or "-",
          d.get("reason", ""))' "$1" | sed 's/ *$//' | LC_ALL=C sort
}
# expect LINE...: $work/out has exactly these ($desc: the case)
expect() {
	findings "$work/out" >"$work/got"
	printf '%s\n' "$@" | LC_ALL=C sort >"$work/want"
	cmp -s "$work/got" "$work/want" || { diff "$work/want" "$work/got" >&2; fail "$desc: findings"; }
}
checks=elf-canary,elf-stack-clash,elf-cf-protection,elf-optimization,scan-unreadable

run_distsec scan --debug-dir "$work" --check elf-canary "$root"
if grep -q "built without libdw" "$work/err"; then
	echo "*skipped*: distsec built without libdw (libdw-dev): no debug file is read"
	exit 77
fi

# ---- 1. no debug file: the import guess, details.source imports, which
#      sees a.c's canary and passes both (-v: passes listed)
desc="no debug file"
run_distsec scan -v --format json --check "$checks" --root "$root"
expect_rc 0
expect "pass elf-canary /usr/bin/strong imports - -" "pass elf-canary /usr/bin/weak imports - -"

# ---- 2. the root's /usr/lib/debug/.build-id
place_debug() { # place_debug DIR: DIR/.build-id/xx/rest.debug for both
	for p in weak strong; do
		id=$(buildid "$src/$p")
		mkdir -p "$1/.build-id/$(echo "$id" | cut -c1-2)"
		cp "$work/$p.debug" "$1/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
	done
}
place_debug "$root/usr/lib/debug"
desc="root's /usr/lib/debug"
run_distsec scan --format json --check "$checks" --root "$root"
expect_rc 0
expect "warning elf-canary /usr/bin/weak dwarf 1 b.c" \
       "warning elf-stack-clash /usr/bin/weak dwarf 1 b.c"
# the passes say where the record came from
run_distsec scan -v --format json --check elf-canary --root "$root" /usr/bin/strong
python3 -c '
import json, sys
f, = json.load(open(sys.argv[1]))["findings"]
assert f["severity"] == "pass" and f["details"]["source"] == "dwarf", f
assert f["details"]["debug_file"] == "/usr/lib/debug/.build-id/%s/%s.debug" % (sys.argv[2][:2], sys.argv[2][2:]), f
assert f["details"]["units"] == 2 and f["details"]["units_without"] == 0, f' "$work/out" "$ids" ||
	fail "strong's elf-canary pass"
# text: the units named
run_distsec scan --color never --check elf-stack-clash --root "$root"
expect_line "warning  elf-stack-clash           /usr/bin/weak  [unknown]  1 of 2 compile units built without -fstack-clash-protection (b.c)"
rm -rf "$root/usr/lib/debug"

# ---- 3. --debug-dir: laid out as /usr/lib/debug; as a root with
#      Fedora's relative links to /usr/lib/debug/usr/bin/NAME.debug
desc="--debug-dir"
place_debug "$work/dbg"
run_distsec scan --format json --check "$checks" --debug-dir "$work/dbg" --root "$root"
expect_rc 0
expect "warning elf-canary /usr/bin/weak dwarf 1 b.c" \
       "warning elf-stack-clash /usr/bin/weak dwarf 1 b.c"
fed="$work/fedora"
mkdir -p "$fed/usr/lib/debug/usr/bin" "$fed/usr/lib/debug/.build-id/$(echo "$idw" | cut -c1-2)"
cp "$work/weak.debug" "$fed/usr/lib/debug/usr/bin/weak-1.0-1.x86_64.debug"
ln -s "../../usr/bin/weak-1.0-1.x86_64.debug" \
	"$fed/usr/lib/debug/.build-id/$(echo "$idw" | cut -c1-2)/$(echo "$idw" | cut -c3-).debug"
desc="--debug-dir, Fedora's layout"
run_distsec scan --format json --check "$checks" --debug-dir "$fed" --root "$root"
expect_rc 0
expect "warning elf-canary /usr/bin/weak dwarf 1 b.c" \
       "warning elf-stack-clash /usr/bin/weak dwarf 1 b.c"
run_distsec scan --check elf-canary --debug-dir "$work/nonexistent" --root "$root"
expect_rc 2
grep -qF "distsec: --debug-dir $work/nonexistent: No such file or directory" "$work/err" ||
	{ cat "$work/err"; fail "no error for a missing --debug-dir"; }

# ---- 4. hostile debug files (in the root): each a finding or a clear
#      error, never a crash; the program is judged from its imports then
hostile() { # hostile DESC: the root's debug file of weak is $dbg
	desc=$1
	run_distsec scan -v --format json --check "$checks" --root "$root" /usr/bin/weak
	expect_rc 0
}
dbgdir="$root/usr/lib/debug/.build-id/$(echo "$idw" | cut -c1-2)"
dbg="$dbgdir/$(echo "$idw" | cut -c3-).debug"
mkdir -p "$dbgdir"
# a producer no compiler writes: counted, not judged
cp "$work/weak.debug" "$dbg"
python3 "$here/elfsection.py" "$dbg" replace .debug_str "b'GNU C'" "b'\\xff\\x01U C'"
hostile "bogus producer"
expect "pass elf-canary /usr/bin/weak imports - -"
# a string section whose last string does not end inside it
cp "$work/weak.debug" "$dbg"
python3 "$here/elfsection.py" "$dbg" size .debug_str 3
hostile "unterminated .debug_str"
findings "$work/out" | grep -q "elf-canary /usr/bin/weak" || fail "$desc: weak not judged at all"
# .debug_info cut short: its first unit's header is not whole
cp "$work/weak.debug" "$dbg"
python3 "$here/elfsection.py" "$dbg" size .debug_info 7
hostile "truncated .debug_info"
grep -q '"debug file not read: /usr/lib/debug/.build-id/.*: malformed .debug_info after 0 compile units' "$work/out" ||
	{ cat "$work/out"; fail "$desc: no reason given"; }
expect "pass elf-canary /usr/bin/weak imports - -" \
       "info scan-unreadable /usr/bin/weak - - - $(sed -n 's/.*"reason": *"\([^"]*\)".*/\1/p' "$work/out" | head -n1)"
# a debug file of another build at the program's build-id
cp "$work/strong.debug" "$dbg"
hostile "another build's debug file"
grep -qF "$dbg" "$work/out" || true
grep -q 'its build-id note names another build' "$work/out" || { cat "$work/out"; fail "$desc: not said"; }
# a FIFO, then a directory, at the build-id: not opened for reading
rm -f "$dbg"
mkfifo "$dbg"
hostile "FIFO"
grep -q '"reason": *"/usr/lib/debug/.build-id/[^"]*: not a regular file' "$work/out" ||
	{ cat "$work/out"; fail "$desc: no reason given"; }
rm -f "$dbg"
mkdir "$dbg"
hostile "directory"
grep -q 'not a regular file' "$work/out" || { cat "$work/out"; fail "$desc: no reason given"; }
rm -rf "$root/usr/lib/debug"
# an absolute symlink is followed inside the root: the root's /etc/passwd
# (a text file), never the host's
mkdir -p "$dbgdir" "$root/etc"
echo "the scanned root's passwd" >"$root/etc/passwd"
ln -s /etc/passwd "$dbg"
hostile "symlink to /etc/passwd"
grep -q '"reason": *"/usr/lib/debug/.build-id/[^"]*: not an ELF file' "$work/out" ||
	{ cat "$work/out"; fail "$desc: not the root's file"; }
rm -rf "$root/etc"
rm -rf "$root/usr/lib/debug"

# ---- 5. a Debian upload: dpkg-buildpackage, its -dbgsym in the .changes
if command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null; then
	pk="$work/deb/dwfix-1.0"
	mkdir -p "$pk/debian/source"
	cp "$src/a.c" "$src/b.c" "$src/Makefile" "$pk/"
	printf 'Source: dwfix\nSection: misc\nPriority: optional\nMaintainer: Fix Er <fix@example.org>\nBuild-Depends: debhelper-compat (= 13)\nStandards-Version: 4.6.2\n\nPackage: dwfix\nArchitecture: any\nDepends: ${shlibs:Depends}, ${misc:Depends}\nDescription: distsec fixture\n two programs, one unit built without a stack protector\n' >"$pk/debian/control"
	printf 'dwfix (1.0-1) unstable; urgency=medium\n\n  * Fixture.\n\n -- Fix Er <fix@example.org>  Sat, 05 Dec 2026 00:00:00 +0000\n' >"$pk/debian/changelog"
	printf '#!/usr/bin/make -f\n%%:\n\tdh $@\n\noverride_dh_auto_install:\n\t$(MAKE) install DESTDIR=$(CURDIR)/debian/dwfix\n' >"$pk/debian/rules"
	chmod +x "$pk/debian/rules"
	echo '3.0 (native)' >"$pk/debian/source/format"
	(cd "$pk" && dpkg-buildpackage -us -uc -b -d) >"$work/dpkg-buildpackage.log" 2>&1 ||
		{ cat "$work/dpkg-buildpackage.log" >&2; fail "dpkg-buildpackage failed"; }
	changes=$(echo "$work"/deb/dwfix_1.0-1_*.changes)
	grep -q 'dwfix-dbgsym_1.0-1_.*\.deb' "$changes" || fail "no -dbgsym package in the .changes"
	desc="a .changes with its -dbgsym"
	run_distsec scan --format json --check "$checks" "$changes"
	expect_rc 0
	expect "warning elf-canary /usr/bin/weak dwarf 1 b.c" \
	       "warning elf-stack-clash /usr/bin/weak dwarf 1 b.c" \
	       "warning elf-cf-protection /usr/bin/weak dwarf 2 a.c,b.c" \
	       "warning elf-cf-protection /usr/bin/strong dwarf 2 a.c,b.c"
	grep -q '"debug_file": *"dwfix-dbgsym:/usr/lib/debug/.build-id/' "$work/out" ||
		fail "$desc: the debug file is not named"
	# the same package files named on the command line
	desc="the package files named"
	run_distsec scan --format json --check "$checks" "$work"/deb/dwfix_1.0-1_*.deb "$work"/deb/dwfix-dbgsym_1.0-1_*.deb
	expect "warning elf-canary /usr/bin/weak dwarf 1 b.c" \
	       "warning elf-stack-clash /usr/bin/weak dwarf 1 b.c" \
	       "warning elf-cf-protection /usr/bin/weak dwarf 2 a.c,b.c" \
	       "warning elf-cf-protection /usr/bin/strong dwarf 2 a.c,b.c"
	# installed: the dwz file found by its absolute name inside the root
	desc="installed with its -dbgsym"
	rm -rf "$root"/*
	dpkg-deb -x "$work"/deb/dwfix_1.0-1_*.deb "$root"
	dpkg-deb -x "$work"/deb/dwfix-dbgsym_1.0-1_*.deb "$root"
	run_distsec scan --format json --check "$checks" --root "$root"
	expect "warning elf-canary /usr/bin/weak dwarf 1 b.c" \
	       "warning elf-stack-clash /usr/bin/weak dwarf 1 b.c" \
	       "warning elf-cf-protection /usr/bin/weak dwarf 2 a.c,b.c" \
	       "warning elf-cf-protection /usr/bin/strong dwarf 2 a.c,b.c"
	# without the dwz file the shared producer is unknown: that unit not judged
	rm -rf "$root/usr/lib/debug/.dwz"
	desc="installed, the dwz file missing"
	run_distsec scan --format json --check "$checks" --root "$root"
	grep -q 'its dwz file /usr/lib/debug/.dwz/.* is not there' "$work/out" || { cat "$work/out"; fail "$desc"; }
	rm -rf "$root"/*
else
	echo "*skipped*: dpkg-buildpackage or debhelper not installed: no .changes case"
fi

# ---- 6. a Fedora-style -debuginfo rpm made by rpmbuild
if command -v rpmbuild >/dev/null && command -v find-debuginfo >/dev/null; then
	top="$work/rpmbuild"
	mkdir -p "$top/SOURCES" "$top/SPECS"
	tar -C "$src" -czf "$top/SOURCES/dwfix-1.0.tar.gz" --transform 's,^\.,dwfix-1.0,' ./a.c ./b.c ./Makefile
	cat >"$top/SPECS/dwfix.spec" <<'S'
Name: dwfix
Version: 1.0
Release: 1
Summary: distsec test fixture
License: GPL-2.0-or-later
Source0: dwfix-1.0.tar.gz
%description
distsec test fixture
%debug_package
%prep
%setup -q
%build
make CFLAGS="-g -O2 -fstack-protector-strong -fcf-protection -fstack-clash-protection" LDFLAGS="-Wl,--build-id"
%install
make install DESTDIR=%{buildroot}
%files
/usr/bin/strong
/usr/bin/weak
S
	rpmbuild --define "_topdir $top" -bb "$top/SPECS/dwfix.spec" >"$work/rpmbuild.log" 2>&1 || true
	dbgrpm=$(ls "$top"/RPMS/*/dwfix-debuginfo-1.0-1.*.rpm 2>/dev/null | head -n1)
	if [ -n "$dbgrpm" ] && rpm -qlp "$dbgrpm" | grep -q '\.debug$'; then
		desc="a -debuginfo rpm"
		run_distsec scan --format json --check "$checks" "$top"/RPMS/*/dwfix-1.0-1.*.rpm "$dbgrpm"
		expect_rc 0
		expect "warning elf-canary /usr/bin/weak dwarf 1 b.c" \
		       "warning elf-stack-clash /usr/bin/weak dwarf 1 b.c"
		grep -q '"debug_file": *"dwfix-debuginfo:/usr/lib/debug/usr/bin/weak-' "$work/out" ||
			fail "$desc: the debug file is not named"
	else
		# find-debuginfo without eu-strip (elfutils) packs no debug file
		echo "*skipped*: rpmbuild made no -debuginfo rpm with debug files here:" \
			"$(grep -m1 -e 'not found' -e error "$work/rpmbuild.log" || tail -n 1 "$work/rpmbuild.log")"
	fi
else
	echo "*skipped*: rpmbuild or find-debuginfo not installed: no -debuginfo case"
fi
echo "dwarf-flags: ok"
