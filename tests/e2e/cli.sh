#!/bin/sh
# The command line: every subcommand rejects what it does not know;
# `distsec explain` and `distsec checks --format json` come from the check
# descriptors; text escapes C1 controls and bidi overrides; the JSON summary
# says which checks ran and which waivers matched nothing.
. "$(dirname "$0")/lib.sh"

for args in "checks extra" "checks --bogus" "checks --format xml" "explain" "explain elf-pie elf-relro" \
	"explain no-such-check" "backends extra" "backends --bogus" "scan --bogus" "frobnicate" \
	"profiles extra" "profiles --bogus" "diff --bogus a b" "diff onlyone" "merge --bogus"; do
	run_distsec $args
	[ "$rc" = 2 ] || fail "'distsec $args' exited $rc, expected 2"
	[ -s "$work/err" ] || fail "'distsec $args' gave no message"
done

# an unknown option says where the options are, as every usage error does
for args in "scan --bogus" "checks --bogus" "merge --bogus" "checks extra"; do
	run_distsec $args
	grep -qx "Try 'distsec --help'." "$work/err" || fail "'distsec $args': no pointer to --help"
done

run_distsec diff --bogus a b
grep -qF "unrecognized option '--bogus'" "$work/err" || fail "diff --bogus: getopt's message"
grep -qx "distsec diff: *" "$work/err" && fail "diff --bogus: an empty message line"

run_distsec explain elf-relro
expect_rc 0
expect_line "elf-relro: executable or library without (full) RELRO (severity by program class)"
expect_line "How to fix: Link with -Wl,-z,relro,-z,now"
expect_line "Severity: no RELRO: error; partial RELRO: warning for"
expect_line "CWE: CWE-693 (https://cwe.mitre.org/data/definitions/693.html)"
run_distsec explain elf-execstack
# every regression id diff reports is explained
for id in lost-pie lost-relro lost-bind-now lost-canary lost-fortify new-execstack new-textrel \
	new-rpath wider-caps new-world-writable new-daemon new-owner new-setuid new-setgid new-setcap; do
	run_distsec explain "$id"
	expect_rc 0
	grep -q "^$id: a regression \`distsec diff\` reports" "$work/out" || fail "explain $id"
done
expect_line "What: a file that had no file capabilities has some now, or a new file does: it runs with those capabilities of root's (cap_net_raw, cap_sys_admin ...)."
expect_line "Severity: always error"

distsec checks | cut -d' ' -f1 >"$work/ids"
distsec checks --format json >"$work/checks.json"
python3 - "$work/checks.json" "$work/ids" <<'PY' || fail "checks --format json is not the registry"
import json, sys
checks = json.load(open(sys.argv[1]))
ids = open(sys.argv[2]).read().split()
assert [c["id"] for c in checks] == ids, ids
for c in checks:
    assert c["severity"] in ("error", "warning", "info", "pass"), c
    assert c["severity_policy"] and c["summary"] and c["precision"], c["id"]
    for k in ("what", "detect", "limits", "fix"):
        assert c["help"][k], (c["id"], k)
relro = next(c for c in checks if c["id"] == "elf-relro")
assert relro["cwe"] == 693 and relro["precision"] == "very-high"
PY

# hostile names: C1 controls and bidi overrides are escaped in text
place nopie-norelro "usr/bin/a$(printf '\342\200\256')gpj.exe"
place nopie-norelro "usr/bin/b$(printf '\302\205')c"
place pie-full usr/bin/fine
run_distsec scan --root "$root" --backend none --color never --check elf-relro
expect_rc 1
expect_line 'error    elf-relro                 /usr/bin/a\u202Egpj.exe  [unknown]'
expect_line 'error    elf-relro                 /usr/bin/b\u0085c  [unknown]'
expect_line 'elf-relro                        2        0     0      0'

# checks_run names what ran (skipped and disabled checks are not in it);
# a waiver that matched nothing is counted, listed and noted
printf 'elf-relro /usr/bin/a* # tracked\nelf-relro /usr/sbin/* # stale\n' >"$work/waivers"
run_distsec scan --root "$root" --backend none --format json --check elf-relro,elf-pie,selinux-dev-label \
	--waivers "$work/waivers"
expect_rc 1
python3 - "$work/out" "$work/waivers" <<'PY' || fail "JSON summary: checks_run or unused_waivers wrong"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
assert s["checks_run"] == ["elf-pie", "elf-relro"], s["checks_run"]
assert [k["check"] for k in s["skipped_checks"]] == ["selinux-dev-label"], s["skipped_checks"]
assert s["unused_waivers"] == [sys.argv[2] + ":2: elf-relro /usr/sbin/*"], s["unused_waivers"]
PY
grep -qF "distsec: note: unused waiver $work/waivers:2: elf-relro /usr/sbin/*" "$work/err" || fail "no note for the unused waiver"
run_distsec scan --root "$root" --backend none --color never --check elf-relro --waivers "$work/waivers" -q
expect_line "1 errors, 0 warnings, 0 info, 1 waived, 1 unused waiver"
[ ! -s "$work/err" ] || fail "-q still notes on stderr"

# an error message is not cut, however long the path it names
long=$work
for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do
	long=$long/$(printf '%0200d' 0)
done
mkdir -p "$long"
printf 'elf-relro /x # why\nno-such /x # why\n' >"$long/waivers"
run_distsec scan --root "$root" --backend none --check elf-relro --waivers "$long/waivers" -q
expect_rc 2
grep -qxF "distsec: waivers $long/waivers:2: unknown check id" "$work/err" ||
	{ cat "$work/err" >&2; fail "the waivers error is cut"; }
run_distsec scan --root "$root" --backend none --check elf-relro --waivers "$long/none" -q
expect_rc 2
grep -qxF "distsec: waivers $long/none: No such file or directory" "$work/err" ||
	{ cat "$work/err" >&2; fail "the waivers error is cut"; }
mkdir "$long/a" "$long/b"
distsec scan --root "$long/a" --backend none --format json -o "$work/a.json" -q --fail-on never
distsec scan --root "$long/b" --backend none --format json -o "$work/b.json" -q --fail-on never
run_distsec merge "$work/a.json" "$work/b.json"
expect_rc 2
grep -qxF "distsec: merge: $work/b.json: root $long/b, backend none, where the first report has root $long/a, backend none: not shards of one scan" "$work/err" ||
	{ cat "$work/err" >&2; fail "the merge error is cut"; }
echo "cli: ok"
