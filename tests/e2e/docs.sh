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
echo "docs: ok"
