#!/bin/sh
# The documentation tells the truth: every check id and every long option
# the program has appears in the man page, every check's row in the README
# is its descriptor's, docs/checks.md is what `distsec checks --format
# markdown` makes of the descriptors, and the man page renders without warnings.
. "$(dirname "$0")/lib.sh"
# the man page as built (its CHECKS list is generated), else as installed
man1="${BUILDDIR:-}/distsec.1"
if [ -z "${BUILDDIR:-}" ] || [ ! -f "$man1" ]; then
	installed=$(man -w distsec 2>/dev/null) || fail "no built or installed man page"
	man1="$work/distsec.1"
	case $installed in *.gz) zcat "$installed" ;; *) cat "$installed" ;; esac >"$man1"
fi
readme="$SRCDIR/../README.md"
cidoc="$SRCDIR/../docs/CI.md"
distsec checks | cut -d' ' -f1 >"$work/ids"
[ -s "$work/ids" ] || fail "distsec checks listed nothing"
while read -r id; do
	grep -q "$(echo "$id" | sed 's/-/\\\\-/g')" "$man1" || fail "man page lacks check $id"
	grep -q "\`$id\`" "$readme" || fail "README lacks check $id"
done <"$work/ids"
distsec checks --format markdown >"$work/checks.md" || fail "checks --format markdown failed"
diff -u "$SRCDIR/../docs/checks.md" "$work/checks.md" || fail "docs/checks.md is stale: build/distsec checks --format markdown > docs/checks.md"
distsec checks --format json | python3 -c '
import json, sys
readme = open(sys.argv[1]).read()
for c in json.load(sys.stdin):
    row = "| `%s` | %s%s | %s |" % (c["id"], c["severity"], ", opt-in" if c.get("opt_in") else "", c["summary"])
    assert row in readme, "README checks table: no row " + row
' "$readme" || fail "README checks table differs from the descriptors"
distsec --help | grep -o -- '--[a-z][a-z-]*' | sort -u >"$work/opts"
while read -r opt; do
	grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "$man1" || fail "man page lacks option $opt"
	grep -q -- "$opt" "$SRCDIR/../docs/USAGE.md" || fail "docs/USAGE.md lacks option $opt"
done <"$work/opts"
# every output format (one descriptor each under src/output/) is in
# --help, in the man page's --format item and in the completion
sed -n 's/^\t\.name = "\([a-z]*\)",$/\1/p' "$SRCDIR"/../src/output/*.c >"$work/formats"
[ "$(wc -l <"$work/formats")" -ge 6 ] || fail "output formats not found in src/output"
sed -n '/^\.BI \\-\\-format " FMT"$/{n;p}' "$man1" >"$work/manfmt"
while read -r f; do
	distsec --help | grep -A4 -- '--format FMT' | grep -qw "$f" || fail "--help lacks format $f"
	grep -qw "$f" "$work/manfmt" || fail "the man page's --format lacks $f"
	grep "compgen -W 'text json sarif" "$SRCDIR/../src/distsec.bash-completion" | grep -qw "$f" ||
		fail "the completion lacks format $f"
done <"$work/formats"
if command -v man >/dev/null && command -v groff >/dev/null; then
	man --warnings -l "$man1" >/dev/null 2>"$work/manerr" || fail "man -l failed"
	[ ! -s "$work/manerr" ] || { cat "$work/manerr"; fail "man page warnings"; }
else
	echo "note: man/groff not installed; rendering not checked"
fi
# docs/CI.md's recipes are YAML their consumers load, and its tmt test is
# the one plans/scan.fmf (run by Packit) has, word for word
if python3 -c 'import yaml' 2>/dev/null; then
	python3 - "$cidoc" "$SRCDIR/../plans/scan.fmf" <<'PY' || fail "docs/CI.md recipes"
import sys, yaml
readme, plan = open(sys.argv[1]).read(), yaml.safe_load(open(sys.argv[2]))
def block(title):
    return yaml.safe_load(readme[readme.index(title):].split("```yaml\n", 1)[1].split("```", 1)[0])
tmt = block("### A Fedora tmt plan")
planned = {t["name"]: t for t in plan["discover"]["tests"]}
for t in tmt["discover"]["tests"]:
    assert planned[t["name"]] == t, t["name"] + " differs from plans/scan.fmf"
assert tmt["prepare"] == plan["prepare"] and tmt["execute"] == plan["execute"]
assert block("### GitHub code scanning")[0]["run"].startswith("distsec scan --format sarif")
assert "distsec diff previous/" in " ".join(block("### A Salsa CI job")["distsec"]["script"])
PY
else
	echo "note: python3-yaml not installed; docs/CI.md's recipes not loaded"
fi
echo "docs: ok"
