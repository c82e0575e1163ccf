#!/bin/sh
# Hostile reports and strings (issue #32 items 5-8, 16), each built here
# at test time: JSON reports of wrong types given to merge, diff and
# --baseline (a clear error naming the field, exit 2); terminal escapes
# in a .deb's control fields and member paths, in report strings merged,
# in a .changes file name and a waiver (escaped in every text sink);
# invalid UTF-8 in Package and Architecture (a valid UTF-8 JSON report);
# reports of many packages, findings and warnings, and a long waivers
# file (bounded time and, where /usr/bin/time is there, memory).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
mkdeb="$SRCDIR/e2e/mkdeb.py"
esc=$(printf '\033')
# A sanitizer's shadow memory and quarantine of freed blocks make the
# peak RSS no measure of distsec's own: the plain build is held to it.
# Its instrumentation also costs CPU (reading 300,001 waivers took 3 s,
# a diff of 20,000 packages 5 s): the CPU bounds, set to tell linear work
# from a quadratic one on the plain build, are three times as wide there.
cpu_scale=1
if grep -qa '__asan_init\|__tsan_init' "$DISTSEC"; then
	rss_limit_kb=4194304
	cpu_scale=3
	echo "a sanitized build: peak RSS not held to 256 MiB, CPU bounds three times as wide"
fi

expect_err() {
	printf '%s\n' "$1" >"$work/want"
	cmp -s "$work/want" "$work/err" || { diff "$work/want" "$work/err" >&2; fail "$desc: stderr"; }
}

no_escape() {
	! grep -q "$esc" "$1" || { cat -v "$1" >&2; fail "$desc: a raw ESC in $1"; }
}

# mutate OUT PYTHON: the base report (r) changed by PYTHON, written to
# OUT; then its text (t) changed by the optional third argument
mutate() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[3])
t = json.dumps(r)
exec(sys.argv[4])
open(sys.argv[2], "w").write(t)' "$work/base.json" "$work/$1" "$2" "${3:-}"
}

python3 "$mkdeb" "$work/p.deb" "usr/bin/tool:0755:$FIXTURES/nopie-norelro"
distsec scan -q --fail-on never --format json --shard 1/1 -o "$work/base.json" \
	--package-file "$work/p.deb" || fail "the base report"

# ---- item 5: every field's type checked, one message naming it ----
bad_report() {   # NAME PYTHON FIELD-MESSAGE [TEXT-PYTHON]
	desc="$1"
	mutate "$1.json" "$2" "${4:-}"
	run_distsec merge "$work/$1.json"
	expect_rc 2
	expect_err "distsec: merge: $work/$1.json: $3"
	run_distsec diff "$work/$1.json" "$work/base.json"
	expect_rc 2
	expect_err "distsec: diff: $work/$1.json: $3"
	run_distsec scan -q --baseline "$work/$1.json" --package-file "$work/p.deb"
	expect_rc 2
	expect_err "distsec: --baseline $work/$1.json: $3"
}
bad_report run-null 'r["summary"]["checks_run"] = [None]' 'summary.checks_run[0]: not a string'
bad_report warn-null 'r["summary"]["warnings"] = [None]' 'summary.warnings[0]: not a string'
bad_report unused-null 'r["summary"]["unused_waivers"] = [None]' \
	'summary.unused_waivers[0]: not a string'
bad_report skip-number 'r["summary"]["skipped_checks"] = [1]' 'summary.skipped_checks[0]: not an object'
bad_report no-message 'del r["findings"][2]["message"]' 'findings[2].message: missing'
bad_report owner-list 'r["findings"][1]["owner"] = []' 'findings[1].owner: not an object'
bad_report name-number 'r["findings"][0]["owner"]["name"] = 7' 'findings[0].owner.name: not a string'
bad_report details-string 'r["findings"][3]["details"] = "x"' 'findings[3].details: not an object'
bad_report waived-string 'r["findings"][0]["waived"] = "yes"' 'findings[0].waived: not true or false'
bad_report severity-bad 'r["findings"][0]["severity"] = "fatal"' \
	'findings[0].severity: not error, warning, info or pass'
bad_report files-negative 'r["summary"]["files"] = -1' \
	'summary.files: not a count (an integer from 0 to 2^53)'
bad_report shard-huge 'r["shard"] = {"index": 1, "count": 2**62}' \
	'shard.count: not a count (an integer from 0 to 2^53)'
bad_report shard-many 'r["shard"] = {"index": 1, "count": 4294967297}' \
	'shard: index 1 of count 4294967297 (1 <= index <= count <= 1000000)'
bad_report input-sha 'r["inputs"][0]["sha256"] = 5' 'inputs[0].sha256: not a string'
bad_report findings-twice '' 'findings: given twice' 't = t[:-1] + ", \"findings\": []}"'
bad_report trailing '' 'not JSON (data after the report)' 't += " {}"'
bad_report not-distsec 'r["tool"]["name"] = "other"' 'not a distsec JSON report (--format json)'

# an owner without a name (null, as a package file without one writes it)
desc="owner without a name"
mutate noname.json 'for f in r["findings"]: f["owner"]["name"] = None'
run_distsec merge --group-by package "$work/noname.json"
expect_rc 1
expect_line "== ? 1.0 amd64 (source hostile) - Hostile Maker <h@example.org> =="
expect_line "error    elf-relro                 /usr/bin/tool  no RELRO: relocated data such as the GOT stays writable"

echo "wrong types: a clear error each"

# ---- item 6: terminal escapes, escaped in every text sink ----
desc="escapes in a package's fields and member path"
printf 'Package: esc\nVersion: 1.0\033[2J\nArchitecture: amd64\033]0;t\007\nMaintainer: M\033[5m <m@example.org>\nSource: src\033[31m\nDescription: escapes\n' \
	>"$work/esc.control"
python3 "$mkdeb" --control "$work/esc.control" "$work/esc.deb" \
	"usr/bin/t${esc}[1mx:0755:$FIXTURES/nopie-norelro"
run_distsec scan --group-by package --package-file "$work/esc.deb"
expect_rc 1
no_escape "$work/out"
expect_line '== esc 1.0\x1b[2J amd64\x1b]0;t\x07 (source src\x1b[31m) - M\x1b[5m <m@example.org> =='
expect_line 'error    elf-relro                 /usr/bin/t\x1b[1mx  no RELRO: relocated data such as the GOT stays writable'
run_distsec diff "$work/p.deb" "$work/esc.deb"
expect_rc 1
no_escape "$work/out"
expect_line 'esc 1.0\x1b[2J amd64\x1b]0;t\x07: added'
expect_line '  error    new elf-relro             /usr/bin/t\x1b[1mx  no RELRO: relocated data such as the GOT stays writable'

desc="escapes in merged report strings"
mutate escaped.json 'r["backend"] = "none\x1b[31m"; r["profile"] = "deb\x1b[0m"
f = [f for f in r["findings"] if f["check"] == "elf-relro"][0]
f["rule"] = "V-1\x1b[5m"'
run_distsec merge "$work/escaped.json"
expect_rc 1
no_escape "$work/out"
expect_line 'error    elf-relro                 /usr/bin/tool  [hostile:amd64]  V-1\x1b[5m: no RELRO: relocated data such as the GOT stays writable'
expect_line '1 files (1 ELF, 0 scripts), 1 packages, backend none\x1b[31m, profile deb\x1b[0m: 1 errors, 0 warnings, 2 info'
run_distsec merge --format junit "$work/escaped.json"
no_escape "$work/out"
expect_line '      <failure type="elf-relro" message="1 finding at or above error">error: /usr/bin/tool: V-1\x1b[5m: no RELRO: relocated data such as the GOT stays writable'
if command -v xmllint >/dev/null; then
	xmllint --noout "$work/out" || fail "$desc: the JUnit report is not XML"
fi

desc="escapes on stderr: a .changes name, a waiver"
mkdir "$work/up"
printf 'Format: 1.8\nSource: x\nFiles:\n 0123 misc optional p.deb\n' >"$work/up/u${esc}[31m.changes"
run_distsec scan -q "$work/up/u${esc}[31m.changes"
expect_rc 2
expect_err "distsec: $work/up/u\\x1b[31m.changes: no Checksums-Sha256 field (not a .changes or .buildinfo?)"
printf 'elf-pie /nowhere\033[31m # why\n' >"$work/w.txt"
run_distsec scan --fail-on never --waivers "$work/w.txt" --package-file "$work/p.deb"
expect_rc 0
expect_err "distsec: note: unused waiver $work/w.txt:1: elf-pie /nowhere\\x1b[31m"
echo "escapes: escaped in the text report, diff, JUnit and on stderr"

# ---- item 7: invalid UTF-8 in Package and Architecture ----
desc="invalid UTF-8 in Package and Architecture"
printf 'Package: p\377q\nVersion: 1.0\nArchitecture: amd\37664\nMaintainer: M <m@example.org>\nDescription: bytes\n' \
	>"$work/u.control"
python3 "$mkdeb" --control "$work/u.control" "$work/u.deb" "usr/bin/tool:0755:$FIXTURES/nopie-norelro"
run_distsec scan --format json --package-file "$work/u.deb"
expect_rc 1
python3 -c 'import json, sys
r = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
assert list(r["summary"]["by_package"]) == ["p\\xffq.amd\\xfe64"], r["summary"]["by_package"]
' "$work/out" || fail "$desc: the JSON report is not valid UTF-8, or by_package's key is not cleaned"
echo "invalid UTF-8: the JSON report is valid UTF-8, keys cleaned"

# ---- item 8: large reports in bounded time and memory ----
mkreport="$SRCDIR/e2e/mkreport.py"
# cpu_under DESC MS: the measured run's CPU time (when measured)
cpu_under() {
	[ -z "$cpu_ms" ] || [ "$cpu_ms" -lt $(($2 * cpu_scale)) ] || fail "$1: ${cpu_ms} ms of CPU"
}
# large_reports N: a diff of 2N one-file packages, N of them
# renamed; a merge of 10N distinct warnings; a report of 8N findings of 2N
# packages merged (text and JSON), diffed and used as a --baseline; each
# run measured.  N=10000 is the bound asserted (bulk_runs: not under a
# wrapper; N=10 runs the same code there)
large_reports() {
	n=$1
	python3 "$mkreport" old "$work/old.json" $((2 * n))
	python3 "$mkreport" new "$work/new.json" $((2 * n))
	measured "diff of $((2 * n)) one-file packages, $n renamed" "$DISTSEC" diff "$work/old.json" "$work/new.json"
	expect_rc 0
	expect_line "$((2 * n)) packages compared ($n renamed), 0 added, 0 removed: 0 regressions, 0 new findings, 0 fixed"
	grep -q "^o1 " "$work/out" && fail "an unchanged package got a header"
	expect_line "o0 1.0-1 amd64 renamed to n0 1.0-1 amd64"
	cpu_under "$desc" 5000

	python3 "$mkreport" warnings "$work/warnings.json" $((10 * n))
	measured "merge of $((10 * n)) distinct warnings" "$DISTSEC" merge -q --format json "$work/warnings.json"
	expect_rc 0
	python3 -c 'import json, sys
assert len(json.load(open(sys.argv[1]))["summary"]["warnings"]) == int(sys.argv[2])' "$work/out" $((10 * n)) ||
		fail "$desc: not $((10 * n)) warnings"
	cpu_under "$desc" 3000

	python3 "$mkreport" big "$work/big.json" $((8 * n))
	echo "a report of $(wc -c <"$work/big.json") bytes, $((8 * n)) findings:"
	# measured fails over 256 MiB of peak RSS; read whole by json-c, the
	# report took 37 times its size; written as one json-c tree, 5.7 times
	measured "merge" "$DISTSEC" merge -q --fail-on never "$work/big.json"
	expect_line "$((8 * n)) files ($((8 * n)) ELF, 0 scripts), $((2 * n)) packages, backend dpkg, profile debian: 0 errors, 0 warnings, 0 info"
	measured "merge, JSON" "$DISTSEC" merge -q -v --fail-on never --format json -o "$work/merged.json" "$work/big.json"
	python3 -c 'import json, sys
a, b = (json.load(open(f))["findings"] for f in sys.argv[1:])
key = lambda f: (f["path"], f["check"])
assert sorted(a, key=key) == b' "$work/big.json" "$work/merged.json" || fail "$desc: not the report's findings"
	measured "diff" "$DISTSEC" diff -q "$work/big.json" "$work/big.json"
	expect_line "$((2 * n)) packages compared (0 renamed), 0 added, 0 removed: 0 regressions, 0 new findings, 0 fixed"
	measured "--baseline" "$DISTSEC" scan -q --fail-on never --baseline "$work/big.json" --package-file "$work/p.deb"
	expect_line "1 files (1 ELF, 0 scripts), 1 packages, backend none, profile debian: 1 errors, 0 warnings, 2 info; against the baseline 3 new, 0 unchanged, $((6 * n)) absent"
	measured "--baseline, JSON" "$DISTSEC" scan -q --fail-on never --format json --baseline "$work/big.json" \
		--package-file "$work/p.deb"
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["absent"]) == int(sys.argv[2]) and r["absent"][0]["baseline"] == "absent"' "$work/out" $((6 * n)) ||
		fail "$desc: not $((6 * n)) absent records"
}
large_reports 10
if bulk_runs "reports of 2*10^4 to 10^5 records"; then
large_reports 10000
fi

# ---- item 16: a long waivers file is matched through an index ----
if bulk_runs "300,001 waivers over 1,000 programs"; then
desc="300001 waivers, 1000 programs"
i=0
while [ $i -lt 1000 ]; do
	place nopie-norelro "usr/bin/f$i"
	i=$((i + 1))
done
python3 -c 'import sys
with open(sys.argv[1], "w") as w:
    w.write("elf-relro /usr/bin/f1* # the glob comes first\n")
    w.write("* /usr/bin/f7 # the exact path comes first\n")
    for i in range(149998):
        w.write("elf-relro /usr/bin/x%d # not here\n" % i)
        w.write("* /usr/lib/x%d/* # not here either\n" % i)
    w.write("elf-relro /usr/bin/f1 # later: not the one\n")
    w.write("elf-relro /usr/bin/f7 # later: not the one\n")
    w.write("elf-pie /usr/bin/f99[0-9] # a glob at the end\n")' "$work/waivers"
# the same scan without waivers: what the waivers may add to its CPU time.
# Both bulk: upload.sh runs waivers files of exact paths and globs, matched
# and unused, under the wrapper
measured "the same scan without waivers" "$DISTSEC" scan -q -v --root "$root" --backend none \
	--check elf-relro,elf-pie /usr/bin
base_ms=$cpu_ms
measured "300001 waivers, 1000 programs" "$DISTSEC" scan -q -v --root "$root" --backend none --check elf-relro,elf-pie \
	--waivers "$work/waivers" /usr/bin
# a fnmatch per waiver and finding: 600 million, 7 s
[ -z "$cpu_ms" ] || [ "$cpu_ms" -lt $(((base_ms * 3 / 2 + 2000) * cpu_scale)) ] ||
	fail "$desc: ${cpu_ms} ms of CPU, ${base_ms} ms without the waivers"
# waived KEY REASON: the finding "check path" is waived for REASON
waived() {
	grep -F "$1  [unknown]" "$work/out" | grep -qF "(waived: $2)" || fail "$desc: $1 not waived for '$2'"
}
waived "elf-relro                 /usr/bin/f1" "the glob comes first"
waived "elf-relro                 /usr/bin/f13" "the glob comes first"
waived "elf-relro                 /usr/bin/f7" "the exact path comes first"
waived "elf-pie                   /usr/bin/f7" "the exact path comes first"
waived "elf-pie                   /usr/bin/f995" "a glob at the end"
! grep -F "elf-relro                 /usr/bin/f2  [" "$work/out" | grep -qF "(waived:" ||
	fail "$desc: /usr/bin/f2 waived"
# elf-relro: f1, f10..f19, f100..f199, f1000.. (111 + 1: f7); elf-pie: f7, f990..f999
expect_line "1000 files (1000 ELF, 0 scripts), 0 packages, backend none, profile stig: 888 errors, 0 warnings, 989 info, 123 waived, 299998 unused waivers"
fi
echo "large reports and waivers files: bounded"
