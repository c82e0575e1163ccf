#!/bin/sh
# Programs of other machines: built here with clang --target against
# Debian's cross libcs (libc6-dev-arm64-cross, libc6-dev-i386-cross,
# libc6-dev-s390x-cross, libc6-dev-x32-cross, libc6-dev-ppc64el-cross,
# libc6-dev-armhf-cross, libc6-dev-mips64el-cross, libc6-dev-ppc64-cross:
# ci/install-deps), then
# judged as the scanned system would run them: an arm64 package file by its
# own architecture, an aarch64 image root (no database) by its /bin/sh, a
# dpkg root by its dpkg's architecture plus var/lib/dpkg/arch.
. "$(dirname "$0")/lib.sh"
command -v clang >/dev/null || { echo "SKIP: clang not installed"; exit 77; }
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not installed"; exit 77; }
[ "$(uname -m)" = x86_64 ] || { echo "SKIP: the expectations are written for an x86-64 host"; exit 77; }
"$DISTSEC" backends | grep -q '^  dpkg ' || { echo "SKIP: built without the dpkg backend"; exit 77; }
src="$SRCDIR/fixtures/hello.c"
# cross TARGET OUT FLAGS...: fails when the cross libc or binutils are missing
cross() {
	t=$1 out=$2
	shift 2
	cached "$out" clang --target="$t" -O1 -w "$@" -o "$out" "$src" 2>"$work/cc-err"
}
cross aarch64-linux-gnu "$work/a64-norelro" -Wl,-z,norelro ||
	{ cat "$work/cc-err"; echo "SKIP: no aarch64 cross toolchain (binutils-aarch64-linux-gnu, libc6-dev-arm64-cross)"; exit 77; }
cross aarch64-linux-gnu "$work/a64-full" -Wl,-z,relro,-z,now
cross i686-linux-gnu "$work/i386-norelro" -Wl,-z,norelro ||
	{ cat "$work/cc-err"; echo "SKIP: no i386 cross toolchain (binutils-i686-linux-gnu, libc6-dev-i386-cross)"; exit 77; }
cached "$work/x64-norelro" cc -O1 -w -Wl,-z,norelro -o "$work/x64-norelro" "$src"

# only: the finding lines, spaces squeezed
# the findings: the lines before the first blank one (the table and the summary follow)
only() { sed -n '/^$/q;p' "$work/out" | sed 's/  */ /g' >"$work/got"; }

# 1. a package file of arm64, scanned on x86-64: its aarch64 program is judged
mkdeb_files fixa64 arm64 a64-norelro=usr/bin/tool x64-norelro=usr/lib/fixa64/host-helper
run_distsec scan --color never --check elf-relro "$work/fixa64.deb"
expect_rc 1
only
echo "error elf-relro /usr/bin/tool [fixa64:arm64] no RELRO: relocated data such as the GOT stays writable" >"$work/want"
diff "$work/want" "$work/got" || fail "arm64 package file"
expect_line "2 ELF, 1 not run here"

# 2. an aarch64 image root without a package database: its /bin/sh decides
mkdir -p "$root/bin" "$root/usr/bin"
cp "$work/a64-full" "$root/bin/sh"
cp "$work/a64-norelro" "$root/usr/bin/tool"
cp "$work/x64-norelro" "$root/usr/bin/host-tool"
run_distsec scan --root "$root" --backend none --color never --check elf-relro,elf-not-judged -v
expect_rc 1
only
cat >"$work/want" <<'WANT'
pass elf-relro /bin/sh [unknown] full RELRO
pass elf-not-judged /usr/bin/host-tool [unknown] not judged: built for x86_64; the scanned system runs aarch64
error elf-relro /usr/bin/tool [unknown] no RELRO: relocated data such as the GOT stays writable
WANT
diff "$work/want" "$work/got" || fail "aarch64 image root"

# 3. a dpkg root whose dpkg is arm64, with i386 added: arm64 and i386 are
#    judged, x86-64 is not
droot="$work/droot"
mkdir -p "$droot/var/lib/dpkg/info" "$droot/var/lib/dpkg/updates"
: >"$droot/var/lib/dpkg/status"
: >"$droot/var/lib/dpkg/available"
mkdeb_files dpkg arm64 a64-full=usr/bin/dpkg
mkdeb_files fixmix arm64 a64-norelro=usr/bin/a64 i386-norelro=usr/bin/i386 x64-norelro=usr/bin/x64
force=""
[ "$(id -u)" = 0 ] || force="--force-not-root --force-bad-path"
dpkg --root="$droot" $force --add-architecture i386
dpkg --root="$droot" $force --force-architecture -i "$work/dpkg.deb" "$work/fixmix.deb" >/dev/null 2>&1
run_distsec scan --root "$droot" --color never --check elf-relro /usr/bin
expect_rc 1
only
cat >"$work/want" <<'WANT'
error elf-relro /usr/bin/a64 [fixmix:arm64] no RELRO: relocated data such as the GOT stays writable
error elf-relro /usr/bin/i386 [fixmix:arm64] no RELRO: relocated data such as the GOT stays writable
WANT
diff "$work/want" "$work/got" || fail "dpkg root of arm64 + i386"
expect_line "backend dpkg"

# 4-9. s390x (big-endian, 64-bit), x32 (ELFCLASS32 on EM_X86_64), ppc64el,
#    armhf (32-bit ARM, named "arm" in messages), mips64el and ppc64
#    (big-endian, ELFv1): the
#    structural checks read each header, segment and dynamic entry in the
#    file's own byte order and class, so their findings are x86-64's: PIE
#    or not, no, partial or full RELRO, an executable stack, a RUNPATH, a
#    text relocation.  An image root is judged by its /bin/sh, a package
#    file by its architecture; the aarch64 program beside them is not judged
#    (an x32 system's kernel is x86-64's, which runs x86-64 programs too:
#    kernel-arches.sh).  Without the target's cross
#    toolchain: *skipped*, the other cases still run.
# other TARGET ARCH [MACHINE]: clang's target, the Debian architecture, the
# machine's name in messages when it is not ARCH
other() {
	t=$1 a=$2 m=${3:-$2}
	# glibc's mips crt objects (Scrt1.o, crti.o, crtn.o) ask for an
	# executable stack (an SHF_EXECINSTR .note.GNU-stack): every mips64el
	# program has one unless the link says otherwise (execstack's later
	# -z execstack still wins)
	case $t in mips*) nx=-Wl,-z,noexecstack ;; *) nx= ;; esac
	if ! cross "$t" "$work/$a-full" $nx -Wl,-z,relro,-z,now; then
		echo "*skipped*: $a (no cross toolchain: $(head -n1 "$work/cc-err"))"
		return 0
	fi
	cross "$t" "$work/$a-norelro" $nx -Wl,-z,norelro
	cross "$t" "$work/$a-partial" $nx -Wl,-z,relro,-z,lazy
	cross "$t" "$work/$a-nopie" $nx -fno-pie -no-pie -Wl,-z,relro,-z,now
	cross "$t" "$work/$a-execstack" $nx -Wl,-z,relro,-z,now,-z,execstack
	cross "$t" "$work/$a-rpath" $nx -Wl,-z,relro,-z,now,-rpath,/usr/lib/fixture
	cached "$work/$a-textrel" clang --target="$t" -O1 -w -fPIC -shared $nx -Wl,-z,relro,-z,now,-z,notext \
		-o "$work/$a-textrel" "$SRCDIR/fixtures/textrel.c"
	r=$work/root-$a
	mkdir -p "$r/bin" "$r/usr/bin" "$r/usr/lib"
	cp "$work/$a-full" "$r/bin/sh"
	for v in norelro partial nopie execstack rpath; do
		cp "$work/$a-$v" "$r/usr/bin/$v"
	done
	cp "$work/$a-textrel" "$r/usr/lib/libtextrel.so"
	cp "$work/a64-norelro" "$r/usr/bin/host-tool"
	run_distsec scan --root "$r" --backend none --color never -v \
		--check elf-pie,elf-relro,elf-execstack,elf-textrel,elf-rpath,elf-not-judged
	expect_rc 1
	only
	sed "s/@ARCH@/$m/" >"$work/want" <<'WANT'
pass elf-execstack /bin/sh [unknown] non-executable stack
pass elf-pie /bin/sh [unknown] built as a position-independent executable
pass elf-relro /bin/sh [unknown] full RELRO
error elf-execstack /usr/bin/execstack [unknown] requests an executable stack (PT_GNU_STACK has PF_X)
pass elf-pie /usr/bin/execstack [unknown] built as a position-independent executable
pass elf-relro /usr/bin/execstack [unknown] full RELRO
pass elf-not-judged /usr/bin/host-tool [unknown] not judged: built for aarch64; the scanned system runs @ARCH@
pass elf-execstack /usr/bin/nopie [unknown] non-executable stack
info elf-pie /usr/bin/nopie [unknown] not built as a position-independent executable (PIE): ASLR cannot move its code
pass elf-relro /usr/bin/nopie [unknown] full RELRO
pass elf-execstack /usr/bin/norelro [unknown] non-executable stack
pass elf-pie /usr/bin/norelro [unknown] built as a position-independent executable
error elf-relro /usr/bin/norelro [unknown] no RELRO: relocated data such as the GOT stays writable
pass elf-execstack /usr/bin/partial [unknown] non-executable stack
pass elf-pie /usr/bin/partial [unknown] built as a position-independent executable
pass elf-relro /usr/bin/partial [unknown] partial RELRO
pass elf-execstack /usr/bin/rpath [unknown] non-executable stack
pass elf-pie /usr/bin/rpath [unknown] built as a position-independent executable
pass elf-relro /usr/bin/rpath [unknown] full RELRO
info elf-rpath /usr/bin/rpath [unknown] has RUNPATH /usr/lib/fixture
pass elf-execstack /usr/lib/libtextrel.so [unknown] non-executable stack
pass elf-relro /usr/lib/libtextrel.so [unknown] full RELRO
warning elf-textrel /usr/lib/libtextrel.so [unknown] has text relocations (DT_TEXTREL): code pages are written at load time; build with -fPIC
WANT
	diff "$work/want" "$work/got" || fail "$a image root"
	expect_line "8 ELF, 1 not run here"

	mkdeb_files "fix$a" "$a" "$a-norelro=usr/bin/tool" "$a-full=usr/bin/full" "$a-nopie=usr/bin/nopie" \
		"a64-norelro=usr/lib/fix$a/host-helper"
	run_distsec scan --color never -v --check elf-pie,elf-relro,elf-not-judged "$work/fix$a.deb"
	expect_rc 1
	only
	sed "s/@ARCH@/$a/g; s/runs $a\$/runs $m/" >"$work/want" <<'WANT'
pass elf-pie /usr/bin/full [fix@ARCH@:@ARCH@] built as a position-independent executable
pass elf-relro /usr/bin/full [fix@ARCH@:@ARCH@] full RELRO
info elf-pie /usr/bin/nopie [fix@ARCH@:@ARCH@] not built as a position-independent executable (PIE): ASLR cannot move its code
pass elf-relro /usr/bin/nopie [fix@ARCH@:@ARCH@] full RELRO
pass elf-pie /usr/bin/tool [fix@ARCH@:@ARCH@] built as a position-independent executable
error elf-relro /usr/bin/tool [fix@ARCH@:@ARCH@] no RELRO: relocated data such as the GOT stays writable
pass elf-not-judged /usr/lib/fix@ARCH@/host-helper [fix@ARCH@:@ARCH@] not judged: built for aarch64; the scanned system runs @ARCH@
WANT
	diff "$work/want" "$work/got" || fail "$a package file"
	expect_line "4 ELF, 1 not run here"
	echo "ok: $a"
}
other s390x-linux-gnu s390x
other x86_64-linux-gnux32 x32
other powerpc64le-linux-gnu ppc64el ppc64le
other arm-linux-gnueabihf armhf arm
other mips64el-linux-gnuabi64 mips64el
other powerpc64-linux-gnu ppc64
echo "cross-arch: ok"
