#!/bin/sh
# Every program the system's kernel runs is judged: a root's or a
# package's architectures include what its kernel runs beside them (i386
# and x32 on x86-64, x86-64 and i386 on x32, 32-bit ARM on aarch64, ppc32
# on big-endian ppc64, 31-bit s390 on s390x); a program of any other
# machine is still not judged.  The programs are built here: i386 and
# armhf with clang --target against Debian's cross libcs, ppc32 with clang
# and lld (no libc: a _start that loops), 31-bit s390 with s390x binutils'
# as -m31.  A case whose toolchain is missing prints *skipped*; the i386
# cases are required.
. "$(dirname "$0")/lib.sh"
for t in clang dpkg-deb; do
	command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
[ "$(uname -m)" = x86_64 ] || { echo "SKIP: the expectations are written for an x86-64 host"; exit 77; }
"$DISTSEC" backends | grep -q '^  dpkg ' || { echo "SKIP: built without the dpkg backend"; exit 77; }
hello="$SRCDIR/fixtures/hello.c"
drop="$SRCDIR/fixtures/disasm/drop.c"
# cross TARGET OUT FLAGS... SOURCE: fails when the cross libc or binutils are missing
cross() {
	t=$1 out=$2
	shift 2
	cached "$out" clang --target="$t" -w "$@" -o "$out" 2>"$work/cc-err"
}
# an i386 program changing to a user's ids without initgroups
cross i686-linux-gnu "$work/i386-drop" -O2 -DPW -Wl,-z,norelro "$drop" ||
	{ cat "$work/cc-err"; echo "SKIP: no i386 cross toolchain (binutils-i686-linux-gnu, libc6-dev-i386-cross)"; exit 77; }
cross i686-linux-gnu "$work/i386-norelro" -O1 -Wl,-z,norelro "$hello"
cross aarch64-linux-gnu "$work/a64-norelro" -O1 -Wl,-z,norelro "$hello" ||
	{ cat "$work/cc-err"; echo "SKIP: no aarch64 cross toolchain (binutils-aarch64-linux-gnu, libc6-dev-arm64-cross)"; exit 77; }
cached "$work/x64-full" cc -O1 -w -Wl,-z,relro,-z,now -o "$work/x64-full" "$hello"
cached "$work/x64-norelro" cc -O1 -w -Wl,-z,norelro -o "$work/x64-norelro" "$hello"

# findings: the JSON report's findings, one line each: path, check,
# severity, then the details that tell how it was judged: the class, the
# method, a setuid/setgid file, the reason of a not-judged pass
findings() {
	python3 - "$work/out" >"$work/got" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for f in d['findings']:
    x = f['details']
    how = [f"{k}={x[k]}" for k in ('class', 'method', 'setid_file') if k in x]
    print(' '.join([f['path'], f['check'], f['severity']] + how + [x.get('reason', '')]).rstrip())
PY
}
checks=elf-pie,elf-relro,elf-nodrop-groups,elf-not-judged

# 1. an amd64 package file: its i386 setuid program is judged (class
#    setuid, the i386 decoder's verdict), so is a plain i386 program; the
#    aarch64 helper beside them is not
mkdeb_files fixmulti amd64 i386-drop=usr/bin/drop32=4755 i386-norelro=usr/bin/hello32 \
	a64-norelro=usr/lib/fixmulti/a64-helper
run_distsec scan --color never -v -q --format json --check "$checks" "$work/fixmulti.deb"
expect_rc 1
findings
cat >"$work/want" <<'WANT'
/usr/bin/drop32 elf-nodrop-groups warning method=disassembly setid_file=True
/usr/bin/drop32 elf-pie pass class=setuid
/usr/bin/drop32 elf-relro error class=setuid
/usr/bin/hello32 elf-pie pass class=exec
/usr/bin/hello32 elf-relro error class=exec
/usr/lib/fixmulti/a64-helper elf-not-judged pass built for aarch64; the scanned system runs x86_64
WANT
diff "$work/want" "$work/got" || fail "i386 programs in an amd64 package file"

# 2. an x86-64 image root (its /bin/sh decides): the same
mkdir -p "$root/bin" "$root/usr/bin"
cp "$work/x64-full" "$root/bin/sh"
cp "$work/i386-drop" "$root/usr/bin/drop32"
chmod 4755 "$root/usr/bin/drop32"
cp "$work/a64-norelro" "$root/usr/bin/a64-tool"
run_distsec scan --root "$root" --backend none --color never -v -q --format json --check "$checks" /usr/bin
expect_rc 1
findings
cat >"$work/want" <<'WANT'
/usr/bin/a64-tool elf-not-judged pass built for aarch64; the scanned system runs x86_64
/usr/bin/drop32 elf-nodrop-groups warning method=disassembly setid_file=True
/usr/bin/drop32 elf-pie pass class=setuid
/usr/bin/drop32 elf-relro error class=setuid
WANT
diff "$work/want" "$work/got" || fail "an i386 setuid program in an x86-64 root"
echo "ok: i386 on x86-64"

# judged WHAT ARGS...: `distsec scan -v ARGS` with elf-relro and
# elf-not-judged must print exactly the finding lines on stdin (spaces
# squeezed; the text report's findings end at its first blank line)
judged() {
	what=$1
	shift
	cat >"$work/want"
	run_distsec scan --color never -v --check elf-relro,elf-not-judged "$@"
	expect_rc 1
	sed -n '/^$/q;p' "$work/out" | sed 's/  */ /g' >"$work/got"
	diff "$work/want" "$work/got" || fail "$what"
	echo "ok: $what"
}
relro_err="no RELRO: relocated data such as the GOT stays writable"
# in_pkg WHAT ARCH MACHINE FILE PATH: a package file of ARCH holding $work/FILE
# at PATH is judged; the x86-64 program beside it is not (the system runs MACHINE)
in_pkg() {
	mkdeb_files "fix$2" "$2" "$4=$5" "x64-norelro=usr/lib/fix$2/x64-helper"
	judged "$1" "$work/fix$2.deb" <<WANT
error elf-relro /$5 [fix$2:$2] $relro_err
pass elf-not-judged /usr/lib/fix$2/x64-helper [fix$2:$2] not judged: built for x86_64; the scanned system runs $3
WANT
}

# 3. an x32 image root: its kernel is x86-64's, so x86-64 and i386
#    programs run too
if cross x86_64-linux-gnux32 "$work/x32-full" -O1 -Wl,-z,relro,-z,now "$hello"; then
	r=$work/root-x32
	mkdir -p "$r/bin" "$r/usr/bin"
	cp "$work/x32-full" "$r/bin/sh"
	cp "$work/x64-norelro" "$r/usr/bin/x64"
	cp "$work/i386-norelro" "$r/usr/bin/i386"
	cp "$work/a64-norelro" "$r/usr/bin/a64"
	judged "x86-64 and i386 programs in an x32 root" --root "$r" --backend none /usr/bin <<WANT
pass elf-not-judged /usr/bin/a64 [unknown] not judged: built for aarch64; the scanned system runs x32
error elf-relro /usr/bin/i386 [unknown] $relro_err
error elf-relro /usr/bin/x64 [unknown] $relro_err
WANT
else
	echo "*skipped*: x32 (no cross toolchain: $(head -n1 "$work/cc-err"))"
fi

# 4. an arm64 package file: its armhf program is judged, an x86-64 one not
if cross arm-linux-gnueabihf "$work/armhf-norelro" -O1 -Wl,-z,norelro "$hello"; then
	in_pkg "an armhf program in an arm64 package file" arm64 aarch64 armhf-norelro usr/bin/arm32
else
	echo "*skipped*: armhf (no cross toolchain: $(head -n1 "$work/cc-err"))"
fi

# 5. a ppc32 program: judged in a ppc64 (big-endian) rpm, not in a
#    ppc64le one, whose kernel has no 32-bit ABI
printf 'void _start(void) { for (;;) ; }\n' >"$work/start.c"
if ! command -v rpmbuild >/dev/null; then
	echo "*skipped*: ppc32 (rpmbuild not installed)"
elif ! cross powerpc-linux-gnu "$work/ppc32" -ffreestanding -nostdlib -fuse-ld=lld -fPIE -pie \
		-Wl,--dynamic-linker=/lib/ld.so.1 -Wl,-z,norelro "$work/start.c"; then
	echo "*skipped*: ppc32 (no clang PowerPC target or lld: $(head -n1 "$work/cc-err"))"
else
	top="$work/rpmbuild"
	mkdir -p "$top/SOURCES" "$top/SPECS"
	cp "$work/ppc32" "$top/SOURCES/ppc32"
	cat >"$top/SPECS/fixppc.spec" <<'SPEC'
Name: fixppc
Version: 1.0
Release: 1
Summary: distsec test fixture
License: GPL-2.0-or-later
Source0: ppc32
%description
distsec test fixture
%install
mkdir -p %{buildroot}/usr/bin
install -m 755 %{SOURCE0} %{buildroot}/usr/bin/ppc32
%files
/usr/bin/ppc32
SPEC
	for t in ppc64 ppc64le; do
		rpmbuild --define "_topdir $top" --define "__os_install_post %{nil}" \
			--define "debug_package %{nil}" --target "$t" -bb "$top/SPECS/fixppc.spec" \
			>"$work/rpmbuild.log" 2>&1 || { cat "$work/rpmbuild.log"; fail "rpmbuild --target $t failed"; }
	done
	judged "a ppc32 program in ppc64 and ppc64le rpms" \
		"$top/RPMS/ppc64/fixppc-1.0-1.ppc64.rpm" "$top/RPMS/ppc64le/fixppc-1.0-1.ppc64le.rpm" <<WANT
pass elf-not-judged /usr/bin/ppc32 [fixppc-1.0-1.ppc64le] not judged: built for powerpc; the scanned system runs ppc64le
error elf-relro /usr/bin/ppc32 [fixppc-1.0-1.ppc64] $relro_err
WANT
fi

# 6. a 31-bit s390 program in an s390x package file is judged
printf '.text\n.globl _start\n_start:\n\tj _start\n' >"$work/s390.s"
if s390x-linux-gnu-as -m31 -o "$work/s390.o" "$work/s390.s" 2>"$work/cc-err" &&
   s390x-linux-gnu-ld -m elf_s390 -pie --dynamic-linker=/lib/ld.so.1 -z norelro \
	-o "$work/s390-norelro" "$work/s390.o" 2>"$work/cc-err"; then
	in_pkg "a 31-bit s390 program in an s390x package file" s390x s390x s390-norelro usr/bin/s390
else
	echo "*skipped*: s390 (no s390x binutils: $(head -n1 "$work/cc-err"))"
fi
echo "kernel-arches: ok"
