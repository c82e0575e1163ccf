#!/bin/sh
# The pacman backend: packages built here as makepkg lays them out
# (.BUILDINFO, .INSTALL, .MTREE, .PKGINFO before the payload; zstd and xz),
# installed into a root by the real pacman (libalpm writes the local
# database), then the root and the package files scanned.
. "$(dirname "$0")/lib.sh"
for t in pacman bsdtar; do
	command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
distsec backends | grep -q '^  pacman ' || { echo "SKIP: built without the pacman backend"; exit 77; }

# mkpkg DIR EXT [ARCH]: a package of DIR's tree, as makepkg writes it
mkpkg() {
	(cd "$1" && LC_COLLATE=C bsdtar -cf - --format=mtree \
		--options='!all,use-set,type,uid,gid,mode,time,size,md5,sha256,link' .PKGINFO usr |
		gzip -c -n >.MTREE &&
	 LC_COLLATE=C bsdtar -cf - --uid 0 --gid 0 .BUILDINFO .INSTALL .MTREE .PKGINFO usr) >"$work/p.tar"
	case $2 in
	zst) zstd -q -19 -c "$work/p.tar" ;;
	xz) xz -c "$work/p.tar" ;;
	esac >"$work/appd-1.2-1-${3:-x86_64}.pkg.tar.$2"
}
p="$work/appd"
mkdir -p "$p/usr/sbin" "$p/usr/share/doc/appd"
cp "$FIXTURES/nopie-norelro" "$p/usr/sbin/appd"
chmod 755 "$p/usr/sbin/appd"
echo doc >"$p/usr/share/doc/appd/README"
printf 'pkgname = appd\npkgbase = appd-base\npkgver = 1.2-1\npkgdesc = fixture\nbuilddate = 0\npackager = Fix Er <fix@example.org>\nsize = 1\narch = x86_64\nlicense = MIT\n' >"$p/.PKGINFO"
printf 'format = 2\npkgname = appd\npkgver = 1.2-1\n' >"$p/.BUILDINFO"
printf 'post_install() {\n  if then\n}\n' >"$p/.INSTALL"
command -v zstd >/dev/null || { echo "SKIP: zstd not installed"; exit 77; }
mkpkg "$p" zst
mkpkg "$p" xz

# 1. the root pacman made: owners through libalpm
printf '[options]\nSigLevel = Never\nArchitecture = auto\n' >"$work/pacman.conf"
mkdir -p "$root/var/lib/pacman"
pacman --config "$work/pacman.conf" --root "$root" --dbpath "$root/var/lib/pacman" -U --noconfirm \
	--noscriptlet "$work/appd-1.2-1-x86_64.pkg.tar.zst" >"$work/pacman.log" 2>&1 ||
	{ cat "$work/pacman.log"; fail "pacman -U"; }
run_distsec backends --root "$root"
expect_line "root $root would use: pacman (pacman database var/lib/pacman/local: 1 packages)"
run_distsec scan --root "$root" --check elf-pie --fail-on info /usr/sbin
expect_rc 1
expect_line "info     elf-pie                   /usr/sbin/appd  [appd-1.2-1]  not built as a position-independent executable"
run_distsec scan --root "$root" --check elf-pie --format json /usr/sbin
python3 - "$work/out" <<'PY' || fail "pacman owner in JSON"
import json, sys
o = json.load(open(sys.argv[1]))["findings"][0]["owner"]
assert (o["status"], o["name"], o["version"], o["arch"], o["source"], o["maintainer"]) == \
    ("package", "appd", "1.2-1", "x86_64", "appd-base", "Fix Er <fix@example.org>"), o
PY
# (made in a TMPDIR of its own: /tmp holds other runs' copies while they run)
mkdir -p "$work/tmp"
TMPDIR="$work/tmp"
export TMPDIR
run_distsec scan --root "$root" --check elf-pie --package appd
unset TMPDIR
expect_line "2 files (1 ELF, 0 scripts), 1 packages, backend pacman"
# the private copy of the database is gone
[ -z "$(ls "$work/tmp")" ] || fail "database copy left behind: $(ls "$work/tmp")"
# a database of pacman before 4.2 has no ALPM_DB_VERSION, and libalpm
# refuses it until pacman-db-upgrade writes one: read as it is, and said so
mv "$root/var/lib/pacman/local/ALPM_DB_VERSION" "$work/ALPM_DB_VERSION"
run_distsec backends --root "$root"
expect_line "root $root would use: pacman (pacman database var/lib/pacman/local: 1 packages (no ALPM_DB_VERSION: made by pacman before 4.2, read as it is))"
run_distsec scan --root "$root" --check elf-pie --fail-on info /usr/sbin
expect_rc 1
expect_line "info     elf-pie                   /usr/sbin/appd  [appd-1.2-1]  not built as a position-independent executable"
grep -q "^distsec: backend pacman: .* (no ALPM_DB_VERSION: made by pacman before 4.2, read as it is)" "$work/err" ||
	{ cat "$work/err"; fail "no notice of the old database"; }
[ ! -e "$root/var/lib/pacman/local/ALPM_DB_VERSION" ] || fail "the root's database was written to"
mv "$work/ALPM_DB_VERSION" "$root/var/lib/pacman/local/ALPM_DB_VERSION"

# 2. a database file that is a symlink out of the root: a clear error
d=$(ls -d "$root"/var/lib/pacman/local/appd-*)
mv "$d/desc" "$work/desc"
ln -s /etc/passwd "$d/desc"
run_distsec scan --root "$root" --backend pacman /usr/sbin
expect_rc 2
grep -q "cannot read var/lib/pacman/local/appd-1.2-1/desc" "$work/err" || { cat "$work/err"; fail "no error for a symlinked desc"; }
rm "$d/desc"
mv "$work/desc" "$d/desc"

# a signal while the copy exists removes it, its package directories too
# (2,000 packages, so the copy lasts long enough to be caught)
local="$root/var/lib/pacman/local"
i=0
while [ $i -lt 2000 ]; do
	mkdir "$local/fill$i-1-1"
	printf '%%NAME%%\nfill%s\n\n%%VERSION%%\n1-1\n\n%%ARCH%%\nx86_64\n\n' $i >"$local/fill$i-1-1/desc"
	printf '%%FILES%%\nusr/share/fill%s\n\n' $i >"$local/fill$i-1-1/files"
	i=$((i + 1))
done
mkdir -p "$work/tmp"
for sig in TERM USR1; do
	for attempt in 1 2 3 4 5 6 7 8; do
		TMPDIR="$work/tmp" python3 "$SRCDIR/e2e/sigwindow.py" "$work/tmp" distsec-pacmandb- $sig \
			"$DISTSEC" scan --root "$root" --backend pacman -q --check elf-pie /usr/sbin >"$work/sw" 2>/dev/null
		read -r how status num <"$work/sw"
		[ "$how" != hang ] || fail "distsec did not end after the signal: $(cat "$work/sw")"
		[ "$how" = hit ] && break
	done
	[ "$how" = hit ] || fail "SIG$sig never came while the pacman database copy existed"
	[ "$status $num" = "signal SIG$sig" ] || fail "SIG$sig during the copy: ended with $status $num"
	[ -z "$(ls "$work/tmp")" ] || fail "SIG$sig during the copy left $(ls "$work/tmp")"
done

# 3. package files, zstd and xz: metadata, the .INSTALL scriptlets, the payload
for ext in zst xz; do
	run_distsec scan --check elf-pie,script-sh-syntax --fail-on warning "$work/appd-1.2-1-x86_64.pkg.tar.$ext"
	expect_rc 1
	expect_line "info     elf-pie                   /usr/sbin/appd  [appd-1.2-1]"
	expect_line "error    script-sh-syntax          .INSTALL  [appd-1.2-1]"
done
# a package whose first zstd block is larger than the page the core sniffs
# first: told by the second, larger look
head -c 300000 /dev/urandom >"$p/usr/share/doc/appd/blob"
mkpkg "$p" zst
run_distsec scan --check elf-pie --fail-on info "$work/appd-1.2-1-x86_64.pkg.tar.zst"
expect_rc 1
expect_line "info     elf-pie                   /usr/sbin/appd  [appd-1.2-1]"
# Arch Linux ARM's armv7h: the members of its packages are judged as ARM
# programs, so an x86-64 one is none of them
sed -i 's/^arch = x86_64$/arch = armv7h/' "$p/.PKGINFO"
mkpkg "$p" zst armv7h
run_distsec scan -v --check elf-pie,elf-not-judged "$work/appd-1.2-1-armv7h.pkg.tar.zst"
expect_rc 0
expect_line "pass     elf-not-judged            /usr/sbin/appd  [appd-1.2-1]  not judged: built for x86_64; the scanned system runs arm"
# a plain .tar.zst is no package: scanned as the file it is
tar -cf "$work/plain.tar" -C "$FIXTURES" nopie-norelro
zstd -q -c "$work/plain.tar" >"$work/plain.tar.zst"
run_distsec scan --check elf-pie "$work/plain.tar.zst"
expect_rc 0
echo "pacman-backend: ok"
