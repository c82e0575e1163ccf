#!/bin/sh
# Scripts busybox runs are parsed by the scanning machine's "busybox sh -n":
# "#!/bin/busybox sh" anywhere, and "#!/bin/sh" or "#!/bin/ash" in
# a root whose sh and ash are links to its busybox (Alpine, initramfs
# images).  A package file's "#!/bin/sh" is the installing system's sh:
# parsed by this machine's sh.  The busybox-less case, naming the
# scripts left unchecked, is a unit test (test_script_checks.c, which
# points the check at a directory without busybox).
. "$(dirname "$0")/lib.sh"
bb=
for d in /usr/bin /bin /usr/sbin /sbin; do
	[ -x "$d/busybox" ] && { bb=$d/busybox; break; }
done
[ -n "$bb" ] || { echo "*skipped*: busybox is not installed here (Debian package busybox)"; exit 77; }
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not installed"; exit 77; }
"$DISTSEC" backends | grep -q '^  dpkg ' || { echo "SKIP: built without the dpkg backend"; exit 77; }

# an Alpine-like root: sh a relative link, ash an absolute one
mkdir -p "$root/bin" "$root/usr/bin"
cp "$bb" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
ln -s /bin/busybox "$root/bin/ash"
printf '#!/bin/busybox sh\necho start\nif then\n' >"$work/bad"
printf '#!/bin/sh\nfunction f { echo; }\nf\n' >"$work/ash-only"
cp "$work/bad" "$root/usr/bin/bad"
cp "$work/ash-only" "$root/usr/bin/ash-only"
printf '#!/bin/ash\necho ok\n' >"$root/usr/bin/ash-ok"
chmod 0755 "$root/usr/bin/bad" "$root/usr/bin/ash-only" "$root/usr/bin/ash-ok"
run_distsec scan --root "$root" --backend none --color never -v --fail-on warning --check script-sh-syntax /usr/bin
expect_rc 1
sed -n '/^$/q;p' "$work/out" | sed 's/  */ /g' >"$work/got"
cat >"$work/want" <<'WANT'
pass script-sh-syntax /usr/bin/ash-ok [unknown] busybox sh -n: no syntax error
pass script-sh-syntax /usr/bin/ash-only [unknown] busybox sh -n: no syntax error
warning script-sh-syntax /usr/bin/bad [unknown] busybox sh -n: sh: syntax error: unexpected "then"
WANT
diff "$work/want" "$work/got" || fail "a root whose sh is busybox"
echo "ok: a root whose sh and ash are busybox"

# a package file: its "#!/bin/busybox sh" postinst and member go to
# busybox, its "#!/bin/sh" member to this machine's sh, which rejects
# what only busybox's ash parses
p=$work/pkg
mkdir -p "$p/DEBIAN" "$p/usr/bin"
cp "$work/bad" "$p/DEBIAN/postinst"
cp "$work/bad" "$p/usr/bin/bad"
cp "$work/ash-only" "$p/usr/bin/ash-only"
chmod 0755 "$p/DEBIAN/postinst" "$p/usr/bin/bad" "$p/usr/bin/ash-only"
printf 'Package: fixbb\nVersion: 1.0-1\nArchitecture: all\nMaintainer: Fix Er <fix@example.org>\nDescription: fixture\n' \
	>"$p/DEBIAN/control"
dpkg-deb --root-owner-group -b "$p" "$work/fixbb.deb" >/dev/null
run_distsec scan --color never -q --fail-on warning --format json --check script-sh-syntax "$work/fixbb.deb"
expect_rc 1
python3 - "$work/out" >"$work/got" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))['findings']:
    print(f['path'], f['severity'], f['details']['interpreter'].rsplit('/', 1)[-1],
          f['message'].split(':')[0])
PY
cat >"$work/want" <<'WANT'
/usr/bin/ash-only warning sh sh -n
/usr/bin/bad warning busybox busybox sh -n
DEBIAN/postinst error busybox busybox sh -n
WANT
diff "$work/want" "$work/got" || fail "busybox scripts in a package file"
echo "ok: a package file's busybox scripts"
echo "busybox: ok"
