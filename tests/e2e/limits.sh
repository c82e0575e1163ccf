#!/bin/sh
# Size and depth limits (issue #32), each attack built here at test time
# from sparse files: ELF headers claiming millions of sections.  Each
# time: the exact findings, a bounded time (`timeout`) and, where
# /usr/bin/time is there, a peak RSS under 256 MiB.
. "$(dirname "$0")/lib.sh"
mkelf="$SRCDIR/e2e/mkelf.py"

# expect_findings LINE...: the findings of the JSON in $work/out that are
# not passes, as "severity check path message", are exactly these
expect_findings() {
	python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["severity"] != "pass":
        print(f["severity"], f["check"], f["path"], f["message"])' "$work/out" |
		LC_ALL=C sort >"$work/got"
	printf '%s\n' "$@" | LC_ALL=C sort >"$work/want"
	cmp -s "$work/got" "$work/want" || { diff "$work/want" "$work/got" >&2; fail "$desc: findings"; }
}

# 1. Extended section numbering: 16M and 64M section headers in 1 and
# 4 GiB sparse files (16 KB on disk); libelf allocates ~280 bytes for each
# before reading anything (4.5 and 18 GB).  The set[ug]id ones, which the
# kernel still runs by their program headers, are errors.
mkdir -p "$root/usr/bin"
python3 "$mkelf" "$FIXTURES/pie-full" shnum 16777216 "$root/usr/bin/su16m" "$root/usr/bin/plain16m"
python3 "$mkelf" "$FIXTURES/pie-full" shnum 67108864 "$root/usr/bin/sg64m"
chmod 4755 "$root/usr/bin/su16m"
chmod 2755 "$root/usr/bin/sg64m"
chmod 755 "$root/usr/bin/plain16m"
desc="16M and 64M section headers"
measured "$desc" "$DISTSEC" scan --root "$root" --backend none --format json -j2 --skip file-stig
expect_rc 1
why="malformed ELF: the section header table is over 262144 entries"
expect_findings "error scan-unreadable /usr/bin/su16m $why" \
	"error scan-unreadable /usr/bin/sg64m $why" \
	"info scan-unreadable /usr/bin/plain16m $why"

echo "limits: ok"
