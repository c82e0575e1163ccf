#!/bin/sh
# The whole text report of a fixture tree, compared with the expected file;
# the same bytes with -j1 and -j2; exit status 1 on errors, 0 with --fail-on never.
. "$(dirname "$0")/lib.sh"

place pie-full usr/bin/good
place nopie-norelro usr/bin/old-style
place nopie-partial usr/bin/su-like 4755
place execstack usr/bin/trampoline
place netclient-partial usr/bin/fetcher
place libfix.so usr/lib/libfix.so.1 0644
place libfix-norelro.so usr/lib/libbad.so.1 0644
printf '#!/bin/sh\necho hi\n' >"$root/usr/bin/script"
chmod 755 "$root/usr/bin/script"

run_distsec scan --root "$root" --backend none --color never -j1
expect_rc 1
[ -n "${REGENERATE:-}" ] && cp "$work/out" "$SRCDIR/e2e/expected/text-output.txt"
diff -u "$SRCDIR/e2e/expected/text-output.txt" "$work/out" || fail "text output differs"
cp "$work/out" "$work/j1"
run_distsec scan --root "$root" --backend none --color never -j2
cmp "$work/j1" "$work/out" || fail "-j2 output differs from -j1"

run_distsec scan --root "$root" --backend none --color never --fail-on never
expect_rc 0
run_distsec scan --root "$root" --backend none --color always --check elf-execstack
expect_rc 1
grep -q "$(printf '\033\[31merror')" "$work/out" || fail "no red error with --color always"
NO_COLOR=1 run_distsec scan --root "$root" --backend none --check elf-execstack -v
expect_line "pass     elf-execstack             /usr/bin/good  [unknown]  non-executable stack"
# no-color.org: only a non-empty NO_COLOR turns colour off (on a terminal)
if command -v script >/dev/null; then
	for v in "" 1; do
		NO_COLOR=$v script -qec "$DISTSEC scan --root $root --backend none --check elf-execstack" \
			/dev/null >"$work/tty" 2>&1 || true
		if [ -z "$v" ]; then
			grep -q "$(printf '\033\[31merror')" "$work/tty" || fail "an empty NO_COLOR turned colour off"
		else
			grep -q "$(printf '\033\[3[0-9]m')" "$work/tty" && fail "NO_COLOR=1 left colour on"
		fi
	done
else
	echo "skipped: NO_COLOR on a terminal (no script(1))"
fi
run_distsec scan --root "$root" --backend none --check no-such-check
expect_rc 2
grep -q "unknown check 'no-such-check'" "$work/err" || fail "no message for an unknown check"
run_distsec scan --root "$root/nonexistent" --backend none
expect_rc 2
grep -q "^distsec: root .*nonexistent: No such file or directory" "$work/err" || fail "bad root message"
echo "text-output: ok"
