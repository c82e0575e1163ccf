#!/bin/sh
# Scan options whose effect is the exit status or what is walked:
# --fail-on error|warning|info|never, --rules FILE, --cross-mounts, -q.
. "$(dirname "$0")/lib.sh"

scan() {
	run_distsec scan --root "$root" --backend none --color never "$@"
}

# --fail-on: the lowest severity that makes the exit status 1
place nopie-partial usr/bin/nopie          # elf-pie info (an exec that is not PIE)
for sev in error warning never; do
	scan --check elf-pie,elf-relro --fail-on $sev
	expect_rc 0
done
scan --check elf-pie,elf-relro --fail-on info
expect_rc 1
expect_line "0 errors, 0 warnings, 1 info"
place netclient-partial usr/bin/netclient  # elf-relro warning (network-ip, partial RELRO)
scan --check elf-pie,elf-relro --fail-on error
expect_rc 0
scan --check elf-pie,elf-relro --fail-on warning
expect_rc 1
scan --check elf-pie,elf-relro            # the default is error
expect_rc 0
place nopie-norelro usr/bin/norelro       # elf-relro error
scan --check elf-pie,elf-relro
expect_rc 1
expect_line "1 errors, 1 warnings, 2 info"
scan --check elf-pie,elf-relro --fail-on never
expect_rc 0
scan --check elf-pie,elf-relro --fail-on pass
expect_rc 2

# --rules: the site's own file replaces the shipped rules
mkdir -p "$root/etc/site"
: >"$root/etc/site/secret.conf"
chmod 0644 "$root/etc/site/secret.conf"
printf 'root:x:0:0::/root:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\n' >"$root/etc/group"
printf '# a site rule\nGEN999001 type=file paths=/etc/site/*.conf mode=0600 | site secrets\n' >"$work/rules"
scan --check file-stig --rules "$work/rules"
expect_rc 1
expect_line "/etc/site/secret.conf is mode 0644, should be 0600 or less (site secrets)"
[ "$(grep -c '^error ' "$work/out")" = 1 ] || { cat "$work/out"; fail "--rules: not exactly the site rule"; }
chmod 0600 "$root/etc/site/secret.conf"
scan --check file-stig --rules "$work/rules"
expect_rc 0
printf 'GEN999002 type=file paths=/x mode=banana | broken\n' >"$work/bad-rules"
scan --check file-stig --rules "$work/bad-rules"
expect_rc 2
grep -q "file-stig rules $work/bad-rules:1: " "$work/err" || { cat "$work/err"; fail "--rules: bad line not named"; }
scan --check file-stig --rules "$work/no-such-rules"
expect_rc 2
rm -r "$root/etc"

# -q: the note a skipped check gives (and any other) stays off stderr
scan --check elf-relro,selinux-dev-label
grep -q "selinux-dev-label skipped: " "$work/err" || { cat "$work/err"; fail "no note for the skipped check"; }
scan --check elf-relro,selinux-dev-label -q
[ ! -s "$work/err" ] || { cat "$work/err"; fail "-q: stderr not empty"; }

# --cross-mounts: a file system mounted below the root is walked only with it
mkdir "$root/mnt"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m distsec-e2e "$root/mnt" 2>/dev/null; then
	trap 'umount "$root/mnt" 2>/dev/null || :; chmod -R u+rwx "$root" 2>/dev/null; rm -rf "$root" "$work"' EXIT
	cp "$FIXTURES/nopie-norelro" "$root/mnt/mounted"
	scan --check elf-relro
	grep -q "/mnt/mounted" "$work/out" && fail "a mounted file system was walked without --cross-mounts"
	scan --check elf-relro --cross-mounts
	expect_line "/mnt/mounted"
	umount "$root/mnt"
	echo "options: ok"
else
	echo "SKIP: --cross-mounts needs root and a tmpfs mount (not allowed here)"
	exit 77
fi
