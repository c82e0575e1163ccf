#!/bin/sh
# rpminspect's security inspections on package files built here: every finding of each check, exactly, and the same tree scanned as a
# root gives the same findings.
. "$(dirname "$0")/lib.sh"

# findings CHECK FILE: "severity path message" of CHECK's findings, sorted
findings() {
	python3 -c '
import json, sys
for f in json.load(open(sys.argv[2]))["findings"]:
    if f["check"] == sys.argv[1]:
        print(f["severity"], f["path"], f["message"])' "$1" "$2" | LC_ALL=C sort
}

# expect_findings CHECK LINE...: $work/out has exactly these ($desc: the case)
expect_findings() {
	c=$1
	shift
	findings "$c" "$work/out" >"$work/got"
	printf '%s\n' "$@" | LC_ALL=C sort >"$work/want"
	cmp -s "$work/got" "$work/want" || { diff "$work/want" "$work/got" >&2; fail "$desc: $c findings"; }
}

scan() {
	desc=$1
	shift
	run_distsec scan --format json "$@"
	case $rc in 0|1) ;; *) cat "$work/err" >&2; fail "$desc: exit status $rc" ;; esac
}

# A package tree: a 0666 configuration file, a 0777 directory, a 1777 one,
# a 0644 file and a symlink (lrwxrwxrwx, never judged by its mode).
t="$work/tree"
mkdir -p "$t/DEBIAN" "$t/etc/ww" "$t/var/lib/ww/drop" "$t/var/lib/ww/spool"
printf 'Package: ww\nVersion: 1.0-1\nArchitecture: all\nMaintainer: Fix Er <fix@example.org>\nDescription: fixture\n' \
	>"$t/DEBIAN/control"
echo x=1 >"$t/etc/ww/open.conf"
echo x=1 >"$t/etc/ww/closed.conf"
chmod 0666 "$t/etc/ww/open.conf"
chmod 0644 "$t/etc/ww/closed.conf"
chmod 0777 "$t/var/lib/ww/drop"
chmod 1777 "$t/var/lib/ww/spool"
ln -s closed.conf "$t/etc/ww/link.conf"
ln -s ../../../../etc/shadow "$t/etc/ww/escape.conf"
dpkg-deb --root-owner-group -b "$t" "$work/ww.deb" >/dev/null

desc="world-writable (.deb)"
scan "$desc" --backend none --check file-world-writable "$work/ww.deb"
expect_rc 1
expect_findings file-world-writable \
	"error /etc/ww/open.conf world-writable file (mode 0666): any user can change it" \
	"error /var/lib/ww/drop world-writable directory without the sticky bit (mode 0777): any user can delete or replace the files in it"

desc="symlink (.deb)"
scan "$desc" --backend none --check file-symlink "$work/ww.deb"
expect_rc 0
expect_findings file-symlink \
	"warning /etc/ww/escape.conf symlink to ../../../../etc/shadow climbs above /: it leads out of the root it is installed in"

desc="world-writable (tree)"
rm -rf "$t/DEBIAN"
scan "$desc" --backend none --check file-world-writable --root "$t" /
expect_rc 1
expect_findings file-world-writable \
	"error /etc/ww/open.conf world-writable file (mode 0666): any user can change it" \
	"error /var/lib/ww/drop world-writable directory without the sticky bit (mode 0777): any user can delete or replace the files in it"

# file capabilities from rpm's %caps: the value in the message
if command -v rpmbuild >/dev/null; then
	fixture_rpm capd 'mkdir -p %{buildroot}/usr/bin
install -m 755 %{SOURCE0} %{buildroot}/usr/bin/pinger
install -m 755 %{SOURCE0} %{buildroot}/usr/bin/widener' \
		'%caps(cap_net_raw=ep) /usr/bin/pinger
%caps(cap_net_raw,cap_sys_admin=ep) /usr/bin/widener'
	desc="capabilities (.rpm)"
	scan "$desc" --backend none --check file-capabilities --fail-on warning "$rpm_file"
	expect_rc 1
	expect_findings file-capabilities \
		"info /usr/bin/pinger file capabilities cap_net_raw=ep" \
		"warning /usr/bin/widener file capabilities cap_net_raw,cap_sys_admin=ep: cap_sys_admin is outside the allow-list"
else
	echo "*skipped*: rpmbuild not installed, rpm %caps not tested"
fi
