#!/bin/sh
# Package files as a build's users scan them: no host database read, one
# bounded job per package file (300 under `ulimit -n 64`), the argument
# forms (./X, relative, --package-file, a PATH under --root that never
# touches the host), --files-from, and a .changes whose listed sizes and
# sha256 are checked.  Packages are built here with dpkg-deb.
. "$(dirname "$0")/lib.sh"
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not installed"; exit 77; }

# mkdeb NAME FIXTURE PATH: $work/NAME_1.0-1_amd64.deb with FIXTURE at PATH
mkdeb() {
	d="$work/pkg-$1"
	mkdir -p "$d/DEBIAN" "$d/$(dirname "$3")"
	printf 'Package: %s\nVersion: 1.0-1\nArchitecture: amd64\nMaintainer: Fix Er <fix@example.org>\nDescription: fixture\n' \
		"$1" >"$d/DEBIAN/control"
	cp "$FIXTURES/$2" "$d/$3"
	chmod 755 "$d/$3"
	dpkg-deb --root-owner-group -Znone -b "$d" "$work/$1_1.0-1_amd64.deb" >/dev/null
}
mkdeb fixa nopie-norelro usr/bin/fixa-tool
mkdeb fixb pie-full usr/bin/fixb-tool
fixa="$work/fixa_1.0-1_amd64.deb"
fixb="$work/fixb_1.0-1_amd64.deb"
fixa_line="error    elf-relro                 /usr/bin/fixa-tool  [fixa:amd64]"

# 1. only package files: the host's dpkg database and apt cache are not read
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
	strace -f -e trace=open,openat,openat2,stat,newfstatat,statx -o "$work/trace" \
		"$DISTSEC" scan --format json -o "$work/out" "$fixa" || true
	grep -E '/var/lib/(dpkg|apt)|/var/cache/apt' "$work/trace" && fail "a package file scan read the host database"
	grep -q '"backend":"none"' "$work/out" || fail "backend is not none"
	if [ -e /var/lib/dpkg/status ]; then
		# (database files are opened below the root: openat2 of "var/lib/dpkg/status")
		strace -f -e trace=open,openat,openat2 -o "$work/trace" \
			"$DISTSEC" scan --installed-state -o /dev/null "$fixa" || true
		grep -q 'var/lib/dpkg/status' "$work/trace" || fail "--installed-state did not read the database"
	fi
else
	echo "note: strace unusable here; the database check is skipped"
fi
run_distsec scan --color never "$fixa"
expect_rc 1
expect_line "$fixa_line"
expect_line "backend none"

# 2. 300 package files under 64 descriptors, two workers: every one read,
#    in the context pass (the last one's unit makes fixa-tool a daemon in
#    the 299 others) and in the scan
mkdir "$work/many" "$work/pkg-fixa-systemd"
i=0
while [ $i -lt 299 ]; do
	ln "$fixa" "$work/many/fixa-$i.deb"
	i=$((i + 1))
done
d="$work/pkg-fixa-systemd"
mkdir -p "$d/DEBIAN" "$d/usr/lib/systemd/system"
printf 'Package: fixa-systemd\nVersion: 1.0-1\nArchitecture: all\nMaintainer: F <f@example.org>\nDescription: f\n' >"$d/DEBIAN/control"
printf '[Service]\nExecStart=/usr/bin/fixa-tool\n' >"$d/usr/lib/systemd/system/fixa.service"
dpkg-deb --root-owner-group -Znone -b "$d" "$work/many/fixa-systemd.deb" >/dev/null
rc=0
(ulimit -n 64 && "$DISTSEC" scan --color never -j2 "$work"/many/*.deb) >"$work/out" 2>"$work/err" || rc=$?
expect_rc 1
[ "$(grep -c "^error    elf-relro                 /usr/bin/fixa-tool  \[fixa:amd64\]  no RELRO" "$work/out")" = 299 ] ||
	fail "not 299 elf-relro findings under ulimit -n 64"
[ "$(grep -c "^error    elf-pie                   /usr/bin/fixa-tool  \[fixa:amd64\]  not built as a position-independent" "$work/out")" = 299 ] ||
	fail "not 299 daemon elf-pie errors under ulimit -n 64"
# fixa-systemd has no finding and is still one of the packages read
expect_line "300 files (299 ELF, 0 scripts), 2 packages, backend none, profile debian: 598 errors, 0 warnings, 299 info"
[ -s "$work/err" ] && { cat "$work/err"; fail "messages under ulimit -n 64"; }
grep -q unreadable "$work/out" && fail "a package file went unread under ulimit -n 64"
# --files-from, from stdin, gives the same report
ls "$work"/many/*.deb | (ulimit -n 64 && "$DISTSEC" scan --color never -j2 --files-from -) \
	>"$work/out2" 2>/dev/null || true
grep -v '^[0-9]* files' "$work/out" >"$work/a"
grep -v '^[0-9]* files' "$work/out2" >"$work/b"
cmp -s "$work/a" "$work/b" || fail "--files-from - differs from the same files as arguments"

# a host file that exists but cannot be opened is an error naming it
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	cp "$fixa" "$work/locked.deb"
	chmod 000 "$work/locked.deb"
	chmod 755 "$work"
	# the profile and the STIG rules from $work: the build tree may be
	# below a directory nobody cannot enter (a clone under a 0700 mktemp -d)
	cp "$SRCDIR/../src/profiles/debian" "$work/debian.profile"
	cp "$SRCDIR/../src/checks/stig-rules" "$work/stig-rules"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$DISTSEC" scan --color never \
		--profile "$work/debian.profile" --rules "$work/stig-rules" "$work/locked.deb" "$fixb" >"$work/out" 2>"$work/err" || rc=$?
	expect_rc 1
	grep -qx "distsec: $work/locked.deb: Permission denied" "$work/err" || fail "no error naming the locked file"
	expect_line "error    scan-unreadable           $work/locked.deb  [unknown]  package file unreadable: Permission denied"
else
	echo "note: not root: the unopenable-file case is skipped"
fi

# a file named as a package file that is none (a web server's 404 page, an
# empty or a truncated download) is never a plain file passed in silence
cd "$work"
printf '<!DOCTYPE html>\n<html><body>404 Not Found</body></html>\n' >"$work/fake.rpm"
: >"$work/empty.deb"
for f in fake.rpm empty.deb; do
	run_distsec scan --color never --fail-on error "$f"
	expect_rc 2
	run_distsec scan --color never --fail-on error "$f" ./fixa_1.0-1_amd64.deb
	expect_rc 1
	run_distsec scan --package-file "$f"
	expect_rc 2
done
run_distsec scan --color never fake.rpm ./fixa_1.0-1_amd64.deb
expect_line "error    scan-unreadable           $work/fake.rpm  [unknown]  package file unreadable: named .rpm but not a package file: it is an HTML or XML page (a web server's error page?)"
grep -qx "distsec: fake.rpm: named .rpm but not a package file: it is an HTML or XML page (a web server's error page?)" \
	"$work/err" || fail "the fake .rpm not named on stderr"
run_distsec scan --color never empty.deb ./fixa_1.0-1_amd64.deb
expect_line "error    scan-unreadable           $work/empty.deb  [unknown]  package file unreadable: named .deb but not a package file: it is empty (a failed download?)"
cd - >/dev/null

# 3. argument forms
cd "$work"
run_distsec scan --color never ./fixa_1.0-1_amd64.deb
expect_rc 1
expect_line "$fixa_line"
run_distsec scan --color never fixa_1.0-1_amd64.deb
expect_line "$fixa_line"
run_distsec scan --color never --package-file "$fixa"
expect_line "$fixa_line"
run_distsec scan --color never --package-file "$work/pkg-fixa/usr/bin/fixa-tool"
expect_rc 2
grep -q "not a package file any backend reads" "$work/err" || fail "--package-file took a plain ELF"
# under --root, a PATH is the root's: the host's file of that name is never touched
mkdir -p "$root$work"
cp "$FIXTURES/pie-partial" "$root$fixa"
strace -f -e trace=open,openat,stat,newfstatat,statx,access -o "$work/trace" \
	"$DISTSEC" scan --root "$root" --backend none --color never -v "$fixa" >"$work/out" 2>&1 || true
expect_line "$fixa  [unknown]"
grep -F "AT_FDCWD, \"$fixa\"" "$work/trace" && fail "the host's $fixa was touched for a PATH under --root"
grep -q "fixa-tool" "$work/out" && fail "the root's file was read as the host's package"
# ... and ./X is the host's package file even then
run_distsec scan --root "$root" --color never ./fixa_1.0-1_amd64.deb
expect_line "$fixa_line"

# a .changes: its binary packages, sizes and sha256 checked
entry() { printf ' %s %s %s\n' "$(sha256sum "$1" | cut -d' ' -f1)" "$(stat -c %s "$1")" "$(basename "$1")"; }
{
	printf 'Format: 1.8\nSource: fix\nBinary: fixa fixb\nVersion: 1.0-1\nChecksums-Sha256:\n'
	entry "$fixa"
	entry "$fixb"
	printf ' 0000000000000000000000000000000000000000000000000000000000000000 10 fix_1.0-1.dsc\n'
	printf 'Files:\n 00 1 misc optional fixa_1.0-1_amd64.deb\n'
} >"$work/fix_1.0-1_amd64.changes"
run_distsec scan --color never -v ../"$(basename "$work")"/fix_1.0-1_amd64.changes
expect_rc 1
expect_line "$fixa_line"
expect_line "pass     elf-relro                 /usr/bin/fixb-tool  [fixb:amd64]"
sed "s/^ [0-9a-f]* \([0-9]*\) fixb/ $(printf '%064d' 1) \1 fixb/" "$work/fix_1.0-1_amd64.changes" >"$work/bad.changes"
run_distsec scan --color never ./bad.changes
expect_rc 1
expect_line "error    scan-unreadable           $work/fixb_1.0-1_amd64.deb  [unknown]  package file unreadable: sha256 $(sha256sum "$fixb" | cut -d' ' -f1), ./bad.changes lists $(printf '%064d' 1)"
grep -q fixb-tool "$work/out" && fail "a package file that does not match its .changes was scanned"
printf 'Format: 1.8\n' >"$work/empty.changes"
run_distsec scan ./empty.changes
expect_rc 2
grep -q "empty.changes: no Checksums-Sha256 field" "$work/err" || fail "no error for a .changes without checksums"

# 4. setcap from the package: a pax SCHILY.xattr.security.capability in a
#    .deb's data.tar, %caps in an rpm; the same non-PIE program without
#    capabilities is an info
python3 - "$FIXTURES/nopie-norelro" "$work/caps.deb" <<'PY'
import io, sys, tarfile
prog = open(sys.argv[1], 'rb').read()
def tar(members, fmt):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w', format=fmt) as t:
        for name, data, mode, pax in members:
            ti = tarfile.TarInfo(name)
            ti.size, ti.mode, ti.pax_headers = len(data), mode, pax
            t.addfile(ti, io.BytesIO(data))
    return buf.getvalue()
cap = {'SCHILY.xattr.security.capability': '\x01\x00\x00\x02\x00\x20\x00\x00'}
control = b'Package: fixcap\nVersion: 1.0\nArchitecture: amd64\nMaintainer: F <f@example.org>\nDescription: f\n'
members = [('debian-binary', b'2.0\n'),
           ('control.tar', tar([('./control', control, 0o644, {})], tarfile.GNU_FORMAT)),
           ('data.tar', tar([('./usr/bin/capped', prog, 0o755, cap),
                             ('./usr/bin/plain', prog, 0o755, {})], tarfile.PAX_FORMAT))]
with open(sys.argv[2], 'wb') as f:
    f.write(b'!<arch>\n')
    for name, data in members:
        f.write(('%-16s%-12d%-6d%-6d%-8s%-10d`\n' % (name, 0, 0, 0, '100644', len(data))).encode())
        f.write(data + (b'\n' if len(data) % 2 else b''))
PY
run_distsec scan --color never --check elf-pie "$work/caps.deb"
expect_rc 1
expect_line "error    elf-pie                   /usr/bin/capped  [fixcap:amd64]  not built as a position-independent executable (PIE): ASLR cannot move its code"
expect_line "info     elf-pie                   /usr/bin/plain  [fixcap:amd64]"
if command -v rpmbuild >/dev/null; then
	top="$work/rpmbuild"
	mkdir -p "$top/SOURCES" "$top/SPECS"
	cp "$FIXTURES/nopie-norelro" "$top/SOURCES/tool"
	cat >"$top/SPECS/caps.spec" <<'SPEC'
Name: fixcaps
Version: 1.0
Release: 1
Summary: distsec test fixture
License: GPL-2.0-or-later
Source0: tool
%description
distsec test fixture
%install
mkdir -p %{buildroot}/usr/bin
install -m 755 %{SOURCE0} %{buildroot}/usr/bin/capped
install -m 755 %{SOURCE0} %{buildroot}/usr/bin/plain
%files
%caps(cap_net_raw=ep) /usr/bin/capped
/usr/bin/plain
SPEC
	rpmbuild --define "_topdir $top" --define "__os_install_post %{nil}" \
		--define "debug_package %{nil}" -bb "$top/SPECS/caps.spec" >"$work/rpmbuild.log" 2>&1 ||
		{ cat "$work/rpmbuild.log"; fail "rpmbuild failed"; }
	run_distsec scan --color never --check elf-pie "$top"/RPMS/*/fixcaps-1.0-1.*.rpm
	expect_rc 1
	grep -q "^error    elf-pie                   /usr/bin/capped  \[fixcaps-1\.0-1\." "$work/out" || { cat "$work/out"; fail "rpm %caps: not setcap"; }
	grep -q "^info     elf-pie                   /usr/bin/plain  \[fixcaps-1\.0-1\." "$work/out" || fail "rpm: plain is not info"
else
	echo "SKIP (part): rpmbuild not installed, rpm %caps not tested"
fi

# 5. maintainer scripts and scriptlets, under the package, named as their
#    users name them; only the script checks read them
d="$work/pkg-scripts"
mkdir -p "$d/DEBIAN"
printf 'Package: fixscr\nVersion: 1.0-1\nArchitecture: amd64\nMaintainer: F <f@example.org>\nDescription: f\n' >"$d/DEBIAN/control"
printf '#!/bin/sh\nset -e\nif [ "$1" = configure ]; then\n\techo done >/tmp/fixscr-state\nfi\n' >"$d/DEBIAN/postinst"
printf '#!/bin/sh\nif [ "$1" = remove ]; then\n\techo removing\n' >"$d/DEBIAN/prerm"
printf '#!/bin/sh\nset -e\nexit 0\n' >"$d/DEBIAN/postrm"
chmod 755 "$d/DEBIAN/postinst" "$d/DEBIAN/prerm" "$d/DEBIAN/postrm"
dpkg-deb --root-owner-group -Znone -b "$d" "$work/fixscr.deb" >/dev/null
run_distsec scan --color never -v "$work/fixscr.deb"
expect_rc 1
# the findings, without the syntax error's message (the host shell's words)
sed -n '/^$/q;p' "$work/out" >"$work/lines"
cat >"$work/want" <<EOF
pass     script-sh-syntax          DEBIAN/postinst  [fixscr:amd64]  sh -n: no syntax error
warning  script-sh-tmp             DEBIAN/postinst  [fixscr:amd64]  writes to a fixed name under /tmp without mktemp (line 4: echo done >/tmp/fixscr-state)
pass     script-sh-syntax          DEBIAN/postrm  [fixscr:amd64]  sh -n: no syntax error
error    script-sh-syntax          DEBIAN/prerm  [fixscr:amd64]  sh -n: SYNTAX ERROR
EOF
sed 's/  sh -n: .*Syntax error: end of file unexpected (expecting "fi")$/  sh -n: SYNTAX ERROR/' "$work/lines" |
	diff "$work/want" - || fail "maintainer scripts: unexpected findings"
grep -q '^0 files (0 ELF, 3 scripts), 1 packages' "$work/out" || fail "maintainer scripts counted as files"
# a maintainer script over the 8 MiB a member is held in memory: said, not parsed
{ printf '#!/bin/sh\n'; head -c 9000000 /dev/zero | tr '\0' '#'; printf '\n'; } >"$d/DEBIAN/postinst"
dpkg-deb --root-owner-group -Znone -b "$d" "$work/fixscr-big.deb" >/dev/null
run_distsec scan --color never "$work/fixscr-big.deb"
expect_rc 1
expect_line "error    scan-unreadable           DEBIAN/postinst  [fixscr:amd64]  cannot read: control member of 9000011 bytes, over the 8 MiB limit: not scanned"
grep -q "DEBIAN/postinst.*script-sh" "$work/out" && fail "an unread maintainer script was judged"
if command -v rpmbuild >/dev/null; then
	top="$work/rpmbuild"
	mkdir -p "$top/SPECS"
	cat >"$top/SPECS/scripts.spec" <<'SPEC'
Name: fixscr
Version: 1.0
Release: 1
BuildArch: noarch
License: GPL-2.0-or-later
Summary: scriptlets only
%description
scriptlets only
%package py
Summary: a Python scriptlet
%description py
a Python scriptlet
%files
%files py
%post
if [ "$1" = 1 ]; then
	echo installed
%preun
echo removing >/tmp/fixscr-state
%pre -p <lua>
print("if then fi")
%postun -p /sbin/ldconfig
%triggerin -- bash
exit 0
%post py -p /usr/bin/python3
import os
os.chroot("/srv")
SPEC
	rpmbuild --define "_topdir $top" -bb "$top/SPECS/scripts.spec" >"$work/rpmbuild.log" 2>&1 ||
		{ cat "$work/rpmbuild.log"; fail "rpmbuild failed"; }
	run_distsec scan --color never -v "$top"/RPMS/noarch/fixscr-1.0-1.noarch.rpm \
		"$top"/RPMS/noarch/fixscr-py-1.0-1.noarch.rpm
	expect_rc 1
	sed -n '/^$/q;p' "$work/out" >"$work/lines"
	cat >"$work/want" <<EOF
error    script-py-chroot-chdir    %post  [fixscr-py-1.0-1.noarch]  calls os.chroot() (line 2) but never os.chdir() or os.fchdir(): the working directory can stay outside the jail
error    script-sh-syntax          %post  [fixscr-1.0-1.noarch]  sh -n: SYNTAX ERROR
info     scan-unreadable           %pre  [fixscr-1.0-1.noarch]  not checked: runs in the package manager's built-in Lua, which no check reads
pass     script-sh-syntax          %preun  [fixscr-1.0-1.noarch]  sh -n: no syntax error
warning  script-sh-tmp             %preun  [fixscr-1.0-1.noarch]  writes to a fixed name under /tmp without mktemp (line 1: echo removing >/tmp/fixscr-state)
pass     script-sh-syntax          %triggerin -- bash  [fixscr-1.0-1.noarch]  sh -n: no syntax error
EOF
	sed 's/  sh -n: .*Syntax error: end of file unexpected (expecting "fi")$/  sh -n: SYNTAX ERROR/' "$work/lines" |
		diff "$work/want" - || fail "rpm scriptlets: unexpected findings"
	# the scripts' names are valid paths of the JSON report
	if python3 -c 'import jsonschema' 2>/dev/null; then
		run_distsec scan --format json -v "$work/fixscr.deb" "$top"/RPMS/noarch/fixscr-1.0-1.noarch.rpm
		python3 "$SRCDIR/e2e/validate.py" json "$work/out" >/dev/null ||
			fail "the JSON with maintainer scripts does not match the schema"
	fi
else
	echo "SKIP (part): rpmbuild not installed, rpm scriptlets not tested"
fi

# 6. provenance: the JSON lists each package file read and each finding
#    names its input
run_distsec scan --format json ./fix_1.0-1_amd64.changes
python3 - "$work/out" "$(sha256sum "$fixa" | cut -d' ' -f1)" "$(stat -c %s "$fixa")" <<'PY' || fail "JSON inputs"
import json, sys
doc = json.load(open(sys.argv[1]))
got = [(i["path"], i["size"], i["sha256"], i["format"], i["package"]["name"],
        i["package"]["version"], i["package"]["arch"], i["via"]) for i in doc["inputs"]]
want = [("./fixa_1.0-1_amd64.deb", int(sys.argv[3]), sys.argv[2], "dpkg", "fixa", "1.0-1", "amd64",
         "./fix_1.0-1_amd64.changes")]
assert got[0] == want[0] and len(got) == 2 and got[1][4] == "fixb", got
ins = {f["path"]: f.get("input") for f in doc["findings"]}
assert ins["/usr/bin/fixa-tool"] == "./fixa_1.0-1_amd64.deb", ins
PY
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 "$SRCDIR/e2e/validate.py" json "$work/out" ||
		fail "the JSON with inputs does not match the schema"
fi
# 7. the daemon class from the package set: a service or init script in
#    one package file makes a daemon of a program another one of the same
#    run ships (not of the same program scanned without it)
d="$work/pkg-fixd"
mkdir -p "$d/DEBIAN" "$d/usr/sbin" "$d/usr/bin"
printf 'Package: fixd\nVersion: 1.0-1\nArchitecture: amd64\nMaintainer: F <f@example.org>\nDescription: f\n' >"$d/DEBIAN/control"
cp "$FIXTURES/nopie-partial" "$d/usr/sbin/fixd"
cp "$FIXTURES/nopie-partial" "$d/usr/bin/fixd-init"
cp "$FIXTURES/nopie-partial" "$d/usr/bin/fixd-once"
(cd "$d" && md5sum usr/sbin/* usr/bin/* >DEBIAN/md5sums)
dpkg-deb --root-owner-group -Znone -b "$d" "$work/fixd.deb" >/dev/null
d="$work/pkg-fixd-systemd"
mkdir -p "$d/DEBIAN" "$d/lib/systemd/system" "$d/etc/init.d"
printf 'Package: fixd-systemd\nVersion: 1.0-1\nArchitecture: all\nMaintainer: F <f@example.org>\nDescription: f\n' >"$d/DEBIAN/control"
# /sbin/fixd in the unit, /usr/sbin/fixd in the package: one program
printf '[Service]\nExecStart=/sbin/fixd --foreground\n' >"$d/lib/systemd/system/fixd.service"
printf '[Service]\nType=oneshot\nExecStart=/usr/bin/fixd-once\n' >"$d/lib/systemd/system/fixd-once.service"
printf '#!/bin/sh\nDAEMON=/usr/bin/fixd-init\nstart-stop-daemon --start --exec $DAEMON\n' >"$d/etc/init.d/fixd"
chmod 755 "$d/etc/init.d/fixd"
# as debhelper writes them: md5sums of all but the conffiles, which
# conffiles lists; with them, only the payload up to the last unit is read
(cd "$d" && md5sum lib/systemd/system/* >DEBIAN/md5sums)
printf '/etc/init.d/fixd\n' >"$d/DEBIAN/conffiles"
dpkg-deb --root-owner-group -Znone -b "$d" "$work/fixd-systemd.deb" >/dev/null
run_distsec scan --color never --check elf-pie,elf-relro "$work/fixd.deb" "$work/fixd-systemd.deb"
expect_rc 1
sed -n '/^$/q;p' "$work/out" >"$work/lines"
cat >"$work/want" <<EOF
error    elf-pie                   /usr/bin/fixd-init  [fixd:amd64]  not built as a position-independent executable (PIE): ASLR cannot move its code
warning  elf-relro                 /usr/bin/fixd-init  [fixd:amd64]  partial RELRO only: a daemon program should be linked with -z now
info     elf-pie                   /usr/bin/fixd-once  [fixd:amd64]  not built as a position-independent executable (PIE): ASLR cannot move its code
error    elf-pie                   /usr/sbin/fixd  [fixd:amd64]  not built as a position-independent executable (PIE): ASLR cannot move its code
warning  elf-relro                 /usr/sbin/fixd  [fixd:amd64]  partial RELRO only: a daemon program should be linked with -z now
EOF
diff "$work/want" "$work/lines" || fail "daemons of the package set"
run_distsec scan --color never --check elf-pie,elf-relro "$work/fixd.deb"
expect_rc 0
sed -n '/^$/q;p' "$work/out" >"$work/lines"
cat >"$work/want" <<EOF
info     elf-pie                   /usr/bin/fixd-init  [fixd:amd64]  not built as a position-independent executable (PIE): ASLR cannot move its code
info     elf-pie                   /usr/bin/fixd-once  [fixd:amd64]  not built as a position-independent executable (PIE): ASLR cannot move its code
info     elf-pie                   /usr/sbin/fixd  [fixd:amd64]  not built as a position-independent executable (PIE): ASLR cannot move its code
EOF
diff "$work/want" "$work/lines" || fail "a daemon without its unit's package"
# a drop-in a third package ships applies as systemd would apply it: Type=oneshot
d="$work/pkg-fixd-oneshot"
mkdir -p "$d/DEBIAN" "$d/etc/systemd/system/fixd.service.d"
printf 'Package: fixd-oneshot\nVersion: 1.0-1\nArchitecture: all\nMaintainer: F <f@example.org>\nDescription: f\n' >"$d/DEBIAN/control"
printf '[Service]\nType=oneshot\n' >"$d/etc/systemd/system/fixd.service.d/oneshot.conf"
dpkg-deb --root-owner-group -Znone -b "$d" "$work/fixd-oneshot.deb" >/dev/null
run_distsec scan --color never --check elf-pie "$work/fixd.deb" "$work/fixd-systemd.deb" "$work/fixd-oneshot.deb"
expect_rc 1
expect_line "info     elf-pie                   /usr/sbin/fixd  [fixd:amd64]  not built"
expect_line "error    elf-pie                   /usr/bin/fixd-init  [fixd:amd64]  not built"
if command -v rpmbuild >/dev/null; then
	mkdir -p "$top/SOURCES"
	cp "$FIXTURES/nopie-partial" "$top/SOURCES/fixrd"
	cat >"$top/SPECS/fixrd.spec" <<'SPEC'
Name: fixrd
Version: 1.0
Release: 1
Summary: a daemon and its unit in two subpackages
License: GPL-2.0-or-later
Source0: fixrd
%description
a daemon and its unit in two subpackages
%package systemd
Summary: the unit
BuildArch: noarch
%description systemd
the unit
%install
mkdir -p %{buildroot}/usr/sbin %{buildroot}/usr/lib/systemd/system
install -m 755 %{SOURCE0} %{buildroot}/usr/sbin/fixrd
printf '[Service]\nType=notify\nExecStart=/usr/sbin/fixrd\n' >%{buildroot}/usr/lib/systemd/system/fixrd.service
%files
/usr/sbin/fixrd
%files systemd
/usr/lib/systemd/system/fixrd.service
SPEC
	rpmbuild --define "_topdir $top" --define "__os_install_post %{nil}" \
		--define "debug_package %{nil}" -bb "$top/SPECS/fixrd.spec" >"$work/rpmbuild.log" 2>&1 ||
		{ cat "$work/rpmbuild.log"; fail "rpmbuild failed"; }
	rpm_arch=$(ls "$top"/RPMS/*/fixrd-1.0-1.*.rpm | sed 's/.*fixrd-1.0-1\.\(.*\)\.rpm/\1/')
	run_distsec scan --color never --check elf-pie,elf-relro "$top/RPMS/$rpm_arch/fixrd-1.0-1.$rpm_arch.rpm" \
		"$top/RPMS/noarch/fixrd-systemd-1.0-1.noarch.rpm"
	expect_rc 1
	sed -n '/^$/q;p' "$work/out" >"$work/lines"
	cat >"$work/want" <<EOF
error    elf-pie                   /usr/sbin/fixrd  [fixrd-1.0-1.$rpm_arch]  not built as a position-independent executable (PIE): ASLR cannot move its code
warning  elf-relro                 /usr/sbin/fixrd  [fixrd-1.0-1.$rpm_arch]  partial RELRO only: a daemon program should be linked with -z now
EOF
	diff "$work/want" "$work/lines" || fail "rpm: daemons of the package set"
	run_distsec scan --color never --check elf-pie,elf-relro "$top/RPMS/$rpm_arch/fixrd-1.0-1.$rpm_arch.rpm"
	expect_rc 0
	grep -q "^info     elf-pie                   /usr/sbin/fixrd  " "$work/out" || fail "rpm: a daemon without its unit"
fi

echo "pkgfiles: ok"
