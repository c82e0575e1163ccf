#!/bin/sh
# Profiles: .deb files laid out like apt's and dpkg's (cron.daily scripts
# 0755, a cron.d file 0644, shadow and gshadow 0640 root:shadow), built at
# test time, judged by the debian profile picked automatically (no error,
# each waiver with its reason), by --profile stig (the STIG errors), and
# with one bit too many (still errors); an .rpm with Fedora's cron.d 0644
# picks fedora; --profile FILE, unknown names, `distsec profiles`.
. "$(dirname "$0")/lib.sh"
for t in tar ar gzip python3; do
	command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
"$DISTSEC" backends | grep -q '^  dpkg ' || { echo "SKIP: built without the dpkg backend"; exit 77; }

# The root whose accounts name the owners (Debian's shadow group is 42).
mkdir -p "$root/etc"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\nshadow:x:42:\n' >"$root/etc/group"

# deb NAME CRON-DAILY-MODE SHADOW-MODE: $work/NAME.deb, members owned as
# Debian ships them (root:root, shadow files root:shadow)
deb() {
	d="$work/$1"
	mkdir -p "$d/ctl" "$d/data/etc/cron.daily" "$d/data/etc/cron.d"
	printf 'Package: %s\nVersion: 1.0\nArchitecture: all\nMaintainer: Fix Er <fix@example.org>\nDescription: fixture\n' \
		"$1" >"$d/ctl/control"
	printf '#!/bin/sh\nexit 0\n' >"$d/data/etc/cron.daily/$1"
	printf '# m h dom mon dow user command\n' >"$d/data/etc/cron.d/$1"
	printf 'root:*:19000:0:99999:7:::\n' >"$d/data/etc/shadow"
	printf 'root:*::\n' >"$d/data/etc/gshadow"
	chmod "$2" "$d/data/etc/cron.daily/$1"
	chmod 0644 "$d/data/etc/cron.d/$1"
	chmod "$3" "$d/data/etc/shadow" "$d/data/etc/gshadow"
	echo 2.0 >"$d/debian-binary"
	tar -C "$d/ctl" --owner=root:0 --group=root:0 -czf "$d/control.tar.gz" ./control
	tar -C "$d/data" --owner=root:0 --group=root:0 --no-recursion -cf "$d/data.tar" \
		./ ./etc ./etc/cron.daily "./etc/cron.daily/$1" ./etc/cron.d "./etc/cron.d/$1"
	tar -C "$d/data" --owner=root:0 --group=shadow:42 -rf "$d/data.tar" ./etc/shadow ./etc/gshadow
	(cd "$d" && ar rc "$work/$1.deb" debian-binary control.tar.gz data.tar)
	if command -v dpkg-deb >/dev/null; then
		dpkg-deb -c "$work/$1.deb" >"$d/list"
		grep -q 'root/shadow.*etc/shadow$' "$d/list" || fail "fixture $1.deb unreadable"
	fi
}
deb fixgood 0755 0640
deb fixbad 0775 0644

# facts FILE: "profile errors waived" then one line per finding
facts() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
print(d["profile"], s["findings"]["error"], s["waived"])
for f in d["findings"]:
    print(f["severity"], f["path"], f.get("rule", "-"), "waived" if f.get("waived") else "-",
          f.get("waiver", "-"))
PY
}

# auto: a .deb is judged by the debian profile; every STIG finding waived
run_distsec scan --root "$root" --check file-stig --format json -o "$work/good.json" "$work/fixgood.deb"
expect_rc 0
facts "$work/good.json" >"$work/out"
expect_line "debian 0 4"
expect_line "error /etc/cron.daily/fixgood GEN003080 waived debian profile: run-parts(8) runs only executable files"
expect_line "error /etc/cron.d/fixgood GEN003080 waived debian profile: Debian Policy 9.5.1"
expect_line "error /etc/shadow GEN001420 waived debian profile: Debian: 0640 root:shadow"
expect_line "error /etc/gshadow GEN000000-LNX001433 waived debian profile: Debian: 0640 root:shadow"
[ "$(wc -l <"$work/out")" = 5 ] || { cat "$work/out"; fail "expected exactly 4 findings"; }

# the same file under the strict profile: the four STIG errors
run_distsec scan --root "$root" --check file-stig --profile stig --format json -o "$work/stig.json" "$work/fixgood.deb"
expect_rc 1
facts "$work/stig.json" >"$work/out"
expect_line "stig 4 0"
expect_line "error /etc/cron.daily/fixgood GEN003080 - -"
expect_line "error /etc/cron.d/fixgood GEN003080 - -"
expect_line "error /etc/shadow GEN001420 - -"
expect_line "error /etc/gshadow GEN000000-LNX001433 - -"

# one bit beyond what Debian ships is no longer Debian's design
run_distsec scan --root "$root" --check file-stig --format json -o "$work/bad.json" "$work/fixbad.deb"
expect_rc 1
facts "$work/bad.json" >"$work/out"
expect_line "debian 3 1"
expect_line "error /etc/cron.daily/fixbad GEN003080 - -"
expect_line "error /etc/shadow GEN001420 - -"
expect_line "error /etc/gshadow GEN000000-LNX001433 - -"

# text and SARIF name the profile too
run_distsec scan --root "$root" --check file-stig "$work/fixgood.deb"
expect_line "backend none, profile debian: 0 errors, 0 warnings, 0 info, 4 waived"
run_distsec scan --root "$root" --check file-stig --format sarif "$work/fixgood.deb"
expect_line '"profile":"debian"'

# a root without a package database: stig; with --profile FILE, that file
run_distsec scan --root "$root" --check file-stig --format json /etc
facts "$work/out" >"$work/facts" && mv "$work/facts" "$work/out"
expect_line "stig 0 0"
printf 'description mine\nseverity file-stig/GEN001420 warning # test\n' >"$work/mine"
run_distsec scan --root "$root" --check file-stig --profile "$work/mine" --format json "$work/fixgood.deb"
expect_rc 1
facts "$work/out" >"$work/facts" && mv "$work/facts" "$work/out"
expect_line "mine 3 0"
expect_line "warning /etc/shadow GEN001420 - -"

# unknown names and broken files are errors (exit 2) naming the problem
run_distsec scan --root "$root" --profile nosuch /etc
expect_rc 2
grep -q "profile 'nosuch': not found" "$work/err" || fail "no message for an unknown profile"
printf 'waive file-stig /etc/x # \n' >"$work/broken"
run_distsec scan --root "$root" --profile "$work/broken" /etc
expect_rc 2
grep -q "broken:1: a reason" "$work/err" || { cat "$work/err"; fail "no message for a broken profile"; }

# arch: shadow and gshadow 0600 root:root are waived, one bit more is not
mkdir -p "$work/archroot/etc"
printf 'root:x:0:0::/root:/bin/bash\n' >"$work/archroot/etc/passwd"
printf 'root:x:0:root\nwheel:x:998:\n' >"$work/archroot/etc/group"
for f in shadow gshadow; do printf 'root:*::\n' >"$work/archroot/etc/$f"; done
chmod 0600 "$work/archroot/etc/shadow"
chmod 0640 "$work/archroot/etc/gshadow"
run_distsec scan --root "$work/archroot" --check file-stig --profile arch --format json /etc
expect_rc 1
facts "$work/out" >"$work/facts" && mv "$work/facts" "$work/out"
expect_line "arch 1 1"
expect_line "error /etc/shadow GEN001420 waived arch profile: Arch's filesystem package installs /etc/shadow 0600 root:root"
expect_line "error /etc/gshadow GEN000000-LNX001433 - -"

run_distsec profiles
expect_rc 0
for p in alpine arch debian fedora stig; do expect_line "$p "; done
expect_line "(default for backend apk; "
expect_line "(default for backend pacman; "
expect_line "(default for backend dpkg; "

# an .rpm with Fedora's cron.d 0644: the fedora profile
if command -v rpmbuild >/dev/null && "$DISTSEC" backends | grep -q '^  rpm '; then
	top="$work/rpmbuild"
	mkdir -p "$top/SPECS"
	cat >"$top/SPECS/fixcron.spec" <<'SPEC'
Name: fixcron
Version: 1.0
Release: 1
Summary: distsec test fixture
License: GPL-2.0-or-later
BuildArch: noarch
%description
fixture
%install
mkdir -p %{buildroot}/etc/cron.d %{buildroot}/etc/cron.daily
echo '# job' >%{buildroot}/etc/cron.d/fixcron
printf '#!/bin/sh\n' >%{buildroot}/etc/cron.daily/fixcron
%files
%attr(0644,root,root) /etc/cron.d/fixcron
%attr(0755,root,root) /etc/cron.daily/fixcron
SPEC
	rpmbuild --define "_topdir $top" -bb "$top/SPECS/fixcron.spec" >"$work/rpmbuild.log" 2>&1 ||
		{ cat "$work/rpmbuild.log"; fail "rpmbuild failed"; }
	run_distsec scan --root "$root" --check file-stig --format json "$top"/RPMS/noarch/fixcron-1.0-1.noarch.rpm
	expect_rc 0
	facts "$work/out" >"$work/facts" && mv "$work/facts" "$work/out"
	expect_line "fedora 0 2"
	expect_line "error /etc/cron.d/fixcron GEN003080 waived fedora profile: Fedora Packaging Guidelines"
	# a .deb and an .rpm together: the strict profile, no vendor's waivers
	run_distsec scan --root "$root" --check file-stig --format json \
		"$top"/RPMS/noarch/fixcron-1.0-1.noarch.rpm "$work/fixgood.deb"
	expect_rc 1
	facts "$work/out" >"$work/facts" && mv "$work/facts" "$work/out"
	expect_line "stig 6 0"
else
	echo "note: rpmbuild or the rpm backend missing: the fedora half not run"
fi
echo "profiles: ok"
