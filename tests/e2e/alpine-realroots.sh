#!/bin/sh
# Real Alpine roots beside the minirootfs of alpine-rootfs.sh, from
# shared/realdata (provenance in its README; skipped when absent): Alpine
# 3.20 x86_64 and 3.18 aarch64 roots with curl installed by apk, as their
# publishers committed them to git (files 0644/0755 root:root; every file
# compared here has the Z: checksum the database records), and Alpine's own
# 3.20.3 armhf minirootfs tarball (apk's modes, no curl).  Owners: curl
# and libcurl (origin curl), busybox.  The whole root under the alpine
# profile the apk backend picks: as unpacked, git's modes leave what the
# STIG says of them; given the modes apk installs (apkmodes.py), no error
# but the two Alpine layouts the profile waives.
. "$(dirname "$0")/lib.sh"
data="${DISTSEC_REALDATA:-$SRCDIR/../../shared/realdata}"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: not root: the roots' files cannot be given apk's owners"; exit 77; }
"$DISTSEC" backends | grep -q '^  apk ' || { echo "SKIP: built without the apk backend"; exit 77; }

# realroot TARBALL ARCH NPKGS BUSYBOX-VERSION CURL-VERSION|- ERROR...: the
# errors are those of the root as unpacked
ran=""
realroot() {
	t="$data/$1" arch=$2 npkgs=$3 bbver=$4 curlver=$5
	shift 5
	[ -f "$t" ] || { echo "note: no $t"; return 0; }
	ran="$ran $arch"
	r="$root/$arch"
	mkdir -p "$r"
	tar xzf "$t" -C "$r"
	run_distsec backends --root "$r"
	expect_line "root $r would use: apk (apk database lib/apk/db/installed: $npkgs packages)"

	paths=/bin/busybox
	[ "$curlver" = - ] || paths="$paths /usr/bin/curl /usr/lib/libcurl.so.4.8.0"
	# shellcheck disable=SC2086
	run_distsec scan --root "$r" -v --check elf-pie,elf-relro --format json $paths
	expect_rc 0
	python3 - "$work/out" "$arch" "$bbver" "$curlver" <<'PY' || fail "$arch: owners"
import json, sys
out, arch, bbver, curlver = sys.argv[1:]
got = {(f["path"], f["check"]): f for f in json.load(open(out))["findings"]}
want = {"/bin/busybox": ("busybox", bbver, "busybox", "Sören Tempel <soeren+alpine@soeren-tempel.net>")}
if curlver != "-":
    want["/usr/bin/curl"] = ("curl", curlver, "curl", "Natanael Copa <ncopa@alpinelinux.org>")
    want["/usr/lib/libcurl.so.4.8.0"] = ("libcurl", curlver, "curl", "Natanael Copa <ncopa@alpinelinux.org>")
# a library is no executable: elf-pie passes it by
assert sorted(got) == sorted((p, c) for p in want for c in ("elf-pie", "elf-relro")
                             if not (p.endswith(".so.4.8.0") and c == "elf-pie")), sorted(got)
for (path, check), f in got.items():
        name, version, source, maintainer = want[path]
        o = f["owner"]
        assert f["severity"] == "pass", f
        assert (o["status"], o["name"], o["version"], o["arch"], o["source"], o["maintainer"]) == \
            ("package", name, version, arch, source, maintainer), (path, o)
PY
	[ "$curlver" = - ] || { run_distsec scan --root "$r" -v --check elf-pie /usr/bin/curl
		expect_line "pass     elf-pie                   /usr/bin/curl  [curl-$curlver]"; }

	run_distsec scan --root "$r" --fail-on never --format json -o "$work/$arch-unpacked.json"
	expect_rc 0
	expect_errors "$work/$arch-unpacked.json" "$arch: the root as unpacked" 'profile alpine backend apk' "$@"

	python3 "$SRCDIR/e2e/apkmodes.py" "$r" >/dev/null
	run_distsec scan --root "$r" --fail-on never --format json -o "$work/$arch.json"
	expect_rc 0
	expect_errors "$work/$arch.json" "$arch: the alpine profile on the modes apk installs" \
		'profile alpine backend apk' 'waived file-stig GEN001180 /etc/network/if-up.d/dad' \
		'waived file-stig GEN001420 /etc/shadow'
	echo "$arch: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["findings"])' \
		"$work/$arch.json")"
}

realroot alpine-3.20-x86_64-curl-root.tar.gz x86_64 26 1.36.1-r29 8.9.0-r0 \
	'error file-stig GEN001420 /etc/shadow'
realroot alpine-3.18-aarch64-curl-root.tar.gz aarch64 49 1.36.1-r5 8.4.0-r0 \
	'error file-stig GEN001420 /etc/shadow' 'error file-stig GEN000920 /root'
realroot alpine-minirootfs-3.20.3-armhf.tar.gz armhf 14 1.36.1-r29 - \
	'waived file-stig GEN001180 /etc/network/if-up.d/dad' 'waived file-stig GEN001420 /etc/shadow'
[ -n "$ran" ] || { echo "SKIP: none of the real Alpine roots is in $data"; exit 77; }
echo "PASS:$ran"
