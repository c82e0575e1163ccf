#!/bin/sh
# A real Alpine root (shared/realdata/alpine-3-x86_64-rootfs.tar.gz: Alpine
# 3.4, x86_64, its real lib/apk/db/installed) under the alpine profile the
# apk backend picks.  The tarball was made from a git checkout: its files
# are 0664/0775 root:root, not the modes apk installs (the database's
# a:/M: records: /bin/busybox 0755, /etc/shadow 0640 root:shadow, /root
# 0700), so the STIG is right about nearly every file as unpacked.  Given
# the modes apk installs (apkmodes.py), the alpine profile leaves no error
# that is Alpine's own layout: /etc/shadow 0640 root:shadow is waived, and
# what stays is /var/log/.keep (no package's: the checkout's placeholder,
# world-readable in the log directory).  busybox is stripped and has no
# unwind tables: its function starts come from its calls, and each of its
# two chroot() calls is followed by a chdir() in a function it calls (a
# pass, by its code).
. "$(dirname "$0")/lib.sh"
tarball="${DISTSEC_REALDATA:-$SRCDIR/../../shared/realdata}/alpine-3-x86_64-rootfs.tar.gz"
[ -f "$tarball" ] || { echo "SKIP: no $tarball (the project's shared/realdata)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: not root: the root's files cannot be given apk's owners"; exit 77; }
"$DISTSEC" backends | grep -q '^  apk ' || { echo "SKIP: built without the apk backend"; exit 77; }
tar xzf "$tarball" -C "$root" --no-same-owner 2>/dev/null || tar xzf "$tarball" -C "$root"

# as unpacked: the checkout's modes, which no profile waives
run_distsec scan --root "$root" --fail-on never --format json -o "$work/as-unpacked.json"
expect_rc 0
error_lines "$work/as-unpacked.json" >"$work/unpacked"
grep -qx 'profile alpine backend apk' "$work/unpacked" || fail "not the apk backend and alpine profile: $(grep '^profile' "$work/unpacked")"
n=$(grep -c '^error ' "$work/unpacked")
echo "as unpacked (0664/0775 files): $n errors under the alpine profile"
[ "$n" -ge 200 ] || fail "only $n errors on the checkout's modes"
grep -qx 'error file-stig GEN001420 /etc/shadow' "$work/unpacked" || fail "a 0664 root:root /etc/shadow waived"

# with the modes and owners apk installs
python3 "$SRCDIR/e2e/apkmodes.py" "$root" >/dev/null
ls -ln "$root/etc/shadow" | grep -q '^-rw-r----- 1 0 42 ' || fail "apkmodes.py: /etc/shadow is $(ls -ln "$root/etc/shadow")"
run_distsec scan --root "$root" --fail-on never --format json -o "$work/alpine.json"
expect_rc 0
error_lines "$work/alpine.json" >"$work/out"
cat "$work/out"
printf '%s\n' 'profile alpine backend apk' \
	'error file-stig GEN001260 /var/log/.keep' 'waived file-stig GEN001420 /etc/shadow' | LC_ALL=C sort >"$work/want"
diff -u "$work/want" "$work/out" || fail "the alpine profile on Alpine's own modes"
grep -q '"waiver": *"alpine profile: Alpine'"'"'s alpine-baselayout installs /etc/shadow 0640 root:shadow' "$work/alpine.json" || fail "the waiver's reason is not in the report"

# the strict audit still says it
run_distsec scan --root "$root" --fail-on never --profile stig --format json -o "$work/stig.json"
error_lines "$work/stig.json" >"$work/out"
grep -qx 'error file-stig GEN001420 /etc/shadow' "$work/out" || fail "--profile stig waived /etc/shadow"

run_distsec scan --root "$root" -v --check elf-chroot-chdir --format json /bin/busybox
expect_rc 0
python3 - "$work/out" <<'PY' || fail "elf-chroot-chdir on busybox"
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
assert [(x["severity"], x["details"]["method"], x["details"]["reason"], x["details"]["chroot_calls"],
         x["details"]["chdir_called"]) for x in f] == [
    ("pass", "disassembly", "chdir() or fchdir() in a function called after chroot()", 2, 2)], f
PY

# owners: busybox and its applets' links
run_distsec scan --root "$root" -v --check elf-pie /bin/busybox
expect_line "pass     elf-pie                   /bin/busybox  [busybox-1.24.2-r12]"
echo "PASS"
