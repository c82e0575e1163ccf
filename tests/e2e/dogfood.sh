#!/bin/sh
# distsec passes its own checks: the program and every module this build
# made (or, with $DISTSEC set to an installed program, the installed ones)
# are scanned with the default checks and must give no error or warning;
# the program must show full RELRO, PIE, a stack protector and FORTIFY.
# Only a hardened build is judged (meson's default: optimised, no
# sanitizer, not the libFuzzer build): DOGFOOD=1 comes from tests/meson.build.
. "$(dirname "$0")/lib.sh"
[ "${DOGFOOD:-0}" = 1 ] || { echo "SKIP: not a hardened build (optimisation off, a sanitizer or -Dfuzz)"; exit 77; }
modules=$(ls "${DISTSEC_BACKEND_DIR:-/nonexistent}"/*.so 2>/dev/null || true)
# shellcheck disable=SC2086
run_distsec scan --color never -v --fail-on warning "$DISTSEC" $modules
cat "$work/out"
expect_rc 0
exe=$(realpath "$DISTSEC")
expect_line "pass     elf-relro                 $exe"
grep "elf-relro                 $exe " "$work/out" | grep -q "full RELRO" || fail "distsec has no full RELRO"
expect_line "pass     elf-pie                   $exe"
expect_line "pass     elf-canary                $exe"
expect_line "pass     elf-fortify               $exe"
for m in $modules; do
	grep "elf-relro  *$m " "$work/out" | grep -q "full RELRO" || fail "$m has no full RELRO"
done
grep -Eq "^(error|warning)" "$work/out" && fail "distsec fails its own checks"
echo "dogfood: ok"
