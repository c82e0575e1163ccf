#!/bin/sh
# elf-static-nopic: static archives built here with gcc and ar,
# one of objects compiled -fno-pic (a string's address in code is an
# R_X86_64_32), one -fPIC; in a tree and in a .deb.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null && command -v ar >/dev/null || { echo "SKIP: gcc or ar not installed"; exit 77; }
case "$(gcc -dumpmachine)" in
x86_64-*) ;;
*) echo "SKIP: the rule is x86-64's and gcc targets $(gcc -dumpmachine)"; exit 77 ;;
esac
cd "$work"
printf '#include <stdio.h>\nint counter;\nvoid hello(void) { puts("hello"); counter++; }\n' >hello.c
printf 'int twice(int x) { return 2 * x; }\n' >twice.c
gcc -O2 -c -fno-pic hello.c -o a_member_with_a_long_name.o
gcc -O2 -c -fno-pic twice.c -o twice.o
gcc -O2 -c -fPIC hello.c -o hello-pic.o
gcc -O2 -c -fPIC twice.c -o twice-pic.o
mkdir -p "$root/usr/lib/fix"
ar rc "$root/usr/lib/fix/libnopic.a" a_member_with_a_long_name.o twice.o
ar rc "$root/usr/lib/fix/libpic.a" hello-pic.o twice-pic.o
# an ar archive of no ELF objects, and a non-archive named .a: nothing
printf 'text\n' >note.txt
ar rc "$root/usr/lib/fix/libtext.a" note.txt
printf 'not an archive\n' >"$root/usr/lib/fix/fake.a"
run_distsec scan --backend none --color never -v --check elf-static-nopic --root "$root" /
expect_rc 0
grep -E '^(pass|warning|info|error) ' "$work/out" >"$work/got" || true
cat >"$work/expected" <<'EXP'
warning  elf-static-nopic          /usr/lib/fix/libnopic.a  [unknown]  static archive with 1 of 2 x86-64 objects not built as PIC (a_member_with_a_long_name.o: R_X86_64_32 in .text): a PIE or shared library cannot take them, so a program linking it loses ASLR or fails to link
pass     elf-static-nopic          /usr/lib/fix/libpic.a  [unknown]  static archive of 2 x86-64 objects, all PIC
EXP
diff -u "$work/expected" "$work/got" || fail "static archives in a tree"
run_distsec scan --backend none --format json --check elf-static-nopic --root "$root" /usr/lib/fix/libnopic.a
python3 - "$work/out" <<'PY' || fail "elf-static-nopic details"
import json, sys
d = json.load(open(sys.argv[1]))["findings"][0]["details"]
assert d == {"objects": 2, "not_pic": 1, "first": "a_member_with_a_long_name.o",
             "relocation": "R_X86_64_32", "section": ".text"}, d
PY
# the same archives as a package's members
mkdeb_files fixa amd64 "../$(basename "$root")/usr/lib/fix/libnopic.a=usr/lib/fix/libnopic.a=0644" \
	"../$(basename "$root")/usr/lib/fix/libpic.a=usr/lib/fix/libpic.a=0644"
run_distsec scan --color never --check elf-static-nopic --fail-on warning "$work/fixa.deb"
expect_rc 1
expect_line "warning  elf-static-nopic          /usr/lib/fix/libnopic.a  [fixa:amd64]  static archive with 1 of 2 x86-64 objects not built as PIC (a_member_with_a_long_name.o: R_X86_64_32 in .text)"
grep -q "libpic.a" "$work/out" && fail "a PIC archive reported"
run_distsec explain elf-static-nopic
expect_line "R_X86_64_32 or R_X86_64_32S"
echo "static-nopic: ok"
