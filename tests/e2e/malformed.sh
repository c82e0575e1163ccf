#!/bin/sh
# Hostile and broken inputs: each gives scan-unreadable or is skipped, the
# scan finishes, nothing outside the root is read, nothing crashes.
. "$(dirname "$0")/lib.sh"

place pie-full usr/bin/good
: >"$root/usr/bin/empty"
chmod 755 "$root/usr/bin/empty"
head -c 100 "$FIXTURES/pie-full" >"$root/usr/bin/truncated"
printf '\177ELF\2\1' >"$root/usr/bin/tiny"
# absurd program and section header offsets
cp "$FIXTURES/pie-full" "$root/usr/bin/absurd"
printf '\377\377\377\377\377\377\000\000' | dd of="$root/usr/bin/absurd" bs=1 seek=32 conv=notrunc 2>/dev/null
mkfifo "$root/usr/bin/fifo"
ln -s /nonexistent/target "$root/usr/bin/dangling"
# a symlink pointing out of the root, at an ELF the walk must not read
ln -s "$FIXTURES/nopie-norelro" "$root/usr/bin/escape"
ln -s ../../../../../../.. "$root/usr/bin/updir"
mkdir -p "$root/usr/bin/locked"
place nopie-norelro usr/bin/locked/hidden-from-user
chmod 000 "$root/usr/bin/locked"
place nopie-norelro usr/bin/noperm 0000

as_user=""
if [ "$(id -u)" = 0 ]; then
	# root reads a mode-000 directory anyway: scan as nobody to test EACCES
	chmod 755 "$root" "$work"
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
rc=0
# (file-stig is left out and the profile is a copy in $work: the
# unprivileged user may not be able to read the rules file or the profiles
# inside the build tree, wherever CI cloned it, e.g. below a 0700 mktemp -d)
cp "$SRCDIR/../src/profiles/stig" "$work/stig.profile"
wrapper=${DISTSEC_WRAPPER:-}
# (valgrind refuses a program the unprivileged user cannot reach, as in a
# clone under a 0700 directory; the nobody run then goes without it)
[ -z "$as_user" ] || $as_user test -r "$DISTSEC" || wrapper=""
$as_user $wrapper "$DISTSEC" scan --root "$root" --backend none --color never -j2 --skip file-stig \
	--profile "$work/stig.profile" \
	>"$work/out" 2>"$work/err" || rc=$?
expect_rc 0
expect_line "info     scan-unreadable           /usr/bin/truncated  [unknown]  malformed ELF: program headers are truncated or out of bounds"
expect_line "info     scan-unreadable           /usr/bin/tiny  [unknown]  malformed ELF: too short for an ELF header"
expect_line "info     scan-unreadable           /usr/bin/absurd  [unknown]  malformed ELF:"
expect_line "info     scan-unreadable           /usr/bin/locked  [unknown]  cannot read directory: Permission denied"
if [ -n "$as_user" ]; then
	expect_line "info     scan-unreadable           /usr/bin/noperm  [unknown]  cannot read: Permission denied"
fi
# file-symlink judges the links themselves (dangling, climbing above /), never what they name
grep -v " file-symlink " "$work/out" | grep -q "fifo\|dangling\|escape\|updir\|empty\|hidden-from-user" &&
	fail "reported a file it should skip"
grep -q "elf-relro .*/usr/bin/good" "$work/out" && fail "good file misjudged"

# A PATH argument is resolved inside the root: a symlink out of it stays in.
run_distsec scan --root "$root" --backend none --color never /usr/bin/escape
expect_rc 2
grep -q "No such file or directory" "$work/err" || fail "escape symlink not contained"
run_distsec scan --root "$root" --backend none --color never /usr/bin/updir/usr/bin/good
expect_rc 0
expect_line "0 errors"
echo "malformed: ok"
