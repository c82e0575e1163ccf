# Shared by the tests that run the cluster recipes of docs/USAGE.md on
# their engines (slurm.sh, gnu-parallel.sh): the real package files they
# scan, the recipe text itself, and the report comparison.  Sourced after
# lib.sh.

# recipe_debs: $work/pool holds the 100 package files named in
# recipe-debs.list, fetched once by apt-get download into the build tree's
# deb-cache/ (or $work when there is no build tree); skipped when they
# cannot be downloaded.
recipe_debs() {
	cache="${BUILDDIR:-$work}/deb-cache"
	mkdir -p "$cache" "$work/pool"
	names=$(grep -v '^#' "$SRCDIR/e2e/recipe-debs.list")
	missing=
	for n in $names; do
		ls "$cache/${n}_"*.deb >/dev/null 2>&1 || missing="$missing $n"
	done
	if [ -n "$missing" ]; then
		command -v apt-get >/dev/null || { echo "SKIP: apt-get not installed: cannot fetch the package files"; exit 77; }
		# shellcheck disable=SC2086
		(cd "$cache" && apt-get download $missing) >"$work/download.log" 2>&1 || {
			tail -n 5 "$work/download.log"
			echo "SKIP: apt-get download of$missing failed (no Debian mirror reachable?)"
			exit 77
		}
	fi
	for n in $names; do
		# one version of each, should the cache hold an older one too
		f=$(ls "$cache/${n}_"*.deb | tail -n 1)
		ln "$f" "$work/pool/" 2>/dev/null || cp "$f" "$work/pool/"
	done
	[ "$(ls "$work/pool" | wc -l)" = 100 ] || fail "the pool holds $(ls "$work/pool" | wc -l) package files, not 100"
}

# recipe_bin: a directory whose distsec is the program under test, for
# the recipes' own `distsec` to find first in PATH
recipe_bin() {
	mkdir -p "$work/bin"
	printf '#!/bin/sh\nexec ${DISTSEC_WRAPPER:-} "%s" "$@"\n' "$DISTSEC" >"$work/bin/distsec"
	chmod 755 "$work/bin/distsec"
	PATH="$work/bin:$PATH"
	export PATH
}

# recipe N TEXT: the Nth fenced block after the first line of
# docs/USAGE.md holding TEXT, as the reader copies it
recipe() {
	python3 - "$SRCDIR/../docs/USAGE.md" "$1" "$2" <<'PY'
import sys
lines = open(sys.argv[1]).read().split('\n')
n, text = int(sys.argv[2]), sys.argv[3]
start = next(i for i, l in enumerate(lines) if text in l)
blocks, cur = [], None
for l in lines[start:]:
    if l.startswith('```'):
        if cur is None:
            cur = []
        else:
            blocks.append(cur)
            cur = None
            if len(blocks) == n:
                break
    elif cur is not None:
        cur.append(l)
print('\n'.join(blocks[n - 1]))
PY
}

# same_report ONE MERGED: the two reports are equal once their timings are
# set aside (JSON's seconds, JUnit's and SARIF's times)
same_report() {
	for f in "$1" "$2"; do
		sed -e 's/"seconds":[ ]*[0-9.e+-]*/"seconds":0/' -e 's/ time="[0-9.]*"/ time="0"/g' \
		    -e 's/"duration":[ ]*[0-9.e+-]*/"duration":0/' "$f" >"$f.norm"
	done
	diff -u "$1.norm" "$2.norm" >"$work/report.diff" ||
		{ head -n 40 "$work/report.diff" >&2; fail "$2 differs from one run's $1"; }
}

# same_json_merge SHARD...: a JSON merge of the shards equals one JSON run
# over $work/list, which scanned the 100 package files and found errors
same_json_merge() {
	distsec scan -j2 --fail-on never --files-from "$work/list" --format json -o "$work/one.json" ||
		fail "the one run failed"
	distsec merge --fail-on never --format json -o "$work/merged.json" "$@" || fail "the JSON merge failed"
	same_report "$work/one.json" "$work/merged.json"
	python3 - "$work/one.json" <<'PY' || fail "the one run is not a scan of the 100 package files"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d['inputs']) == 100 and d['summary']['packages'] == 100, (len(d['inputs']), d['summary']['packages'])
assert d['summary']['findings']['error'] > 0, d['summary']['findings']
print('%d findings (%d errors) in %d package files' % (len(d['findings']), d['summary']['findings']['error'], len(d['inputs'])))
PY
}
