#!/bin/sh
# The lists three checks read from the profile: elf-badfuncs'
# functions, elf-rpath's forbidden directories, file-capabilities' allowed
# capabilities; the shipped profiles' lists, and a --profile FILE's.
. "$(dirname "$0")/lib.sh"
place badfuncs usr/bin/fixl-bad
place rpath-abs usr/bin/fixl-abs
place rpath-tmp usr/bin/fixl-tmp
# a .deb whose program carries cap_sys_admin (a pax xattr in data.tar)
python3 - "$FIXTURES/pie-full" "$work/caps.deb" <<'PY'
import io, sys, tarfile
prog = open(sys.argv[1], 'rb').read()
def tar(members, fmt):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w', format=fmt) as t:
        for name, data, pax in members:
            ti = tarfile.TarInfo(name)
            ti.size, ti.mode, ti.pax_headers = len(data), 0o755, pax
            t.addfile(ti, io.BytesIO(data))
    return buf.getvalue()
# VFS_CAP_REVISION_2 with the effective bit; permitted: CAP_SYS_ADMIN (21)
cap = {'SCHILY.xattr.security.capability': '\x01\x00\x00\x02\x00\x00\x20\x00' + '\x00' * 12}
control = b'Package: fixl\nVersion: 1.0\nArchitecture: amd64\nMaintainer: F <f@example.org>\nDescription: f\n'
members = [('debian-binary', b'2.0\n'),
           ('control.tar', tar([('./control', control, {})], tarfile.GNU_FORMAT)),
           ('data.tar', tar([('./usr/bin/fixl-admin', prog, cap)], tarfile.PAX_FORMAT))]
with open(sys.argv[2], 'wb') as f:
    f.write(b'!<arch>\n')
    for name, data in members:
        f.write(('%-16s%-12d%-6d%-6d%-8s%-10d`\n' % (name, 0, 0, 0, '100644', len(data))).encode())
        f.write(data + (b'\n' if len(data) % 2 else b''))
PY

# lines SEVERITY CHECK PATH MESSAGE of the text report
lines() {
	grep -E '^(error|warning|info) ' "$work/out" | sed 's/  */ /g' || true
}

# 1. the shipped profiles' lists (stig's, with backend none)
run_distsec scan --backend none --color never --check elf-badfuncs,elf-rpath --root "$root" /
lines >"$work/got"
cat >"$work/expected" <<'EXP'
error elf-badfuncs /usr/bin/fixl-bad [unknown] gets: imports gets(), which reads a line of any length into a fixed buffer (removed from C11)
warning elf-badfuncs /usr/bin/fixl-bad [unknown] mktemp: imports mktemp(), which returns a temporary name another user can create first
warning elf-badfuncs /usr/bin/fixl-bad [unknown] tempnam: imports tempnam(), which returns a temporary name another user can create first
EXP
grep elf-badfuncs "$work/got" | diff -u "$work/expected" - || fail "the stig profile's badfuncs"
grep -q "fixl-tmp.*forbidden directory /var/tmp/build/lib: under /var/tmp" "$work/got" ||
	{ cat "$work/got" >&2; fail "the stig profile's forbidden RUNPATH directories"; }
grep -q "fixl-abs.*forbidden" "$work/got" && fail "/usr/lib/fixture forbidden by default"
run_distsec scan --color never --check file-capabilities "$work/caps.deb"
expect_line "warning  file-capabilities         /usr/bin/fixl-admin  [fixl:amd64]  file capabilities cap_sys_admin=ep: cap_sys_admin is outside the allow-list"

# 2. a profile's own lists replace them
cat >"$work/lists.profile" <<'EOF2'
description lists of a test
list elf-badfuncs functions gets # replaced by the next line
list elf-badfuncs functions mktemp __libc_start_main # a test list
list elf-rpath forbidden /usr/lib/fixture # a test list
list file-capabilities allowed cap_sys_admin # a test list
EOF2
run_distsec scan --backend none --color never --profile "$work/lists.profile" \
	--check elf-badfuncs,elf-rpath --root "$root" /
lines >"$work/got"
cat >"$work/expected" <<'EXP'
warning elf-badfuncs /usr/bin/fixl-bad [unknown] __libc_start_main: imports __libc_start_main(), which the profile lists as a function not to use
warning elf-badfuncs /usr/bin/fixl-bad [unknown] mktemp: imports mktemp(), which returns a temporary name another user can create first
EXP
grep "elf-badfuncs /usr/bin/fixl-bad" "$work/got" | diff -u "$work/expected" - || fail "a profile's badfuncs"
grep -q "fixl-abs.*forbidden directory /usr/lib/fixture: under /usr/lib/fixture" "$work/got" ||
	{ cat "$work/got" >&2; fail "a profile's forbidden RUNPATH directories"; }
grep -q "fixl-tmp.*forbidden" "$work/got" && fail "/var/tmp still forbidden under a profile's list"
run_distsec scan --color never --profile "$work/lists.profile" --check file-capabilities "$work/caps.deb"
expect_line "info     file-capabilities         /usr/bin/fixl-admin  [fixl:amd64]  file capabilities cap_sys_admin=ep"

# 3. a bad list line is the profile's error
printf 'list elf-badfuncs # no name\n' >"$work/bad.profile"
run_distsec scan --backend none --profile "$work/bad.profile" --root "$root" /usr/bin/fixl-bad
expect_rc 2
grep -q "list takes CHECK NAME ITEM" "$work/err" || fail "a bad list line not refused"
printf 'list no-such-check things a # why\n' >"$work/bad.profile"
run_distsec scan --backend none --profile "$work/bad.profile" --root "$root" /usr/bin/fixl-bad
expect_rc 2
grep -q "unknown check id" "$work/err" || fail "a list of an unknown check not refused"
echo "profile-lists: ok"
