#!/bin/sh
# Several workers on one tree of scripts and ELF files (-j4): the findings
# are those of one worker, exactly.  Under ThreadSanitizer (ci/test's
# build-tsan stage) a data race between the workers, or between them and
# the database loader, fails the run (TSAN_OPTIONS exitcode=66): this is
# the tree on which TSan once saw script-sh-syntax's shared counters race.
. "$(dirname "$0")/lib.sh"
mkdir -p "$root/usr/bin" "$root/usr/sbin"
i=0
while [ $i -lt 40 ]; do
	i=$((i + 1))
	printf '#!/bin/posh\necho %d\n' $i >"$root/usr/bin/posh-$i"
	chmod 0755 "$root/usr/bin/posh-$i"
done
for i in 1 2 3 4 5 6 7 8; do
	printf '#!/bin/sh\nif true; then echo %d; fi\n' $i >"$root/usr/sbin/sh-$i"
	chmod 0755 "$root/usr/sbin/sh-$i"
	place pie-full "usr/bin/good-$i"
	place nopie-norelro "usr/bin/bad-$i"
done

checks=elf-pie,elf-relro,elf-execstack,script-sh-syntax,script-sh-tmp,file-hidden-exec
scan() { # JOBS: the sorted finding lines, without the timing summary
	run_distsec scan --root "$root" --backend none --color never --fail-on never -v \
		--check $checks -j "$1"
	expect_rc 0
	grep -q ThreadSanitizer "$work/err" && { cat "$work/err" >&2; fail "ThreadSanitizer at -j$1"; }
	grep -E '^(pass|info|warning|error) ' "$work/out" | sort >"$work/j$1"
}
scan 1
scan 4
diff -u "$work/j1" "$work/j4" || fail "-j4 findings differ from -j1"

cp "$work/j4" "$work/out"
expect_line "error    elf-relro                 /usr/bin/bad-8"
expect_line "pass     elf-pie                   /usr/bin/good-1"
[ "$(grep -c '^pass     script-sh-syntax' "$work/out")" = 8 ] || fail "not 8 sh -n passes"
if [ -x /bin/posh ] || [ -x /usr/bin/posh ]; then
	[ "$(grep -c 'script-sh-syntax .*/usr/bin/posh-' "$work/out")" = 40 ] || fail "not 40 posh verdicts"
else
	expect_line "posh is not installed on the scanning machine: 40 posh scripts not checked"
fi
[ "$(grep -c '^error    elf-relro' "$work/out")" = 8 ] || fail "not 8 elf-relro errors"
echo "threads: ok"
