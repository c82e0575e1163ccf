#!/bin/sh
# Package files rendered for CI consumers.  --format tmt: the custom results
# file of a tmt test (`result: custom`), held to the field rules of tmt's
# spec/results.fmf and tmt/schemas/results.yaml (below), with the outcome
# following --fail-on as the exit status does and log pointing at the
# package's JSON report.  SARIF: members as run.artifacts under their
# package file (parentIndex), validated against the official schema.
. "$(dirname "$0")/lib.sh"
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not installed"; exit 77; }

# tmt's rules for a custom results file: a list of mappings, only the keys
# its schema allows, name and result required, name starting with '/',
# result one of the outcomes, note a list of strings (tmt >= 1.41), log a
# list of paths relative to the results file's directory that exist there.
cat >"$work/tmt_rules.py" <<'PY'
import json, os, sys
# the keys and outcomes tmt/schemas/results.yaml (additionalProperties:
# false) and common.yaml's result_outcome allow; note a list of strings as
# tmt.result.BaseResult holds it (note: list[str])
KEYS = {"name", "result", "original-result", "note", "log", "ids", "duration",
        "start-time", "end-time", "serial-number", "guest", "context", "check",
        "subresult"}
OUTCOMES = {"pass", "fail", "info", "warn", "error", "skip"}
path = sys.argv[1]
doc = json.load(open(path, encoding="utf-8"))
assert isinstance(doc, list) and doc, "not a non-empty list"
names = set()
for r in doc:
    assert isinstance(r, dict), r
    assert set(r) <= KEYS, set(r) - KEYS
    assert isinstance(r["name"], str) and r["name"].startswith("/"), r
    assert r["name"] not in names, "duplicate name " + r["name"]
    names.add(r["name"])
    assert r["result"] in OUTCOMES, r
    assert isinstance(r.get("note", []), list) and all(isinstance(n, str) for n in r.get("note", [])), r
    for log in r.get("log", []):
        assert isinstance(log, str) and not log.startswith("/"), log
        assert os.path.isfile(os.path.join(os.path.dirname(path) or ".", log)), "missing log " + log
# tmt reads results.yaml before results.json: the same text must read as
# YAML to the same list, so either name serves
try:
    import yaml
    assert yaml.safe_load(open(path, encoding="utf-8")) == doc, "reads differently as YAML"
except ImportError:
    pass
print(json.dumps({r["name"]: r["result"] for r in doc}, sort_keys=True))
PY
rules() { python3 "$work/tmt_rules.py" "$1" >"$work/results" || fail "$1 breaks tmt's rules"; }
expect_result() {
	grep -qF "\"$1\": \"$2\"" "$work/results" || { cat "$work/results" >&2; fail "$1 is not $2"; }
}

d="$work/tree"
mkdir -p "$d/DEBIAN" "$d/usr/bin"
printf 'Package: fixt\nVersion: 1.0-1\nArchitecture: amd64\nMaintainer: Fix Er <fix@example.org>\nDescription: fixture\n' >"$d/DEBIAN/control"
cp "$FIXTURES/pie-norelro" "$d/usr/bin/fixt-tool"
cp "$FIXTURES/nopie-partial" "$d/usr/bin/fixt-plain"
dpkg-deb --root-owner-group -Znone -b "$d" "$work/fixt.deb" >/dev/null
mkdir -p "$d/../clean/DEBIAN" "$d/../clean/usr/bin"
sed 's/fixt/fixc/' "$d/DEBIAN/control" >"$d/../clean/DEBIAN/control"
cp "$FIXTURES/pie-full" "$d/../clean/usr/bin/fixc-tool"
dpkg-deb --root-owner-group -Znone -b "$d/../clean" "$work/fixc.deb" >/dev/null

mkdir "$work/data"
run_distsec scan --format tmt -o "$work/data/results.json" --group-by package \
	--report-dir "$work/data/reports" --check elf-relro,elf-pie,elf-canary "$work/fixt.deb" "$work/fixc.deb"
expect_rc 1
rules "$work/data/results.json"
expect_result /fixt/elf-relro fail      # no RELRO: error
expect_result /fixt/elf-pie info        # a plain program not PIE: info, below --fail-on
expect_result /fixc/elf-relro pass
expect_result /fixc/elf-pie pass
[ "$(wc -l <"$work/results" | tr -d ' ')" = 1 ] && [ "$(grep -o '"/' "$work/results" | wc -l)" = 6 ] ||
	fail "not one result per package and check: $(cat "$work/results")"
python3 - "$work/data/results.json" <<'PY' || fail "tmt notes and logs"
import json, sys
r = {x["name"]: x for x in json.load(open(sys.argv[1]))}
assert r["/fixt/elf-relro"]["note"] == [
    "error: /usr/bin/fixt-tool: no RELRO: relocated data such as the GOT stays writable"], r["/fixt/elf-relro"]
assert r["/fixt/elf-relro"]["log"] == ["reports/fixt_1.0-1_amd64.json"], r["/fixt/elf-relro"]["log"]
assert r["/fixc/elf-pie"]["note"] == [] and r["/fixc/elf-pie"]["log"] == ["reports/fixc_1.0-1_amd64.json"]
PY
python3 "$SRCDIR/e2e/validate.py" json "$work/data/reports/fixt_1.0-1_amd64.json" >/dev/null ||
	fail "the report a tmt log points at is not a valid JSON report"
# --fail-on moves the outcome as it moves the exit status
run_distsec scan --format tmt -o "$work/data/results.json" --fail-on info --check elf-pie "$work/fixt.deb"
expect_rc 1
rules "$work/data/results.json"
expect_result /fixt/elf-pie fail
run_distsec scan --format tmt -o "$work/data/results.json" --fail-on never --check elf-relro "$work/fixt.deb"
expect_rc 0
rules "$work/data/results.json"
expect_result /fixt/elf-relro warn    # an error below --fail-on: tmt's warn, not info
# a report dir elsewhere: log climbs out of the results file's directory
mkdir -p "$work/a/b"
run_distsec scan --format tmt -o "$work/a/b/results.json" --group-by package --report-dir "$work/rd" \
	--check elf-relro "$work/fixt.deb"
grep -qF '"../../rd/fixt_1.0-1_amd64.json"' "$work/a/b/results.json" || fail "log not relative to the results file"
rules "$work/a/b/results.json"
# nothing scanned at all still says which checks ran, as passes
mkdir -p "$work/empty"
run_distsec scan --format tmt --root "$work/empty" --backend none --check elf-relro
expect_rc 0
printf '%s\n' "$(cat "$work/out")" >"$work/empty.json"
rules "$work/empty.json"
grep -q '"name":"/.*/elf-relro"' "$work/out" || fail "no result for a clean root"

# SARIF: each member with a finding is an artifact whose parent is its
# package file; results point at the member's artifact
run_distsec scan --format sarif --check elf-relro,elf-pie "$work/fixt.deb" "$work/fixc.deb"
expect_rc 1
python3 "$SRCDIR/e2e/validate.py" sarif "$work/out" >/dev/null || fail "SARIF with artifacts does not validate"
python3 - "$work/out" "$work/fixt.deb" <<'PY' || fail "SARIF run.artifacts"
import hashlib, json, os, sys
run = json.load(open(sys.argv[1]))["runs"][0]
arts = run["artifacts"]
deb = "file://" + os.path.realpath(sys.argv[2])
parents = [i for i, a in enumerate(arts) if a["location"]["uri"] == deb]
assert len(parents) == 1, arts
p = parents[0]
assert "parentIndex" not in arts[p]
assert arts[p]["hashes"]["sha-256"] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
members = sorted(a["location"]["uri"] for a in arts if a.get("parentIndex") == p)
assert members == ["usr/bin/fixt-plain", "usr/bin/fixt-tool"], members
for r in run["results"]:
    loc = r["locations"][0]["physicalLocation"]["artifactLocation"]
    a = arts[loc["index"]]
    assert a["location"]["uri"] == loc["uri"] and "parentIndex" in a, (r, a)
# the clean package has passes only: no artifact of it (nothing to point at)
assert len(arts) == 3, arts
PY
echo "pkg-formats: ok"
