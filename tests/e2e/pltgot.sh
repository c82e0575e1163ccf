#!/bin/sh
# A PLT stub is never a call site of the import it jumps to: Alpine's
# busybox is musl-linked with -z now, stripped, without .eh_frame_hdr, and
# its calls go through .plt.got stubs; with no function start in .text the
# calls there were read as the PLT's code, so the stub's jump counted as the
# chroot call site (a false elf-chroot-chdir error) and the real caller was
# never seen (elf-nodrop-groups and elf-tmp-name missed it).  The same
# layout is built here: with musl-gcc (it exports _init and _fini, as
# busybox does), with gcc, and with clang for the decoders' machines (main
# exported: the only known start; ARM's stays the imports' without the
# .ARM.exidx these flags drop).
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || { echo "SKIP: gcc not installed"; exit 77; }
case "$(gcc -dumpmachine)" in
x86_64-*) ;;
*) echo "SKIP: the fixtures' native builds are x86-64's and gcc targets $(gcc -dumpmachine)"; exit 77 ;;
esac
cd "$work"
# the addresses taken in code: -z now then sends every call through a
# .plt.got stub reading a GLOB_DAT slot
cat >jail.c <<'C'
#include <unistd.h>
int (*volatile keep[2])(const char *);
__attribute__((noinline)) void enter(const char *dir)
{
	if (chroot(dir) != 0)
		_exit(1);
#ifdef CHDIR
	if (chdir("/") != 0)
		_exit(1);
#endif
}
int main(int argc, char **argv)
{
	keep[0] = chroot;
#ifdef CHDIR
	keep[1] = chdir;
#endif
	if (argc > 1)
		enter(argv[1]);
	return 0;
}
C
cat >drop.c <<'C'
#define _GNU_SOURCE
#include <grp.h>
#include <pwd.h>
#include <unistd.h>
void *volatile keep[3];
__attribute__((noinline)) int drop(const struct passwd *pw)
{
#ifdef GROUPS
	if (initgroups(pw->pw_name, pw->pw_gid) != 0)
		return 1;
#endif
	return setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0;
}
int main(void)
{
	keep[0] = (void *)setgid;
	keep[1] = (void *)setuid;
#ifdef GROUPS
	keep[2] = (void *)initgroups;
#endif
	struct passwd *pw = getpwnam("nobody");
	return pw ? drop(pw) : 1;
}
C
cat >tmp.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
void *volatile keep[2];
__attribute__((noinline)) int scratch(void)
{
#ifdef MKSTEMP
	char name[] = "/tmp/fixtureXXXXXX";
	int fd = mkstemp(name);
	if (fd < 0)
		return 1;
	return close(fd);
#else
	FILE *f = fopen("/tmp/fixture-scratch.txt", "w");
	return f ? fclose(f) : 1;
#endif
}
int main(void)
{
	keep[0] = (void *)fopen;
	keep[1] = (void *)mkstemp;
	return scratch();
}
C
layout="-fPIE -pie -Wl,-z,now -Wl,--no-eh-frame-hdr -fno-asynchronous-unwind-tables -fno-unwind-tables -s"

# judge ROOT PATH CHECK SEVERITY METHOD [MESSAGE-START]: the one finding of
# CHECK on PATH; a disassembly one names a call site outside the PLT
# sections, in a function of the site's own section
judge() {
	run_distsec scan --backend none --fail-on never --root "$1" --check "$3" -v --format json "$2"
	expect_rc 0
	readelf -SW "$1$2" >"$work/sections" || fail "readelf $2"
	python3 - "$work/out" "$work/sections" "$2" "$4" "$5" "${6:-}" <<'PY' || fail "$3 on $2"
import json, sys
out, sections, path, sev, method, start = sys.argv[1:]
found = json.load(open(out))["findings"]
assert len(found) == 1, found
f = found[0]
d = f.get("details", {})
got = (f["severity"], d.get("method"))
assert got == (sev, method), (path, got, f)
assert f["message"].startswith(start), (path, f["message"])
spans = {}
for line in open(sections):
    w = line.replace("[ ", "[").split()
    if len(w) > 7 and w[1].startswith(".") and "X" in w[7]:
        spans[w[1]] = (int(w[3], 16), int(w[5], 16))
def section(a):
    return [n for n, (lo, size) in spans.items() if lo <= a < lo + size]
if "call_site" in d:
    at = section(int(d["call_site"], 16))
    assert at and not at[0].startswith(".plt"), (path, "site in", at, f)
    assert section(int(d["function"], 16)) == at, (path, d, at)
PY
}

mkdir -p "$root/usr/bin"
ran=
for cc in gcc musl-gcc; do
	command -v $cc >/dev/null || { echo "*skipped*: $cc (not installed: Debian's musl-tools)"; continue; }
	for v in jail jail-CHDIR drop drop-GROUPS tmp tmp-MKSTEMP; do
		d=
		case $v in *-*) d=-D${v#*-} ;; esac
		cached "$root/usr/bin/$v-$cc" $cc -O2 -w $layout $d -o "$root/usr/bin/$v-$cc" "${v%%-*}.c" ||
			fail "$cc $v"
	done
	ran="$ran $cc"
done
[ -n "$ran" ] || fail "neither gcc nor musl-gcc built the fixtures"
# glibc's programs export no function here: no start at all, so no
# function boundaries, and the imports decide
if command -v gcc >/dev/null; then
	judge "$root" /usr/bin/jail-gcc elf-chroot-chdir error imports "calls chroot() but never chdir()"
	judge "$root" /usr/bin/jail-CHDIR-gcc elf-chroot-chdir pass imports "calls chroot() and chdir()"
	judge "$root" /usr/bin/drop-gcc elf-nodrop-groups error imports "changes gid and uid without initgroups()"
	judge "$root" /usr/bin/drop-GROUPS-gcc elf-nodrop-groups pass imports "drops supplementary groups"
	judge "$root" /usr/bin/tmp-gcc elf-tmp-name warning imports "uses 1 fixed name under /tmp: /tmp/fixture-scratch.txt"
fi
# musl's export _init and _fini (busybox's layout): decoded, .text a function
if command -v musl-gcc >/dev/null; then
	judge "$root" /usr/bin/jail-musl-gcc elf-chroot-chdir error disassembly "calls chroot() at 0x"
	judge "$root" /usr/bin/jail-CHDIR-musl-gcc elf-chroot-chdir pass disassembly "every chroot() call has chdir()"
	judge "$root" /usr/bin/drop-musl-gcc elf-nodrop-groups error disassembly "calls setgid() at 0x"
	judge "$root" /usr/bin/drop-GROUPS-musl-gcc elf-nodrop-groups pass disassembly "does not keep root's supplementary groups"
	judge "$root" /usr/bin/tmp-musl-gcc elf-tmp-name warning disassembly "uses 1 fixed name under /tmp as file names: /tmp/fixture-scratch.txt"
fi
# mkstemp: nothing to say, with either libc
run_distsec scan --backend none --root "$root" --check elf-tmp-name -v --format json /usr/bin
expect_rc 0
grep -q 'MKSTEMP' "$work/out" && fail "a mkstemp program reported"

# every decoder's machine: clang and the cross libcs, main exported; each
# machine in a root of its own whose /bin/sh tells the system's machine
if command -v clang >/dev/null; then
	for t in x86_64-linux-gnu i686-linux-gnu aarch64-linux-gnu s390x-linux-gnu powerpc64le-linux-gnu \
		mips64el-linux-gnuabi64 powerpc64-linux-gnu; do
		r=$root/$t
		mkdir -p "$r/bin" "$r/usr/bin"
		if ! cached "$r/bin/sh" clang --target=$t -O1 -w $layout -Wl,--export-dynamic-symbol=main \
			-o "$r/bin/sh" jail.c 2>"$work/cc.err"; then
			echo "*skipped*: $t (no cross toolchain: $(head -n1 "$work/cc.err"))"
			continue
		fi
		cached "$r/usr/bin/jail-CHDIR" clang --target=$t -O1 -w $layout -Wl,--export-dynamic-symbol=main \
			-DCHDIR -o "$r/usr/bin/jail-CHDIR" jail.c || fail "$t jail-CHDIR"
		judge "$r" /bin/sh elf-chroot-chdir error disassembly "calls chroot() at 0x"
		judge "$r" /usr/bin/jail-CHDIR elf-chroot-chdir pass disassembly "every chroot() call has chdir()"
		ran="$ran $t"
	done
else
	echo "*skipped*: the other machines (clang not installed)"
fi
echo "pltgot: ok ($ran )"
