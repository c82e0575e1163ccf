#!/bin/sh
# Size and depth limits (issue #32), each attack built here at test time:
# (1) ELF headers claiming millions of sections (sparse files), (2) a chain
# of directories 10,000 deep, (3) a .changes listing a symlink to a
# secret, an 8 GiB file and a FIFO, (4) a .deb whose zstd payload holds
# 2 GiB of zeros.  Each time: the exact findings, a bounded
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

# 3. A .changes lists x.deb, a symlink to a secret outside the upload
# directory (its size and sha256 were printed in the mismatch error),
# rel.deb, the same through "..", big.deb, 10 bytes listed beside an
# 8 GiB sparse file (hashed whole before the sizes were compared: 28-45 s),
# a FIFO and a directory; in.deb, a symlink to pool/real.deb inside the
# upload, is scanned.
up="$work/up"
mkdir -p "$up/pool" "$up/dir.deb"
printf 'root:$6$secret-hash:19000:0:99999:7:::\n' >"$work/shadow"
secret_sha=$(sha256sum "$work/shadow" | cut -d' ' -f1)
secret_size=$(stat -c %s "$work/shadow")
ln -s "$work/shadow" "$up/x.deb"
ln -s ../shadow "$up/rel.deb"
truncate -s 8G "$up/big.deb"
mkfifo "$up/fifo.deb"
python3 "$SRCDIR/e2e/mkdeb.py" "$up/pool/real.deb" "usr/bin/su:4755:$FIXTURES/nopie-norelro"
ln -s pool/real.deb "$up/in.deb"
real_sha=$(sha256sum "$up/pool/real.deb" | cut -d' ' -f1)
real_size=$(stat -c %s "$up/pool/real.deb")
zero=0000000000000000000000000000000000000000000000000000000000000000
{
	printf 'Format: 1.8\nSource: up\nVersion: 1.0-1\nChecksums-Sha256:\n'
	printf ' %s %s %s\n' $zero 10 x.deb $zero 10 rel.deb $zero 10 big.deb $zero 10 fifo.deb \
		$zero 10 dir.deb "$real_sha" "$real_size" in.deb
} >"$up/up.changes"
desc=".changes: a symlink out, an 8 GiB file, a FIFO"
measured "$desc" "$DISTSEC" scan --backend none --format json --check elf-pie,scan-unreadable "$up/up.changes"
expect_rc 1
out="error scan-unreadable $up/%s package file unreadable: a symlink leading out of the directory of the .changes"
notreg="error scan-unreadable $up/%s package file unreadable: not a regular file (a FIFO, device, directory or symlink)"
# shellcheck disable=SC2059
expect_findings "$(printf "$out" x.deb)" "$(printf "$out" rel.deb)" \
	"error scan-unreadable $up/big.deb package file unreadable: size 8589934592, $up/up.changes lists 10" \
	"$(printf "$notreg" fifo.deb)" "$(printf "$notreg" dir.deb)" \
	"error elf-pie /usr/bin/su not built as a position-independent executable (PIE): ASLR cannot move its code"
if grep -q -e "$secret_sha" -e "size $secret_size" "$work/out" "$work/err"; then
	fail "$desc: the secret's size or sha256 printed"
fi

# 4. A decompression bomb: a .deb of a few hundred KB whose zstd data.tar
# holds a 2 GiB member of zeros, then a setuid program.  Past
# --max-decompressed nothing more is decompressed or read, and it is an
# error; good.deb beside it is scanned.
if command -v zstd >/dev/null && command -v ar >/dev/null; then
	b="$work/bomb"
	mkdir -p "$b"
	python3 - "$b" "$FIXTURES/nopie-norelro" <<'PY'
import io, os, sys, tarfile
d, elf = sys.argv[1], open(sys.argv[2], 'rb').read()
with open(d + '/data.tar', 'wb') as f:
    big = tarfile.TarInfo('./usr/share/big')
    big.size = 2 << 30
    f.write(big.tobuf(format=tarfile.GNU_FORMAT))
    f.seek(big.size, os.SEEK_CUR)   # a hole: zeros without writing them
    su = tarfile.TarInfo('./usr/bin/su')
    su.size, su.mode = len(elf), 0o4755
    f.write(su.tobuf(format=tarfile.GNU_FORMAT) + elf + b'\0' * (-len(elf) % 512) + b'\0' * 1024)
control = b'Package: bomb\nVersion: 1\nArchitecture: amd64\nMaintainer: B <b@example.org>\nDescription: bomb\n'
with tarfile.open(d + '/control.tar.gz', 'w:gz') as t:
    ti = tarfile.TarInfo('./control')
    ti.size = len(control)
    t.addfile(ti, io.BytesIO(control))
open(d + '/debian-binary', 'w').write('2.0\n')
PY
	(cd "$b" && zstd -q -1 --rm data.tar && ar rc bomb.deb debian-binary control.tar.gz data.tar.zst)
	python3 "$SRCDIR/e2e/mkdeb.py" "$b/good.deb" "usr/bin/su:4755:$FIXTURES/nopie-norelro"
	desc="a 2 GiB zstd bomb, --max-decompressed 1M"
	measured "$desc" "$DISTSEC" scan --backend none --format json --check elf-pie,scan-unreadable \
		--max-decompressed 1M "$b/bomb.deb" "$b/good.deb"
	expect_rc 1
	expect_findings "error scan-unreadable $b/bomb.deb package file unreadable: over 1048576 bytes decompressed (--max-decompressed): the rest is not read" \
		"error elf-pie /usr/bin/su not built as a position-independent executable (PIE): ASLR cannot move its code"
	run_distsec scan --max-decompressed 1X "$b/good.deb"
	expect_rc 2
	grep -q "max-decompressed takes a size in bytes (suffix K, M, G or T), not '1X'" "$work/err" ||
		fail "--max-decompressed 1X: no usage error"
else
	echo "decompression bomb: skipped (no zstd or ar)"
fi

echo "limits: ok"
