#!/bin/sh
# Hard links and data directories, each
# fixture built here: a tar hard link is judged under its own name with its
# target's content and its own mode; a program's daemon class comes from
# any of its names (.deb, rpm, a tree); md5sums never decides what is read;
# a set-id file, or an executable file a unit or a PATH entry names, is
# judged under /usr/share.
. "$(dirname "$0")/lib.sh"
mkdeb="$SRCDIR/e2e/mkdeb.py"
nopie="$FIXTURES/nopie-norelro"
ran=0

# scan DESC ARGS...: a JSON scan, exit status 0 or 1
scan() {
	desc=$1
	shift
	run_distsec scan --format json "$@"
	case $rc in 0|1) ;; *) cat "$work/err" >&2; fail "$desc: exit status $rc" ;; esac
}

unit() {   # unit FILE PROGRAM
	mkdir -p "$(dirname "$1")"
	printf '[Service]\nExecStart=%s\n' "$2" >"$1"
}

# 1. a setuid tar hard link to a 0644 ELF under /usr/share: dpkg -i installs
#    -rwsr-xr-x /usr/bin/hlsu; the target itself is data (no x bit)
python3 "$mkdeb" "$work/hlsu.deb" usr/share/hl/payload:644:"$nopie" \
	usr/bin/hlsu:4755:link:usr/share/hl/payload
scan "setuid tar hard link" --backend none "$work/hlsu.deb"
expect_rc 1
expect_pie_findings "error elf-pie /usr/bin/hlsu"

# the same in an Alpine package (the payload after the control streams)
python3 "$SRCDIR/e2e/mkapk.py" "$work/hlsu.apk" hlsu 1.0-r0 x86_64 \
	"usr/share/hl/payload=$nopie:0644" "usr/bin/hlsu=link:usr/share/hl/payload:4755"
scan "setuid tar hard link (.apk)" --backend none "$work/hlsu.apk"
expect_rc 1
expect_pie_findings "error elf-pie /usr/bin/hlsu"

# and in an Arch package (the payload after makepkg's dot-members)
if distsec backends | grep -q '^  pacman '; then
	python3 - "$work/hlsu-1.0-1-x86_64.pkg.tar.gz" "$nopie" <<'PY'
import io, sys, tarfile
out, prog = sys.argv[1:]
info = b"pkgname = hlsu\npkgver = 1.0-1\narch = x86_64\nsize = 1\n"
with tarfile.open(out, "w:gz", format=tarfile.GNU_FORMAT) as t:
    ti = tarfile.TarInfo(".BUILDINFO")   # first, as makepkg sorts them
    t.addfile(ti, io.BytesIO(b""))
    ti = tarfile.TarInfo(".PKGINFO")
    ti.size = len(info)
    t.addfile(ti, io.BytesIO(info))
    data = open(prog, "rb").read()
    ti = tarfile.TarInfo("usr/share/hl/payload")
    ti.size, ti.mode = len(data), 0o644
    t.addfile(ti, io.BytesIO(data))
    ti = tarfile.TarInfo("usr/bin/hlsu")
    ti.type, ti.linkname, ti.mode = tarfile.LNKTYPE, "usr/share/hl/payload", 0o4755
    t.addfile(ti)
PY
	scan "setuid tar hard link (pacman)" --backend none "$work/hlsu-1.0-1-x86_64.pkg.tar.gz"
	expect_rc 1
	expect_pie_findings "error elf-pie /usr/bin/hlsu"
	ran=$((ran + 1))
else
	echo "SKIP (part): built without the pacman backend"
fi

# 2. openntpd's layout: the unit runs /usr/sbin/ntpd, a hard link to ntpctl;
#    both names are the daemon (one program), and so when the unit names
#    the member carrying the data and the link comes after it
for runs in ntpd ntpctl; do
	unit "$work/$runs.service" "/usr/sbin/$runs"
	python3 "$mkdeb" "$work/$runs.deb" lib/systemd/system/$runs.service:644:"$work/$runs.service" \
		usr/sbin/ntpctl:755:"$nopie" usr/sbin/ntpd:755:link:usr/sbin/ntpctl
	scan "the unit runs $runs" --backend none "$work/$runs.deb"
	expect_rc 1
	expect_pie_findings "error elf-pie /usr/sbin/ntpctl" "error elf-pie /usr/sbin/ntpd"
done

# 3. a link to a link (tar links name the first), and a link to nothing
#    the archive held before it: an error naming the member, as dpkg fails
python3 "$mkdeb" "$work/chain.deb" usr/bin/a:755:"$nopie" usr/bin/b:4755:link:usr/bin/a \
	usr/bin/c:2755:link:usr/bin/b usr/bin/d:4755:link:usr/bin/missing
scan "link chain and dangling link" --backend none "$work/chain.deb"
expect_rc 1
expect_pie_findings "info elf-pie /usr/bin/a" "error elf-pie /usr/bin/b" "error elf-pie /usr/bin/c" \
	"error scan-unreadable /usr/bin/d"
grep -q 'hard link to /usr/bin/missing' "$work/out" || fail "$desc: the reason"

# 4. md5sums never decides what is read: it omits the unit, the daemon
#    is still a daemon
unit "$work/food.service" /usr/sbin/food
python3 "$mkdeb" "$work/md5.deb" --md5sums usr/sbin/food \
	lib/systemd/system/food.service:644:"$work/food.service" usr/sbin/food:755:"$nopie"
scan "md5sums without the unit" --backend none "$work/md5.deb"
expect_rc 1
expect_pie_findings "error elf-pie /usr/sbin/food"

# 5. /usr/share: a setuid program, a program a unit runs and one a PATH
#    symlink names are judged; plain data with or without an x bit is not
unit "$work/shared.service" /usr/share/sd/daemon
python3 "$mkdeb" "$work/share.deb" lib/systemd/system/shared.service:644:"$work/shared.service" \
	usr/bin/tool:777:symlink:../share/st/tool \
	usr/share/sd/daemon:755:"$nopie" usr/share/st/tool:755:"$nopie" \
	usr/share/su/suid:4755:"$nopie" usr/share/sg/sgid:2755:"$nopie" \
	usr/share/data/test.elf:755:"$nopie" usr/share/data/plain.elf:644:"$nopie"
scan "programs under /usr/share (.deb)" --backend none "$work/share.deb"
expect_rc 1
expect_pie_findings "error elf-pie /usr/share/sd/daemon" "info elf-pie /usr/share/st/tool" \
	"error elf-pie /usr/share/su/suid" "error elf-pie /usr/share/sg/sgid"

# 6. the same in a tree, with the ntpd hard link
place nopie-norelro usr/share/sd/daemon
place nopie-norelro usr/share/st/tool
place nopie-norelro usr/share/su/suid 4755
place nopie-norelro usr/share/data/test.elf
place nopie-norelro usr/share/data/plain.elf 0644
mkdir -p "$root/usr/bin"
ln -s ../share/st/tool "$root/usr/bin/tool"
unit "$root/lib/systemd/system/shared.service" /usr/share/sd/daemon
place nopie-norelro usr/sbin/ntpctl
ln "$root/usr/sbin/ntpctl" "$root/usr/sbin/ntpd"
unit "$root/lib/systemd/system/ntpd.service" /usr/sbin/ntpd
scan "a tree" --backend none --root "$root" /
expect_rc 1
expect_pie_findings "error elf-pie /usr/share/sd/daemon" "info elf-pie /usr/share/st/tool" \
	"error elf-pie /usr/share/su/suid" "error elf-pie /usr/sbin/ntpctl" \
	"error elf-pie /usr/sbin/ntpd"

# 7. 65,000 names of one program: analysed once, each name's findings
#    sharing one record of details (was 353 MB of RSS for the text report)
mkdir -p "$work/many/usr/bin"
python3 - "$nopie" "$work/many/usr/bin" <<'PY'
import os, shutil, sys
prog, d = sys.argv[1:]
shutil.copy(prog, d + "/f0")
os.chmod(d + "/f0", 0o755)
for i in range(1, 65000):
    os.link(d + "/f0", d + "/f%d" % i)
PY
set -- scan --backend none --format text --color never --check elf-pie,elf-relro,elf-rpath \
	--root "$work/many" /
# the memory bound where it means something: no sanitizer, GNU time there
if [ "${DOGFOOD:-0}" = 1 ] && [ -x /usr/bin/time ]; then
	measured "65,000 hard links" "$DISTSEC" "$@"
else
	desc="65,000 hard links"
	run_distsec "$@"
fi
expect_rc 1
[ "$(grep -c '^info     elf-pie  *  */usr/bin/f[0-9]*  \[unknown\]  not built as a position-independent' "$work/out")" = 65000 ] ||
	fail "$desc: elf-pie findings"
[ "$(grep -c '^error    elf-relro  *  */usr/bin/f[0-9]*  \[unknown\]  no RELRO' "$work/out")" = 65000 ] ||
	fail "$desc: elf-relro findings"
grep -q '^error    elf-relro  *  */usr/bin/f64999  ' "$work/out" || fail "$desc: the last name"
# each name's own analysis took 193 MB here
if [ -n "${cpu_ms:-}" ]; then
	[ "$kb" -lt 98304 ] || fail "$desc: peak RSS $kb KB over 96 MiB"
else
	echo "*skipped*: the 96 MiB bound of 65,000 hard links (a sanitizer build, or no /usr/bin/time)"
fi
rm -r "$work/many"

# 8. rpm: the daemon class from any name of a hard-link set
if command -v rpmbuild >/dev/null; then
	fixture_rpm hl 'mkdir -p %{buildroot}/usr/sbin %{buildroot}/usr/lib/systemd/system
install -m 755 %{SOURCE0} %{buildroot}/usr/sbin/ntpctl
ln %{buildroot}/usr/sbin/ntpctl %{buildroot}/usr/sbin/ntpd
printf "[Service]\nExecStart=/usr/sbin/ntpd\n" >%{buildroot}/usr/lib/systemd/system/ntpd.service' \
		'/usr/sbin/ntpctl
/usr/sbin/ntpd
/usr/lib/systemd/system/ntpd.service'
	scan "rpm hard-linked daemon" --backend none "$rpm_file"
	expect_rc 1
	expect_pie_findings "error elf-pie /usr/sbin/ntpctl" "error elf-pie /usr/sbin/ntpd"
	ran=$((ran + 1))
else
	echo "SKIP (part): rpmbuild not installed, rpm hard links not tested"
fi
echo "hardlinks: ok ($ran optional parts ran)"
