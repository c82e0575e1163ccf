#!/bin/sh
# The apk backend: owners from real records of an Alpine 3.4 database
# (tests/fixtures/apk), a database written here with every record form
# (F/R/a/M, files before any F:, a record without P:), a damaged one, and
# .apk package files built here the way abuild writes them.
. "$(dirname "$0")/lib.sh"

# 1. a database of every form: owners, versions, origin, the label apk prints
mkdir -p "$root/lib/apk/db" "$root/usr/bin" "$root/bin" "$root/etc"
cat >"$root/lib/apk/db/installed" <<'DB'
C:Q1AAAA=
P:fixd
V:1.0-r3
A:x86_64
o:fixd-src
m:Fix Er <fix@example.org>
F:usr/bin
M:0:0:755
R:fixd
a:0:0:755
Z:Q1BBBB=
R:fixd-helper
F:
R:toplevel

C:Q1CCCC=
V:9-r9
F:usr/bin
R:orphan

P:shell
V:2.0-r0
A:x86_64
F:bin
R:sh
DB
place nopie-norelro usr/bin/fixd
place pie-full usr/bin/fixd-helper
place pie-full usr/bin/orphan
place pie-full bin/sh
touch "$root/etc/alpine-release"
run_distsec backends --root "$root"
expect_line "root $root would use: apk (apk database lib/apk/db/installed: 2 packages)"
run_distsec scan --root "$root" --check elf-relro /usr/bin
expect_rc 1
expect_line "error    elf-relro                 /usr/bin/fixd  [fixd-1.0-r3]  no RELRO"
run_distsec scan --root "$root" --check elf-pie --format json -v /usr/bin
python3 - "$work/out" <<'PY' || fail "apk owners in JSON"
import json, sys
d = json.load(open(sys.argv[1]))
by = {f["path"]: f["owner"] for f in d["findings"]}
o = by["/usr/bin/fixd"]
assert o["status"] == "package", o
p = o
assert (p["name"], p["version"], p["arch"], p["source"], p["maintainer"]) == \
    ("fixd", "1.0-r3", "x86_64", "fixd-src", "Fix Er <fix@example.org>"), p
assert by["/usr/bin/fixd-helper"]["name"] == "fixd"
# the record without P: owns nothing
assert by["/usr/bin/orphan"]["status"] == "not-owned", by["/usr/bin/orphan"]
PY
run_distsec scan --root "$root" --check elf-pie --package fixd-1.0-r3
expect_line "2 files (2 ELF, 0 scripts), 1 packages, backend apk"

# 2. a damaged database is a clear error, never a silent "none"
printf 'P:x\nR:%s\n' "$(head -c 70000 /dev/zero | tr '\0' a)" >"$root/lib/apk/db/installed"
run_distsec scan --root "$root" --backend apk /usr/bin
expect_rc 2
grep -q "lib/apk/db/installed: line 2 is over 64 KiB" "$work/err" || { cat "$work/err"; fail "no error for a damaged database"; }

# 3. .apk package files: metadata from .PKGINFO, install scripts, payload
printf '#!/bin/sh\nif then\n' >"$work/post"
python3 "$SRCDIR/e2e/mkapk.py" "$work/appd-1.2-r0.apk" appd 1.2-r0 x86_64 --script ".post-install=$work/post" \
	"usr/sbin/appd=$FIXTURES/nopie-norelro:0755" "usr/share/doc/appd/README=$SRCDIR/e2e/mkapk.py"
run_distsec scan --check elf-pie,script-sh-syntax --fail-on warning "$work/appd-1.2-r0.apk"
expect_rc 1
expect_line "info     elf-pie                   /usr/sbin/appd  [appd-1.2-r0]  not built as a position-independent executable"
expect_line "error    script-sh-syntax          .post-install  [appd-1.2-r0]"
# a plain .tar.gz is no package: scanned as the plain file it is
tar -czf "$work/plain.tar.gz" -C "$FIXTURES" nopie-norelro
run_distsec scan --check elf-pie "$work/plain.tar.gz"
expect_rc 0

# 4. real records (tests/fixtures/apk: musl, busybox, apk-tools of Alpine 3.4)
rm -rf "$root/usr" "$root/bin"
mkdir -p "$root/bin" "$root/lib" "$root/sbin"
cp "$SRCDIR/fixtures/apk/installed" "$root/lib/apk/db/installed"
place pie-full bin/busybox
place pie-full lib/ld-musl-x86_64.so.1
place pie-full sbin/apk
run_distsec scan --root "$root" --check elf-pie,elf-relro -v /bin/busybox /lib/ld-musl-x86_64.so.1 /sbin/apk
expect_line "pass     elf-pie                   /bin/busybox  [busybox-1.24.2-r12]"
expect_line "/lib/ld-musl-x86_64.so.1  [musl-1.1.14-r14]"
expect_line "pass     elf-pie                   /sbin/apk  [apk-tools-2.6.7-r0]"
expect_line "3 files (3 ELF, 0 scripts), 3 packages, backend apk"

# 5. a real armhf database (tests/fixtures/apk/installed-armhf, Alpine 3.20.3):
# owners, the root's architecture, and the alpine profile's two waivers of
# the modes its packages record (shadow a:0:42:640, busybox's dad a:0:0:775)
rm -rf "$root/bin" "$root/lib" "$root/sbin" "$root/etc"
mkdir -p "$root/bin" "$root/lib/apk/db" "$root/etc/network/if-up.d"
cp "$SRCDIR/fixtures/apk/installed-armhf" "$root/lib/apk/db/installed"
place pie-full bin/busybox
printf 'root:x:0:root\nshadow:x:42:\n' >"$root/etc/group"
printf 'root:*::0:::::\n' >"$root/etc/shadow"
chmod 0640 "$root/etc/shadow"
printf '#!/bin/sh\nexit 0\n' >"$root/etc/network/if-up.d/dad"
chmod 0775 "$root/etc/network/if-up.d/dad"
if [ "$(id -u)" = 0 ]; then
	chown 0:42 "$root/etc/shadow"
	run_distsec backends --root "$root"
	expect_line "would use: apk (apk database lib/apk/db/installed: 14 packages)"
	run_distsec scan --root "$root" --check elf-pie,file-stig --format json /bin/busybox /etc
	expect_rc 0
	python3 - "$work/out" <<'PY' || fail "the armhf root's owners or the alpine profile"
import json, sys
d = json.load(open(sys.argv[1]))
assert (d['backend'], d['profile']) == ('apk', 'alpine'), (d['backend'], d['profile'])
got = sorted((f['check'], f['path'], f['severity'], bool(f.get('waived')), f['owner'].get('name'),
              f['owner'].get('version'), f['owner'].get('arch')) for f in d['findings'])
want = [('file-stig', '/etc/network/if-up.d/dad', 'error', True, 'busybox', '1.36.1-r29', 'armhf'),
        ('file-stig', '/etc/shadow', 'error', True, 'alpine-baselayout-data', '3.6.5-r0', 'armhf')]
assert got == want, got
PY
	# the same files under the strict profile: the two errors
	run_distsec scan --root "$root" --check file-stig --profile stig /etc
	expect_rc 1
	expect_line "error    file-stig                 /etc/shadow  [alpine-baselayout-data-3.6.5-r0]"
else
	echo "*skipped*: the armhf root's /etc/shadow needs chown 0:42 (not root)"
fi
# the stand-in program is x86-64's: the armhf root does not run it
run_distsec scan --root "$root" -v /bin/busybox
expect_line "pass     elf-not-judged            /bin/busybox  [busybox-1.36.1-r29]  not judged: built for x86_64; the scanned system runs arm"
echo "apk-backend: ok"
