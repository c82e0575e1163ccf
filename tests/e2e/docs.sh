#!/bin/sh
# The documentation tells the truth: every check id and every long option
# the program has appears in the man page and the README, and the man page
# renders without warnings.
. "$(dirname "$0")/lib.sh"
man1="$SRCDIR/../src/distsec.1"
readme="$SRCDIR/../README.md"
distsec checks | cut -d' ' -f1 >"$work/ids"
[ -s "$work/ids" ] || fail "distsec checks listed nothing"
while read -r id; do
	grep -q "$(echo "$id" | sed 's/-/\\\\-/g')" "$man1" || fail "man page lacks check $id"
	grep -q "\`$id\`" "$readme" || fail "README lacks check $id"
done <"$work/ids"
distsec --help | grep -o -- '--[a-z][a-z-]*' | sort -u >"$work/opts"
while read -r opt; do
	grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "$man1" || fail "man page lacks option $opt"
done <"$work/opts"
if command -v man >/dev/null && command -v groff >/dev/null; then
	man --warnings -l "$man1" >/dev/null 2>"$work/manerr" || fail "man -l failed"
	[ ! -s "$work/manerr" ] || { cat "$work/manerr"; fail "man page warnings"; }
else
	echo "note: man/groff not installed; rendering not checked"
fi
# The README's CI recipes are YAML their consumers load, and its tmt test is
# the one plans/scan.fmf (run by Packit) has, word for word
if python3 -c 'import yaml' 2>/dev/null; then
	python3 - "$readme" "$SRCDIR/../plans/scan.fmf" <<'PY' || fail "README CI recipes"
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
	echo "note: python3-yaml not installed; the README's CI recipes not loaded"
fi
echo "docs: ok"
