#!/bin/sh
# Regressions between two builds of fixture packages made here with
# dpkg-deb: version 1.1 of fixd loses RELRO and BIND_NOW on one program and
# makes another setuid, and its subpackage fixd-data is renamed fixd-common.
# `distsec diff` over the package files and over two JSON reports, then
# --baseline (text, JSON and SARIF validated, JUnit, exit status).
. "$(dirname "$0")/lib.sh"
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not installed"; exit 77; }
V="python3 $SRCDIR/e2e/validate.py"

# mkdeb DIR NAME VERSION FIXTURE:PATH:MODE...
mkdeb() {
	out=$1 name=$2 version=$3
	shift 3
	d="$work/tree-$name-$version"
	mkdir -p "$d/DEBIAN" "$out"
	printf 'Package: %s\nVersion: %s\nArchitecture: amd64\nMaintainer: Fix Er <fix@example.org>\nDescription: fixture\n' \
		"$name" "$version" >"$d/DEBIAN/control"
	for spec in "$@"; do
		fx=${spec%%:*} rest=${spec#*:}
		mkdir -p "$d/$(dirname "${rest%%:*}")"
		cp "$FIXTURES/$fx" "$d/${rest%%:*}"
		chmod "${rest#*:}" "$d/${rest%%:*}"
	done
	dpkg-deb --root-owner-group -Znone -b "$d" "$out/${name}_${version}_amd64.deb" >/dev/null
}
mkdeb "$work/v1" fixd 1.0-1 pie-full:usr/bin/fixd-tool:0755 pie-full:usr/bin/fixd-helper:0755
mkdeb "$work/v1" fixd-data 1.0-1 libfix.so:usr/lib/fixd/plugin.so:0644
mkdeb "$work/v2" fixd 1.1-1 pie-norelro:usr/bin/fixd-tool:0755 pie-full:usr/bin/fixd-helper:4755
mkdeb "$work/v2" fixd-common 1.1-1 libfix.so:usr/lib/fixd/plugin.so:0644

# 1. two directories of package files
run_distsec diff "$work/v1" "$work/v2"
expect_rc 1
cat >"$work/expected" <<EOF
distsec diff $work/v1 -> $work/v2

fixd 1.0-1 -> 1.1-1 amd64
  error    new-setuid                /usr/bin/fixd-helper  new setuid file
  error    lost-relro                /usr/bin/fixd-tool  RELRO full -> none
  error    lost-bind-now             /usr/bin/fixd-tool  BIND_NOW lost
  error    new elf-relro             /usr/bin/fixd-tool  no RELRO: relocated data such as the GOT stays writable

fixd-data 1.0-1 amd64 renamed to fixd-common 1.1-1 amd64

2 packages compared (1 renamed), 0 added, 0 removed: 3 regressions, 1 new findings, 0 fixed
EOF
diff -u "$work/expected" "$work/out" || fail "diff of two builds"
run_distsec diff --fail-on never "$work/v1" "$work/v2"
expect_rc 0
# the same build on both sides: nothing
run_distsec diff "$work/v2" "$work/v2"
expect_rc 0
expect_line "2 packages compared (0 renamed), 0 added, 0 removed: 0 regressions, 0 new findings, 0 fixed"
# an unchanged package gets no header: only the title and the count
[ "$(grep -c . "$work/out")" = 2 ] || fail "unchanged packages have headers: $(cat "$work/out")"
# one package file a side; the new build's setuid file alone still fails
run_distsec diff "$work/v1/fixd_1.0-1_amd64.deb" "$work/v2/fixd_1.1-1_amd64.deb" --check elf-pie
expect_rc 1
expect_line "  error    new-setuid                /usr/bin/fixd-helper  new setuid file"
grep -q "lost-relro" "$work/out" && fail "--check elf-pie still compared RELRO"
# the old build gone entirely: packages added and removed
run_distsec diff "$work/v1/fixd-data_1.0-1_amd64.deb" "$work/v2/fixd_1.1-1_amd64.deb"
expect_rc 1
expect_line "fixd 1.1-1 amd64: added"
expect_line "fixd-data 1.0-1 amd64: removed"

# 2. two JSON reports (scan -v) say the same; --format json
distsec scan -v --format json -o "$work/old.json" "$work"/v1/*.deb || true
distsec scan -v --format json -o "$work/new.json" "$work"/v2/*.deb || true
run_distsec diff "$work/old.json" "$work/new.json"
expect_rc 1
tail -n +2 "$work/expected" >"$work/body"
tail -n +2 "$work/out" | diff -u "$work/body" - || fail "diff of two JSON reports differs from the package diff"
run_distsec diff --format json "$work/old.json" "$work/new.json"
expect_rc 1
python3 - "$work/out" <<'PY' || fail "diff --format json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["summary"] == {"compared": 2, "renamed": 1, "added": 0, "removed": 0,
                        "regressions": 3, "new_findings": 1, "fixed": 0}, d["summary"]
p = {x["new"]["name"]: x for x in d["packages"]}
assert p["fixd-common"]["status"] == "renamed" and p["fixd-common"]["old"]["name"] == "fixd-data"
assert [(r["kind"], r["path"]) for r in p["fixd"]["regressions"]] == [
    ("new-setuid", "/usr/bin/fixd-helper"), ("lost-relro", "/usr/bin/fixd-tool"),
    ("lost-bind-now", "/usr/bin/fixd-tool")], p["fixd"]["regressions"]
assert [(f["check"], f["severity"]) for f in p["fixd"]["new_findings"]] == [("elf-relro", "error")]
PY
# both builds in one scan: summary.packages counts every package read, and
# by_package keeps the two versions of fixd apart
distsec scan --format json -o "$work/both.json" "$work"/v1/*.deb "$work"/v2/*.deb || true
python3 - "$work/both.json" <<'PY' || fail "two versions of one package in one scan"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
assert s["packages"] == 4, s["packages"]
assert sorted(s["by_package"]) == ["fixd-1.0-1.amd64", "fixd-1.1-1.amd64", "fixd-common.amd64",
                                   "fixd-data.amd64"], sorted(s["by_package"])
assert s["by_package"]["fixd-1.1-1.amd64"]["relro"] == "no", s["by_package"]
assert s["by_package"]["fixd-1.0-1.amd64"]["relro"] == "yes", s["by_package"]
PY
# a report made without -v: a note, and what findings still show
distsec scan --format json -o "$work/new-nopass.json" "$work"/v2/*.deb || true
run_distsec diff "$work/old.json" "$work/new-nopass.json"
grep -q "new-nopass.json has no passes" "$work/err" || fail "no note about a report without passes"
# bad input is a clear error
echo '{"tool":{"name":"other"}}' >"$work/other.json"
run_distsec diff "$work/old.json" "$work/other.json"
expect_rc 2
grep -q "other.json: not a distsec JSON report" "$work/err" || fail "foreign JSON not refused"
run_distsec diff "$work/old.json"
expect_rc 2

# 3. --baseline: the new build scanned against the old build's report
run_distsec scan --color never --baseline "$work/old.json" "$work"/v2/*.deb
expect_rc 1
expect_line "error    elf-relro                 /usr/bin/fixd-tool  [fixd:amd64]  no RELRO"
grep -q "^info     elf-fortify" "$work/out" && fail "unchanged findings listed without -v"
expect_line "error    elf-pie                   /usr/bin/fixd-helper  [fixd:amd64]  new-setuid: new setuid file"
expect_line "; against the baseline 2 new, 3 unchanged, 0 absent"
run_distsec scan --color never -v --baseline "$work/old.json" "$work"/v2/*.deb
expect_line "info     elf-fortify               /usr/bin/fixd-helper  [fixd:amd64]"
# only new findings gate: the new build against its own report passes,
# with every finding unchanged
run_distsec scan --format json --baseline "$work/new.json" --fail-on info "$work"/v2/*.deb
expect_rc 0
$V json "$work/out" >/dev/null || fail "--baseline JSON does not validate"
python3 - "$work/out" <<'PY' || fail "--baseline JSON fields"
import json, sys
d = json.load(open(sys.argv[1]))
assert {f["baseline"] for f in d["findings"]} == {"unchanged"}, d["findings"]
assert d["summary"]["baseline"]["new"] == 0 and d["summary"]["baseline"]["unchanged"] == 4
assert d["absent"] == []
PY
# the old build against the new one's report: its RELRO finding is absent
run_distsec scan --format sarif --baseline "$work/new.json" "$work"/v1/*.deb
expect_rc 0
$V sarif "$work/out" >/dev/null || fail "--baseline SARIF does not validate"
python3 - "$work/out" <<'PY' || fail "--baseline SARIF baselineState"
import json, sys
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
states = sorted((r["ruleId"], r["baselineState"]) for r in res)
assert states == [("elf-fortify", "unchanged")] * 3 + [("elf-relro", "absent")], states
PY
run_distsec scan --format json --baseline "$work/new.json" "$work"/v1/*.deb
$V json "$work/out" >/dev/null || fail "JSON with absent findings does not validate"
grep -q '"baseline":"absent"' "$work/out" || fail "no absent finding in JSON"
# JUnit: only the new findings fail their testcases (no RELRO, the new setuid file)
run_distsec scan --format junit --baseline "$work/old.json" "$work"/v2/*.deb
expect_rc 1
$V junit "$work/out" >/dev/null || fail "--baseline JUnit does not validate"
[ "$(grep -c '<failure ' "$work/out")" = 2 ] || fail "JUnit failures are not the two new findings"
run_distsec scan --baseline "$work/missing.json" "$work"/v2/*.deb
expect_rc 2
grep -q "baseline $work/missing.json: No such file" "$work/err" || fail "missing baseline not named"

# 4. every kind of hardening regression: PIE, RELRO, BIND_NOW,
#    canary and FORTIFY lost; execstack, TEXTREL and RPATH added; a new
#    setgid file.  (File capabilities are not tested here: a .deb cannot
#    carry them.)
mkdeb "$work/e1" fixe 1.0 pie-full:usr/bin/fixe-pie:0755 hardened:usr/bin/fixe-hard:0755 \
	pie-full:usr/bin/fixe-stack:0755 libfix.so:usr/lib/fixe/libfixe.so:0644 \
	pie-full:usr/bin/fixe-rpath:0755 pie-full:usr/bin/fixe-sgid:0755
mkdeb "$work/e2" fixe 1.1 nopie-partial:usr/bin/fixe-pie:0755 unhardened:usr/bin/fixe-hard:0755 \
	execstack:usr/bin/fixe-stack:0755 libtextrel.so:usr/lib/fixe/libfixe.so:0644 \
	rpath-abs:usr/bin/fixe-rpath:0755 pie-full:usr/bin/fixe-sgid:2755
run_distsec diff "$work/e1" "$work/e2"
expect_rc 1
cat >"$work/expected" <<EOF
distsec diff $work/e1 -> $work/e2

fixe 1.0 -> 1.1 amd64
  warning  lost-canary               /usr/bin/fixe-hard  stack protector lost
  warning  lost-fortify              /usr/bin/fixe-hard  FORTIFY lost
  warning  lost-pie                  /usr/bin/fixe-pie  PIE lost
  warning  lost-relro                /usr/bin/fixe-pie  RELRO full -> partial
  warning  lost-bind-now             /usr/bin/fixe-pie  BIND_NOW lost
  warning  lost-relro                /usr/bin/fixe-rpath  RELRO full -> partial
  warning  lost-bind-now             /usr/bin/fixe-rpath  BIND_NOW lost
  warning  new-rpath                 /usr/bin/fixe-rpath  RPATH/RUNPATH added
  error    new-setgid                /usr/bin/fixe-sgid  new setgid file
  error    new-execstack             /usr/bin/fixe-stack  executable stack added
  warning  new-textrel               /usr/lib/fixe/libfixe.so  TEXTREL added
EOF
head -3 "$work/out" >"$work/got"
grep -E '^  (error|warning)  +(lost|new)-' "$work/out" >>"$work/got"
cmp -s "$work/expected" "$work/got" || { diff "$work/expected" "$work/got" >&2; fail "every regression kind"; }
expect_line "1 packages compared (0 renamed), 0 added, 0 removed: 11 regressions, 6 new findings, 1 fixed"
# 5. what a maintainer calls the same file
# a report made without -v against the package files it came from: the
# same build, nothing to say (the setuid helper, the clean package)
mkdir -p "$work/c/tree/DEBIAN" "$work/c/tree/usr/share/fixclean"
printf 'Package: fixclean\nVersion: 1.0\nArchitecture: amd64\nMaintainer: F <f@example.org>\nDescription: f\n' \
	>"$work/c/tree/DEBIAN/control"
echo data >"$work/c/tree/usr/share/fixclean/data"
dpkg-deb --root-owner-group -Znone -b "$work/c/tree" "$work/v2/fixclean_1.0_amd64.deb" >/dev/null
distsec scan --format json -o "$work/v2.json" "$work"/v2/*.deb || true
run_distsec diff "$work/v2.json" "$work/v2"
expect_rc 0
expect_line "3 packages compared (0 renamed), 0 added, 0 removed: 0 regressions, 0 new findings, 0 fixed"
rm "$work/v2/fixclean_1.0_amd64.deb"
# a version in a file name: the same defect in libfix-1.2.so and libfix-1.3.so
mkdeb "$work/s1" fixs 1.2 libtextrel.so:usr/lib/libfix-1.2.so:0644 pie-norelro:usr/lib/python3.11/fixs:0755
mkdeb "$work/s2" fixs 1.3 libtextrel.so:usr/lib/libfix-1.3.so:0644 pie-norelro:usr/lib/python3.12/fixs:0755
run_distsec diff "$work/s1" "$work/s2"
expect_rc 0
expect_line "1 packages compared (0 renamed), 0 added, 0 removed: 0 regressions, 0 new findings, 0 fixed"
distsec scan -v --format json -o "$work/s1.json" "$work"/s1/*.deb || true
run_distsec scan --baseline "$work/s1.json" "$work"/s2/*.deb
expect_rc 0
expect_line "; against the baseline 0 new, 3 unchanged, 0 absent"
distsec scan --format sarif -o "$work/s1.sarif" "$work"/s1/*.deb || true
distsec scan --format sarif -o "$work/s2.sarif" "$work"/s2/*.deb || true
python3 - "$work/s1.sarif" "$work/s2.sarif" <<'PY' || fail "SARIF fingerprints change with a version in a name"
import json, sys
fp = [sorted(r["partialFingerprints"]["distsecFinding/v1"] for r in json.load(open(f))["runs"][0]["results"])
      for f in sys.argv[1:]]
assert fp[0] and fp[0] == fp[1], fp
PY
# a regression on a renamed file names both
mkdeb "$work/s3" fixs 1.4 libtextrel.so:usr/lib/libfix-1.4.so:0644 pie-full:usr/lib/python3.12/fixs:4755
run_distsec diff "$work/s2" "$work/s3"
expect_rc 1
expect_line "  error    new-setuid                /usr/lib/python3.12/fixs  new setuid file"
mkdeb "$work/s4" fixs 1.5 pie-norelro:usr/lib/libfix-1.5.so:0755
mkdeb "$work/s5" fixs 1.6 nopie-norelro:usr/lib/libfix-1.6.so:0755
run_distsec diff --check elf-pie "$work/s4" "$work/s5"
expect_line "  warning  lost-pie                  /usr/lib/libfix-1.6.so  PIE lost (was /usr/lib/libfix-1.5.so)"
# --waivers in diff as in scan: the waived regressions and findings do not gate
printf 'elf-relro /usr/bin/fixd-tool # tested elsewhere\nelf-pie /usr/bin/fixd-helper # setuid by design\n' \
	>"$work/w"
run_distsec diff --waivers "$work/w" "$work/old.json" "$work/new.json"
expect_rc 0
expect_line "  error    new-setuid                /usr/bin/fixd-helper  new setuid file (waived)"
grep -q "unused waiver" "$work/err" && fail "diff --waivers: a used waiver called unused"
run_distsec diff --waivers "$work/w" "$work/v1" "$work/v2"
expect_rc 0
# waived findings in a -v report stay waived
distsec scan -v --format json --waivers "$work/w" -o "$work/new-w.json" "$work"/v2/*.deb || true
run_distsec diff "$work/old.json" "$work/new-w.json" --check elf-relro
grep -q "new elf-relro" "$work/out" || fail "the waived finding is not listed"
run_distsec diff --fail-on warning "$work/old.json" "$work/new-w.json"
grep -q "lost-relro .* (waived)" "$work/out" || fail "a regression of a waived record is not waived"
echo "diff: ok"
