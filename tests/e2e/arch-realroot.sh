#!/bin/sh
# Real Arch data, as excerpts committed in tests/data/realroots (what each
# holds and where it comes from: its README.md; DISTSEC_REALDATA=DIR reads
# the same file names from DIR instead): an Arch Linux ARM root (armv7h,
# October 2020) cut to pacman 5.2.2's database records of curl and bash,
# byte for byte, and the curl, libcurl and bash they installed, which
# realdigests.py finds with the sha256 their mtree records; and a package
# file of Arch's own repository (acpi_call-dkms 1.1.0-287, x86_64,
# .pkg.tar.zst).  Owners through libalpm; the ARM programs judged (elf-pie
# and elf-relro pass, elf-not-judged stays silent); the excerpt scanned
# whole under the arch profile the pacman backend picks, exact findings.
# When DISTSEC_REALDATA holds it, the root's cached curl package file
# (curl-7.73.0-1-armv7h.pkg.tar.xz, 1 MB, not committed: its programs are
# the root's) is judged as the ARM programs it holds.  Runs as any user: no
# file-stig owner rule applies to a root without etc/passwd.
. "$(dirname "$0")/lib.sh"
data="${DISTSEC_REALDATA:-$SRCDIR/data/realroots}"
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

curl="curl:7.73.0-1:armv7h:curl:Arch Linux ARM Build System <builder+xu2@archlinuxarm.org>"
alarm="$data/archlinuxarm-2020-armv7h.tar.xz"
if [ -f "$alarm" ]; then
	ran="$ran armv7h-root"
	# python's tarfile, not tar -J: xz(1) need not be installed
	python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$alarm" "$root"
	python3 "$SRCDIR/e2e/realdigests.py" "$root" >"$work/digests" || fail "$(cat "$work/digests")"
	run_distsec backends --root "$root"
	expect_line "root $root would use: pacman (pacman database var/lib/pacman/local: 2 packages)"
	run_distsec scan --root "$root" -v --check elf-pie,elf-relro,elf-not-judged --format json \
		/usr/bin/curl /usr/lib/libcurl.so.4.7.0 /usr/bin/bash
	expect_rc 0
	owners "$work/out" "/usr/bin/curl=$curl" "/usr/lib/libcurl.so.4.7.0=$curl" \
		"/usr/bin/bash=bash:5.0.018-1:armv7h:bash:Arch Linux ARM Build System <builder+xu7@archlinuxarm.org>" ||
		fail "owners in the Arch Linux ARM root"
	python3 - "$work/out" <<'PY' || fail "the ARM programs are not judged"
import json, sys
got = sorted((f["check"], f["path"]) for f in json.load(open(sys.argv[1]))["findings"])
assert got == [("elf-pie", "/usr/bin/bash"), ("elf-pie", "/usr/bin/curl"), ("elf-relro", "/usr/bin/bash"),
               ("elf-relro", "/usr/bin/curl"), ("elf-relro", "/usr/lib/libcurl.so.4.7.0")], got
PY

	# the excerpt whole, every default check: bash's mktemp import, and a
	# setgid() of a gid from neither getgid() nor a constant (info)
	run_distsec scan --root "$root" --fail-on never --format json -o "$work/arch.json"
	expect_rc 0
	python3 - "$work/arch.json" <<'PY' || fail "the excerpt under the arch profile"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert (d["profile"], d["backend"]) == ("arch", "pacman"), (d["profile"], d["backend"])
assert (s["elf_files"], s["elf_not_judged"], s["packages"]) == (3, 0, 2), s
assert s["findings"] == {"error": 0, "warning": 1, "info": 1}, s["findings"]
got = sorted((f["severity"], f["check"], f["path"]) for f in d["findings"])
assert got == [("info", "elf-nodrop-groups", "/usr/bin/bash"), ("warning", "elf-badfuncs", "/usr/bin/bash")], got
assert s["by_package"] == {p: {"relro": "yes", "pie": "yes"} for p in ("bash.armv7h", "curl.armv7h")}, s["by_package"]
PY
	echo "armv7h root: $(tr '\n' ' ' <"$work/digests")"
else
	echo "note: no $alarm"
fi

# the package file pacman installed curl from: ARM programs, judged
curlpkg="$data/curl-7.73.0-1-armv7h.pkg.tar.xz"
if [ -f "$curlpkg" ]; then
	ran="$ran curl-pkg.tar.xz"
	run_distsec scan -v --check elf-pie,elf-relro,elf-not-judged --format json "$curlpkg"
	expect_rc 0
	owners "$work/out" "/usr/bin/curl=$curl" "/usr/lib/libcurl.so.4.7.0=$curl" ||
		fail "Arch Linux ARM's curl package file"
	run_distsec scan -v --check elf-pie "$curlpkg"
	expect_line "pass     elf-pie                   /usr/bin/curl  [curl-7.73.0-1]  built as a position-independent executable"
else
	echo "note: no $curlpkg"
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
