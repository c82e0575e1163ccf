#!/bin/sh
# Package files as a build's users scan them: no host database read, one
# bounded job per package file (300 under `ulimit -n 64`), the argument
# forms (./X, relative, --package-file, a PATH under --root that never
# touches the host), --files-from, and a .changes whose listed sizes and
# sha256 are checked.  Packages are built here with dpkg-deb.
. "$(dirname "$0")/lib.sh"
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not installed"; exit 77; }

# mkdeb NAME FIXTURE PATH: $work/NAME_1.0-1_amd64.deb with FIXTURE at PATH
mkdeb() {
	d="$work/pkg-$1"
	mkdir -p "$d/DEBIAN" "$d/$(dirname "$3")"
	printf 'Package: %s\nVersion: 1.0-1\nArchitecture: amd64\nMaintainer: Fix Er <fix@example.org>\nDescription: fixture\n' \
		"$1" >"$d/DEBIAN/control"
	cp "$FIXTURES/$2" "$d/$3"
	chmod 755 "$d/$3"
	dpkg-deb --root-owner-group -Znone -b "$d" "$work/$1_1.0-1_amd64.deb" >/dev/null
}
mkdeb fixa nopie-norelro usr/bin/fixa-tool
mkdeb fixb pie-full usr/bin/fixb-tool
fixa="$work/fixa_1.0-1_amd64.deb"
fixb="$work/fixb_1.0-1_amd64.deb"
fixa_line="error    elf-relro                 /usr/bin/fixa-tool  [fixa:amd64]"

# 1. only package files: the host's dpkg database and apt cache are not read
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
	strace -f -e trace=open,openat,openat2,stat,newfstatat,statx -o "$work/trace" \
		"$DISTSEC" scan --format json -o "$work/out" "$fixa" || true
	grep -E '/var/lib/(dpkg|apt)|/var/cache/apt' "$work/trace" && fail "a package file scan read the host database"
	grep -q '"backend":"none"' "$work/out" || fail "backend is not none"
	if [ -e /var/lib/dpkg/status ]; then
		strace -f -e trace=open,openat -o "$work/trace" \
			"$DISTSEC" scan --installed-state -o /dev/null "$fixa" || true
		grep -q '/var/lib/dpkg/status' "$work/trace" || fail "--installed-state did not read the database"
	fi
else
	echo "note: strace unusable here; the database check is skipped"
fi
run_distsec scan --color never "$fixa"
expect_rc 1
expect_line "$fixa_line"
expect_line "backend none"

# 2. 300 package files under 64 descriptors, two workers: every one read
mkdir "$work/many"
i=0
while [ $i -lt 300 ]; do
	ln "$fixa" "$work/many/fixa-$i.deb"
	i=$((i + 1))
done
rc=0
(ulimit -n 64 && "$DISTSEC" scan --color never -j2 "$work"/many/*.deb) >"$work/out" 2>"$work/err" || rc=$?
expect_rc 1
[ "$(grep -c "^error    elf-relro .*/usr/bin/fixa-tool  \[fixa:amd64\]" "$work/out")" = 300 ] ||
	fail "not 300 elf-relro findings under ulimit -n 64"
grep -q unreadable "$work/out" && fail "a package file went unread under ulimit -n 64"
# --files-from, from stdin, gives the same report
ls "$work"/many/*.deb | (ulimit -n 64 && "$DISTSEC" scan --color never -j2 --files-from -) \
	>"$work/out2" 2>/dev/null || true
grep -v '^[0-9]* files' "$work/out" >"$work/a"
grep -v '^[0-9]* files' "$work/out2" >"$work/b"
cmp -s "$work/a" "$work/b" || fail "--files-from - differs from the same files as arguments"

# a host file that exists but cannot be opened is an error naming it
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	cp "$fixa" "$work/locked.deb"
	chmod 000 "$work/locked.deb"
	chmod 755 "$work"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$DISTSEC" scan --color never \
		"$work/locked.deb" "$fixb" >"$work/out" 2>"$work/err" || rc=$?
	expect_rc 1
	grep -qx "distsec: $work/locked.deb: Permission denied" "$work/err" || fail "no error naming the locked file"
	expect_line "error    scan-unreadable           $work/locked.deb  [unknown]  package file unreadable: Permission denied"
else
	echo "note: not root: the unopenable-file case is skipped"
fi

# 3. argument forms
cd "$work"
run_distsec scan --color never ./fixa_1.0-1_amd64.deb
expect_rc 1
expect_line "$fixa_line"
run_distsec scan --color never fixa_1.0-1_amd64.deb
expect_line "$fixa_line"
run_distsec scan --color never --package-file "$fixa"
expect_line "$fixa_line"
run_distsec scan --color never --package-file "$work/pkg-fixa/usr/bin/fixa-tool"
expect_rc 2
grep -q "not a package file any backend reads" "$work/err" || fail "--package-file took a plain ELF"
# under --root, a PATH is the root's: the host's file of that name is never touched
mkdir -p "$root$work"
cp "$FIXTURES/pie-partial" "$root$fixa"
strace -f -e trace=open,openat,stat,newfstatat,statx,access -o "$work/trace" \
	"$DISTSEC" scan --root "$root" --backend none --color never -v "$fixa" >"$work/out" 2>&1 || true
expect_line "$fixa  [unknown]"
grep -F "AT_FDCWD, \"$fixa\"" "$work/trace" && fail "the host's $fixa was touched for a PATH under --root"
grep -q "fixa-tool" "$work/out" && fail "the root's file was read as the host's package"
# ... and ./X is the host's package file even then
run_distsec scan --root "$root" --color never ./fixa_1.0-1_amd64.deb
expect_line "$fixa_line"

# a .changes: its binary packages, sizes and sha256 checked
entry() { printf ' %s %s %s\n' "$(sha256sum "$1" | cut -d' ' -f1)" "$(stat -c %s "$1")" "$(basename "$1")"; }
{
	printf 'Format: 1.8\nSource: fix\nBinary: fixa fixb\nVersion: 1.0-1\nChecksums-Sha256:\n'
	entry "$fixa"
	entry "$fixb"
	printf ' 0000000000000000000000000000000000000000000000000000000000000000 10 fix_1.0-1.dsc\n'
	printf 'Files:\n 00 1 misc optional fixa_1.0-1_amd64.deb\n'
} >"$work/fix_1.0-1_amd64.changes"
run_distsec scan --color never -v ../"$(basename "$work")"/fix_1.0-1_amd64.changes
expect_rc 1
expect_line "$fixa_line"
expect_line "pass     elf-relro                 /usr/bin/fixb-tool  [fixb:amd64]"
sed "s/^ [0-9a-f]* \([0-9]*\) fixb/ $(printf '%064d' 1) \1 fixb/" "$work/fix_1.0-1_amd64.changes" >"$work/bad.changes"
run_distsec scan --color never ./bad.changes
expect_rc 1
expect_line "error    scan-unreadable           ./fixb_1.0-1_amd64.deb  [unknown]  package file unreadable: sha256 $(sha256sum "$fixb" | cut -d' ' -f1), ./bad.changes lists $(printf '%064d' 1)"
grep -q fixb-tool "$work/out" && fail "a package file that does not match its .changes was scanned"
printf 'Format: 1.8\n' >"$work/empty.changes"
run_distsec scan ./empty.changes
expect_rc 2
grep -q "empty.changes: no Checksums-Sha256 field" "$work/err" || fail "no error for a .changes without checksums"
echo "pkgfiles: ok"
