#!/bin/sh
# The tests that send distsec signals, started with HUP, INT and TERM
# ignored (nohup, a CI runner's `trap '' HUP`, a background job): each
# signal still reaches distsec (lib.sh's default_signals) and each test
# passes and removes its temporary trees.
. "$(dirname "$0")/lib.sh"
ran=0
for t in rpm-db pacman-backend; do
	mkdir "$work/$t"
	rc=0
	(trap '' HUP INT TERM && E2E_TMPDIR="$work/$t" && export E2E_TMPDIR && exec "$SRCDIR/e2e/$t.sh") \
		>"$work/$t.log" 2>&1 || rc=$?
	if [ "$rc" = 77 ]; then
		echo "*skipped*: $t.sh: $(tail -n 1 "$work/$t.log")"
		continue
	fi
	[ "$rc" = 0 ] || { tail -n 20 "$work/$t.log" >&2; fail "$t.sh with HUP, INT and TERM ignored: exit status $rc"; }
	[ -z "$(ls -A "$work/$t")" ] || fail "$t.sh left $(ls -A "$work/$t")"
	grep -F -e "skipped" -e "SKIP" "$work/$t.log" || :
	echo "$t.sh with HUP, INT and TERM ignored: passed, its trees removed"
	ran=$((ran + 1))
done
[ $ran -gt 0 ] || exit 77
echo "signals-ignored: ok"
