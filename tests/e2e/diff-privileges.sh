#!/bin/sh
# Privilege changes are regressions in `distsec diff`: between two
# builds of fixture packages made here, a shell script and a data file
# become setuid and world-writable, a program gets a systemd service, a
# daemon's owner becomes a non-root user (when this runs as root, which
# can chown), and (rpmbuild) file capabilities are widened and given.
. "$(dirname "$0")/lib.sh"
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not installed"; exit 77; }

# build DIR VERSION DAEMON-OWNER SCRIPT-MODE DATA-MODE UNITS...
build() {
	out=$1 version=$2 downer=$3 smode=$4 dmode=$5
	shift 5
	d="$work/tree-$version"
	mkdir -p "$d/DEBIAN" "$d/usr/sbin" "$d/usr/lib/fixp" "$d/usr/share/fixp" \
		"$d/usr/lib/systemd/system" "$out"
	printf 'Package: fixp\nVersion: %s\nArchitecture: amd64\nMaintainer: F <f@example.org>\nDescription: f\n' \
		"$version" >"$d/DEBIAN/control"
	cp "$FIXTURES/pie-full" "$d/usr/sbin/fixpd"
	cp "$FIXTURES/pie-full" "$d/usr/sbin/fixp-helper"
	printf '#!/bin/sh\necho run\n' >"$d/usr/lib/fixp/run.sh"
	echo data >"$d/usr/share/fixp/data"
	for u in "$@"; do
		printf '[Service]\nExecStart=/usr/sbin/%s\n' "$u" >"$d/usr/lib/systemd/system/$u.service"
	done
	# chown clears set[ug]id: the modes come after
	chown -R 0:0 "$d"
	chown "$downer" "$d/usr/sbin/fixpd"
	chmod 0755 "$d/usr/sbin/fixpd" "$d/usr/sbin/fixp-helper"
	chmod "$smode" "$d/usr/lib/fixp/run.sh"
	chmod "$dmode" "$d/usr/share/fixp/data"
	dpkg-deb -Znone -b "$d" "$out/fixp_${version}_amd64.deb" >/dev/null
}

if [ "$(id -u)" = 0 ] && getent passwd games >/dev/null; then
	owner=games
else
	echo "*skipped*: not root (or no user games): new-owner not tested"
	owner=$(id -u)
fi
build "$work/p1" 1.0 0 0755 0644 fixpd
build "$work/p2" 1.1 "$owner" 4755 0666 fixpd fixp-helper

run_distsec diff "$work/p1" "$work/p2"
expect_rc 1
{
	printf 'fixp 1.0 -> 1.1 amd64\n'
	printf '  error    new-setuid                /usr/lib/fixp/run.sh  new setuid file\n'
	printf '  warning  new-daemon                /usr/sbin/fixp-helper  now started by a systemd service or init script\n'
	[ "$owner" != games ] ||
		printf '  error    new-owner                 /usr/sbin/fixpd  owner root -> games of a program root runs\n'
	printf '  error    new-world-writable        /usr/share/fixp/data  world-writable now (mode 0666)\n'
} >"$work/expected"
grep -E '^fixp |^  (error|warning)  +new-' "$work/out" >"$work/got" || true
diff -u "$work/expected" "$work/got" || fail "privilege regressions"
expect_line "  warning  new file-setid            /usr/lib/fixp/run.sh  setuid file that is not an ELF program (mode 4755, owner root:root): Linux ignores the bit on a script; an interpreter that honours it runs it with its owner's privileges"

# the same from two JSON reports made without -v: the privilege checks'
# findings are there without passes (the daemon facts need them)
distsec scan --format json -o "$work/p1.json" "$work"/p1/*.deb || true
distsec scan --format json -o "$work/p2.json" "$work"/p2/*.deb || true
run_distsec diff --format json "$work/p1.json" "$work/p2.json"
expect_rc 1
python3 - "$work/out" <<'PY' || fail "diff --format json of reports without passes"
import json, sys
d = json.load(open(sys.argv[1]))
regs = [(r["kind"], r["path"], r["severity"]) for p in d["packages"] for r in p.get("regressions", [])]
assert regs == [("new-setuid", "/usr/lib/fixp/run.sh", "error"),
                ("new-world-writable", "/usr/share/fixp/data", "error")], regs
PY
# waived as the check's finding is
printf 'file-setid /usr/lib/fixp/run.sh # reviewed\nfile-world-writable /usr/share/fixp/data # reviewed\nelf-pie /usr/sbin/* # reviewed\n' \
	>"$work/w"
# scan --baseline judges the same privilege regressions, each a new error
# finding of the check that states it, and fails the run as diff does
run_distsec scan --baseline "$work/p1.json" "$work"/p2/*.deb
expect_rc 1
grep -E '  (new|wider)-[a-z-]+: ' "$work/out" >"$work/got" || true
cat >"$work/expected" <<'EXP'
error    file-setid                /usr/lib/fixp/run.sh  [fixp:amd64]  new-setuid: new setuid file
error    file-world-writable       /usr/share/fixp/data  [fixp:amd64]  new-world-writable: world-writable now (mode 0666)
EXP
diff -u "$work/expected" "$work/got" || fail "--baseline privilege regressions"
run_distsec scan --format json --baseline "$work/p1.json" "$work"/p2/*.deb
expect_rc 1
python3 - "$work/out" <<'PY' || fail "--baseline privilege regressions in JSON"
import json, sys
d = json.load(open(sys.argv[1]))
regs = [(f["check"], f["path"], f["severity"], f["baseline"], f["details"]["regression"])
        for f in d["findings"] if "regression" in f.get("details", {})]
assert regs == [("file-setid", "/usr/lib/fixp/run.sh", "error", "new", "new-setuid"),
                ("file-world-writable", "/usr/share/fixp/data", "error", "new",
                 "new-world-writable")], regs
PY
# a scan that finds no package (a shard's empty share) against a report
# that has some: nothing gained (UBSan: qsort of no array in CI's ASan stage)
mkdir -p "$work/empty"
run_distsec scan --baseline "$work/p1.json" "$work/empty"
expect_rc 0
run_distsec scan --format sarif --baseline "$work/p1.json" "$work"/p2/*.deb
expect_rc 1
python3 "$SRCDIR/e2e/validate.py" sarif "$work/out" >/dev/null || fail "--baseline SARIF does not validate"
python3 - "$work/out" <<'PY' || fail "--baseline privilege regressions in SARIF"
import json, sys
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
regs = sorted((r["ruleId"], r["level"], r["baselineState"], r["message"]["text"]) for r in res
              if r["message"]["text"].startswith("new-"))
assert regs == [("file-setid", "error", "new", "new-setuid: new setuid file"),
                ("file-world-writable", "error", "new",
                 "new-world-writable: world-writable now (mode 0666)")], regs
PY
run_distsec scan --waivers "$work/w" --baseline "$work/p1.json" "$work"/p2/*.deb
expect_rc 0
# an unchanged rebuild against its own report: nothing new
run_distsec scan --baseline "$work/p2.json" "$work"/p2/*.deb
expect_rc 0
grep -E -q '  (new|wider)-[a-z-]+: ' "$work/out" && fail "--baseline: a regression against itself"
# a build against itself, and the report against its own packages: nothing
run_distsec diff "$work/p2.json" "$work/p2"
expect_rc 0
expect_line "1 packages compared (0 renamed), 0 added, 0 removed: 0 regressions, 0 new findings, 0 fixed"
run_distsec diff --waivers "$work/w" "$work/p1" "$work/p2"
expect_rc 0
expect_line "  error    new-setuid                /usr/lib/fixp/run.sh  new setuid file (waived)"
# without the old side having run the check, its missing finding says nothing
run_distsec diff --skip file-setid "$work/p1" "$work/p2"
grep -q "new-setuid" "$work/out" && fail "new-setuid without file-setid records"
for id in new-world-writable new-daemon new-owner wider-caps; do
	run_distsec explain "$id"
	expect_rc 0
	grep -q "^$id: a regression \`distsec diff\` reports" "$work/out" || fail "explain $id"
done

# file capabilities (rpm %caps: a .deb made by dpkg-deb carries none)
if command -v rpmbuild >/dev/null; then
	install='mkdir -p %{buildroot}/usr/bin %{buildroot}/usr/share/capd
install -m 755 %{SOURCE0} %{buildroot}/usr/bin/pinger
install -m 755 %{SOURCE0} %{buildroot}/usr/bin/tool
echo x >%{buildroot}/usr/share/capd/helper.sh'
	fixture_rpm capd "$install" '%caps(cap_net_raw=ep) /usr/bin/pinger
/usr/bin/tool
/usr/share/capd/helper.sh'
	mkdir -p "$work/c1" "$work/c2"
	mv "$rpm_file" "$work/c1/"
	fixture_rpm capd "$install" '%caps(cap_net_raw,cap_sys_admin=ep) /usr/bin/pinger
%caps(cap_net_bind_service=ep) /usr/bin/tool
%caps(cap_net_raw=p) /usr/share/capd/helper.sh'
	mv "$rpm_file" "$work/c2/"
	run_distsec diff "$work/c1" "$work/c2"
	expect_rc 1
	cat >"$work/expected" <<'EXP'
capd 1.0-1 -> 1.0-1 x86_64
  error    wider-caps                /usr/bin/pinger  file capabilities cap_net_raw=ep -> cap_net_raw,cap_sys_admin=ep
  error    new-setcap                /usr/bin/tool  new setcap file (cap_net_bind_service=ep)
  error    new-setcap                /usr/share/capd/helper.sh  new file capabilities cap_net_raw=p
EXP
	grep -E '^capd |^  (error|warning)  +(new|wider)-' "$work/out" >"$work/got" || true
	diff -u "$work/expected" "$work/got" || fail "capability regressions"
	distsec scan --format json -o "$work/c1.json" "$work"/c1/*.rpm || true
	run_distsec scan --baseline "$work/c1.json" "$work"/c2/*.rpm
	expect_rc 1
	cat >"$work/expected" <<'EXP'
error    file-capabilities         /usr/bin/pinger  [capd-1.0-1.x86_64]  wider-caps: file capabilities cap_net_raw=ep -> cap_net_raw,cap_sys_admin=ep
error    elf-pie                   /usr/bin/tool  [capd-1.0-1.x86_64]  new-setcap: new setcap file (cap_net_bind_service=ep)
error    file-capabilities         /usr/share/capd/helper.sh  [capd-1.0-1.x86_64]  new-setcap: new file capabilities cap_net_raw=p
EXP
	grep -E '  (new|wider)-[a-z-]+: ' "$work/out" >"$work/got" || true
	diff -u "$work/expected" "$work/got" || fail "--baseline capability regressions"
	distsec scan --format json -o "$work/c2.json" "$work"/c2/*.rpm || true
	run_distsec scan --baseline "$work/c2.json" "$work"/c2/*.rpm
	expect_rc 0
	# narrower capabilities are no regression
	run_distsec diff "$work/c2" "$work/c1"
	grep -q "wider-caps\|new-setcap" "$work/out" && fail "narrowed capabilities called a regression"
else
	echo "*skipped*: rpmbuild not installed, capability regressions not tested"
fi
echo "diff-privileges: ok"
