#!/bin/sh
# The rpm backend against real rpm databases made under temporary roots with
# the real rpm and rpmbuild tools: Fedora's usr/lib/sysimage/rpm and the
# older var/lib/rpm; owners, --package, --all-packages, auto selection
# against dpkg; .rpm and .deb files scanned directly give the same findings
# as their installed files; a truncated package file; the root is not written.
. "$(dirname "$0")/lib.sh"
for t in rpm rpmbuild dpkg-deb; do
	command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
"$DISTSEC" backends | grep -q '^  rpm ' || { echo "SKIP: built without the rpm backend"; exit 77; }
force=""
[ "$(id -u)" = 0 ] || force="--force-not-root --force-bad-path"

# an rpm holding two fixture programs, built at test time
top="$work/rpmbuild"
mkdir -p "$top/SOURCES" "$top/SPECS"
cp "$FIXTURES/nopie-norelro" "$top/SOURCES/fixr-tool"
cp "$FIXTURES/pie-full" "$top/SOURCES/fixr-good"
cat >"$top/SPECS/fixr.spec" <<'SPEC'
Name: fixr
Version: 1.0
Release: 1
Summary: distsec test fixture
License: GPL-2.0-or-later
Packager: Fix Er <fix@example.org>
Source0: fixr-tool
Source1: fixr-good
%description
distsec test fixture
%install
mkdir -p %{buildroot}/usr/bin
install -m 0755 %{SOURCE0} %{buildroot}/usr/bin/fixr-tool
install -m 4755 %{SOURCE1} %{buildroot}/usr/bin/fixr-good
%files
/usr/bin/fixr-tool
/usr/bin/fixr-good
SPEC
# (xz payload: rpm-v6.py below recompresses it with Python's lzma)
rpmbuild --define "_topdir $top" --define "__os_install_post %{nil}" \
	--define "_binary_payload w6.xzdio" --define "debug_package %{nil}" -bb "$top/SPECS/fixr.spec" >"$work/rpmbuild.log" 2>&1 ||
	{ cat "$work/rpmbuild.log"; fail "rpmbuild failed"; }
rpmfile=$(ls "$top"/RPMS/*/fixr-1.0-1.*.rpm)
rarch=$(basename "$(dirname "$rpmfile")")  # rpm spells its owner fixr-1.0-1.ARCH

# install_rpm ROOT DBPATH: a database with fixr installed
install_rpm() {
	rpm --root "$1" --dbpath "$2" --initdb
	rpm --root "$1" --dbpath "$2" -i --nodeps --noscripts --ignorearch "$rpmfile" 2>/dev/null
}

for dbpath in /usr/lib/sysimage/rpm /var/lib/rpm; do
	rm -rf "$root" && mkdir -p "$root"
	install_rpm "$root" "$dbpath"
	cp "$FIXTURES/nopie-norelro" "$root/usr/bin/stray"
	before=$(find "$root$dbpath" -type f -exec sha256sum {} + | sort)
	run_distsec backends --root "$root"
	expect_line "would use: rpm (rpm database ${dbpath#/} (sqlite): 1 packages"
	run_distsec scan --root "$root" --color never -v
	expect_rc 1
	expect_line "error    elf-relro                 /usr/bin/fixr-tool  [fixr-1.0-1.$rarch]"
	expect_line "pass     elf-relro                 /usr/bin/fixr-good  [fixr-1.0-1.$rarch]"
	expect_line "error    elf-relro                 /usr/bin/stray  [not-owned]"
	grep -q "build-id" "$work/out" && fail "reported rpm's .build-id links"
	after=$(find "$root$dbpath" -type f -exec sha256sum {} + | sort)
	[ "$before" = "$after" ] || fail "the scan changed the rpm database in $dbpath"
	[ "$(find "$root$dbpath" -newer "$rpmfile" -name '*.lock' | wc -l)" -le 1 ] || fail "lock files created"
done

run_distsec scan --root "$root" --color never -v --package fixr
expect_line "/usr/bin/fixr-tool  [fixr-1.0-1.$rarch]"
grep -q stray "$work/out" && fail "--package fixr scanned another file"
run_distsec scan --root "$root" --color never -v --all-packages --group-by package
expect_line "== fixr 1.0-1 $(rpm --eval %_arch) (source fixr-1.0-1.src.rpm) - Fix Er <fix@example.org> =="
grep -q stray "$work/out" && fail "--all-packages scanned a file no package owns"
run_distsec scan --root "$root" --package nosuch
expect_rc 2

# --package and instances: one package installed for two architectures
# (multilib), each with its own file; the x86_64 one also owns a symlink to
# a file it does not own, which is scanned as a symlink, not followed
cp "$FIXTURES/nopie-norelro" "$top/SOURCES/multi-tool"
cat >"$top/SPECS/multi.spec" <<'SPEC'
Name: multi
Version: 2.0
Release: 3
Summary: distsec test fixture
License: GPL-2.0-or-later
Source0: multi-tool
%description
distsec test fixture
%install
mkdir -p %{buildroot}/usr/bin
install -m 0755 %{SOURCE0} %{buildroot}/usr/bin/multi-%{_target_cpu}
%ifarch x86_64
ln -s stray %{buildroot}/usr/bin/multi-link
%endif
%files
/usr/bin/*
SPEC
for arch in x86_64 i686; do
	rpmbuild --define "_topdir $top" --define "__os_install_post %{nil}" --target $arch \
		--define "debug_package %{nil}" -bb "$top/SPECS/multi.spec" >"$work/rpmbuild.log" 2>&1 ||
		{ cat "$work/rpmbuild.log"; fail "rpmbuild --target $arch failed"; }
	rpm --root "$root" --dbpath /var/lib/rpm -i --justdb --nodeps --noscripts --ignorearch --replacefiles \
		"$top"/RPMS/$arch/multi-2.0-3.$arch.rpm 2>/dev/null
done
place nopie-norelro usr/bin/multi-x86_64
place nopie-norelro usr/bin/multi-i686
ln -sf stray "$root/usr/bin/multi-link"
# instances(SPEC): the multi programs --package SPEC reports, sorted
instances() {
	run_distsec scan --root "$root" --color never --check elf-relro --package "$1"
	grep -o '/usr/bin/[a-z0-9_-]*' "$work/out" | sort -u | tr '\n' ' '
}
[ "$(instances multi)" = "/usr/bin/multi-i686 /usr/bin/multi-x86_64 " ] || fail "--package multi: $(instances multi)"
[ "$(instances multi.i686)" = "/usr/bin/multi-i686 " ] || fail "--package multi.i686: $(instances multi.i686)"
[ "$(instances multi-2.0-3.x86_64)" = "/usr/bin/multi-x86_64 " ] || fail "--package multi-2.0-3.x86_64"
[ "$(instances multi-2.0)" = "/usr/bin/multi-i686 /usr/bin/multi-x86_64 " ] || fail "--package multi-2.0"
run_distsec scan --root "$root" --package multi-9
expect_rc 2

# a .deb for the same programs
deb="$work/pkg-fixa"
mkdir -p "$deb/DEBIAN" "$deb/usr/bin"
printf 'Package: fixa\nVersion: 1.0-1\nArchitecture: amd64\nMaintainer: Fix Er <fix@example.org>\nDescription: fixture\n' >"$deb/DEBIAN/control"
cp "$FIXTURES/nopie-norelro" "$deb/usr/bin/fixr-tool"
cp "$FIXTURES/pie-full" "$deb/usr/bin/fixr-good"
chmod 4755 "$deb/usr/bin/fixr-good"
dpkg-deb --root-owner-group -b "$deb" "$work/fixa.deb" >/dev/null

# scanning package files gives the findings of the installed files
findings() { grep -E '^(error|warning|info) ' "$work/out" | awk '{print $1, $2, $3}' | sort; }
run_distsec scan --root "$root" --color never --backend rpm --package fixr
findings >"$work/installed"
[ -s "$work/installed" ] || fail "no findings for the installed package"
run_distsec scan --color never "$rpmfile"
expect_rc 1
expect_line "/usr/bin/fixr-tool  [fixr-1.0-1.$rarch]"
findings >"$work/fromrpm"
diff -u "$work/installed" "$work/fromrpm" || fail ".rpm findings differ from the installed files'"
run_distsec scan --color never "$work/fixa.deb"
expect_line "/usr/bin/fixr-tool  [fixa:amd64]"
findings >"$work/fromdeb"
diff -u "$work/installed" "$work/fromdeb" || fail ".deb findings differ from the installed files'"

# an rpm v6 package (rpm's stripped "07070X" cpio payload, which a generic
# cpio reader refuses), made from the v4 one by hand: the same findings
python3 "$SRCDIR/e2e/rpm-v6.py" "$rpmfile" "$work/fixr-v6.rpm"
python3 - "$work/fixr-v6.rpm" <<'PY' || fail "rpm-v6.py did not write a stripped cpio payload"
import lzma, sys
d = open(sys.argv[1], "rb").read()
assert d[4] == 4 and lzma.decompress(d[d.index(b"\xfd7zXZ"):]).startswith(b"07070X")
PY
rpm -Kv "$work/fixr-v6.rpm" | grep -q "Payload SHA256 digest: OK" || fail "librpm rejects the v6 package"
run_distsec scan --color never "$work/fixr-v6.rpm"
expect_rc 1
expect_line "/usr/bin/fixr-tool  [fixr-1.0-1.$rarch]"
findings >"$work/fromv6"
diff -u "$work/installed" "$work/fromv6" || fail "v6 .rpm findings differ from the installed files'"

# a corrupt payload among good packages: what was read is reported, the
# damage is an error finding for that file, the other packages are scanned
python3 - "$work/fixr-v6.rpm" "$work/corrupt.rpm" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
at = d.index(b"\xfd7zXZ") + 200
d[at:at + 64] = b"\x55" * 64
open(sys.argv[2], "wb").write(d)
PY
run_distsec scan --color never --skip elf-relro "$rpmfile" "$work/fixr-v6.rpm"
expect_rc 0
run_distsec scan --color never --skip elf-relro "$rpmfile" "$work/corrupt.rpm" "$work/fixr-v6.rpm"
expect_rc 1
expect_line "error    scan-unreadable           $work/corrupt.rpm  [unknown]  package file unreadable: /usr/bin/fixr-good: corrupt or truncated payload"
[ "$(grep -c "elf-pie  *  /usr/bin/fixr-tool  \[fixr-1\.0-1\.$rarch\]" "$work/out")" = 2 ] || fail "the good packages were not both scanned"
grep -q "^distsec: $work/corrupt.rpm: /usr/bin/fixr-good: corrupt or truncated payload" "$work/err" || fail "no message for the corrupt package"

# truncated package files: a clear error; exit 2 only when nothing else scanned
head -c 3000 "$rpmfile" >"$work/trunc.rpm"
head -c 900 "$work/fixa.deb" >"$work/trunc.deb"
for t in trunc.rpm trunc.deb; do
	run_distsec scan --color never "$work/$t"
	expect_rc 2
	grep -q "^distsec: $work/$t: " "$work/err" || fail "no clear error for $t"
done
run_distsec scan --color never "$work/trunc.rpm" "$work/fixa.deb"
expect_rc 1
expect_line "scan-unreadable           $work/trunc.rpm"
expect_line "/usr/bin/fixr-tool  [fixa:amd64]"

# an empty rpm database does not win over dpkg; with both full, the marker decides
rm -rf "$root" && mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/etc"
: >"$root/var/lib/dpkg/status"
: >"$root/var/lib/dpkg/available"
dpkg --root="$root" $force -i "$work/fixa.deb" >/dev/null
rpm --root "$root" --dbpath /var/lib/rpm --initdb
run_distsec backends --root "$root"
expect_line "would use: dpkg"
rpm --root "$root" --dbpath /usr/lib/sysimage/rpm --initdb
rpm --root "$root" --dbpath /usr/lib/sysimage/rpm -i --nodeps --noscripts --ignorearch \
	--replacefiles "$rpmfile" 2>/dev/null
run_distsec backends --root "$root"
expect_line "would use: rpm (several databases; rpm comes first in probe order)"
echo 12.0 >"$root/etc/debian_version"
run_distsec backends --root "$root"
expect_line "would use: dpkg (several databases; dpkg matches the root's distribution marker)"
echo "rpm-backend: ok"
