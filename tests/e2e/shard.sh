#!/bin/sh
# An archive scan split over machines: `scan --shard K/N` on each share and
# `distsec merge` of the shards' JSON reports give the report one run gives,
# in every format, apart from timings.  The package files are the .deb
# files of $DISTSEC_DEBS when it holds >= 200 (real packages, see
# bench/README.md), else 202 built here with dpkg-deb: four kinds of
# program, two versions of one package, one path shipped by two packages,
# a daemon whose service unit another package ships (in another share).
# The shards run under GNU parallel when it is installed, else one by one.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }

list="$work/list"
if [ -n "${DISTSEC_DEBS:-}" ] && [ "$(ls "$DISTSEC_DEBS"/*.deb 2>/dev/null | wc -l)" -ge 200 ]; then
	ls "$DISTSEC_DEBS"/*.deb | head -n 300 >"$list"
	echo "real package files: $(wc -l <"$list") from $DISTSEC_DEBS"
else
	command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not installed"; exit 77; }
	# mkdeb NAME VERSION FIXTURE PATH
	mkdeb() {
		d="$work/pkg"
		rm -rf "$d"
		mkdir -p "$d/DEBIAN" "$d/$(dirname "$4")"
		printf 'Package: %s\nVersion: %s\nArchitecture: amd64\nMaintainer: M%s <m@example.org>\nDescription: fixture\n' \
			"$1" "$2" "$(( ${#1} % 3 ))" >"$d/DEBIAN/control"
		cp "$FIXTURES/$3" "$d/$4"
		chmod 755 "$d/$4"
		dpkg-deb --root-owner-group -Znone -b "$d" "$work/debs/$1_$2_amd64.deb" >/dev/null
	}
	mkdir "$work/debs"
	i=0
	while [ $i -lt 196 ]; do
		case $((i % 4)) in
		0) fx=nopie-norelro ;; 1) fx=pie-full ;; 2) fx=netclient-partial ;; *) fx=pie-partial ;;
		esac
		mkdeb "p$i" 1.0-1 $fx "usr/bin/p$i"
		i=$((i + 1))
	done
	mkdeb twover 1.0-1 nopie-norelro usr/bin/twover    # one package, two versions
	mkdeb twover 2.0-1 pie-full usr/bin/twover
	mkdeb sharea 1.0-1 nopie-partial usr/bin/shared    # one path, two packages
	mkdeb shareb 1.0-1 nopie-partial usr/bin/shared
	# a daemon whose unit is in another package, which falls in another share
	mkdeb svcbin 1.0-1 nopie-norelro usr/sbin/svcd
	rm -rf "$work/pkg" && mkdir -p "$work/pkg/DEBIAN" "$work/pkg/lib/systemd/system"
	printf 'Package: svcunit\nVersion: 1.0-1\nArchitecture: amd64\nMaintainer: M <m@example.org>\nDescription: unit\n' \
		>"$work/pkg/DEBIAN/control"
	printf '[Service]\nExecStart=/usr/sbin/svcd\n' >"$work/pkg/lib/systemd/system/svcd.service"
	dpkg-deb --root-owner-group -Znone -b "$work/pkg" "$work/debs/svcunit_1.0-1_amd64.deb" >/dev/null
	ls "$work"/debs/*.deb >"$list"
	[ "$(wc -l <"$list")" = 202 ] || fail "built $(wc -l <"$list") package files, not 202"
fi

# one run, and four shards
distsec scan -q --fail-on never -j2 --format json -o "$work/one.json" --files-from "$list" ||
	fail "the unsharded scan failed"
shard() { "$DISTSEC" scan -q --fail-on never -j1 --shard "$1/4" --format json -o "$work/shard-$1.json" --files-from "$list"; }
if command -v parallel >/dev/null; then
	echo "shards under GNU parallel"
	export DISTSEC list work
	parallel --halt now,fail=1 "$DISTSEC" scan -q --fail-on never -j1 --shard {}/4 --format json \
		-o "$work/shard-{}.json" --files-from "$list" ::: 1 2 3 4 || fail "a shard failed (parallel)"
else
	echo "GNU parallel not installed: shards one by one"
	for k in 1 2 3 4; do shard $k || fail "shard $k failed"; done
fi

# every share holds some, each package file is in exactly one, and a
# share does not move when the list is reordered or moved
python3 - "$work" "$list" <<'PY' || fail "the shares do not partition the package files"
import json, sys
work, lst = sys.argv[1], sys.argv[2]
want = sorted(l.strip() for l in open(lst) if l.strip())
got = []
for k in range(1, 5):
    d = json.load(open('%s/shard-%d.json' % (work, k)))
    assert d['shard'] == {'index': k, 'count': 4}, d['shard']
    names = [i['path'] for i in d['inputs']]
    assert names, 'shard %d is empty' % k
    got += names
assert sorted(got) == want, (len(got), len(want))
PY
sort -r "$list" | distsec scan -q --fail-on never --shard 2/4 --format json -o "$work/again.json" --files-from -
python3 -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); assert [i["path"] for i in a["inputs"]] == [i["path"] for i in b["inputs"]]' \
	"$work/shard-2.json" "$work/again.json" || fail "shard 2/4 moved when the list was reversed"

# the merge equals the one run in every format (timings normalised)
norm() { # FILE: the report without its timings
	sed -e 's/"seconds":[ ]*[0-9.e+-]*/"seconds":0/' -e 's/ time="[0-9.]*"/ time="0"/g' \
	    -e 's/"duration":[ ]*[0-9.e+-]*/"duration":0/' "$1"
}
for fmt in json text sarif junit tmt; do
	for extra in "" "-v" "--group-by package" "--summary"; do
		[ "$extra" = --summary ] && [ "$fmt" != text ] && continue
		# shellcheck disable=SC2086
		distsec scan -q -j2 --format $fmt $extra -o "$work/a.$fmt" --files-from "$list" && ra=0 || ra=$?
		# shellcheck disable=SC2086
		distsec merge -q --format $fmt $extra -o "$work/b.$fmt" "$work"/shard-*.json && rb=0 || rb=$?
		[ "$ra" = "$rb" ] || fail "merge --format $fmt $extra: exit status $rb, one run $ra"
		norm "$work/a.$fmt" >"$work/a.norm"
		norm "$work/b.$fmt" >"$work/b.norm"
		diff -u "$work/a.norm" "$work/b.norm" >"$work/d" ||
			{ head -40 "$work/d" >&2; fail "merge --format $fmt $extra differs from one run"; }
	done
done
echo "merge = one run: json, text, sarif, junit, tmt (plain, -v, --group-by package, --summary)"

# exact findings of the built set: each nopie-norelro program an error
if [ -z "${DISTSEC_DEBS:-}" ]; then
	python3 - "$work/one.json" <<'PY' || fail "unexpected findings in the one run"
import json, sys
d = json.load(open(sys.argv[1]))
relro = sorted((f['path'], f['owner']['name'], f['owner']['version']) for f in d['findings']
               if f['check'] == 'elf-relro' and f['severity'] == 'error')
want = sorted([('/usr/bin/p%d' % i, 'p%d' % i, '1.0-1') for i in range(0, 196, 4)] +
              [('/usr/bin/twover', 'twover', '1.0-1'), ('/usr/sbin/svcd', 'svcbin', '1.0-1')])
assert relro == want, relro
assert len(d['inputs']) == 202
assert d['summary']['packages'] == 202, d['summary']['packages']  # each package file read
pie = [(f['severity'], f['details'].get('class')) for f in d['findings']
       if f['check'] == 'elf-pie' and f['path'] == '/usr/sbin/svcd']
assert pie == [('error', 'daemon')], pie
bp = d['summary']['by_package']
assert 'twover.amd64' not in bp, bp  # two versions: each judged alone
assert bp['twover-1.0-1.amd64']['relro'] == 'no', bp['twover-1.0-1.amd64']
assert bp['twover-2.0-1.amd64']['relro'] == 'yes', bp['twover-2.0-1.amd64']
PY
fi

# a share that holds none of the package files judges by the profile of
# the set, as one run does, also with no check of ELF files (no context
# needed for classes): merge takes it
one_deb=$(head -n 1 "$list")
for checks in "" "--check file-stig"; do
	for k in 1 2; do
		# shellcheck disable=SC2086
		distsec scan -q --fail-on never $checks --shard $k/2 --format json -o "$work/half-$k.json" "$one_deb" ||
			fail "shard $k/2 of one package file failed"
	done
	python3 - "$work/half-1.json" "$work/half-2.json" <<'PY' || fail "an empty share's profile ($checks)"
import json, sys
d = [json.load(open(f)) for f in sys.argv[1:]]
assert sorted(len(x.get('inputs', [])) for x in d) == [0, 1], [x.get('inputs') for x in d]
assert [x['profile'] for x in d] == ['debian', 'debian'], [x['profile'] for x in d]
PY
	distsec merge -q --fail-on never -o /dev/null "$work/half-1.json" "$work/half-2.json" ||
		fail "merge refused an empty share ($checks)"
done

# refused: a missing share, a share twice, a report of another scan mixed in
run_distsec merge "$work/shard-1.json" "$work/shard-2.json" "$work/shard-3.json"
expect_rc 2
grep -q 'shard 4/4 is missing' "$work/err" || fail "a missing shard not named"
run_distsec merge "$work"/shard-*.json "$work/again.json"
expect_rc 2
grep -q 'shard 2/4 is in two reports' "$work/err" || fail "a shard given twice not refused"
run_distsec merge "$work/one.json" "$work/shard-1.json"
expect_rc 2
run_distsec scan --shard 5/4 "$work/one.json"
expect_rc 2
run_distsec scan --shard 1/4
expect_rc 2
echo "PASS"
