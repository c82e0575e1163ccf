#!/bin/sh
# Hostile input, round three, where distsec meets pipes, signals,
# limits and lists: a parser that stops reading a long script early
# (SIGPIPE), -o under a file size limit, every catchable terminating signal
# while -o's temporary file or the rpm database copy exists, NUL bytes in
# shell scripts, --shard numbers that wrap, and --files-from /dev/zero.
# Every fixture is made here.
. "$(dirname "$0")/lib.sh"
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not installed"; exit 77; }
sigwindow="$SRCDIR/e2e/sigwindow.py"

# findings FILE: "severity check path" of each finding of a JSON report,
# sorted, passes left out
findings() {
	python3 - "$1" <<'PY'
import json, sys
for f in sorted(json.load(open(sys.argv[1]))["findings"], key=lambda f: (f["path"], f["check"])):
    if f["severity"] != "pass":
        print(f["severity"], f["check"], f["path"], f["message"])
PY
}

# expect_findings FILE LINE...: the report's findings are exactly these
# ("severity check path message"; a message ending in '*' is a prefix)
expect_findings() {
	findings "$1" >"$work/got" || fail "$desc: no JSON report"
	shift
	printf '%s\n' "$@" >"$work/want"
	python3 - "$work/want" "$work/got" <<'PY' || fail "$desc: findings"
import sys
want = open(sys.argv[1]).read().splitlines()
got = open(sys.argv[2]).read().splitlines()
ok = len(want) == len(got) and all(
    g.startswith(w[:-1]) if w.endswith("*") else g == w for w, g in zip(want, got))
if not ok:
    print("want:\n  " + "\n  ".join(want) + "\ngot:\n  " + "\n  ".join(got), file=sys.stderr)
    sys.exit(1)
PY
}

# bigsh FILE: a 1 MiB shell script whose second line is a syntax error:
# sh -n stops reading at once, with most of it still unwritten
bigsh() {
	python3 -c 'import sys; open(sys.argv[1], "w").write("#!/bin/sh\nif then fi (\n" + "echo padding padding padding\n" * 36000)' "$1"
	chmod 755 "$1"
}
syntax='2: Syntax error: "then" unexpected'   # dash's words

# debdir NAME: an empty package tree for dpkg-deb, its path printed
debdir() {
	d="$work/deb-$1"
	mkdir -p "$d/DEBIAN"
	printf 'Package: %s\nVersion: 1.0\nArchitecture: amd64\nMaintainer: Fix Er <fix@example.org>\nDescription: fixture\n' \
		"$1" >"$d/DEBIAN/control"
	echo "$d"
}
mkdeb() {
	dpkg-deb --root-owner-group -Zgzip -z1 -b "$1" "$work/$2.deb" >/dev/null
}

# 1. SIGPIPE: scripts over 64 KiB that sh -n rejects on line 2, in a tree,
#    as .deb members and maintainer scripts, as rpm scriptlets, and through
#    distsec diff: the run goes on, each gets the parser's verdict (an
#    error for a maintainer script, a warning for another).  When the
#    scripts went to the parser down a pipe, each write after it was gone
#    could kill the run; they now go in a memory file, and these runs
#    keep that so.
mkdir -p "$root/usr/bin"
for i in 1 2 3 4 5 6 7 8 9 10; do bigsh "$root/usr/bin/big$i"; done
desc="SIGPIPE: tree"
run_distsec scan --root "$root" --backend none --check script-sh-syntax --format json -o "$work/tree.json"
expect_rc 0
set --
for i in 1 10 2 3 4 5 6 7 8 9; do set -- "$@" "warning script-sh-syntax /usr/bin/big$i sh -n: *"; done
expect_findings "$work/tree.json" "$@"
[ "$(findings "$work/tree.json" | grep -cF "$syntax")" = 10 ] || fail "$desc: not the parser's verdict"

d=$(debdir bigsh)
mkdir -p "$d/usr/bin"
for i in 1 2 3 4 5 6; do bigsh "$d/usr/bin/big$i"; done
for s in preinst postinst prerm postrm; do bigsh "$d/DEBIAN/$s"; done
mkdeb "$d" bigsh
desc="SIGPIPE: .deb"
for run in 1 2 3; do
	run_distsec scan --check script-sh-syntax --format json -o "$work/deb.json" "$work/bigsh.deb"
	expect_rc 1
	expect_findings "$work/deb.json" \
		"warning script-sh-syntax /usr/bin/big1 sh -n: *" "warning script-sh-syntax /usr/bin/big2 sh -n: *" \
		"warning script-sh-syntax /usr/bin/big3 sh -n: *" "warning script-sh-syntax /usr/bin/big4 sh -n: *" \
		"warning script-sh-syntax /usr/bin/big5 sh -n: *" "warning script-sh-syntax /usr/bin/big6 sh -n: *" \
		"error script-sh-syntax DEBIAN/postinst sh -n: *" "error script-sh-syntax DEBIAN/postrm sh -n: *" \
		"error script-sh-syntax DEBIAN/preinst sh -n: *" "error script-sh-syntax DEBIAN/prerm sh -n: *"
done
d=$(debdir bigpostinst)
bigsh "$d/DEBIAN/postinst"
mkdeb "$d" bigpostinst
desc="SIGPIPE: postinst alone"
for run in 1 2 3 4 5 6 7 8; do
	run_distsec scan --check script-sh-syntax --format json -o "$work/deb.json" "$work/bigpostinst.deb"
	expect_rc 1
	expect_findings "$work/deb.json" "error script-sh-syntax DEBIAN/postinst sh -n: *"
done
desc="SIGPIPE: distsec diff"
for run in 1 2 3; do
	run_distsec diff --check script-sh-syntax "$work/bigpostinst.deb" "$work/bigsh.deb"
	expect_rc 1   # the new maintainer scripts' errors
	expect_line "distsec diff $work/bigpostinst.deb -> $work/bigsh.deb"
done

if command -v rpmbuild >/dev/null; then
	top="$work/rpmbuild"
	mkdir -p "$top/SPECS"
	{
		printf 'Name: bigpost\nVersion: 1.0\nRelease: 1\nSummary: fixture\nLicense: GPL-2.0-or-later\n'
		printf 'BuildArch: noarch\n%%description\nfixture\n%%files\n'
		for s in pre post preun postun; do
			printf '%%%s\nif then fi (\n' $s
			python3 -c 'print("echo padding padding padding\n" * 36000)'
		done
	} >"$top/SPECS/bigpost.spec"
	rpmbuild --define "_topdir $top" --define "__os_install_post %{nil}" \
		--define "debug_package %{nil}" -bb "$top/SPECS/bigpost.spec" >"$work/rpmbuild.log" 2>&1 ||
		{ cat "$work/rpmbuild.log"; fail "rpmbuild failed"; }
	desc="SIGPIPE: rpm scriptlets"
	for run in 1 2 3; do
		run_distsec scan --check script-sh-syntax --format json -o "$work/rpm.json" "$top"/RPMS/noarch/bigpost-1.0-1.noarch.rpm
		expect_rc 1
		expect_findings "$work/rpm.json" \
			"error script-sh-syntax %post sh -n: *" "error script-sh-syntax %postun sh -n: *" \
			"error script-sh-syntax %pre sh -n: *" "error script-sh-syntax %preun sh -n: *"
	done
	[ "$(findings "$work/rpm.json" | grep -cF '1: Syntax error: "then" unexpected')" = 4 ] ||
		fail "$desc: not the parser's verdict"
else
	echo "*skipped*: rpm scriptlets (rpmbuild not installed)"
fi
rm -rf "$root/usr/bin"

# 2. -o under a file size limit (dash counts ulimit -f in 512-byte blocks,
#    bash in KiB): the old report stays, the error says why, exit 2, no
#    temporary file left; for scan, merge and diff alike
mkdir -p "$root/usr/sbin"
for i in $(seq 1 30); do place nopie-norelro "usr/sbin/p$i"; done
distsec scan --root "$root" --backend none -v --fail-on never --format json -o "$work/big.json" 2>/dev/null
d=$(debdir good)
mkdir -p "$d/usr/sbin"
for i in $(seq 1 30); do cp "$FIXTURES/pie-full" "$d/usr/sbin/p$i"; done
mkdeb "$d" good
# the next build of the same package: every program lost PIE and RELRO
for i in $(seq 1 30); do cp "$FIXTURES/nopie-norelro" "$d/usr/sbin/p$i"; done
mkdeb "$d" bad
mkdir -p "$work/lim"
for cmd in "scan --root $root --backend none -v --format json" "merge --format json $work/big.json" \
           "diff --format json $work/good.deb $work/bad.deb"; do
	desc="-o under ulimit -f: ${cmd%% *}"
	echo "the old report" >"$work/lim/r.json"
	rc=0
	# shellcheck disable=SC2086
	(ulimit -f 2 && exec "$DISTSEC" $cmd -o "$work/lim/r.json") >"$work/out" 2>"$work/err" || rc=$?
	expect_rc 2
	grep -qxF "distsec: $work/lim/r.json: File too large" "$work/err" || { cat "$work/err"; fail "$desc: no clear error"; }
	[ "$(cat "$work/lim/r.json")" = "the old report" ] || fail "$desc: the old report is gone"
	[ "$(ls "$work/lim")" = r.json ] || fail "$desc: left $(ls "$work/lim")"
done

# 3. each catchable terminating signal while -o's temporary file exists
#    (sigwindow.py stops the run there, sends it, lets it go on): the run
#    dies of that signal, the temporary file is gone, the old report stays
# caught DIR PREFIX SIGNAL CMD...: sigwindow until the signal was sent in
# the window (the window may close before the run is stopped); each
# attempt starts with "the old report" in DIR/r.json
caught() {
	for attempt in 1 2 3 4 5 6 7 8; do
		echo "the old report" >"$1/r.json"
		python3 "$sigwindow" "$@" >"$work/sw" 2>"$work/sw-err" || fail "sigwindow failed"
		read -r how status num <"$work/sw"
		[ "$how" != hang ] || fail "distsec did not end after the signal: $(cat "$work/sw")"
		[ "$how" = hit ] && return 0
	done
	fail "$desc: the signal never came while $2* existed"
}
# (a report of 300 programs with passes, 0.4 MB, so that the window is
# wider than a busy machine's scheduling delays)
mkdir -p "$work/sig" "$work/many/usr/bin"
for i in $(seq 1 300); do cp "$FIXTURES/nopie-norelro" "$work/many/usr/bin/p$i"; done
many="scan --root $work/many --backend none -v --fail-on never --format json --check elf-pie,elf-relro,elf-execstack,elf-fortify"
# shellcheck disable=SC2086
distsec $many -o "$work/many.json"
for sig in HUP INT QUIT TERM USR1 USR2 ALRM XCPU XFSZ VTALRM PROF PIPE; do
	for cmd in "$many" "merge --fail-on never --format json $work/many.json"; do
		desc="SIG$sig during ${cmd%% *} -o"
		# shellcheck disable=SC2086
		caught "$work/sig" r.json. $sig "$DISTSEC" $cmd -q -o "$work/sig/r.json"
		[ "$status $num" = "signal SIG$sig" ] || fail "$desc: ended with $status $num"
		[ "$(cat "$work/sig/r.json")" = "the old report" ] || fail "$desc: the old report is gone"
		[ "$(ls "$work/sig")" = r.json ] || fail "$desc: left $(ls "$work/sig")"
	done
done

#    ... and while the rpm backend's database copy exists
if command -v rpmbuild >/dev/null && command -v rpm >/dev/null &&
   "$DISTSEC" backends | grep -q '^  rpm '; then
	rroot="$work/rpmroot"
	rpm --root "$rroot" --dbpath /var/lib/rpm --initdb
	rpm --root "$rroot" --dbpath /var/lib/rpm -i --justdb --nodeps --noscripts \
		"$top"/RPMS/noarch/bigpost-1.0-1.noarch.rpm 2>/dev/null
	mkdir -p "$work/tmp"
	for sig in QUIT USR1 USR2 ALRM TERM; do
		desc="SIG$sig during the rpm database copy"
		TMPDIR="$work/tmp"
		export TMPDIR
		caught "$work/tmp" distsec-rpmdb- $sig "$DISTSEC" scan --root "$rroot" --backend rpm -q \
			--check script-sh-tmp
		unset TMPDIR
		[ "$status $num" = "signal SIG$sig" ] || fail "$desc: ended with $status $num"
		[ "$(ls "$work/tmp")" = r.json ] || fail "$desc: left $(ls "$work/tmp")"
	done
else
	echo "*skipped*: signals during the rpm database copy (no rpm, rpmbuild or rpm backend)"
fi

# 4. NUL bytes in shell scripts: dash drops them, so '>/tm\0p/x' writes
#    /tmp/x; the NUL is reported and the script checked as the shell reads it
mkdir -p "$root/usr/bin"
printf '#!/bin/sh\necho hi >/tm\000p/x\n' >"$root/usr/bin/nul-tmp"
printf '#!/bin/sh\nif then\000\000 fi\n' >"$root/usr/bin/nul-syntax"
chmod 755 "$root/usr/bin/nul-tmp" "$root/usr/bin/nul-syntax"
desc="NUL in scripts: tree"
run_distsec scan --root "$root" --backend none --check script-sh-nul,script-sh-tmp,script-sh-syntax \
	--format json -o "$work/nul.json" /usr/bin
expect_rc 0
nulmsg="which the shell drops: checked as the shell reads it, without them"
expect_findings "$work/nul.json" \
	"warning script-sh-nul /usr/bin/nul-syntax holds 2 NUL bytes (the first on line 2), $nulmsg" \
	"warning script-sh-syntax /usr/bin/nul-syntax sh -n: *" \
	"warning script-sh-nul /usr/bin/nul-tmp holds 1 NUL byte (the first on line 2), $nulmsg" \
	"warning script-sh-tmp /usr/bin/nul-tmp writes to a fixed name under /tmp without mktemp (line 2: echo hi >/tmp/x)"
d=$(debdir nul)
printf '#!/bin/sh\nset -e\nrm -f /tm\000p/cache; date >/tm\000p/cache\n' >"$d/DEBIAN/postinst"
chmod 755 "$d/DEBIAN/postinst"
mkdeb "$d" nul
desc="NUL in scripts: postinst"
run_distsec scan --check script-sh-nul,script-sh-tmp,script-sh-syntax --format json -o "$work/nul.json" "$work/nul.deb"
expect_rc 0
expect_findings "$work/nul.json" \
	"warning script-sh-nul DEBIAN/postinst holds 2 NUL bytes (the first on line 3), $nulmsg" \
	"warning script-sh-tmp DEBIAN/postinst writes to a fixed name under /tmp without mktemp (line 3: rm -f /tmp/cache; date >/tmp/cache)"
rm -rf "$root/usr/bin"

# 5. --shard numbers past 32 bits (4294967297 wrapped to 1) and a report's
#    shard record of 2^32+1 or 2^62 shares: a clear error, exit 2
for bad in 1/4294967297 4294967297/4294967297 1/1000001 +1/4 1/-4 1/0x4; do
	desc="--shard $bad"
	run_distsec scan --root "$root" --backend none --shard "$bad" /usr
	expect_rc 2
	grep -qF "distsec: --shard takes K/N, 1 <= K <= N <= 1000000 (shard K of N), not '$bad'" "$work/err" ||
		{ cat "$work/err"; fail "$desc: no clear error"; }
done
distsec scan --root "$root" --backend none --shard 1/1 --fail-on never --format json -o "$work/shard.json" /usr
for count in 4294967297 4611686018427387904 '"2"' 0; do
	desc="merge: shard count $count"
	python3 - "$work/shard.json" "$work/hostile-shard.json" "$count" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["shard"]["count"] = json.loads(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
	run_distsec merge "$work/hostile-shard.json"
	expect_rc 2
	case $count in
	0|4294967297) want="shard: index 1 of count $count (1 <= index <= count <= 1000000)" ;;
	*) want="shard.count: not a count (an integer from 0 to 2^53)" ;;
	esac
	grep -qF "$want" "$work/err" || { cat "$work/err"; fail "$desc: no clear error"; }
done

# 6. --files-from: /dev/zero (under a memory limit its growing line once
#    ran out of memory, which was taken for the end of an empty list and
#    the whole root was scanned), a 200 KiB line, a directory; --waivers,
#    --profile and --rules: a directory, a line over the cap
desc="--files-from /dev/zero"
run_distsec scan --root "$root" --backend none --files-from /dev/zero
expect_rc 2
grep -qxF "distsec: --files-from /dev/zero: line 1 holds a NUL byte (a path a line, at most 128 KiB): not a list of paths" \
	"$work/err" || { cat "$work/err"; fail "$desc: no clear error"; }
if (ulimit -v 300000 && "$DISTSEC" --version) >/dev/null 2>&1; then
	rc=0
	(ulimit -v 300000 && exec timeout 60 "$DISTSEC" scan --root "$root" --backend none --files-from /dev/zero) \
		>"$work/out" 2>"$work/err" || rc=$?
	expect_rc 2
	grep -qF "distsec: --files-from /dev/zero: line 1 holds a NUL byte" "$work/err" ||
		{ cat "$work/err"; fail "$desc: no clear error under ulimit -v"; }
	[ ! -s "$work/out" ] || fail "$desc: scanned under ulimit -v"
else
	echo "*skipped*: --files-from /dev/zero under ulimit -v 300000 (this build cannot start under it: a sanitizer?)"
fi
desc="--files-from: a 200 KiB line"
{ echo /usr/sbin/p1; python3 -c 'print("/" + "x" * 204800)'; } >"$work/list"
run_distsec scan --root "$root" --backend none --files-from "$work/list"
expect_rc 2
grep -qxF "distsec: --files-from $work/list: line 2 is longer than the limit (a path a line, at most 128 KiB): not a list of paths" \
	"$work/err" || { cat "$work/err"; fail "$desc: no clear error"; }
desc="--files-from: a directory"
run_distsec scan --root "$root" --backend none --files-from "$work"
expect_rc 2
grep -qxF "distsec: --files-from $work: read error: Is a directory" "$work/err" ||
	{ cat "$work/err"; fail "$desc: no clear error"; }
# the other hand-written lists: a read error (a directory) was an empty
# list -- no waivers, an empty profile, no STIG rules -- and the scan went on
for opt in waivers profile rules; do
	desc="--$opt DIR"
	run_distsec scan --root "$root" --backend none --check file-stig,elf-relro --$opt "$work"
	expect_rc 2
	case $opt in rules) what="file-stig rules" ;; *) what=$opt ;; esac
	grep -qxF "distsec: $what $work: read error: Is a directory" "$work/err" ||
		{ cat "$work/err"; fail "$desc: no clear error"; }
done
desc="--waivers: a 65 KiB line"
{ echo 'elf-relro /usr/sbin/p1 # fine'; python3 -c 'print("elf-relro /" + "x" * 66560)'; } >"$work/list"
run_distsec scan --root "$root" --backend none --check elf-relro --waivers "$work/list"
expect_rc 2
grep -qxF "distsec: waivers $work/list:2: the line is longer than the limit (at most 64 KiB, no NUL byte)" \
	"$work/err" || { cat "$work/err"; fail "$desc: no clear error"; }
desc="--files-from: the last line without its newline"
printf '/usr/sbin/p1\n\n/usr/sbin/p2' >"$work/list"
run_distsec scan --root "$root" --backend none --check elf-relro --format json -o "$work/list.json" --files-from "$work/list"
expect_rc 1
expect_findings "$work/list.json" "error elf-relro /usr/sbin/p1 *" "error elf-relro /usr/sbin/p2 *"
echo "PASS"
