#!/bin/sh
# Hostile images (issue #14), built here at test time: sparse ELF files whose
# section headers claim 4 GiB (16 KB on disk each); FIFOs where libdpkg,
# libapt-pkg, libselinux and the account parser read; database paths that
# are symlinks to the host's; dpkg databases that made libdpkg exit();
# (8) a 4 MB line in etc/passwd and a directory there, 20,000 top-level
# symlinks, plain and mounted proc/sys/dev, -o at a dangling symlink.  (The
# sh -n crash and core limit: tests/unit/test_script_checks.c.)
# Each time: the exact outcome, a bounded time (`timeout`) and, where
# /usr/bin/time is there, a peak RSS under 256 MiB.
. "$(dirname "$0")/lib.sh"
mkelf="$SRCDIR/e2e/mkelf.py"

# pairs FILE: "check path message-prefix" of the findings that are not passes
pairs() {
	python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["severity"] != "pass" and f["check"] != "elf-fortify":
        print(f["check"], f["path"], f["message"].split(":")[0])' "$1" | LC_ALL=C sort
}

expect_pairs() {
	pairs "$work/out" >"$work/got"
	printf '%s\n' "$@" | LC_ALL=C sort >"$work/want"
	cmp -s "$work/got" "$work/want" || { diff "$work/want" "$work/got" >&2; fail "$desc: findings"; }
}

# 1. section headers claiming 4 GiB: judged on the rest, the section named
mkdir -p "$root/usr/bin" "$root/usr/sbin"
for what in dynsym dynstr note dynamic; do
	python3 "$mkelf" "$FIXTURES/pie-full" $what 4294967296 "$root/usr/bin/$what"
done
# ten programs with 4 GiB of .rodata for elf-tmp-name's string scan
python3 "$mkelf" "$FIXTURES/tmp-bad" rodata 4294967296 "$root"/usr/sbin/rodata0 "$root"/usr/sbin/rodata1 \
	"$root"/usr/sbin/rodata2 "$root"/usr/sbin/rodata3 "$root"/usr/sbin/rodata4 "$root"/usr/sbin/rodata5 \
	"$root"/usr/sbin/rodata6 "$root"/usr/sbin/rodata7 "$root"/usr/sbin/rodata8 "$root"/usr/sbin/rodata9
chmod 755 "$root"/usr/bin/* "$root"/usr/sbin/*
desc="4 GiB section claims"
measured "$desc" "$DISTSEC" scan --root "$root" --backend none --format json -j2 --fail-on warning
expect_rc 1
set -- "scan-unreadable /usr/bin/dynsym ELF section not read" \
	"scan-unreadable /usr/bin/dynstr ELF section not read" \
	"scan-unreadable /usr/bin/note ELF section not read" \
	"scan-unreadable /usr/bin/dynamic ELF section not read"
for i in 0 1 2 3 4 5 6 7 8 9; do
	set -- "$@" "elf-tmp-name /usr/sbin/rodata$i uses 1 fixed name under /tmp as file names"
done
expect_pairs "$@"

# an image with a dpkg database: package foo owns usr/bin/foo
make_db() {
	rm -rf "$root" && mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" \
		"$root/usr/bin" "$root/etc"
	printf 'Package: foo\nStatus: install ok installed\nMaintainer: M <m@example.org>\nArchitecture: amd64\nVersion: 1.0\nDescription: foo\n\n' \
		>"$root/var/lib/dpkg/status"
	printf '/usr\n/usr/bin\n/usr/bin/foo\n' >"$root/var/lib/dpkg/info/foo.list"
	cp "$FIXTURES/nopie-norelro" "$root/usr/bin/foo"
	echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
	echo 'root:x:0:' >"$root/etc/group"
}

# summary FIELD: backend, or a summary field, of the JSON in $work/out
summary() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["backend"] if sys.argv[2] == "backend" else d["summary"].get(sys.argv[2]))' "$work/out" "$1"
}

# expect_fallback REL WHY: the scan went on with backend none and said why,
# on stderr and in the JSON summary's warnings
expect_fallback() {
	[ "$(summary backend)" = none ] || fail "$desc: backend $(summary backend)"
	python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))["summary"]["warnings"]
sys.exit(0 if any(x.startswith("backend dpkg: ") and x.endswith(sys.argv[2]) for x in w) else
         "warnings: %s" % w)' "$work/out" "$1: $2" || fail "$desc: the JSON warning"
	grep -qF "$1: $2" "$work/err" || fail "$desc: no warning on stderr"
}

make_db
desc="a sound database"
measured "$desc" "$DISTSEC" scan --root "$root" --format json /usr/bin/foo
[ "$(summary backend)" = dpkg ] || fail "the sound database is not used"

# 2. a FIFO wherever libdpkg reads: refused, named, never waited on
for rel in var/lib/dpkg/status var/lib/dpkg/diversions var/lib/dpkg/arch \
           var/lib/dpkg/info/foo.list var/lib/dpkg/updates/0001; do
	make_db
	rm -f "$root/$rel"
	mkfifo "$root/$rel"
	desc="FIFO at $rel"
	measured "$desc" "$DISTSEC" scan --root "$root" --format json /usr/bin/foo
	expect_fallback "$rel" "not a regular file (a FIFO, device or directory)"
	rc=0
	timeout 30 "$DISTSEC" backends --root "$root" >"$work/out" 2>&1 || rc=$?
	[ "$rc" = 0 ] || fail "distsec backends with a FIFO at $rel: exit status $rc"
done

# FIFOs at the account files, the SELinux config and policy, an apt list
make_db
for f in etc/passwd etc/group; do rm -f "$root/$f" && mkfifo "$root/$f"; done
desc="FIFO account files"
measured "$desc" "$DISTSEC" scan --root "$root" --format json /usr/bin/foo
grep -qF "has no etc/passwd" "$work/err" || fail "$desc: not reported as missing"
make_db
mkdir -p "$root/etc/selinux"
mkfifo "$root/etc/selinux/config"
desc="FIFO SELinux config"
measured "$desc" "$DISTSEC" scan --root "$root" --format json --check selinux-dev-label
grep -qF "selinux-dev-label skipped: the root's SELinux config or file_contexts: not a regular file" \
	"$work/err" || fail "$desc: the skip"
rm "$root/etc/selinux/config"
echo SELINUXTYPE=targeted >"$root/etc/selinux/config"
mkdir -p "$root/etc/selinux/targeted/contexts/files"
mkfifo "$root/etc/selinux/targeted/contexts/files/file_contexts"
desc="FIFO file_contexts"
measured "$desc" "$DISTSEC" scan --root "$root" --format json --check selinux-dev-label
grep -qF "selinux-dev-label skipped: the root's SELinux config or file_contexts: not a regular file" \
	"$work/err" || fail "$desc: the skip"
make_db
mkdir -p "$root/var/lib/apt/lists"
mkfifo "$root/var/lib/apt/lists/deb.example.org_dists_x_InRelease"
desc="FIFO apt list"
measured "$desc" "$DISTSEC" scan --root "$root" --format json /usr/bin/foo
[ "$(summary backend)" = dpkg ] || fail "$desc: backend $(summary backend)"
grep -qF "apt origins not read: " "$work/err" || fail "$desc: not said"

# 3. database and config paths stay inside the root
if [ -f /var/lib/dpkg/status ] && [ -f /usr/bin/true ]; then
	make_db
	rm -rf "$root/var/lib/dpkg"
	ln -s /var/lib/dpkg "$root/var/lib/dpkg"
	cp /usr/bin/true "$root/usr/bin/true"
	desc="var/lib/dpkg -> the host's"
	measured "$desc" "$DISTSEC" scan --root "$root" --format json /usr/bin/true
	[ "$(summary backend)" = none ] || fail "$desc: read the host's database"
fi
make_db
mkdir -p "$root/elsewhere"
mv "$root/var/lib/dpkg" "$root/elsewhere/dpkg"
ln -s /elsewhere/dpkg "$root/var/lib/dpkg"
desc="var/lib/dpkg -> /elsewhere/dpkg inside the image"
measured "$desc" "$DISTSEC" scan --root "$root" --format json /usr/bin/foo
[ "$(summary backend)" = dpkg ] || fail "$desc: the image's own symlink not followed"
make_db
rm "$root/var/lib/dpkg/status"
ln -s /etc/shadow "$root/var/lib/dpkg/status"
desc="status -> /etc/shadow"
measured "$desc" "$DISTSEC" scan --root "$root" --format json /usr/bin/foo
[ "$(summary backend)" = none ] || fail "$desc: backend $(summary backend)"
grep -q shadow "$work/out" "$work/err" && fail "$desc: read a shadow file"

# etc/selinux as a symlink: to a host path (absolute, outside the image, a
# full policy there) it is resolved inside the root, where there is none;
# to a directory of the image it is followed there (whose FIFO is refused)
make_db
mkdir -p "$work/host-selinux/targeted/contexts/files"
echo SELINUXTYPE=targeted >"$work/host-selinux/config"
echo '/dev/null -c system_u:object_r:null_device_t:s0' \
	>"$work/host-selinux/targeted/contexts/files/file_contexts"
ln -s "$work/host-selinux" "$root/etc/selinux"
desc="etc/selinux -> a host path"
measured "$desc" "$DISTSEC" scan --root "$root" --format json --check selinux-dev-label
grep -qF "selinux-dev-label skipped: the root has no SELinux policy" "$work/err" ||
	{ cat "$work/err" >&2; fail "$desc: the host's policy was read"; }
make_db
mkdir -p "$root/elsewhere/selinux/targeted/contexts/files"
echo SELINUXTYPE=targeted >"$root/elsewhere/selinux/config"
mkfifo "$root/elsewhere/selinux/targeted/contexts/files/file_contexts"
ln -s /elsewhere/selinux "$root/etc/selinux"
desc="etc/selinux -> /elsewhere/selinux inside the image"
measured "$desc" "$DISTSEC" scan --root "$root" --format json --check selinux-dev-label
grep -qF "selinux-dev-label skipped: the root's SELinux config or file_contexts: not a regular file" \
	"$work/err" || { cat "$work/err" >&2; fail "$desc: the image's own symlink not followed"; }

# 6. a 10 MB Maintainer in an image's status file: cut to 256 bytes in
#    every finding (944 MB of JSON and 1.9 GB RSS before)
make_db
python3 - "$root/var/lib/dpkg/status" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read().replace("Maintainer: M <m@example.org>", "Maintainer: " + "M" * 10000000)
open(p, "w").write(s)
PY
desc="10 MB Maintainer in var/lib/dpkg/status"
measured "$desc" "$DISTSEC" scan --root "$root" --format json /usr/bin/foo
expect_rc 1
[ "$(summary backend)" = dpkg ] || fail "$desc: backend $(summary backend)"
size=$(wc -c <"$work/out")
[ "$size" -lt 65536 ] || fail "$desc: $size bytes of JSON"
python3 -c '
import json, sys
fs = json.load(open(sys.argv[1]))["findings"]
assert fs
for f in fs:
    m = f["owner"]["maintainer"]
    assert len(m.encode()) == 256 and m.endswith("..."), len(m)' "$work/out" ||
	fail "$desc: the maintainer is not cut to 256 bytes"

# 4. databases that made libdpkg exit(2): named, backend none, scan goes on
make_db
printf '/usr\n\n/usr/bin/foo\n' >"$root/var/lib/dpkg/info/foo.list"
desc="an empty line in a .list"
measured "$desc" "$DISTSEC" scan --root "$root" --format json /usr/bin/foo
expect_rc 1
expect_fallback var/lib/dpkg/info/foo.list "files list file for package 'foo' contains empty filename"
make_db
printf '/usr/bin/foo\n' >"$root/var/lib/dpkg/diversions"
desc="a garbled diversions file"
measured "$desc" "$DISTSEC" scan --root "$root" --format json /usr/bin/foo
expect_fallback var/lib/dpkg/diversions "unexpected end of file reading 'var/lib/dpkg/diversions'"
# libdpkg's own warnings obey -q
make_db
sed -i '/^Maintainer/d' "$root/var/lib/dpkg/status"
run_distsec scan --root "$root" /usr/bin/foo
grep -qF "missing 'Maintainer' field" "$work/err" || fail "libdpkg's warning not shown"
grep -qF "var/lib/dpkg/status' near line" "$work/err" || fail "the warning names a private copy"
run_distsec scan -q --root "$root" /usr/bin/foo
grep -qF "Maintainer" "$work/err" && fail "libdpkg's warning shown with -q"
# 8. account files: a 4 MB line is read in linear time (glibc's fgetpwent
#    took 8 s) and the lines after it count; a directory at etc/passwd is a
#    missing file (owner rules skipped, said), not an empty account list
make_db
python3 -c 'import sys; sys.stdout.write("big:x:1001:1001:" + "g" * (4 << 20) + ":/:/bin/sh\n"
	"alice:x:1000:1000::/home/alice:/bin/sh\n")' >>"$root/etc/passwd"
mkdir -p "$root/usr/lib/owners"
cp "$FIXTURES/pie-full" "$root/usr/lib/owners/alice"
cp "$FIXTURES/pie-full" "$root/usr/lib/owners/nobody-known"
chown 1000:0 "$root/usr/lib/owners/alice"
chown 4242:0 "$root/usr/lib/owners/nobody-known"
desc="a 4 MB line in etc/passwd"
measured "$desc" "$DISTSEC" scan --root "$root" --backend none --format json --check file-stig /usr/lib/owners
uid_findings() {
	python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if "which is not in the root" in f["message"]:
        print(f["message"])' "$work/out" | LC_ALL=C sort
}
[ "$(uid_findings)" = "/usr/lib/owners/nobody-known is owned by uid 4242, which is not in the root's etc/passwd (files must have a valid owner)" ] ||
	{ uid_findings >&2; fail "$desc: the owner findings"; }
[ -z "$cpu_ms" ] || [ "$cpu_ms" -lt 2000 ] || fail "$desc: $cpu_ms ms of CPU"
rm "$root/etc/passwd"
mkdir "$root/etc/passwd"
desc="a directory at etc/passwd"
measured "$desc" "$DISTSEC" scan --root "$root" --backend none --format json --check file-stig /usr/lib/owners
grep -qF "file-stig: $root has no etc/passwd: owner and group rules are skipped" "$work/err" ||
	{ cat "$work/err" >&2; fail "$desc: not said"; }
[ -z "$(uid_findings)" ] || fail "$desc: judged against an empty account list"

# 8. 20,000 top-level symlinks (all to /usr): owner look-ups of unowned files
#    do not try every one (0.46 s -> 9.9 s before); the merged-/usr /bin among
#    them still finds the database's /bin/foo for /usr/bin/foo.  Under a
#    wrapper (valgrind) 2,000 links, 100 files and no time bound: valgrind
#    takes minutes over 20,000 symlink resolutions.
make_db
printf '/bin\n/bin/foo\n' >"$root/var/lib/dpkg/info/foo.list"
ln -s usr/bin "$root/bin"
nfiles=2000
nlinks=20000
[ -z "${DISTSEC_WRAPPER:-}" ] || { nfiles=100; nlinks=2000; }
python3 -c 'import os, shutil, sys
os.makedirs(sys.argv[1] + "/usr/lib/unowned")
for i in range(int(sys.argv[3])): shutil.copy(sys.argv[2], "%s/usr/lib/unowned/p%04d" % (sys.argv[1], i))' \
	"$root" "$FIXTURES/nopie-norelro" "$nfiles"
owner_cpu() { # DESC: the scan, the owners checked; cpu_ms set
	measured "$1" "$DISTSEC" scan --root "$root" --format json --check elf-pie -j2
	python3 -c '
import json, sys
st = {f["path"]: (f["owner"]["status"], f["owner"].get("name")) for f in json.load(open(sys.argv[1]))["findings"]}
assert st.pop("/usr/bin/foo") == ("package", "foo"), "owner of /usr/bin/foo"
assert len(st) == int(sys.argv[2]) and all(v[0] == "not-owned" for v in st.values()), st' \
		"$work/out" "$nfiles" ||
		fail "$1: owners"
}
owner_cpu "no top-level symlinks but /bin"
base_ms=$cpu_ms
python3 -c 'import os, sys
for i in range(int(sys.argv[2])): os.symlink("usr", "%s/l%05d" % (sys.argv[1], i))' "$root" "$nlinks"
owner_cpu "$nlinks top-level symlinks"
# (listing and resolving the 20,000 links costs ~0.6 s, once; trying each
# for each of the 2000 unowned files cost ~4.5 s more)
[ -z "$cpu_ms" ] || [ "$cpu_ms" -lt $((base_ms + 2500)) ] ||
	fail "$desc: $cpu_ms ms of CPU, $base_ms ms without the symlinks"
# 8. an image's plain proc/, sys/ and dev/ are scanned (a payload there is not
#    hidden by its name); a file system mounted on the root's /dev is not,
#    even with --cross-mounts, while one mounted elsewhere then is
make_db
for d in proc sys/kernel dev; do
	mkdir -p "$root/$d"
	cp "$FIXTURES/nopie-norelro" "$root/$d/payload"
done
desc="plain proc, sys and dev directories"
measured "$desc" "$DISTSEC" scan --root "$root" --backend none --format json --check elf-pie
pie_paths() {
	python3 -c '
import json, sys
print(" ".join(sorted(f["path"] for f in json.load(open(sys.argv[1]))["findings"] if f["check"] == "elf-pie")))' \
		"$work/out"
}
[ "$(pie_paths)" = "/dev/payload /proc/payload /sys/kernel/payload /usr/bin/foo" ] ||
	fail "$desc: scanned $(pie_paths)"
# (a private mount namespace: nothing stays mounted if the test dies)
if unshare -m sh -c "mount -t tmpfs distsec-test '$root/dev'" 2>/dev/null; then
	mkdir -p "$root/usr/lib/mnt"
	unshare -m sh -c "mount -t tmpfs distsec-test '$root/dev' &&
		mount -t tmpfs distsec-test '$root/usr/lib/mnt' &&
		cp '$FIXTURES/nopie-norelro' '$root/dev/in-mount' &&
		cp '$FIXTURES/nopie-norelro' '$root/usr/lib/mnt/in-mount' &&
		exec ${DISTSEC_WRAPPER:-} '$DISTSEC' scan --root '$root' --backend none --format json \
			--check elf-pie --cross-mounts" >"$work/out" 2>"$work/err" || true
	desc="tmpfs on dev"
	[ "$(pie_paths)" = "/proc/payload /sys/kernel/payload /usr/bin/foo /usr/lib/mnt/in-mount" ] ||
		fail "$desc: scanned $(pie_paths)"
else
	echo "SKIP (part): cannot mount here (unshare -m, mount -t tmpfs); mounted /dev not tested"
fi

# 8. -o at a dangling symlink: refused with the reason, exit 2; the link is
#    neither replaced nor followed to create its target
ln -s "$work/nowhere/report.json" "$work/dangling.json"
run_distsec scan --root "$root" --backend none --format json -o "$work/dangling.json" /usr/bin/foo
desc="-o at a dangling symlink"
expect_rc 2
grep -qF "$work/dangling.json: a symlink that leads to no file (dangling, or a loop): not written through" \
	"$work/err" || { cat "$work/err" >&2; fail "$desc: the reason"; }
[ -L "$work/dangling.json" ] && [ ! -e "$work/nowhere" ] || fail "$desc: written"
echo "hostile-roots: ok"
