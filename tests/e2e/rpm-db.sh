#!/bin/sh
# The rpm database as found in real roots: copied to a private temporary
# directory (only the database's own files, with a size cap) and removed
# again whatever happens, also when a signal ends the run; a '%' in TMPDIR.
# Databases are made at test time with the real rpm and rpmbuild.
. "$(dirname "$0")/lib.sh"
for t in rpm rpmbuild; do
	command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
"$DISTSEC" backends | grep -q '^  rpm ' || { echo "SKIP: built without the rpm backend"; exit 77; }

top="$work/rpmbuild"
mkdir -p "$top/SOURCES" "$top/SPECS"
cp "$FIXTURES/nopie-norelro" "$top/SOURCES/fixr-tool"
cat >"$top/SPECS/fixr.spec" <<'SPEC'
Name: fixr
Version: 1.0
Release: 1
Summary: distsec test fixture
License: GPL-2.0-or-later
Source0: fixr-tool
%description
distsec test fixture
%install
mkdir -p %{buildroot}/usr/bin
install -m 0755 %{SOURCE0} %{buildroot}/usr/bin/fixr-tool
%files
/usr/bin/fixr-tool
SPEC
rpmbuild --define "_topdir $top" --define "__os_install_post %{nil}" \
	--define "debug_package %{nil}" -bb "$top/SPECS/fixr.spec" >"$work/rpmbuild.log" 2>&1 ||
	{ cat "$work/rpmbuild.log"; fail "rpmbuild failed"; }
rpmfile=$(ls "$top"/RPMS/*/fixr-1.0-1.*.rpm)
rarch=$(basename "$(dirname "$rpmfile")")  # rpm spells its owner fixr-1.0-1.ARCH
db=var/lib/rpm
rpm --root "$root" --dbpath "/$db" --initdb
rpm --root "$root" --dbpath "/$db" -i --justdb --nodeps --noscripts --ignorearch "$rpmfile" 2>/dev/null
place nopie-norelro usr/bin/fixr-tool
tmp="$work/tmp"
mkdir "$tmp"

# scan ARGS...: distsec scan with TMPDIR=$tmp, which must be empty after
scan() {
	TMPDIR="$tmp" run_distsec scan --root "$root" --color never "$@"
	[ -z "$(ls -A "$tmp" 2>/dev/null)" ] || { ls -lR "$tmp"; fail "temporary files left in TMPDIR"; }
}

# a sparse 64 GiB file beside the database is not copied (ulimit: a copy of
# it would die at 1 GiB instead of filling the disk)
truncate -s 64G "$root/$db/huge"
(ulimit -f 1048576 && scan && echo "$rc" >"$work/rc") ||
	fail "the scan died copying a file beside the database"
rc=$(cat "$work/rc")
expect_rc 1
expect_line "/usr/bin/fixr-tool  [fixr-1.0-1.$rarch]"
rm "$root/$db/huge"

# var/lib/rpm as a symlink is resolved inside the root, as the walk
# does: to the host's path (absolute, outside the image) it finds no
# database there, so the host's owners are never reported; to another
# directory of the image it is followed there
mv "$root/$db" "$work/hostdb"
ln -s "$work/hostdb" "$root/$db"
scan
grep -qF "[fixr-1.0-1." "$work/out" && fail "var/lib/rpm -> a host path: the host's database was read"
expect_line "/usr/bin/fixr-tool  [unknown]"
expect_line "0 packages, backend none,"
rm "$root/$db"
mkdir -p "$root/elsewhere"
mv "$work/hostdb" "$root/elsewhere/rpm"
ln -s /elsewhere/rpm "$root/$db"
scan
expect_line "/usr/bin/fixr-tool  [fixr-1.0-1.$rarch]"
rm "$root/$db"
mv "$root/elsewhere/rpm" "$root/$db"

# a TMPDIR holding %{macros}: librpm expands macros in _dbpath, and must
# neither miss the copy nor create directories at the expanded name
tmp="$work/tmp%{_arch}%%"
mkdir "$tmp"
scan
expect_rc 1
expect_line "/usr/bin/fixr-tool  [fixr-1.0-1.$rarch]"
ls "$work" | grep -qx 'tmp[^%].*' && fail "librpm created a directory at the macro-expanded TMPDIR"
tmp="$work/tmp"

# a database file over the copy cap: refused, naming the file
cp -a "$root/$db" "$work/db.orig"
rm "$root/$db/rpmdb.sqlite"
truncate -s 64G "$root/$db/rpmdb.sqlite"
scan --backend rpm
expect_rc 2
grep -qF "cannot read $db/rpmdb.sqlite: 68719476736 bytes, more than the 2048 MiB a database copy may take" \
	"$work/err" || { cat "$work/err"; fail "no message naming the oversized database file"; }
rm -rf "${root:?}/$db" && cp -a "$work/db.orig" "$root/$db"

# databases that are there but cannot be read: --backend auto says so on
# stderr and in the JSON summary (blaming the file) and goes on with none;
# --backend rpm is an error naming the file and the format
unreadable() { # DBDIR FILE MESSAGE
	TMPDIR="$tmp" run_distsec backends --root "$root"
	expect_line "in $root: $3"
	scan --format json --check elf-relro
	grep -qF "distsec: backend rpm: $3" "$work/err" || { cat "$work/err"; fail "no warning: $3"; }
	python3 - "$work/out" "backend rpm: $3" <<'PY' || fail "JSON summary: no warning for $1/$2"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["backend"] == "none", doc["backend"]
assert any(w.startswith(sys.argv[2]) for w in doc["summary"]["warnings"]), doc["summary"]["warnings"]
PY
	scan --backend rpm --check elf-relro
	expect_rc 2
	grep -qF "$3" "$work/err" || { cat "$work/err"; fail "--backend rpm: no error: $3"; }
}
mv "$root/$db" "$work/db.good"
# ndb (openSUSE, SLE 15): Debian's librpm has no ndb backend and opened it
# as an empty "dummy" database
mkdir -p "$root/usr/lib/sysimage/rpm"
head -c 8192 /dev/urandom >"$root/usr/lib/sysimage/rpm/Packages.db"
unreadable usr/lib/sysimage/rpm Packages.db \
	"cannot read usr/lib/sysimage/rpm/Packages.db: an ndb database, a format this librpm (rpm $(rpm --version | sed 's/.* //')) cannot read; rpm built with ndb support reads it"
rm -rf "${root:?}/usr/lib/sysimage"
# a corrupt bdb Packages file
mkdir -p "$root/$db"
head -c 16384 /dev/urandom >"$root/$db/Packages"
unreadable "$db" Packages \
	"cannot read $db/Packages: librpm cannot open it as a bdb_ro database (Packages: not a berkeley db hash/btree database)"
rm "$root/$db/Packages"
# an sqlite file without rpm's tables
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("create table t(x)"); c.commit()' \
	"$root/$db/rpmdb.sqlite"
unreadable "$db" rpmdb.sqlite "cannot read $db/rpmdb.sqlite: librpm cannot open it as a sqlite database"
rm -rf "${root:?}/$db"
# a TMPDIR that cannot take the copy
mv "$work/db.good" "$root/$db"
tmp="$work/none"
# valgrind cannot start without a TMPDIR of its own: this case runs bare
wrapper=${DISTSEC_WRAPPER:-}
DISTSEC_WRAPPER=
unreadable "$db" rpmdb.sqlite "cannot read $db/rpmdb.sqlite: no temporary directory for a copy ($work/none/distsec-rpmdb-"
DISTSEC_WRAPPER=$wrapper
tmp="$work/tmp"
# an initialised database without packages is read: no warning
rm -rf "${root:?}/$db"
rpm --root "$root" --dbpath "/$db" --initdb
scan --format json
grep -q "backend rpm" "$work/err" && fail "an empty database was called unreadable"
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["summary"]["warnings"] == []' "$work/out" ||
	fail "an empty database gave a warning in the JSON summary"
rm -rf "${root:?}/$db" && cp -a "$work/db.orig" "$root/$db"

# a signal during the copy (strace holds the copy for 3 s: room for a loaded machine) or while -o's
# temporary report is being made: the temporary files go, the status tells
if command -v strace >/dev/null; then
	# killed SIGNAL SYSCALLS DIR ARGS...: distsec scan ARGS under strace,
	# held 3 s at SYSCALLS' entry, killed with SIGNAL once DIR holds a file
	killed() {
		sig=$1 calls=$2 watch=$3
		shift 3
		# shellcheck disable=SC2086
		TMPDIR="$tmp" strace -f -qq --seccomp-bpf -o /dev/null -e trace="$calls" \
			-e inject="$calls":delay_enter=3000000 \
			$default_signals "$DISTSEC" scan --root "$root" "$@" >/dev/null 2>"$work/err" &
		tracer=$!
		i=0
		while [ -z "$(ls -A "$watch")" ] && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -"$sig" "$(pgrep -P $tracer)"
		rc=0
		wait $tracer || rc=$?
	}
	mkdir "$work/rep"
	for sig in INT TERM HUP; do
		killed $sig copy_file_range "$tmp"
		[ "$rc" -gt 128 ] || { cat "$work/err" >&2; fail "SIG$sig during the copy: exit status $rc"; }
		[ -z "$(ls -A "$tmp")" ] || { ls -lR "$tmp"; fail "SIG$sig left the database copy behind"; }
	done
	killed TERM fchmod "$work/rep" -o "$work/rep/out.json" --format json
	[ "$rc" = 143 ] || fail "SIGTERM while the report is written: exit status $rc"
	[ -z "$(ls -A "$work/rep")" ] || { ls -l "$work/rep"; fail "SIGTERM left -o's temporary file"; }
else
	echo "note: strace not installed, the signal cases are skipped"
fi
echo "rpm-db: ok"
