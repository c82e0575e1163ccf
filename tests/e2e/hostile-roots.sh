#!/bin/sh
# Hostile images (issue #14), built here at test time: sparse ELF files whose
# section headers claim 4 GiB (16 KB on disk each); FIFOs where libdpkg,
# libapt-pkg, libselinux and the account parser read; database paths that
# are symlinks to the host's; dpkg databases that made libdpkg exit().
# Each time: the exact outcome, a bounded time (`timeout`) and, where
# /usr/bin/time is there, a peak RSS under 256 MiB.
. "$(dirname "$0")/lib.sh"
mkelf="$SRCDIR/e2e/mkelf.py"

# measured DESC CMD...: runs CMD under timeout (and GNU time when there is
# one, no wrapper), sets rc; output in $work/out; fails over 256 MiB peak RSS
measured() {
	desc=$1
	shift
	rc=0
	if [ -x /usr/bin/time ] && [ -z "${DISTSEC_WRAPPER:-}" ]; then
		timeout 60 /usr/bin/time -f '%M %U %S' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || rc=$?
		read -r kb user sys <<EOF
$(tail -n 1 "$work/time")
EOF
		echo "$desc: peak RSS ${kb} KB, CPU ${user}+${sys} s"
		[ "$kb" -lt 262144 ] || fail "$desc: peak RSS $kb KB"
	else
		timeout 600 ${DISTSEC_WRAPPER:-} "$@" >"$work/out" 2>"$work/err" || rc=$?
	fi
	[ "$rc" != 124 ] || fail "$desc: timed out"
	case $rc in 0|1) ;; *) cat "$work/err" >&2; fail "$desc: exit status $rc" ;; esac
}

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
echo "hostile-roots: ok"
