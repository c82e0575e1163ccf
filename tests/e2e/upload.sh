#!/bin/sh
# A Debian maintainer's upload, on packages built here with dpkg-deb:
# one path spelling in every mode (a .deb's /bin/tool and the installed
# /usr/bin/tool are one finding, waived by either spelling), waivers by
# package glob and :arch and from the source tree's debian/, member owners
# from the archive's own names, --package and a symlink into another
# package, two versions of one package, a .changes written here.
. "$(dirname "$0")/lib.sh"
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not installed"; exit 77; }
"$DISTSEC" backends | grep -q '^  dpkg ' || { echo "SKIP: built without the dpkg backend"; exit 77; }
force=""
[ "$(id -u)" = 0 ] || force="--force-not-root --force-bad-path"

# pkg NAME VERSION ARCH: control file for $work/NAME-VERSION-ARCH, built
# into $work/NAME_VERSION_ARCH.deb
pkg() {
	d="$work/$1-$2-$3"
	mkdir -p "$d/DEBIAN"
	printf 'Package: %s\nVersion: %s\nArchitecture: %s\nMaintainer: Up Loader <up@example.org>\nSource: upsrc\nDescription: fixture\n' \
		"$1" "$2" "$3" >"$d/DEBIAN/control"
	dpkg-deb --root-owner-group -b "$d" "$work/$1_$2_$3.deb" >/dev/null
}
put() { # put NAME VERSION ARCH FIXTURE PATH
	mkdir -p "$(dirname "$work/$1-$2-$3/$5")"
	cp "$FIXTURES/$4" "$work/$1-$2-$3/$5"
}
# the same findings, one line each, without the owner column's padding
lines() { grep -E '^(error|warning|info|pass) ' "$work/out" | sed 's/  */ /g'; }

# ---- 2. one spelling: a .deb's /bin/tool is /usr/bin/tool (Debian is merged)
put uptool 1.0-1 amd64 nopie-norelro bin/uptool
put uptool 1.0-1 amd64 pie-full usr/bin/upfull
pkg uptool 1.0-1 amd64
run_distsec scan --color never --check elf-relro "$work/uptool_1.0-1_amd64.deb"
expect_rc 1
lines >"$work/got"
cat >"$work/want" <<'WANT'
error elf-relro /usr/bin/uptool [uptool:amd64] no RELRO: relocated data such as the GOT stays writable
WANT
diff "$work/want" "$work/got" || fail "package file: not the merged-/usr spelling"
run_distsec scan --format json --check elf-relro "$work/uptool_1.0-1_amd64.deb"
python3 - "$work/out" <<'PY' || fail "package file: details.package_path"
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
assert [(x["path"], x["details"].get("package_path")) for x in f] == [("/usr/bin/uptool", "/bin/uptool")], f
PY
# the checks see the member as installed: file-stig's rule and message too
d="$work/upww-1-all"
mkdir -p "$d/DEBIAN" "$d/bin"
printf '#!/bin/sh\necho\n' >"$d/bin/upww"
chmod 0777 "$d/bin/upww"
printf 'Package: upww\nVersion: 1\nArchitecture: all\nMaintainer: Up Loader <up@example.org>\nDescription: fixture\n' >"$d/DEBIAN/control"
dpkg-deb --root-owner-group -b "$d" "$work/upww.deb" >/dev/null
run_distsec scan --color never --check file-stig "$work/upww.deb"
expect_line "error    file-stig                 /usr/bin/upww  [upww:all]  GEN001200: /usr/bin/upww is mode 0777, should be 0755 or less (system command files)"
# the stig profile is no distribution: the package's own spelling stays
run_distsec scan --color never --check elf-relro --profile stig "$work/uptool_1.0-1_amd64.deb"
expect_line "error    elf-relro                 /bin/uptool  [uptool:amd64]"

# installed in a merged root: the same path, the package's spelling in details
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/usr/bin" "$root/usr/lib" "$root/etc"
: >"$root/var/lib/dpkg/status"
: >"$root/var/lib/dpkg/available"
ln -s usr/bin "$root/bin"
echo 12.0 >"$root/etc/debian_version"
dpkg --root="$root" $force -i "$work/uptool_1.0-1_amd64.deb" >/dev/null
run_distsec scan --root "$root" --color never --check elf-relro /usr/bin
expect_rc 1
lines >"$work/got"
diff "$work/want" "$work/got" || fail "installed: not the same line as the package file's"
run_distsec scan --root "$root" --format json --check elf-relro /usr/bin
python3 - "$work/out" <<'PY' || fail "installed: details.package_path"
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
assert [(x["path"], x["details"].get("package_path")) for x in f] == [("/usr/bin/uptool", "/bin/uptool")], f
PY
# ... and for a file no package owns, through the root's /bin -> usr/bin
cp "$FIXTURES/nopie-norelro" "$root/usr/bin/upstray"
printf 'elf-relro /bin/upstray # a local tool\n' >"$work/w"
run_distsec scan --root "$root" --color never --check elf-relro --waivers "$work/w" /usr/bin/upstray
expect_rc 0
expect_line "0 errors, 0 warnings, 0 info, 1 waived"
rm "$root/usr/bin/upstray"
# a waiver in either spelling holds in either mode
for glob in /bin/uptool /usr/bin/uptool; do
	printf 'elf-relro %s # built by an old toolchain\n' "$glob" >"$work/w"
	for where in "--root $root /usr/bin" "$work/uptool_1.0-1_amd64.deb"; do
		run_distsec scan --color never --check elf-relro --waivers "$work/w" $where
		expect_rc 0
		grep -q "1 waived" "$work/out" || { cat "$work/out"; fail "waiver $glob not applied to $where"; }
	done
done

# ---- 6. waivers: a package glob and :arch; waived findings hidden from text
#      unless -v, counted in the summary
put uplib1 1.0-1 amd64 nopie-norelro usr/lib/up/uplib1-helper
pkg uplib1 1.0-1 amd64
put uplib-dev 1.0-1 amd64 nopie-norelro usr/lib/up/uplib-dev-helper
pkg uplib-dev 1.0-1 amd64
debs="$work/uplib1_1.0-1_amd64.deb $work/uplib-dev_1.0-1_amd64.deb"
printf 'elf-relro /usr/lib/up/* uplib* # helpers of the uplib family\n' >"$work/w"
run_distsec scan --color never --check elf-relro --waivers "$work/w" $debs
expect_rc 0
[ -z "$(lines)" ] || { cat "$work/out"; fail "waived findings listed without -v"; }
expect_line "0 errors, 0 warnings, 0 info, 2 waived"
run_distsec scan -v --color never --check elf-relro --waivers "$work/w" $debs
expect_line "error    elf-relro                 /usr/lib/up/uplib-dev-helper  [uplib-dev:amd64]  no RELRO: relocated data such as the GOT stays writable  (waived: helpers of the uplib family)"
expect_line "error    elf-relro                 /usr/lib/up/uplib1-helper  [uplib1:amd64]  no RELRO: relocated data such as the GOT stays writable  (waived: helpers of the uplib family)"
printf 'elf-relro /usr/lib/up/* uplib*:i386 # not this architecture\nelf-relro /usr/lib/up/* uplib1:amd6? # only uplib1 on amd64\n' >"$work/w"
run_distsec scan --color never --check elf-relro --waivers "$work/w" $debs
expect_rc 1
lines >"$work/got"
echo "error elf-relro /usr/lib/up/uplib-dev-helper [uplib-dev:amd64] no RELRO: relocated data such as the GOT stays writable" >"$work/want"
diff "$work/want" "$work/got" || fail "package glob with :arch"
expect_line "1 errors, 0 warnings, 0 info, 1 waived, 1 unused waiver"
printf 'elf-relro /usr/* uplib: # no arch\n' >"$work/w"
run_distsec scan --check elf-relro --waivers "$work/w" $debs
expect_rc 2
grep -qF "waivers $work/w:1: expected package-glob[:arch-glob]" "$work/err" || fail "no error for 'uplib:'"

# ---- 1 and 6. an upload: a .changes written here, beside the source tree
#      dpkg-buildpackage ran in (upsrc-1.0); the tree's debian/ waivers apply
up="$work/upload"
mkdir -p "$up/upsrc-1.0/debian"
printf 'Source: upsrc\n\nPackage: uptool\n' >"$up/upsrc-1.0/debian/control"
printf 'elf-relro /usr/lib/up/* # the helpers are built by upstream'"'"'s old toolchain\n' \
	>"$up/upsrc-1.0/debian/distsec.waivers"
printf 'elf-relro /bin/uptool # uptool only: a bootstrap tool\nelf-relro /usr/lib/* # never matches: uptool has no library\n' \
	>"$up/upsrc-1.0/debian/uptool.distsec-waivers"
cp "$work/uptool_1.0-1_amd64.deb" $debs "$up/"
entry() { printf ' %s %s %s\n' "$(sha256sum "$1" | cut -d' ' -f1)" "$(stat -c %s "$1")" "$(basename "$1")"; }
{
	printf 'Format: 1.8\nSource: upsrc\nBinary: uptool uplib1 uplib-dev\nArchitecture: amd64\nVersion: 1:1.0-1\nChecksums-Sha256:\n'
	for f in "$up"/*.deb; do entry "$f"; done
	printf ' %s 10 upsrc_1.0-1.dsc\n' "$(printf '%064d' 0)"
} >"$up/upsrc_1.0-1_amd64.changes"
cd "$work"
run_distsec scan --color never --check elf-relro ./upload/upsrc_1.0-1_amd64.changes
expect_rc 0
expect_line "4 files (4 ELF, 0 scripts), 3 packages, backend none, profile debian: 0 errors, 0 warnings, 0 info, 3 waived, 1 unused waiver"
grep -qF "note: waivers from $up/upsrc-1.0/debian/distsec.waivers" "$work/err" || { cat "$work/err"; fail "no note of the tree's waivers"; }
grep -qF "note: unused waiver $up/upsrc-1.0/debian/uptool.distsec-waivers:2: elf-relro /usr/lib/*" "$work/err" ||
	{ cat "$work/err"; fail "uptool's waiver applied to another package"; }
run_distsec scan -v --color never --check elf-relro ./upload/upsrc_1.0-1_amd64.changes
expect_line "error    elf-relro                 /usr/bin/uptool  [uptool:amd64]  no RELRO: relocated data such as the GOT stays writable  (waived: uptool only: a bootstrap tool)"
# from inside the source tree, its package files named as dpkg-buildpackage leaves them
cd "$up/upsrc-1.0"
run_distsec scan --color never --check elf-relro ../uptool_1.0-1_amd64.deb ../uplib1_1.0-1_amd64.deb
expect_rc 0
expect_line "0 errors, 0 warnings, 0 info, 2 waived"
# a listed size that is not the file's: that file is not scanned
cd "$work"
sed "s/^\( [0-9a-f]*\) \([0-9]*\) uplib1_/\1 12 uplib1_/" "$up/upsrc_1.0-1_amd64.changes" >"$up/bad.changes"
run_distsec scan --color never upload/bad.changes
expect_rc 1
expect_line "error    scan-unreadable           $up/uplib1_1.0-1_amd64.deb  [unknown]  package file unreadable: size $(stat -c %s "$up/uplib1_1.0-1_amd64.deb"), upload/bad.changes lists 12"
grep -q "uplib1-helper" "$work/out" && fail "a package file whose size differs from its .changes was scanned"
cd /

# ---- 7. member owners are the archive's names: dpkg-deb records root/shadow
#      (Debian's static gid 42); the scanned root calls gid 42 "other"
if [ "$(id -u)" = 0 ] && getent group shadow >/dev/null; then
	d="$work/upshadow-1-all"
	mkdir -p "$d/DEBIAN" "$d/etc"
	echo x >"$d/etc/shadow"
	chmod 0640 "$d/etc/shadow"
	chgrp shadow "$d/etc/shadow"
	printf 'Package: upshadow\nVersion: 1\nArchitecture: all\nMaintainer: Up Loader <up@example.org>\nDescription: fixture\n' >"$d/DEBIAN/control"
	dpkg-deb -b "$d" "$work/upshadow.deb" >/dev/null
	gid=$(getent group shadow | cut -d: -f3)
	mkdir -p "$work/acct/etc"
	printf 'root:x:0:0::/root:/bin/sh\n' >"$work/acct/etc/passwd"
	printf 'root:x:0:\nother:x:%s:\nshadow:x:4242:\n' "$gid" >"$work/acct/etc/group"
	run_distsec scan -v --root "$work/acct" --check file-stig --format json "$work/upshadow.deb"
	python3 - "$work/out" <<'PY' || fail "member owners not the archive's names"
import json, sys
f = [(x["path"], x["rule"], x["details"], x.get("waiver")) for x in json.load(open(sys.argv[1]))["findings"]]
assert f == [("/etc/shadow", "GEN001420", {"mode": "0640", "owner": "root", "group": "shadow"},
              "debian profile: Debian: 0640 root:shadow, read by the setgid-shadow helpers (unix_chkpwd) instead of setuid root")], f
PY
else
	echo "note: not root or no shadow group: member owner names skipped"
fi

# ---- 4. --package scans what the package owns: its symlinks into another
#      package's file (relative, and absolute through the merged /bin) are
#      symlinks, never followed
d="$work/uplink-1.0-1-amd64"
mkdir -p "$d/DEBIAN" "$d/usr/bin" "$d/bin"
ln -s uptool "$d/usr/bin/uplink"
ln -s /usr/bin/uptool "$d/bin/uplink2"
printf 'Package: uplink\nVersion: 1.0-1\nArchitecture: amd64\nMaintainer: Up Loader <up@example.org>\nDescription: fixture\n' >"$d/DEBIAN/control"
dpkg-deb --root-owner-group -b "$d" "$work/uplink.deb" >/dev/null
dpkg --root="$root" $force -i "$work/uplink.deb" >/dev/null
[ -L "$root/usr/bin/uplink2" ] || fail "uplink2 not installed through the merged /bin"
run_distsec scan --root "$root" --color never -v --package uplink
expect_rc 0
[ -z "$(lines)" ] || { cat "$work/out"; fail "--package uplink followed a symlink into uptool"; }
expect_line "0 errors, 0 warnings, 0 info"
run_distsec scan --root "$root" --color never --check elf-relro --package uptool
expect_rc 1
lines >"$work/got"
echo "error elf-relro /usr/bin/uptool [uptool:amd64] no RELRO: relocated data such as the GOT stays writable" >"$work/want"
diff "$work/want" "$work/got" || fail "--package uptool"

# ---- 5. two versions and two architectures of one package: one group and
#      one report each, keyed on name, version and architecture
# (an amd64 program is not judged in the i386 package: a script is)
for v in "2.0-1 amd64" "1.0-1 i386"; do
	set -- $v
	put uptool $1 $2 nopie-norelro bin/uptool
	mkdir -p "$work/uptool-$1-$2/usr/bin"
	printf '#!/bin/sh\nif then\n' >"$work/uptool-$1-$2/usr/bin/upscript"
	chmod 0755 "$work/uptool-$1-$2/usr/bin/upscript"
	pkg uptool $1 $2
done
three="$work/uptool_1.0-1_amd64.deb $work/uptool_2.0-1_amd64.deb $work/uptool_1.0-1_i386.deb"
run_distsec scan --color never --check elf-relro,script-sh-syntax --group-by package $three
expect_rc 1
grep '^==' "$work/out" >"$work/got"
cat >"$work/want" <<'WANT'
== uptool 1.0-1 amd64 (source upsrc) - Up Loader <up@example.org> ==
== uptool 1.0-1 i386 (source upsrc) - Up Loader <up@example.org> ==
== uptool 2.0-1 amd64 (source upsrc) - Up Loader <up@example.org> ==
WANT
diff "$work/want" "$work/got" || fail "--group-by package headers"
run_distsec scan --color never --check elf-relro,script-sh-syntax --group-by package --report-dir "$work/rd" --format json $three
ls "$work/rd" >"$work/got"
printf '%s\n' index.json uptool_1.0-1_amd64.json uptool_1.0-1_i386.json uptool_2.0-1_amd64.json >"$work/want"
diff "$work/want" "$work/got" || fail "--report-dir files"
python3 - "$work/rd" <<'PY' || fail "--report-dir contents"
import json, os, sys
for name in ("uptool_1.0-1_amd64", "uptool_1.0-1_i386", "uptool_2.0-1_amd64"):
    d = json.load(open(os.path.join(sys.argv[1], name + ".json")))
    owners = {(o["name"], o["version"], o["arch"]) for f in d["findings"] for o in [f["owner"]]}
    assert owners == {tuple(name.split("_"))}, (name, owners)
PY

echo "upload: ok"
