#!/bin/sh
# Real Arch data from shared/realdata (provenance in docs/TESTING.md;
# skipped when absent): an Arch Linux ARM root (armv7h, October 2020,
# pacman 5.2.2's database of 139 packages) as its publisher committed it to
# git (files 0644/0755 root:root; curl, bash and pacman there have the
# sha256 their packages' mtree records), and a package file of Arch's own
# repository (acpi_call-dkms 1.1.0-287, x86_64, .pkg.tar.zst).  Owners
# through libalpm; the whole root under the arch profile the pacman backend
# picks, as unpacked and given the owners and modes pacman installs
# (pacmanmodes.py, from each package's mtree); the root's cached curl
# package file judged as the ARM programs it holds.
. "$(dirname "$0")/lib.sh"
data="${DISTSEC_REALDATA:-$SRCDIR/../../shared/realdata}"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
"$DISTSEC" backends | grep -q '^  pacman ' || { echo "SKIP: built without the pacman backend"; exit 77; }
ran=""

# owners JSON PATH=NAME:VERSION:ARCH:SOURCE:MAINTAINER...: every finding of
# the report names that owner, and every PATH has one
owners() {
	python3 - "$@" <<'PY'
import json, sys
want = dict(a.split("=", 1) for a in sys.argv[2:])
seen = set()
for f in json.load(open(sys.argv[1]))["findings"]:
    o = f["owner"]
    got = ":".join([o["name"], o["version"], o["arch"], o["source"], o["maintainer"]])
    assert o["status"] == "package" and got == want[f["path"]], (f["path"], o)
    assert f["severity"] == "pass", f
    seen.add(f["path"])
assert seen == set(want), seen
PY
}

alarm="$data/archlinuxarm-2020-armv7h-root.tar.gz"
if [ ! -f "$alarm" ]; then
	echo "note: no $alarm"
elif [ "$(id -u)" != 0 ]; then
	echo "note: not root: the Arch Linux ARM root's files cannot be given pacman's owners"
else
	ran="$ran armv7h-root"
	tar xzf "$alarm" -C "$root"
	run_distsec backends --root "$root"
	expect_line "root $root would use: pacman (pacman database var/lib/pacman/local: 139 packages)"
	curl="curl:7.73.0-1:armv7h:curl:Arch Linux ARM Build System <builder+xu2@archlinuxarm.org>"
	run_distsec scan --root "$root" -v --check elf-pie,elf-relro --format json \
		/usr/bin/curl /usr/lib/libcurl.so.4.7.0 /usr/bin/bash
	expect_rc 0
	owners "$work/out" "/usr/bin/curl=$curl" "/usr/lib/libcurl.so.4.7.0=$curl" \
		"/usr/bin/bash=bash:5.0.018-1:armv7h:bash:Arch Linux ARM Build System <builder+xu7@archlinuxarm.org>" ||
		fail "owners in the Arch Linux ARM root"

	# as unpacked: git's modes (no 0600 shadow, no set-id bit)
	run_distsec scan --root "$root" --fail-on never --format json -o "$work/unpacked.json"
	expect_rc 0
	expect_errors "$work/unpacked.json" "the Arch Linux ARM root as unpacked" 'profile arch backend pacman' \
		'error file-stig GEN000000-LNX001433 /etc/gshadow' 'error file-stig GEN001420 /etc/shadow' \
		'error file-stig GEN003740 /etc/xinetd.d/tftp' 'error file-stig GEN001480 /home/alarm' \
		'error file-stig GEN001480 /home/user' 'error file-stig GEN000920 /root' \
		'error elf-nodrop-groups - /usr/bin/captest' 'error elf-nodrop-groups - /usr/bin/chage' \
		'error elf-nodrop-groups - /usr/bin/nscd' 'error elf-nodrop-groups - /usr/bin/sudo' \
		'error elf-nodrop-groups - /usr/bin/systemd-run' 'error file-stig GEN001260 /var/log/btmp' \
		'error file-stig GEN001260 /var/log/pacman.log'

	# given pacman's owners and modes: shadow and gshadow 0600 (waived), chage
	# and sudo setuid (their group handling a warning then); what stays is
	# Arch's own layout (iputils' tftp 0644, pacman.log 0644, systemd's
	# polkit rules directory of a polkitd group polkit would create), the
	# checkout's home and log modes, and three programs' gid calls
	python3 "$SRCDIR/e2e/pacmanmodes.py" "$root" >/dev/null
	ls -ln "$root/usr/bin/sudo" | grep -q '^-rwsr-xr-x 1 0 0 ' || fail "pacmanmodes.py: sudo is $(ls -ln "$root/usr/bin/sudo")"
	run_distsec scan --root "$root" --fail-on never --format json -o "$work/arch.json"
	expect_rc 0
	expect_errors "$work/arch.json" "the arch profile on the modes pacman installs" 'profile arch backend pacman' \
		'waived file-stig GEN000000-LNX001433 /etc/gshadow' 'waived file-stig GEN001420 /etc/shadow' \
		'error file-stig GEN003740 /etc/xinetd.d/tftp' 'error file-stig GEN001480 /home/alarm' \
		'error file-stig GEN001480 /home/user' 'error elf-nodrop-groups - /usr/bin/captest' \
		'error elf-nodrop-groups - /usr/bin/nscd' 'error elf-nodrop-groups - /usr/bin/systemd-run' \
		'error file-stig GEN001170 /usr/share/polkit-1/rules.d' 'error file-stig GEN001260 /var/log/btmp' \
		'error file-stig GEN001260 /var/log/pacman.log'
	echo "armv7h root: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["findings"])' \
		"$work/arch.json")"

	# the package file pacman installed curl from: ARM programs, judged
	run_distsec scan -v --check elf-pie,elf-relro,elf-not-judged --format json \
		"$root/var/cache/pacman/pkg/curl-7.73.0-1-armv7h.pkg.tar.xz"
	expect_rc 0
	owners "$work/out" "/usr/bin/curl=$curl" "/usr/lib/libcurl.so.4.7.0=$curl" ||
		fail "Arch Linux ARM's curl package file"
	run_distsec scan -v --check elf-pie "$root/var/cache/pacman/pkg/curl-7.73.0-1-armv7h.pkg.tar.xz"
	expect_line "pass     elf-pie                   /usr/bin/curl  [curl-7.73.0-1]  built as a position-independent executable"
fi

acpi="$data/acpi_call-dkms-1.1.0-287-x86_64.pkg.tar.zst"
if [ -f "$acpi" ]; then
	ran="$ran pkg.tar.zst"
	run_distsec scan -v --format json "$acpi"
	expect_rc 0
	owner="acpi_call-dkms:1.1.0-287:x86_64:acpi_call-dkms:Christian Hesse <arch@eworm.de>"
	owners "$work/out" "/usr/share/acpi_call/examples/asus1215n.sh=$owner" \
		"/usr/share/acpi_call/examples/dellL702X.sh=$owner" "/usr/share/acpi_call/examples/m11xr2.sh=$owner" \
		"/usr/share/acpi_call/examples/turn_off_gpu.sh=$owner" || fail "acpi_call-dkms's owner"
	run_distsec scan "$acpi"
	expect_line "11 files (0 ELF, 4 scripts), 1 packages, backend none, profile arch: 0 errors, 0 warnings, 0 info"
else
	echo "note: no $acpi"
fi
[ -n "$ran" ] || { echo "SKIP: no real Arch data in $data"; exit 77; }
echo "PASS:$ran"
