#!/bin/sh
# Never a silent pass on what could not be read: what libdpkg
# and librpm say about a database is a warning in the report and on
# stderr; a torn rpmdb.sqlite (pages overwritten in the middle of a real
# one, made here with rpm --dbpath) whose headers are fewer than its index
# lists is refused; a database without a Name index is still counted under
# --backend auto; a zero-byte rpmdb.sqlite is said; an .rpm whose payload
# fails its digest (rpm -K) is an error finding.
. "$(dirname "$0")/lib.sh"

warnings() {   # the report's summary.warnings, one a line
	python3 -c 'import json, sys
for w in json.load(open(sys.argv[1]))["summary"]["warnings"]: print(w)' "$work/out"
}

# 1. libdpkg's warnings about the status file
mkdir -p "$root/var/lib/dpkg/info" "$root/usr/bin"
printf 'Package: fixw\nStatus: install ok installed\nVersion: 1.0\nArchitecture: amd64\n\n' \
	>"$root/var/lib/dpkg/status"
: >"$root/var/lib/dpkg/info/fixw.list"
place nopie-norelro usr/bin/fixw
run_distsec scan --root "$root" --format json /
warnings >"$work/got"
cat >"$work/expected" <<'EOF2'
backend dpkg: warning: parsing file 'var/lib/dpkg/status' near line 5 package 'fixw':  missing 'Description' field
backend dpkg: warning: parsing file 'var/lib/dpkg/status' near line 5 package 'fixw':  missing 'Maintainer' field
EOF2
grep -v "file-stig" "$work/got" | diff -u "$work/expected" - || fail "libdpkg's warnings not in the report"
grep -q "missing 'Maintainer' field" "$work/err" || fail "libdpkg's warnings not on stderr"
rm -rf "$root/var/lib/dpkg" "$root/usr/bin/fixw"

# ... all of them, however many: twelve packages' 24 warnings (2.7 KB) are
# never cut to what a fixed buffer holds
mkdir -p "$root/var/lib/dpkg/info"
: >"$work/expected"
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do
	printf 'Package: fixw%s\nStatus: install ok installed\nVersion: 1.0\nArchitecture: amd64\n\n' $i \
		>>"$root/var/lib/dpkg/status"
	: >"$root/var/lib/dpkg/info/fixw$i.list"
	for f in Description Maintainer; do
		echo "backend dpkg: warning: parsing file 'var/lib/dpkg/status' near line $((${i#0} * 5)) package 'fixw$i':  missing '$f' field" \
			>>"$work/expected"
	done
done
place nopie-norelro usr/bin/fixw
run_distsec scan --root "$root" --format json /
warnings | grep -v "file-stig" | diff -u "$work/expected" - || fail "libdpkg's warnings cut short"
rm -rf "$root/var/lib/dpkg" "$root/usr/bin/fixw"

# a backend's reason is whole, however long: under a root of 600
# characters, the dpkg database's private copy in a temporary directory of
# 600 more that is not there, and the root named in why auto takes none
long=$work/root
for i in 1 2 3; do
	long=$long/$(printf '%0200d' 0)
done
mkdir -p "$long/var/lib/dpkg/info"
printf 'Package: fixw\nStatus: install ok installed\nVersion: 1.0\nArchitecture: amd64\n\n' \
	>"$long/var/lib/dpkg/status"
: >"$long/var/lib/dpkg/info/fixw.list"
tmpdir_was=${TMPDIR:-/tmp}
export TMPDIR="$long/absent"
run_distsec scan --root "$long" --backend dpkg -q /
TMPDIR=$tmpdir_was
expect_rc 2
grep -qx "distsec: backend dpkg: temporary directory $long/absent/distsec-dpkg-[A-Za-z0-9]\{6\}: No such file or directory" \
	"$work/err" || { cat "$work/err" >&2; fail "a backend's error cut short"; }
rm -rf "$long/var"
run_distsec backends --root "$long"
expect_line "root $long would use: none (no package database with installed packages in $long)"

for t in rpm rpmbuild; do
	command -v $t >/dev/null || { echo "*skipped*: $t not installed, rpm cases not tested"; exit 0; }
done
"$DISTSEC" backends | grep -q '^  rpm ' || { echo "*skipped*: built without the rpm backend"; exit 0; }

# 2. an rpm database of 41 packages (one spec and its 40 subpackages)
top="$work/rpmbuild"
mkdir -p "$top/SPECS"
{
	printf 'Name: fixt\nVersion: 1.0\nRelease: 1\nSummary: t\nLicense: GPL-2.0-or-later\nBuildArch: noarch\n%%description\nt\n'
	for i in $(seq 1 40); do
		printf '%%package p%d\nSummary: p\n%%description p%d\np\n%%files p%d\n/usr/share/fixt/p%d/f\n' $i $i $i $i
	done
	printf '%%install\nfor i in $(seq 1 40); do mkdir -p %%{buildroot}/usr/share/fixt/p$i; seq 1 600 >%%{buildroot}/usr/share/fixt/p$i/f; done\n%%files\n'
} >"$top/SPECS/fixt.spec"
rpmbuild --define "_topdir $top" --define "__os_install_post %{nil}" \
	--define "debug_package %{nil}" -bb "$top/SPECS/fixt.spec" >"$work/rpmbuild.log" 2>&1 ||
	{ cat "$work/rpmbuild.log" >&2; fail "rpmbuild failed"; }
db="$root/var/lib/rpm"
rpm --root "$root" --dbpath /var/lib/rpm --initdb
rpm --root "$root" --dbpath /var/lib/rpm -i --justdb --nodeps --noscripts "$top"/RPMS/noarch/*.rpm 2>/dev/null
[ -s "$db/rpmdb.sqlite" ] || { echo "*skipped*: this rpm makes no rpmdb.sqlite"; exit 0; }
cp "$db/rpmdb.sqlite" "$work/whole.sqlite"
run_distsec backends --root "$root"
expect_line "rpm database var/lib/rpm (sqlite): 41 packages"
# what the probe says is whole too: the copy's temporary directory of 600
# characters, not there
export TMPDIR="$long/absent"
run_distsec backends --root "$root"
TMPDIR=$tmpdir_was
grep -qx "         in $root: cannot read var/lib/rpm/rpmdb.sqlite: no temporary directory for a copy ($long/absent/distsec-rpmdb-[A-Za-z0-9]\{6\}): No such file or directory" \
	"$work/out" || { cat "$work/out" >&2; fail "the rpm probe's reason cut short"; }

# the Name index emptied: the headers are counted, auto still picks rpm
python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("DELETE FROM Name"); c.commit()' "$db/rpmdb.sqlite"
rm -f "$db/rpmdb.sqlite-wal" "$db/rpmdb.sqlite-shm"
run_distsec backends --root "$root"
expect_line "rpm database var/lib/rpm (sqlite): 41 packages"
run_distsec scan --root "$root" --format json /usr/bin
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["backend"] == "rpm"' "$work/out" ||
	fail "a database without its Name index is not read under auto"

# torn: two leaf pages in the middle of the Packages table overwritten
# (sqlite's dbstat says which pages hold it)
cp "$work/whole.sqlite" "$db/rpmdb.sqlite"
python3 - "$db/rpmdb.sqlite" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
size = c.execute("pragma page_size").fetchone()[0]
leaves = [p for p, t in c.execute("select pageno, pagetype from dbstat where name = 'Packages'")
          if t == 'leaf']
c.close()
with open(sys.argv[1], 'r+b') as f:
    for p in leaves[len(leaves) // 2:len(leaves) // 2 + 2]:
        f.seek((p - 1) * size)
        f.write(bytes(range(256)) * (size // 256))
PY
run_distsec scan --root "$root" --format json /usr/bin
expect_rc 0
warnings >"$work/got"
grep -Eq "^backend rpm: cannot read var/lib/rpm/rpmdb.sqlite: its index lists 41 packages, [0-9]+ could be read \(librpm: .*malformed" "$work/got" ||
	{ cat "$work/got" "$work/err" >&2; fail "a torn database is not said in the report"; }
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["backend"] == "none"' "$work/out" ||
	fail "owners read from a torn database"
grep -q "its index lists 41 packages" "$work/err" || fail "a torn database is not said on stderr"
run_distsec scan --root "$root" --backend rpm /usr/bin
expect_rc 2
grep -q "cannot read var/lib/rpm/rpmdb.sqlite: its index lists 41 packages" "$work/err" ||
	fail "--backend rpm: the torn database is not the error"

# zero bytes
: >"$db/rpmdb.sqlite"
rm -f "$db/rpmdb.sqlite-wal" "$db/rpmdb.sqlite-shm"
run_distsec scan --root "$root" --format json /usr/bin
warnings >"$work/got"
grep -qx "backend rpm: cannot read var/lib/rpm/rpmdb.sqlite: the file is empty (0 bytes), no database is in it" "$work/got" ||
	{ cat "$work/got" >&2; fail "a zero-byte rpmdb.sqlite is not said"; }

# 3. a payload that fails its digest (rpm -K): bytes after the compressed
#    stream, which decompresses whole, so the members are read and judged
good=$(ls "$top"/RPMS/noarch/fixt-p1-1.0-1.noarch.rpm)
cp "$good" "$work/bad.rpm"
printf 'XXXX' >>"$work/bad.rpm"
rpm -K "$work/bad.rpm" >/dev/null 2>&1 && fail "the fixture's payload still passes rpm -K"
run_distsec scan --color never "$good" "$work/bad.rpm"
expect_rc 1
expect_line "error    scan-unreadable           $work/bad.rpm  [unknown]  package file unreadable: payload digest mismatch: the payload is not the one the header describes (rpm -K fails, rpm refuses to install it)"
grep -c "^error" "$work/out" | grep -qx 1 || fail "the good package has an error"
echo "db-complaints: ok"
