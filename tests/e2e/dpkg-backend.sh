#!/bin/sh
# The dpkg backend against a real dpkg database made under a temporary root
# with the real dpkg tools: owners, merged-/usr spellings, a diversion,
# a file of two Multi-Arch: same packages, not-owned files, --package,
# --all-packages, --group-by, auto selection; then the live machine.
. "$(dirname "$0")/lib.sh"
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not installed"; exit 77; }
"$DISTSEC" backends | grep -q '^  dpkg ' || { echo "SKIP: built without the dpkg backend"; exit 77; }

force=""
[ "$(id -u)" = 0 ] || force="--force-not-root --force-bad-path"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/usr/bin" "$root/usr/lib"
: >"$root/var/lib/dpkg/status"
: >"$root/var/lib/dpkg/available"
ln -s usr/bin "$root/bin"           # merged /usr
echo 12.0 >"$root/etc_debian_version"
mkdir -p "$root/etc" && mv "$root/etc_debian_version" "$root/etc/debian_version"

# mkdeb NAME ARCH [EXTRA-CONTROL-LINE]: control file for $work/pkg-NAME-ARCH
mkdeb() {
	d="$work/pkg-$1-$2"
	mkdir -p "$d/DEBIAN"
	printf 'Package: %s\nVersion: 1.0-1\nArchitecture: %s\nMaintainer: %s\nSource: fixsrc (1.0)\nDescription: fixture\n%s' \
		"$1" "$2" "${MAINT:-Fix Er <fix@example.org>}" "${3:-}" >"$d/DEBIAN/control"
	[ -z "${3:-}" ] || echo >>"$d/DEBIAN/control"
	dpkg-deb --root-owner-group -b "$d" "$work/$1-$2.deb" >/dev/null
}
pkgfile() { # pkgfile NAME ARCH FIXTURE PATH
	mkdir -p "$(dirname "$work/pkg-$1-$2/$4")"
	cp "$FIXTURES/$3" "$work/pkg-$1-$2/$4"
}
pkgfile fixa amd64 nopie-norelro usr/bin/fixa-tool
pkgfile fixa amd64 pie-partial bin/fixa-old          # listed as /bin/..., lands in /usr/bin
mkdeb fixa amd64
pkgfile fixd amd64 pie-full usr/bin/fixa-tool        # fixd diverts fixa's tool
mkdeb fixd amd64
for a in amd64 i386; do
	pkgfile fixc $a libfix-norelro.so usr/lib/fixc/libfixc.so
	mkdeb fixc $a "Multi-Arch: same"
done

# a hostile Maintainer field, for --report-dir
pkgfile fixevil amd64 nopie-norelro usr/bin/evil
MAINT='../../../tmp/evil/x <a@b>' mkdeb fixevil amd64

dpkg --root="$root" $force --add-architecture i386
dpkg-divert --root="$root" $force --package fixd --rename \
	--divert /usr/bin/fixa-tool.distrib --add /usr/bin/fixa-tool >/dev/null
dpkg --root="$root" $force -i "$work/fixa-amd64.deb" "$work/fixd-amd64.deb" \
	"$work/fixc-amd64.deb" "$work/fixc-i386.deb" "$work/fixevil-amd64.deb" >/dev/null
cp "$FIXTURES/nopie-norelro" "$root/usr/bin/stray"

run_distsec backends --root "$root"
expect_line "would use: dpkg"

run_distsec scan --root "$root" --color never -v
expect_rc 1
expect_line "error    elf-relro                 /usr/bin/fixa-tool.distrib  [fixa:amd64]  no RELRO"
expect_line "pass     elf-relro                 /usr/bin/fixa-tool  [fixd:amd64]  full RELRO"
expect_line "pass     elf-relro                 /usr/bin/fixa-old  [fixa:amd64]  partial RELRO"
expect_line "error    elf-relro                 /usr/bin/stray  [not-owned]  no RELRO"
expect_line "error    elf-relro                 /usr/lib/fixc/libfixc.so  [fixc:amd64,fixc:i386]  no RELRO"
expect_line "backend dpkg"

run_distsec scan --root "$root" --color never -v --package fixa
expect_rc 1
expect_line "/usr/bin/fixa-tool.distrib  [fixa:amd64]"
expect_line "/usr/bin/fixa-old  [fixa:amd64]"
grep -q "stray\|fixd\|fixc" "$work/out" && fail "--package fixa scanned other files"

run_distsec scan --root "$root" --color never -v --all-packages
expect_line "/usr/bin/fixa-tool  [fixd:amd64]"
expect_line "/usr/lib/fixc/libfixc.so  [fixc:amd64,fixc:i386]"
grep -q "stray" "$work/out" && fail "--all-packages scanned a file no package owns"
[ "$(grep -c 'elf-relro .*libfixc.so' "$work/out")" = 1 ] || fail "a file of two packages was scanned twice"
# rpm-chksec's per-package table for a dpkg root too: --summary
# with --all-packages, keyed NAME.ARCH as rpm-chksec spells them
run_distsec scan --root "$root" --color never --summary --all-packages
expect_rc 1
sed -n '1,/^$/p' "$work/out" >"$work/got"
cat >"$work/want" <<'EOF'
PACKAGE                                             RELRO    PIE   CLASS
fixa.amd64                                          no       yes   exec
fixc.amd64                                          no       yes   library
fixd.amd64                                          yes      yes
fixevil.amd64                                       no       yes   exec

EOF
diff -u "$work/want" "$work/got" || fail "--summary --all-packages table"

run_distsec scan --root "$root" --color never --package nosuch
expect_rc 2
grep -q "package 'nosuch': not installed" "$work/err" || fail "no message for an unknown package"

run_distsec scan --root "$root" --color never --group-by package
expect_line "== fixa 1.0-1 amd64 (source fixsrc) - Fix Er <fix@example.org> from local =="
expect_line "== files no package owns =="
run_distsec scan --root "$root" --color never --group-by maintainer
expect_line "== Fix Er <fix@example.org> =="

# one report per maintainer, named safely inside the report directory
mkdir -p "$work/rd/sub"
run_distsec scan --root "$root" --color never --group-by maintainer --report-dir "$work/rd/sub" --format json
expect_rc 1
[ ! -e /tmp/evil ] && [ ! -e "$work/evil" ] && [ ! -e "$work/rd/evil" ] || fail "a report escaped the report directory"
ls "$work/rd/sub" >"$work/names"
grep -qxF '_._.._.._tmp_evil_x__a_b_.json' "$work/names" || { cat "$work/names"; fail "hostile maintainer name not made safe"; }
grep -qx 'Fix_Er__fix_example.org_.json' "$work/names" || fail "no report for Fix Er"
grep -qx 'index.json' "$work/names" || fail "no index.json"
python3 "$SRCDIR/e2e/validate.py" json "$work/rd/sub/Fix_Er__fix_example.org_.json" >/dev/null ||
	fail "per-maintainer report does not validate"
grep -q '"maintainer":"../../../tmp/evil/x <a@b>"' "$work/rd/sub/index.json" || fail "index lacks the maintainer"

# JUnit per package: keyed on name, version and architecture (two versions
# of fixa, as package files, are two reports), clean packages included (fixd)
run_distsec scan --root "$root" --color never --group-by package --report-dir "$work/rj" --format junit
cp -r "$work/pkg-fixa-amd64" "$work/pkg-fixa2"
sed -i 's/^Version: 1.0-1$/Version: 2.0-1/' "$work/pkg-fixa2/DEBIAN/control"
dpkg-deb --root-owner-group -b "$work/pkg-fixa2" "$work/fixa2.deb" >/dev/null
run_distsec scan --color never --group-by package --report-dir "$work/rj2" --format junit \
	"$work/fixa-amd64.deb" "$work/fixa2.deb"
ls "$work/rj" "$work/rj2" >"$work/names"
for f in fixa_1.0-1_amd64.xml fixc_1.0-1_amd64.xml fixd_1.0-1_amd64.xml _not-owned_.xml fixa_2.0-1_amd64.xml; do
	grep -qxF "$f" "$work/names" || { cat "$work/names"; fail "no JUnit report $f"; }
	python3 "$SRCDIR/e2e/validate.py" junit "$work/rj/$f" >/dev/null 2>&1 ||
		python3 "$SRCDIR/e2e/validate.py" junit "$work/rj2/$f" >/dev/null || fail "$f does not validate"
done
grep -q '<failure' "$work/rj/fixd_1.0-1_amd64.xml" && fail "clean fixd has a failure"
grep -qF '<testsuite name="fixa 2.0-1 amd64"' "$work/rj2/fixa_2.0-1_amd64.xml" || fail "fixa 2.0-1 suite misnamed"
python3 -c 'import json,sys; sys.exit({"package": "fixa", "version": "2.0-1", "arch": "amd64",
	"file": "fixa_2.0-1_amd64.xml", "error": 1, "warning": 0, "info": 3} not in json.load(open(sys.argv[1])))' \
	"$work/rj2/index.json" || { cat "$work/rj2/index.json"; fail "index.json lacks fixa 2.0-1"; }

# a bare directory picks none, whose owners are unknown
mkdir -p "$work/bare/usr/bin"
cp "$FIXTURES/nopie-norelro" "$work/bare/usr/bin/x"
run_distsec scan --root "$work/bare" --color never
expect_line "[unknown]"
expect_line "backend none"

# the live machine
if [ -s /var/lib/dpkg/status ] && [ -e /usr/bin/ls ]; then
	run_distsec scan -v --color never --check elf-pie /usr/bin/ls
	expect_line "/usr/bin/ls  [coreutils:"
	if [ -e "$(dirname "$DISTSEC")/backends/apt-shim.so" ]; then
		# origin and candidate through the apt shim
		run_distsec scan -v --color never --check elf-pie --group-by package /usr/bin/ls
		expect_line "== coreutils "
		grep -q "^== coreutils .* from [A-Za-z]" "$work/out" || fail "no origin from apt"
	fi
else
	echo "note: no dpkg database on this machine; live check skipped"
fi
echo "dpkg-backend: ok"
