#!/bin/sh
# JSON, SARIF and JUnit renderings of one fixture tree: each validated
# (schemas in tests/schema, python3-jsonschema, xml.etree), the same
# findings in each, deterministic across -j, a hostile file name kept valid;
# then waivers, -o and --report-dir.
. "$(dirname "$0")/lib.sh"
V="python3 $SRCDIR/e2e/validate.py"

place nopie-norelro usr/bin/old-style
place execstack usr/bin/trampoline
place pie-full usr/bin/good
place nopie-norelro "usr/bin/bad$(printf '\377')name"
place nopie-norelro "usr/bin/new
line"
place libfix-norelro.so usr/lib/libbad.so.1 0644

for fmt in json sarif junit; do
	run_distsec scan --root "$root" --backend none --format $fmt -j1
	expect_rc 1
	$V $fmt "$work/out" || fail "$fmt report does not validate"
	cp "$work/out" "$work/$fmt.1"
	run_distsec scan --root "$root" --backend none --format $fmt -j2
	if [ $fmt = junit ]; then
		cmp "$work/$fmt.1" "$work/out" || fail "$fmt differs between -j1 and -j2"
	else # the seconds field differs
		grep -v '"seconds"' "$work/$fmt.1" >"$work/a"; grep -v '"seconds"' "$work/out" >"$work/b"
		cmp "$work/a" "$work/b" || fail "$fmt differs between -j1 and -j2"
	fi
done
# the same findings in every format
n_text=$(distsec scan --root "$root" --backend none --color never | grep -c '^error\|^warning\|^info' || true)
n_json=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$work/json.1")
n_sarif=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["runs"][0]["results"]))' "$work/sarif.1")
n_junit=$(grep -c '^\(      <[^>]*>\)\?\(error\|warning\|info\): ' "$work/junit.1")
[ "$n_text" = "$n_json" ] && [ "$n_json" = "$n_sarif" ] && [ "$n_sarif" = "$n_junit" ] ||
	fail "finding counts differ: text $n_text json $n_json sarif $n_sarif junit $n_junit"
grep -q '"path":"/usr/bin/bad\\\\xffname"' "$work/json.1" || fail "invalid UTF-8 not escaped in JSON"
grep -q 'usr/bin/bad%FFname' "$work/sarif.1" || fail "invalid UTF-8 not percent-encoded in SARIF"
grep -q 'usr/bin/new%0Aline' "$work/sarif.1" || fail "newline not percent-encoded in SARIF"
run_distsec scan --root "$root" --backend none --color never --check elf-relro
expect_line '/usr/bin/new\nline  [unknown]'
expect_line '/usr/bin/bad\xffname  [unknown]'

# JUnit: a testcase per check that ran, one <failure> with every finding at
# or above --fail-on, lower ones in <system-out>, skipped checks <skipped>
j="$work/junit.1"
grep -qF '<testcase classname="(unknown)" name="elf-relro">' "$j" || fail "no elf-relro testcase"
grep -qF '<failure type="elf-relro" message="4 findings at or above error">error: /usr/bin/bad\xffname: no RELRO' "$j" ||
	fail "elf-relro failure does not list its findings"
[ "$(grep -c '<failure ' "$j")" = 2 ] || fail "JUnit failures are not elf-relro and elf-execstack only"
grep -qF '<testcase classname="(unknown)" name="elf-textrel"/>' "$j" || fail "clean testcase missing"
grep -qF '<system-out>info: /usr/bin/bad\xffname: not built as a position-independent' "$j" ||
	fail "info findings are not in system-out"
grep -qF 'name="selinux-dev-label">' "$j" && grep -qF '<skipped message="the root has no SELinux policy' "$j" ||
	fail "skipped check not <skipped>"
run_distsec scan --root "$root" --backend none --format junit --fail-on info
expect_rc 1
$V junit "$work/out" >/dev/null || fail "--fail-on info JUnit does not validate"
grep -qF '<failure type="elf-pie" message="3 findings at or above info">' "$work/out" || fail "--fail-on info: elf-pie not failing"
run_distsec scan --root "$root" --backend none --format junit --fail-on never
expect_rc 0
grep -q '<failure' "$work/out" && fail "--fail-on never still writes failures"
grep -qF '<testsuites name="distsec" tests="' "$work/out" || fail "no totals"
# a clean tree is a set of passed tests, never an empty report
mkdir -p "$work/clean/usr/bin"
cp "$FIXTURES/pie-full" "$work/clean/usr/bin/fine"
run_distsec scan --root "$work/clean" --backend none --format junit --check elf-pie,elf-relro
expect_rc 0
$V junit "$work/out" >/dev/null || fail "clean JUnit does not validate"
expect_line '<testsuites name="distsec" tests="2" failures="0" errors="0">'
expect_line '<testcase classname="(unknown)" name="elf-pie"/>'
# U+FFFE (valid UTF-8, not an XML character) and an overlong '/' in a name
mkdir -p "$work/odd/usr/bin"
cp "$FIXTURES/nopie-norelro" "$work/odd/usr/bin/a$(printf '\357\277\276')b"
cp "$FIXTURES/nopie-norelro" "$work/odd/usr/bin/c$(printf '\300\257')d"
cp "$FIXTURES/nopie-norelro" "$work/odd/usr/bin/e$(printf '\355\240\200')f"
run_distsec scan --root "$work/odd" --backend none --format junit --check elf-relro
$V junit "$work/out" >/dev/null || fail "JUnit with U+FFFE, an overlong form or a surrogate is not valid"
expect_line 'error: /usr/bin/a\uFFFEb: no RELRO'
expect_line 'error: /usr/bin/c\xc0\xafd: no RELRO'
expect_line 'error: /usr/bin/e\xed\xa0\x80f: no RELRO'
run_distsec scan --root "$work/odd" --backend none --format json --check elf-relro
$V json "$work/out" >/dev/null || fail "JSON with an overlong form or a surrogate is not strict UTF-8"

# SARIF as GitHub code scanning reads it: documented rules, fingerprints,
# lines of script findings, a category, and what the scan could not see
mkdir -p "$root/usr/share/fx"
printf '#!/bin/sh\necho start\necho x > /tmp/fixed-name\n' >"$root/usr/share/fx/writer"
chmod 755 "$root/usr/share/fx/writer"
printf 'elf-relro /usr/bin/nothing-here # stale\n' >"$work/stale-waivers"
run_distsec scan --root "$root" --backend none --format sarif --sarif-category ci/root --waivers "$work/stale-waivers"
$V sarif "$work/out" >/dev/null || fail "SARIF with script findings does not validate"
python3 - "$work/out" <<'PY' || fail "SARIF lacks what code scanning needs"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
for r in rules.values():
    assert r["fullDescription"]["text"] and r["help"]["text"] and r["help"]["markdown"], r["id"]
    p = r["properties"]
    assert "security" in p["tags"] and float(p["security-severity"]) > 0 and p["precision"], r["id"]
assert "external/cwe/cwe-693" in rules["elf-relro"]["properties"]["tags"]
assert rules["elf-relro"]["properties"]["cwe"] == "CWE-693"
assert rules["elf-pie"]["defaultConfiguration"]["level"] == "note"       # info for plain programs
assert rules["elf-execstack"]["defaultConfiguration"]["level"] == "error"  # always error
assert run["automationDetails"]["id"] == "ci/root/"
res = [r for r in run["results"] if r["ruleId"] == "script-sh-tmp"]
assert len(res) == 1, res
loc = res[0]["locations"][0]["physicalLocation"]
assert loc["artifactLocation"]["uri"] == "usr/share/fx/writer" and loc["region"]["startLine"] == 3, loc
assert res[0]["level"] == "warning"
prints = [r["partialFingerprints"]["distsecFinding/v1"] for r in run["results"]]
assert len(set(prints)) == len(prints), "fingerprints collide"
inv = run["invocations"][0]
assert inv["executionSuccessful"] is True
notes = [n["message"]["text"] for n in inv["toolExecutionNotifications"]]
assert any(n.startswith("selinux-dev-label skipped: ") for n in notes), notes
assert any(n.endswith("stale-waivers:1: elf-relro /usr/bin/nothing-here") and n.startswith("unused waiver ") for n in notes), notes
PY
grep -q 'note: unused waiver .*stale-waivers:1: elf-relro /usr/bin/nothing-here' "$work/err" || fail "unused waiver not noted on stderr"
# the fingerprint names the check, path, package name and rule, nothing that
# changes between builds: the same file in another root prints the same
run_distsec scan --root "$work/odd" --backend none --format sarif --check elf-relro -j1
cp "$work/out" "$work/sarif.b"
place nopie-norelro "usr/bin/a$(printf '\357\277\276')b"
run_distsec scan --root "$root" --backend none --format sarif --check elf-relro
python3 - "$work/sarif.b" "$work/out" <<'PY' || fail "fingerprints differ between runs over different roots"
import json, sys
def prints(f):
    return {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r["partialFingerprints"]["distsecFinding/v1"]
            for r in json.load(open(f))["runs"][0]["results"]}
a, b = prints(sys.argv[1]), prints(sys.argv[2])
key = "usr/bin/a%EF%BF%BEb"
assert a[key] == b[key], (a[key], b[key])
PY
rm -f "$root/usr/bin/a$(printf '\357\277\276')b" "$root/usr/share/fx/writer"

# waivers: waived findings are counted, listed with -v, and do not fail the run
cat >"$work/waivers" <<'W'
# distsec waivers
elf-relro /usr/bin/* # legacy tools, tracked in bug 1234
elf-execstack /usr/bin/trampoline # needs an executable stack for its JIT
elf-pie /usr/bin/* # not PIE by design
W
run_distsec scan --root "$root" --backend none --color never --check elf-relro,elf-execstack,elf-pie --waivers "$work/waivers"
expect_rc 1   # /usr/lib/libbad.so.1 has no waiver
expect_line "1 errors, 0 warnings, 0 info, 7 waived"
grep -q "waived:" "$work/out" && fail "waived findings listed without -v"
run_distsec scan -v --root "$root" --backend none --color never --check elf-relro,elf-execstack,elf-pie --waivers "$work/waivers"
expect_line "error    elf-relro                 /usr/bin/old-style  [unknown]  no RELRO: relocated data such as the GOT stays writable  (waived: legacy tools, tracked in bug 1234)"
echo 'elf-relro /usr/lib/* # the fixture library' >>"$work/waivers"
run_distsec scan --root "$root" --backend none --format json --check elf-relro,elf-execstack,elf-pie --waivers "$work/waivers"
expect_rc 0
$V json "$work/out" >/dev/null || fail "waived JSON does not validate"
grep -q '"waiver":"legacy tools, tracked in bug 1234"' "$work/out" || fail "no waiver in JSON"
run_distsec scan --root "$root" --backend none --format sarif --check elf-relro --waivers "$work/waivers"
grep -q '"justification":"the fixture library"' "$work/out" || fail "no suppression in SARIF"
printf 'elf-relro /usr/bin/x\n' >"$work/bad-waivers"
run_distsec scan --root "$root" --backend none --waivers "$work/bad-waivers"
expect_rc 2
grep -q "waivers $work/bad-waivers:1: no reason" "$work/err" || fail "malformed waiver not named"
printf '# ok\nno-such-check /x # r\n' >"$work/bad-waivers"
run_distsec scan --root "$root" --backend none --waivers "$work/bad-waivers"
expect_rc 2
grep -q "bad-waivers:2: unknown check id" "$work/err" || fail "unknown check in waiver not named"

# -o writes atomically: the file appears whole, no temporary is left
run_distsec scan --root "$root" --backend none --format json -o "$work/report.json"
[ ! -s "$work/out" ] || fail "-o also wrote to stdout"
$V json "$work/report.json" >/dev/null || fail "-o report does not validate"
[ "$(ls "$work" | grep -c 'report.json.')" = 0 ] || fail "temporary file left behind"
# a new report gets the umask's mode, a rewritten one keeps its own
(umask 022; rm -f "$work/report.json"; distsec scan --root "$root" --backend none -o "$work/report.json" || true)
[ "$(stat -c %a "$work/report.json")" = 644 ] || fail "new -o report has mode $(stat -c %a "$work/report.json")"
chmod 640 "$work/report.json"
run_distsec scan --root "$root" --backend none -o "$work/report.json"
[ "$(stat -c %a "$work/report.json")" = 640 ] || fail "-o changed the mode of the report it replaced"
# through a symlink: the target is rewritten, the link stays
ln -s report.json "$work/link.json"
run_distsec scan --root "$root" --backend none --format json -o "$work/link.json"
[ -L "$work/link.json" ] || fail "-o replaced a symlink instead of writing its target"
$V json "$work/report.json" >/dev/null || fail "report written through a symlink does not validate"
# a FIFO (and, as root, a device node) is written to, never replaced:
# renaming over it would turn -o /dev/null into a regular file
mkfifo "$work/fifo"
cat "$work/fifo" >"$work/from-fifo" &
reader=$!
run_distsec scan --root "$root" --backend none --format json -o "$work/fifo"
wait $reader
[ -p "$work/fifo" ] || fail "-o replaced a FIFO"
$V json "$work/from-fifo" >/dev/null || fail "report written to a FIFO does not validate"
if [ "$(id -u)" = 0 ] && mknod "$work/null" c 1 3 2>/dev/null; then
	run_distsec scan --root "$root" --backend none -o "$work/null"
	[ -c "$work/null" ] || fail "-o replaced a character device with a file"
fi

run_distsec scan --root "$root" --backend none --report-dir "$work/rd"
expect_rc 2
grep -q "needs --group-by" "$work/err" || fail "--report-dir without --group-by accepted"
echo "formats: ok"
