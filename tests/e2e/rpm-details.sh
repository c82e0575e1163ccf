#!/bin/sh
# The rpm backend's smaller cases, each on databases and packages
# made at test time with the real rpm and rpmbuild: an empty database in
# usr/lib/sysimage/rpm beside a populated var/lib/rpm; a .src.rpm's owner;
# owner and group names of .rpm members from the header; multilib files of
# the "wrong color" (last: it needs an i686 cross toolchain).
. "$(dirname "$0")/lib.sh"
for t in rpm rpmbuild; do
	command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
"$DISTSEC" backends | grep -q '^  rpm ' || { echo "SKIP: built without the rpm backend"; exit 77; }
[ "$(uname -m)" = x86_64 ] || { echo "SKIP: the expectations are written for an x86-64 host"; exit 77; }

top="$work/rpmbuild"
mkdir -p "$top/SOURCES" "$top/SPECS"
# build SPEC ARGS...: rpmbuild with the test's topdir, quietly
build() {
	spec=$1
	shift
	rpmbuild --define "_topdir $top" --define "__os_install_post %{nil}" \
		--define "debug_package %{nil}" "$@" "$top/SPECS/$spec" >"$work/rpmbuild.log" 2>&1 ||
		{ cat "$work/rpmbuild.log"; fail "rpmbuild $* $spec failed"; }
}
cp "$FIXTURES/nopie-norelro" "$top/SOURCES/own-tool"
cat >"$top/SPECS/own.spec" <<'SPEC'
Name: own
Version: 1.0
Release: 1
Summary: distsec test fixture
License: GPL-2.0-or-later
Source0: own-tool
%description
distsec test fixture
%install
mkdir -p %{buildroot}/etc %{buildroot}/usr/bin
echo 'ssh 22/tcp' >%{buildroot}/etc/services
echo 'root: admin' >%{buildroot}/etc/aliases
install -m 0755 %{SOURCE0} %{buildroot}/usr/bin/own-tool
%files
%attr(0644, daemon, daemon) /etc/services
%attr(0644, root, root) /etc/aliases
/usr/bin/own-tool
SPEC
build own.spec -ba
rpmfile="$top/RPMS/x86_64/own-1.0-1.x86_64.rpm"
srpm="$top/SRPMS/own-1.0-1.src.rpm"

# 1. an empty initialised database in usr/lib/sysimage/rpm does not hide
# the populated var/lib/rpm: the one with packages is read, and which is said
rpm --root "$root" --dbpath /var/lib/rpm --initdb
rpm --root "$root" --dbpath /var/lib/rpm -i --nodeps --noscripts --ignorearch "$rpmfile" 2>/dev/null
rpm --root "$root" --dbpath /usr/lib/sysimage/rpm --initdb
note="rpm database var/lib/rpm (sqlite): 1 packages; usr/lib/sysimage/rpm/rpmdb.sqlite lists none and is not read"
run_distsec backends --root "$root"
expect_line "would use: rpm ($note)"
for backend in auto rpm; do
	run_distsec scan --root "$root" --color never --backend $backend --check elf-relro --format json
	expect_rc 1
	python3 - "$work/out" "backend rpm: $note" <<'PY' || fail "--backend $backend: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["backend"] == "rpm", d["backend"]
assert d["summary"]["warnings"] == [sys.argv[2]], d["summary"]["warnings"]
assert [(f["path"], f["owner"]["name"]) for f in d["findings"]] == \
    [("/usr/bin/own-tool", "own")], d["findings"]
PY
	grep -qxF "distsec: backend rpm: $note; owners come from backend rpm" "$work/err" ||
		{ cat "$work/err"; fail "--backend $backend: stderr does not say which database is read"; }
done
# the reverse (populated usr/lib/sysimage/rpm, empty var/lib/rpm): nothing to say
rm -rf "${root:?}/var/lib/rpm" "$root/usr/lib/sysimage/rpm"
rpm --root "$root" --dbpath /usr/lib/sysimage/rpm --initdb
rpm --root "$root" --dbpath /usr/lib/sysimage/rpm -i --justdb --nodeps --noscripts --ignorearch "$rpmfile" 2>/dev/null
rpm --root "$root" --dbpath /var/lib/rpm --initdb
run_distsec scan --root "$root" --color never --check elf-relro
expect_rc 1
expect_line "/usr/bin/own-tool  [own-1.0-1.x86_64]"
grep -q "not read" "$work/err" && fail "a note about a second database nobody needed"

# 2 and 3. package files: a source package is NAME:src (its ARCH tag holds
# the build host's), and member owners are the header's names (the cpio
# payload says 0/0), judged by file-stig against the root's accounts
proot="$work/proot"
mkdir -p "$proot/etc"
printf 'root:x:0:0::/root:/bin/sh\ndaemon:x:2:2::/:/sbin/nologin\n' >"$proot/etc/passwd"
printf 'root:x:0:\ndaemon:x:2:\n' >"$proot/etc/group"
run_distsec scan --root "$proot" --color never --check elf-relro,file-stig "$srpm" "$rpmfile"
expect_rc 1
grep -E '^(error|warning|info) ' "$work/out" >"$work/got"
cat >"$work/want" <<'EOF'
error    file-stig                 /etc/services  [own-1.0-1.x86_64]  GEN003760: /etc/services is owned by daemon, should be root (the services file)
error    elf-relro                 /usr/bin/own-tool  [own-1.0-1.x86_64]  no RELRO: relocated data such as the GOT stays writable
error    elf-relro                 own-tool  [own-1.0-1.src]  no RELRO: relocated data such as the GOT stays writable
EOF
diff -u "$work/want" "$work/got" || fail "source package owner or member owner names"
run_distsec scan --root "$proot" --color never --check file-stig --format json "$rpmfile"
python3 - "$work/out" <<'PY' || fail "file-stig details of a named owner"
import json, sys
d = json.load(open(sys.argv[1]))
[f] = d["findings"]
assert f["details"] == {"mode": "0644", "owner": "daemon", "group": "daemon"}, f["details"]
PY

# 5. rpm-chksec's per-package table (--summary, JSON by_package), keyed
# NAME.ARCH: a setuid non-PIE (PIE no), a network-local program with partial
# RELRO (partial), a library with partial RELRO and a plain executable with
# partial RELRO (fine), a package without ELF files (yes), noarch and
# debuginfo packages (skipped as rpm-chksec skips them); a .deb alike
for f in nopie-partial netclient-partial pie-partial libfix.so; do cp "$FIXTURES/$f" "$top/SOURCES/"; done
cat >"$top/SPECS/vd.spec" <<'SPEC'
Name: vd
Version: 1.0
Release: 1
Summary: distsec test fixture
License: GPL-2.0-or-later
%description
distsec test fixture
%package suid
Summary: s
%description suid
s
%package net
Summary: n
%description net
n
%package plain
Summary: p
%description plain
p
%package doc
Summary: d
%description doc
d
%package debuginfo
Summary: g
%description debuginfo
g
%install
mkdir -p %{buildroot}/usr/bin %{buildroot}/usr/lib64 %{buildroot}/usr/share/doc/vd
install -m 4755 %{_sourcedir}/nopie-partial %{buildroot}/usr/bin/vd-suid
install -m 0755 %{_sourcedir}/netclient-partial %{buildroot}/usr/bin/vd-net
install -m 0755 %{_sourcedir}/pie-partial %{buildroot}/usr/bin/vd-plain
install -m 0755 %{_sourcedir}/libfix.so %{buildroot}/usr/lib64/libvd.so.1
install -m 0755 %{_sourcedir}/nopie-partial %{buildroot}/usr/bin/vd-dbg
echo doc >%{buildroot}/usr/share/doc/vd/README
%files
/usr/share/doc/vd/README
%files suid
/usr/bin/vd-suid
%files net
/usr/bin/vd-net
%files plain
/usr/bin/vd-plain
/usr/lib64/libvd.so.1
%files debuginfo
/usr/bin/vd-dbg
SPEC
build vd.spec -bb
rm -f "$top"/RPMS/x86_64/vd-doc-*.rpm
build own.spec -bb --target noarch --define "_binaries_in_noarch_packages_terminate_build 0"
run_distsec scan --color never --summary "$top"/RPMS/x86_64/vd-*.rpm "$top"/RPMS/noarch/own-*.rpm "$rpmfile"
expect_rc 1
sed -n '1,/^$/p' "$work/out" >"$work/got"
cat >"$work/want" <<'EOF'
PACKAGE                                             RELRO    PIE   CLASS
own.x86_64                                          no       yes   exec
vd-net.x86_64                                       partial  yes   network-ip
vd-plain.x86_64                                     yes      yes
vd-suid.x86_64                                      partial  no    setuid
vd.x86_64                                           yes      yes

EOF
diff -u "$work/want" "$work/got" || fail "--summary table"
run_distsec scan --format json "$top"/RPMS/x86_64/vd-suid-*.rpm "$top"/RPMS/x86_64/vd-plain-*.rpm
python3 - "$work/out" <<'PY' || fail "JSON by_package"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["summary"]["by_package"] == {
    "vd-plain.x86_64": {"relro": "yes", "pie": "yes"},
    "vd-suid.x86_64": {"relro": "partial", "pie": "no", "class": "setuid"}}, d["summary"]["by_package"]
PY
if command -v dpkg-deb >/dev/null; then
	deb="$work/deb-vd"
	mkdir -p "$deb/DEBIAN" "$deb/usr/bin"
	printf 'Package: vdeb\nVersion: 1.0\nArchitecture: amd64\nMaintainer: F <f@example.org>\nDescription: f\n' >"$deb/DEBIAN/control"
	install -m 4755 "$FIXTURES/nopie-norelro" "$deb/usr/bin/vdeb"
	dpkg-deb --root-owner-group -b "$deb" "$work/vdeb.deb" >/dev/null
	run_distsec scan --color never --summary "$work/vdeb.deb"
	expect_line "vdeb.amd64                                          no       no    setuid"
fi

# 4. multilib: one path in mlib.i686 and mlib.x86_64, each its own ELF
# class (file colors 1 and 2); rpm installs the x86_64 file and marks the
# i686 entry "wrong color", so the file on disk is x86_64's alone
cat >"$work/hello.c" <<'EOF'
int main(void) { return 0; }
EOF
clang --target=i686-linux-gnu -O1 -w -o "$top/SOURCES/tool32" "$work/hello.c" 2>"$work/cc-err" ||
	{ cat "$work/cc-err"; echo "SKIP: no i386 cross toolchain (binutils-i686-linux-gnu, libc6-dev-i386-cross)"; exit 77; }
cp "$FIXTURES/nopie-norelro" "$top/SOURCES/tool64"
cat >"$top/SPECS/mlib.spec" <<'SPEC'
Name: mlib
Version: 1.0
Release: 1
Summary: distsec test fixture
License: GPL-2.0-or-later
Source0: tool32
Source1: tool64
%description
distsec test fixture
%install
mkdir -p %{buildroot}/usr/bin
%ifarch i686
install -m 0755 %{SOURCE0} %{buildroot}/usr/bin/mlib-tool
%else
install -m 0755 %{SOURCE1} %{buildroot}/usr/bin/mlib-tool
%endif
%files
/usr/bin/mlib-tool
SPEC
build mlib.spec -bb --target i686
build mlib.spec -bb --target x86_64
rm -rf "$root" && mkdir "$root"
rpm --root "$root" --dbpath /var/lib/rpm --initdb
rpm --root "$root" --dbpath /var/lib/rpm -i --nodeps --noscripts --ignorearch \
	--define "_transaction_color 3" "$top"/RPMS/*/mlib-1.0-1.*.rpm 2>/dev/null
rpm --root "$root" --dbpath /var/lib/rpm -qs mlib.i686 | grep -qx 'wrong color   /usr/bin/mlib-tool' ||
	fail "rpm did not mark the i686 file wrong color"
run_distsec scan --root "$root" --color never --check elf-relro
expect_rc 1
grep '^error ' "$work/out" >"$work/got"
echo "error    elf-relro                 /usr/bin/mlib-tool  [mlib-1.0-1.x86_64]  no RELRO: relocated data such as the GOT stays writable" >"$work/want"
diff -u "$work/want" "$work/got" || fail "a wrong-color file attributed to the instance whose file is not on disk"
run_distsec scan --root "$root" --color never --check elf-relro --package mlib.i686
expect_rc 0
grep -q mlib-tool "$work/out" && fail "--package mlib.i686 scanned the x86_64 file"
echo "rpm-details: ok"
