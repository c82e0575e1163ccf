#!/bin/sh
# A Debian maintainer's upload (#21), on packages built here with dpkg-deb:
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
# a waiver in either spelling holds in either mode
for glob in /bin/uptool /usr/bin/uptool; do
	printf 'elf-relro %s # built by an old toolchain\n' "$glob" >"$work/w"
	for where in "--root $root /usr/bin" "$work/uptool_1.0-1_amd64.deb"; do
		run_distsec scan --color never --check elf-relro --waivers "$work/w" $where
		expect_rc 0
		grep -q "1 waived" "$work/out" || { cat "$work/out"; fail "waiver $glob not applied to $where"; }
	done
done

echo "upload: ok"
