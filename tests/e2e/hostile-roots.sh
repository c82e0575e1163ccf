#!/bin/sh
# Hostile images (issue #14), built here at test time: sparse ELF files whose
# section headers claim 4 GiB (16 KB on disk each).  Each time: the exact
# findings, a bounded time (`timeout`) and, where /usr/bin/time is there,
# a peak RSS under 256 MiB.
. "$(dirname "$0")/lib.sh"
mkelf="$SRCDIR/e2e/mkelf.py"

# measured DESC CMD...: runs CMD under timeout (and GNU time when there is
# one, no wrapper), sets rc; output in $work/out; fails over 256 MiB peak RSS
measured() {
	desc=$1
	shift
	rc=0
	if [ -x /usr/bin/time ] && [ -z "${DISTSEC_WRAPPER:-}" ]; then
		timeout 60 /usr/bin/time -f '%M %U %S' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || rc=$?
		read -r kb user sys <<EOF
$(tail -n 1 "$work/time")
EOF
		echo "$desc: peak RSS ${kb} KB, CPU ${user}+${sys} s"
		[ "$kb" -lt 262144 ] || fail "$desc: peak RSS $kb KB"
	else
		timeout 600 ${DISTSEC_WRAPPER:-} "$@" >"$work/out" 2>"$work/err" || rc=$?
	fi
	[ "$rc" != 124 ] || fail "$desc: timed out"
	case $rc in 0|1) ;; *) cat "$work/err" >&2; fail "$desc: exit status $rc" ;; esac
}

# pairs FILE: "check path message-prefix" of the findings that are not passes
pairs() {
	python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["severity"] != "pass" and f["check"] != "elf-fortify":
        print(f["check"], f["path"], f["message"].split(":")[0])' "$1" | LC_ALL=C sort
}

expect_pairs() {
	pairs "$work/out" >"$work/got"
	printf '%s\n' "$@" | LC_ALL=C sort >"$work/want"
	cmp -s "$work/got" "$work/want" || { diff "$work/want" "$work/got" >&2; fail "$desc: findings"; }
}

# 1. section headers claiming 4 GiB: judged on the rest, the section named
mkdir -p "$root/usr/bin" "$root/usr/sbin"
for what in dynsym dynstr note dynamic; do
	python3 "$mkelf" "$FIXTURES/pie-full" $what 4294967296 "$root/usr/bin/$what"
done
# ten programs with 4 GiB of .rodata for elf-tmp-name's string scan
python3 "$mkelf" "$FIXTURES/tmp-bad" rodata 4294967296 "$root"/usr/sbin/rodata0 "$root"/usr/sbin/rodata1 \
	"$root"/usr/sbin/rodata2 "$root"/usr/sbin/rodata3 "$root"/usr/sbin/rodata4 "$root"/usr/sbin/rodata5 \
	"$root"/usr/sbin/rodata6 "$root"/usr/sbin/rodata7 "$root"/usr/sbin/rodata8 "$root"/usr/sbin/rodata9
chmod 755 "$root"/usr/bin/* "$root"/usr/sbin/*
desc="4 GiB section claims"
measured "$desc" "$DISTSEC" scan --root "$root" --backend none --format json -j2 --fail-on warning
expect_rc 1
set -- "scan-unreadable /usr/bin/dynsym ELF section not read" \
	"scan-unreadable /usr/bin/dynstr ELF section not read" \
	"scan-unreadable /usr/bin/note ELF section not read" \
	"scan-unreadable /usr/bin/dynamic ELF section not read"
for i in 0 1 2 3 4 5 6 7 8 9; do
	set -- "$@" "elf-tmp-name /usr/sbin/rodata$i uses 1 fixed name under /tmp as file names"
done
expect_pairs "$@"
echo "hostile-roots: ok"
