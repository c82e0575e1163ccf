#!/bin/sh
# Only ELF files the scanned system runs are judged, and static
# programs get one elf-static finding.  Everything is compiled here
# with the host's cc and packed with dpkg-deb: a separate debug file
# (objcopy --only-keep-debug), an EM_NONE file (Guile .go's e_machine), an
# ET_REL object, test data under /usr/share, a program without an execute
# bit, static and static-pie programs, a boot loader module (syslinux's
# .c32: ET_DYN without RELRO, loaded by the firmware).  Exact findings are asserted.
. "$(dirname "$0")/lib.sh"
CC=${CC:-cc}
command -v "$CC" >/dev/null || { echo "SKIP: no C compiler"; exit 77; }
command -v objcopy >/dev/null || { echo "SKIP: no objcopy"; exit 77; }
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not installed"; exit 77; }
"$DISTSEC" backends | grep -q '^  dpkg ' || { echo "SKIP: built without the dpkg backend"; exit 77; }
arch=$(dpkg --print-architecture)

src="$SRCDIR/fixtures/hello.c"
p="$work/pkg"
mkdir -p "$p/DEBIAN" "$p/usr/bin" "$p/usr/lib/debug/.build-id/ab" "$p/usr/lib/guile" \
	"$p/usr/share/fix/testdata" "$p/usr/lib/fix" "$p/usr/lib/syslinux/modules/efi64"
$CC -O1 -g -fPIE -pie -Wl,-z,relro,-z,now -o "$work/hello" "$src"
objcopy --only-keep-debug "$work/hello" "$p/usr/lib/debug/.build-id/ab/cdef.debug"
chmod 0644 "$p/usr/lib/debug/.build-id/ab/cdef.debug"   # as Debian ships them
objcopy --strip-debug "$work/hello" "$p/usr/bin/hello"
# EM_NONE, as Guile's .go files: the same file with e_machine zeroed
cp "$p/usr/bin/hello" "$p/usr/lib/guile/boot.go"
printf '\000\000' | dd of="$p/usr/lib/guile/boot.go" bs=1 seek=18 conv=notrunc 2>/dev/null
$CC -O1 -c -o "$p/usr/lib/fix/hello.o" "$src"
$CC -O1 -fno-PIE -no-pie -Wl,-z,norelro -o "$p/usr/share/fix/testdata/prog.elf" "$src"
$CC -O1 -fno-PIE -no-pie -Wl,-z,norelro -o "$p/usr/lib/fix/noexec" "$src"
chmod 0644 "$p/usr/lib/fix/noexec"
$CC -O1 -fPIC -shared -Wl,-z,norelro -o "$p/usr/lib/syslinux/modules/efi64/cat.c32" "$src"
static_ok=1
$CC -O1 -static -o "$p/usr/bin/static" "$src" 2>/dev/null || static_ok=0
$CC -O1 -static-pie -o "$p/usr/bin/static-pie" "$src" 2>/dev/null || static_ok=0
[ "$static_ok" = 1 ] || { echo "SKIP: no static libc (libc6-dev's libc.a)"; exit 77; }
printf 'Package: fixnative\nVersion: 1.0-1\nArchitecture: %s\nMaintainer: Fix Er <fix@example.org>\nDescription: fixture\n' \
	"$arch" >"$p/DEBIAN/control"
dpkg-deb --root-owner-group -b "$p" "$work/fixnative.deb" >/dev/null

run_distsec scan --color never "$work/fixnative.deb"
expect_rc 0
grep -v '^$' "$work/out" | sed 's/  */ /g' >"$work/got"
cat >"$work/want" <<WANT
info elf-fortify /usr/bin/hello [fixnative:$arch] not fortified: 1 fortifiable call (printf) and no checked twin; build with -D_FORTIFY_SOURCE=2
info elf-static /usr/bin/static [fixnative:$arch] statically linked, not PIE: loaded at a fixed address (no ASLR), and the libraries in it are frozen at build time
info elf-static /usr/bin/static-pie [fixnative:$arch] statically linked (static-pie): the libraries in it are frozen at build time, fixed only by a rebuild
check errors warnings info waived
elf-fortify 0 0 1 0
elf-static 0 0 2 0
total 0 0 3 0
9 files (9 ELF, 6 not run here, 0 scripts), 1 packages, backend none, profile debian: 0 errors, 0 warnings, 3 info
WANT
diff "$work/want" "$work/got" || fail "findings differ"

run_distsec scan --color never -v --check elf-not-judged,elf-relro,elf-static "$work/fixnative.deb"
expect_line "pass     elf-not-judged            /usr/lib/debug/.build-id/ab/cdef.debug  [fixnative:$arch]  not judged: separate debug information (its code sections are NOBITS)"
expect_line "pass     elf-not-judged            /usr/lib/guile/boot.go  [fixnative:$arch]  not judged: e_machine EM_NONE: no machine code (bytecode such as Guile .go, or data)"
expect_line "pass     elf-not-judged            /usr/lib/fix/hello.o  [fixnative:$arch]  not judged: a relocatable object (ET_REL), linked into programs, not run"
expect_line "pass     elf-not-judged            /usr/share/fix/testdata/prog.elf  [fixnative:$arch]  not judged: under /usr/share, architecture-independent data (test data, firmware)"
expect_line "pass     elf-not-judged            /usr/lib/fix/noexec  [fixnative:$arch]  not judged: a program without execute permission: the kernel does not run it"
expect_line "pass     elf-not-judged            /usr/lib/syslinux/modules/efi64/cat.c32  [fixnative:$arch]  not judged: a boot loader's module or EFI stub (syslinux .c32, systemd-boot .elf.stub): firmware loads it, not Linux"
expect_line "pass     elf-relro                 /usr/bin/hello  [fixnative:$arch]  full RELRO"
expect_line "pass     elf-relro                 /usr/bin/static  [fixnative:$arch]  statically linked: RELRO does not apply"
expect_line "pass     elf-relro                 /usr/bin/static-pie  [fixnative:$arch]  full RELRO"

# the same files in a root: counted in the JSON summary
mkdir -p "$root/usr"
cp -a "$p/usr/." "$root/usr/"
run_distsec scan --root "$root" --backend none --format json --check elf-relro,elf-pie,elf-static
expect_rc 0
python3 - "$work/out" <<'PY' || fail "JSON summary"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert s["elf_files"] == 9 and s["elf_not_judged"] == 6, s
assert sorted((f["check"], f["path"]) for f in d["findings"]) == [
    ("elf-static", "/usr/bin/static"), ("elf-static", "/usr/bin/static-pie")], d["findings"]
PY
echo "native: ok"
