#!/bin/sh
# Size and depth limits (issue #32), each attack built here at test time:
# (1) ELF headers claiming millions of sections (sparse files), (2) a chain
# of directories 10,000 deep.  Each time: the exact findings, a bounded
# time (`timeout`) and, where /usr/bin/time is there, a peak RSS under
# 256 MiB.
. "$(dirname "$0")/lib.sh"
mkelf="$SRCDIR/e2e/mkelf.py"

# expect_findings LINE...: the findings of the JSON in $work/out that are
# not passes, as "severity check path message", are exactly these (none
# given: the lines of $work/want)
expect_findings() {
	[ $# = 0 ] || printf '%s\n' "$@" >"$work/want"
	python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["severity"] != "pass":
        print(f["severity"], f["check"], f["path"], f["message"])' "$work/out" |
		LC_ALL=C sort >"$work/got"
	LC_ALL=C sort -o "$work/want" "$work/want"
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

# 2. A chain of directories 10,000 deep (paths of 20,000 bytes), a setuid
# program at its bottom and beside every 1,000th level: opened by path,
# each level resolved the whole path again, one openat per component
# beyond PATH_MAX (149 s).  The side directories make the walk climb back
# past the directories whose fds it closed.
rm -rf "$root" && mkdir -p "$root/usr/lib/deep"
why="not built as a position-independent executable (PIE): ASLR cannot move its code"
python3 - "$root/usr/lib/deep" "$FIXTURES/nopie-norelro" "error elf-pie %s $why" \
	>"$work/want" <<'PY'
import os, sys
top, elf, line = sys.argv[1], open(sys.argv[2], 'rb').read(), sys.argv[3]
path = '/usr/lib/deep'
def put(dfd, name):
    out = os.open(name, os.O_WRONLY | os.O_CREAT, 0o755, dir_fd=dfd)
    os.write(out, elf)
    os.fchmod(out, 0o4755)
    os.close(out)
    print(line % (path + '/' + name))
fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
for level in range(1, 10001):
    os.mkdir('d', dir_fd=fd)
    nfd = os.open('d', os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
    os.close(fd)
    fd = nfd
    path += '/d'
    if level % 1000 == 0:
        os.mkdir('side', dir_fd=fd)
        sfd = os.open('side', os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        path += '/side'
        put(sfd, 'su')
        path = path[:-5]
        os.close(sfd)
put(fd, 'su')
os.close(fd)
PY
desc="a chain 10,000 directories deep"
measured "$desc" "$DISTSEC" scan --root "$root" --backend none --format json -j2 --check elf-pie
expect_rc 1
[ -z "$cpu_ms" ] || [ "$cpu_ms" -lt 15000 ] || fail "$desc: $cpu_ms ms of CPU"
[ "$(wc -l <"$work/want")" = 11 ] || fail "$desc: the tree was not built"
expect_findings

echo "limits: ok"
