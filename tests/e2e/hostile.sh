#!/bin/sh
# A hostile tree: symlink loops, links out of the root, a 4 GiB sparse
# file, FIFOs, sockets and device nodes, a file flipping between file and
# directory during the scan, names beyond PATH_MAX, a directory 1000 levels
# deep.  Each time: the scan finishes, the right finding (or
# scan-unreadable) appears, the tree is byte-for-byte unchanged, nothing
# inside it is executed (strace), and repeated scans give the same JSON.
. "$(dirname "$0")/lib.sh"

place nopie-norelro usr/bin/plain
place pie-full usr/bin/good
printf '#!/bin/sh\necho hello\n' >"$root/usr/bin/script"
chmod 755 "$root/usr/bin/script"
# symlink loops, in files and directories
ln -s loop-b "$root/usr/bin/loop-a"
ln -s loop-a "$root/usr/bin/loop-b"
ln -s . "$root/usr/bin/self"
mkdir -p "$root/usr/lib/cycle"
ln -s .. "$root/usr/lib/cycle/up"
# out of the root: a symlink at a host file, a hard link to a file outside
ln -s /etc/passwd "$root/usr/bin/passwd-link"
cp "$FIXTURES/nopie-norelro" "$work/outside"
ln "$work/outside" "$root/usr/bin/hardlink" 2>/dev/null || cp "$work/outside" "$root/usr/bin/hardlink"
# 4 GiB sparse: a data file, an executable of zeros, an ELF with a 4 GiB tail
mkdir -p "$root/usr/share/big"
truncate -s 4G "$root/usr/share/big/disk.img"
truncate -s 4G "$root/usr/bin/zeros"
chmod 755 "$root/usr/bin/zeros"
place pie-full usr/bin/huge-elf
truncate -s 4G "$root/usr/bin/huge-elf"
# special files
mkdir -p "$root/usr/share/special"
mkfifo "$root/usr/share/special/fifo"
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$root/usr/share/special/sock"
have_dev=no
if [ "$(id -u)" = 0 ] && mknod "$root/usr/share/special/null-c" c 1 3 2>/dev/null &&
   mknod "$root/usr/share/special/blockdev" b 7 0 2>/dev/null; then
	have_dev=yes
fi
# names beyond PATH_MAX (17 components of 250 bytes) and 1000 levels deep
python3 - "$root" "$FIXTURES/nopie-norelro" <<'PY'
import os, shutil, sys
root, elf = sys.argv[1], sys.argv[2]
def chain(top, names, leaf):
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for n in names:
        os.mkdir(n, dir_fd=fd)
        nfd = os.open(n, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = nfd
    out = os.open(leaf, os.O_WRONLY | os.O_CREAT, 0o755, dir_fd=fd)
    os.write(out, open(elf, 'rb').read())
    os.close(out)
    os.close(fd)
os.makedirs(root + '/usr/lib/long', exist_ok=True)
os.makedirs(root + '/usr/lib/deep', exist_ok=True)
chain(root + '/usr/lib/long', ['n' * 250] * 17, 'tool')
chain(root + '/usr/lib/deep', ['d'] * 1000, 'tool')
PY
deep=/usr/lib/deep$(python3 -c 'print("/d" * 1000)')/tool
long=/usr/lib/long$(python3 -c 'print(("/" + "n" * 250) * 17)')/tool

# a fingerprint of the tree: every entry's type, mode, owner, size, mtime,
# and the contents of the files small enough to hash (sha256sum cannot
# open paths beyond PATH_MAX; their metadata is compared)
fingerprint() {
	(cd "$root" && find . -printf '%p %y %m %U:%G %s %T@\n' 2>/dev/null | LC_ALL=C sort
	 cd "$root" && find . -path ./usr/lib/long -prune -o -type f -size -10M -print0 |
		LC_ALL=C sort -z | xargs -0 sha256sum)
}
fingerprint >"$work/before"

# 1. the scan finishes, quickly (nothing reads the 4 GiB files through)
start=$(date +%s)
if command -v strace >/dev/null; then
	rc=0
	# (LeakSanitizer cannot run under ptrace; leaks are checked by the other runs)
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -qq -e trace=execve -o "$work/trace" \
		"$DISTSEC" scan --root "$root" --backend none --color never -j2 --format json \
		>"$work/json1" 2>"$work/err" || rc=$?
else
	echo "note: strace not installed, execve trace skipped"
	run_distsec scan --root "$root" --backend none --color never -j2 --format json
	cp "$work/out" "$work/json1"
fi
expect_rc 1
[ $(( $(date +%s) - start )) -lt 60 ] || fail "the scan took over a minute"

# 2. the right findings
python3 - "$work/json1" "$deep" "$have_dev" "$long" <<'PY' || fail "findings"
import json, sys
doc = json.load(open(sys.argv[1]))
deep, have_dev, long_path = sys.argv[2], sys.argv[3] == 'yes', sys.argv[4]
got = {(f['check'], f['path']) for f in doc['findings']}
by_path = {}
for f in doc['findings']:
    by_path.setdefault(f['path'], []).append(f)
def need(check, path):
    if (check, path) not in got:
        sys.exit('missing %s on %s; have: %s' % (check, path, sorted(by_path.get(path, []), key=str)))
need('elf-pie', '/usr/bin/plain')
need('elf-pie', '/usr/bin/hardlink')      # inside the root, a file like any other
need('elf-pie', deep)                     # 1000 levels down
need('elf-relro', '/usr/bin/plain')
need('elf-pie', long_path)                # beyond PATH_MAX (opened one component at a time)
# nothing out of the root, nothing for links, FIFOs, sockets
for f in doc['findings']:
    p = f['path']
    # file-symlink judges a link itself, never what it names
    if f['check'] != 'file-symlink' and any(x in p for x in ('loop-', '/self', 'passwd-link', '/fifo', '/sock', '/cycle/up')):
        sys.exit('reported something it must skip: %s %s' % (f['check'], p))
    if p.startswith('/etc/passwd'):
        sys.exit('followed a symlink out of the root')
# the sparse ELF (pie-full with a 4 GiB tail) is judged like pie-full itself
checks = lambda path: sorted((f['check'], f['severity']) for f in by_path.get(path, []))
if checks('/usr/bin/huge-elf') != checks('/usr/bin/good'):
    sys.exit('the 4 GiB ELF judged differently: %s vs %s' % (checks('/usr/bin/huge-elf'), checks('/usr/bin/good')))
if any(f['path'] in ('/usr/bin/zeros', '/usr/share/big/disk.img') and f['check'].startswith('elf-')
       for f in doc['findings']):
    sys.exit('a file of zeros judged as ELF')
if have_dev:
    for dev in ('/usr/share/special/null-c', '/usr/share/special/blockdev'):
        if not any(f['check'] == 'file-stig' and f['path'] == dev for f in doc['findings']):
            sys.exit('device node outside /dev not reported: ' + dev)
PY

# 3. nothing changed
fingerprint >"$work/after"
cmp -s "$work/before" "$work/after" || { diff "$work/before" "$work/after" | head; fail "the scan changed the tree"; }

# 4. nothing in the tree was executed: the only programs started are
#    distsec and the machine's own shells, always with -n
if [ -f "$work/trace" ]; then
	grep 'execve(' "$work/trace" | grep -v 'resumed' >"$work/execs" || true
	# (distsec's own command line names the root: look at the others)
	if grep -v "execve(\"$DISTSEC\"" "$work/execs" | grep -F "$root"; then cat "$work/execs" >&2; fail "executed a file inside the root"; fi
	grep -v "execve(\"$DISTSEC\"" "$work/execs" | grep -v '", \["[a-z/]*sh", "-n"\]' |
		grep -v '", \["/usr/bin/[a-z]*sh", "-n"\]' >"$work/other" || true
	[ ! -s "$work/other" ] || { cat "$work/other"; fail "started something other than a shell's -n"; }
	grep -q -- '"-n"' "$work/execs" || fail "the shell script was not parsed (trace has no -n)"
fi

# 5. the device nodes were never opened for reading (only O_PATH)
if [ "$have_dev" = yes ] && command -v strace >/dev/null; then
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -qq -e trace=open,openat,openat2 -o "$work/opens" \
		"$DISTSEC" scan --root "$root" --backend none --color never -j2 /usr/share/special \
		>/dev/null 2>&1 || true
	grep -E 'null-c|blockdev' "$work/opens" | grep -v O_PATH && fail "opened a device node"
fi

# 6. the same JSON twice, and with -j1
run_distsec scan --root "$root" --backend none --color never -j2 --format json
grep -v '"seconds"' "$work/json1" >"$work/a"
grep -v '"seconds"' "$work/out" >"$work/b"
cmp -s "$work/a" "$work/b" || { diff "$work/a" "$work/b" | head -20 >&2; fail "two scans of the same tree differ"; }
run_distsec scan --root "$root" --backend none --color never -j1 --format json
grep -v '"seconds"' "$work/out" >"$work/b"
cmp -s "$work/a" "$work/b" || fail "-j1 and -j2 differ"

# 7. a file flipping between regular file and directory while scans run:
#    every scan finishes with findings or scan-unreadable, never a crash
flip="$root/usr/bin/flip"
( end=$(( $(date +%s) + 4 ))
  while [ "$(date +%s)" -lt $end ]; do
	rm -rf "$flip"; mkdir "$flip"; rmdir "$flip"; cp "$FIXTURES/nopie-norelro" "$flip"
  done ) &
flipper=$!
i=0
while [ $i -lt 8 ]; do
	run_distsec scan --root "$root" --backend none --color never -j2 /usr/bin
	[ "$rc" -le 1 ] || { cat "$work/err"; fail "scan during the flipping ended with $rc"; }
	i=$((i + 1))
done
wait $flipper
echo "hostile: ok"
