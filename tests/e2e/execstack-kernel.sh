#!/bin/sh
# elf-execstack on a program without PT_GNU_STACK, per machine: the
# kernel's own rule (docs/EXECSTACK.md) in the message and details.effect,
# details.effect_before_5_8 where Linux 5.8 changed it, details.effect_nx_cpu
# where a CPU with no-execute pages does (mips).  Each program is
# built by clang --target against Debian's cross libc (ci/install-deps), its
# PT_GNU_STACK rewritten to PT_NULL in its own class and byte order, and
# scanned in a root whose /bin/sh is of the same machine; a machine without
# its cross toolchain prints *skipped*, the others still run.
. "$(dirname "$0")/lib.sh"
command -v clang >/dev/null || { echo "SKIP: clang not installed"; exit 77; }

# nostack FILE: PT_GNU_STACK -> PT_NULL
nostack() {
	python3 - "$1" <<'PY'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
c64, e = b[4] == 2, '<' if b[5] == 1 else '>'
phoff = struct.unpack_from(e + ('Q' if c64 else 'I'), b, 32 if c64 else 28)[0]
phentsize, phnum = struct.unpack_from(e + 'HH', b, 54 if c64 else 42)
n = 0
for i in range(phnum):
    o = phoff + i * phentsize
    if struct.unpack_from(e + 'I', b, o)[0] == 0x6474e551:
        struct.pack_into(e + 'I', b, o, 0)
        n += 1
assert n == 1, n
open(p, 'wb').write(b)
PY
}

all="has no PT_GNU_STACK header, so the kernel makes every readable mapping executable (READ_IMPLIES_EXEC), the stack included"
new="has no PT_GNU_STACK header (a build defect): Linux 5.8 and later give it a non-executable stack, older kernels make every readable mapping executable (READ_IMPLIES_EXEC)"
none="has no PT_GNU_STACK header (a build defect); on this architecture the kernel still gives it a non-executable stack"
nxcpu="has no PT_GNU_STACK header, so the kernel makes every readable mapping executable (READ_IMPLIES_EXEC), the stack included, except on a CPU with no-execute pages (RI/XI) under Linux 5.18 and later"
ran=0
# TARGET EFFECT BEFORE_5_8 NX_CPU MESSAGE
while IFS='|' read -r t effect before nx msg; do
	r=$root/$t
	mkdir -p "$r/bin" "$r/usr/bin"
	if ! cached "$r/bin/sh" clang --target="$t" -O1 -w -o "$r/bin/sh" "$SRCDIR/fixtures/hello.c" 2>"$work/cc-err"; then
		echo "*skipped*: $t (no cross toolchain: $(head -n1 "$work/cc-err"))"
		continue
	fi
	cp "$r/bin/sh" "$r/usr/bin/nostack"
	nostack "$r/usr/bin/nostack"
	run_distsec scan --root "$r" --backend none --check elf-execstack --format json -v -q \
		--fail-on never /usr/bin
	expect_rc 0
	python3 - "$work/out" >"$work/got" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))['findings']:
    x = f['details']
    print(f"{f['path']}|{f['severity']}|{x['effect']}|{x.get('effect_before_5_8', '-')}|{x.get('effect_nx_cpu', '-')}|{f['message']}")
PY
	echo "/usr/bin/nostack|error|$effect|$before|$nx|$msg" >"$work/want"
	diff "$work/want" "$work/got" || fail "$t"
	echo "ok: $t $effect"
	ran=$((ran + 1))
done <<EOF2
x86_64-linux-gnu|exec-none|exec-all|-|$new
aarch64-linux-gnu|exec-none|exec-all|-|$new
i686-linux-gnu|exec-all|-|-|$all
x86_64-linux-gnux32|exec-all|-|-|$all
arm-linux-gnueabihf|exec-all|-|-|$all
powerpc64le-linux-gnu|exec-none|-|-|$none
powerpc64-linux-gnu|exec-none|-|-|$none
s390x-linux-gnu|exec-none|-|-|$none
mips64el-linux-gnuabi64|exec-all|-|exec-none|$nxcpu
EOF2
[ "$ran" -gt 0 ] || { echo "SKIP: no machine could be built"; exit 77; }
