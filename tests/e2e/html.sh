#!/bin/sh
# --format html: one self-contained page per report, and with --group-by
# --report-dir a site (index.html, a page per package or maintainer, a page
# per check, linked both ways).  Every page is parsed strictly by
# htmlcheck.py (well-formed XML, no element or attribute beyond the
# report's own, so no script, img or on* handler; every link inside the
# report and leading to a page or anchor that exists), validated by tidy
# when it is installed, and its text asserted
# line by line, with hostile file names, package versions and maintainers
# made here; `distsec merge` of JSON shards gives the same pages; the trend
# chart of --history and --baseline.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }

tidy=
if command -v tidy >/dev/null; then
	tidy=tidy
else
	echo "skipped: tidy not installed: the pages are not validated as HTML5"
fi
# page FILE...: the checker's reading of the pages into $work/out; each
# page is valid HTML5 to tidy too (no error, no warning)
page() {
	python3 "$SRCDIR/e2e/htmlcheck.py" "$@" >"$work/out" 2>"$work/err" ||
		{ cat "$work/err" >&2; fail "$* does not pass htmlcheck.py"; }
	for f in "$@"; do
		[ -z "$tidy" ] || tidy -q -e -utf8 "$f" 2>"$work/tidy" ||
			{ cat "$work/tidy" >&2; fail "$f: tidy warns or errs"; }
	done
}
# has LINE...: each, exactly, a line of the last page() reading
has() {
	for l in "$@"; do
		grep -qxF -- "$l" "$work/out" || { cat "$work/out" >&2; fail "missing line: $l"; }
	done
}
# raw FILE...: no markup a hostile string could have become, in the bytes
raw() {
	! grep -l '<script\|<img\|<iframe\| on[a-z]*=["'"'"']' "$@" ||
		fail "a hostile string became markup in the file(s) above"
}

# 1. a tree: a waiver (its reason hostile too), a file name that closes an
# attribute and opens a script, one with a byte that is not UTF-8
place nopie-norelro usr/bin/old-style
place execstack usr/bin/trampoline
place pie-full usr/bin/good
place nopie-norelro "usr/bin/bad$(printf '\377')name"
place nopie-norelro "usr/bin/\"><script>alert(1)<"
printf 'elf-pie /usr/bin/old-style # legacy <b>build</b>\n' >"$work/waivers"
for j in 1 2; do
	run_distsec scan --root "$root" --backend none --format html --waivers "$work/waivers" -j$j \
		-o "$work/tree$j.html"
	expect_rc 1
done
cmp "$work/tree1.html" "$work/tree2.html" || fail "the page differs between -j1 and -j2"
raw "$work/tree1.html"
page "$work/tree1.html"
has "h1: distsec report" \
	"tr: files | 5" "tr: ELF files | 5" "tr: errors | 4" "tr: warnings | 0" "tr: info | 7" \
	"tr: waived | 1" "tr: not judged: unreadable files | 0" "tr: not judged: checks skipped | 2" \
	"h2: Findings per check and severity" \
	"bar: elf-relro, errors: 3" "bar: elf-execstack, errors: 1" "bar: elf-fortify, info: 5" \
	"bar: elf-pie, info: 2" "bar: elf-pie, waived: 1" \
	"h2: Findings by package" "h3: files of unknown owner" \
	"tr: severity | check | path | message" \
	'tr: error | elf-relro | /usr/bin/"><script>alert(1)< | no RELRO: relocated data such as the GOT stays writable' \
	'tr: error | elf-relro | /usr/bin/bad\xffname | no RELRO: relocated data such as the GOT stays writable' \
	'tr: info | elf-pie | /usr/bin/old-style | not built as a position-independent executable (PIE): ASLR cannot move its code waived: legacy <b>build</b>' \
	"tr: error | elf-execstack | /usr/bin/trampoline | requests an executable stack (PT_GNU_STACK has PF_X)" \
	"h2: Checks" \
	"summary: elf-relro 3 findings: executable or library without (full) RELRO (severity by program class)" \
	"summary: selinux-dev-label 0 findings: device node in dev/ whose SELinux type differs from the policy skipped: the root has no SELinux policy (etc/selinux/config and its file_contexts)"
[ "$(grep -c '^tr: \(error\|warning\|info\) | [a-z-]* | ' "$work/out")" = 12 ] || { cat "$work/out"; fail "not 12 findings"; }
# each check's documentation in the <details> the findings link to
grep -qF '<details id="check-elf-relro"><summary>' "$work/tree1.html" &&
	grep -qF 'How to fix: Link with -Wl,-z,relro,-z,now' "$work/tree1.html" ||
	fail "elf-relro's documentation is not on the page"
# a clean tree: no chart, no table
mkdir -p "$work/clean/usr/bin"
cp "$FIXTURES/pie-full" "$work/clean/usr/bin/fine"
run_distsec scan --root "$work/clean" --backend none --format html --check elf-pie,elf-relro
expect_rc 0
cp "$work/out" "$work/clean.html"
page "$work/clean.html"
has "tr: errors | 0" "p: No findings." "summary: elf-pie 0 findings: executable not built as PIE (severity by program class)"
grep -q '<svg' "$work/clean.html" && fail "a chart of no findings"

# 2. package files: a Maintainer with a script element and quotes, a
# Version with an event attribute, a member named like an img element
if ! command -v dpkg-deb >/dev/null; then
	echo "skipped: dpkg-deb not installed: no package site built"
	exit 0
fi
mkdir "$work/debs"
# mkdeb NAME VERSION FIXTURE PATH MAINTAINER
mkdeb() {
	d="$work/pkg"
	rm -rf "$d"
	mkdir -p "$d/DEBIAN" "$d/$(dirname "$4")"
	printf 'Package: %s\nVersion: %s\nArchitecture: amd64\nMaintainer: %s\nDescription: fixture\n' \
		"$1" "$2" "$5" >"$d/DEBIAN/control"
	cp "$FIXTURES/$3" "$d/$4"
	chmod 755 "$d/$4"
	# --nocheck: dpkg-deb would refuse the hostile version
	dpkg-deb --nocheck --root-owner-group -Znone -b "$d" "$work/debs/$1.deb" >/dev/null 2>&1 ||
		fail "dpkg-deb $1"
}
mkdeb evil '1.0"><img src=x onerror=alert(1)>' nopie-norelro 'usr/bin/<img src=x onerror=alert(1)>' \
	"<script>alert('x')</script> \"Q\" <q@example.org>"
mkdeb fine 2.0-1 pie-full usr/bin/fine 'Fine Maintainer <f@example.org>'
mkdeb stack 1.0-1 execstack usr/bin/stack 'Fine Maintainer <f@example.org>'
debs="$work/debs/evil.deb $work/debs/fine.deb $work/debs/stack.deb"
site="$work/site"
run_distsec scan --profile debian --format html --group-by package --report-dir "$site" \
	-o "$work/r.html" $debs
expect_rc 1
evil='evil_1.0___img_src_x_onerror_alert_1___amd64.html'
(cd "$site" && ls) >"$work/files"
printf '%s\n' checks "$evil" fine_2.0-1_amd64.html index.html index.json stack_1.0-1_amd64.html |
	diff - "$work/files" || fail "the site's files"
ls "$site/checks" | grep -qx elf-relro.html || fail "no page for elf-relro"
# index.json names the pages written
python3 -c 'import json,sys; print("\n".join(e["file"] for e in json.load(open(sys.argv[1]))))' \
	"$site/index.json" >"$work/named"
printf '%s\n' "$evil" fine_2.0-1_amd64.html stack_1.0-1_amd64.html | diff - "$work/named" ||
	fail "index.json names other pages"
raw "$site"/*.html "$site"/checks/*.html "$work/r.html"
(cd "$site" && page index.html ./*.html checks/*.html)

page "$site/index.html"
has "tr: files | 3" "tr: packages | 3" "tr: errors | 2" "tr: info | 4" \
	"bar: elf-relro, errors: 1" "bar: elf-execstack, errors: 1" "bar: elf-fortify, info: 3" \
	"h2: Packages, the worst first" \
	"tr: package | maintainer | errors | warnings | info | waived" \
	"tr: evil 1.0\"><img src=x onerror=alert(1)> amd64 | <script>alert('x')</script> \"Q\" <q@example.org> | 1 | 0 | 2 | 0" \
	"tr: stack 1.0-1 amd64 | Fine Maintainer <f@example.org> | 1 | 0 | 1 | 0" \
	"tr: fine 2.0-1 amd64 | Fine Maintainer <f@example.org> | 0 | 0 | 1 | 0" \
	"h2: Checks, the worst first" \
	"tr: elf-relro | 1 | 0 | 0 | 0 | executable or library without (full) RELRO (severity by program class)"
grep -q '<svg xmlns="http://www.w3.org/2000/svg"' "$site/index.html" || fail "no inline SVG on the index"
# the worst first, the clean package included
grep '^tr: [a-z]* [0-9]' "$work/out" | cut -d' ' -f2 | tr '\n' ' ' >"$work/order"
[ "$(cat "$work/order")" = "evil stack fine " ] || fail "package order: $(cat "$work/order")"

page "$site/$evil"
has "h1: evil 1.0\"><img src=x onerror=alert(1)> amd64" \
	"p: package evil; version 1.0\"><img src=x onerror=alert(1)>; architecture amd64; source evil; maintainer <script>alert('x')</script> \"Q\" <q@example.org>" \
	"tr: errors | 1" "tr: info | 2" \
	"tr: error | elf-relro | /usr/bin/<img src=x onerror=alert(1)> | no RELRO: relocated data such as the GOT stays writable"
page "$site/checks/elf-relro.html"
has "h1: elf-relro" "tr: 1 | 0 | 0 | 0" \
	"tr: severity | check | path | package | message" \
	"tr: error | elf-relro | /usr/bin/<img src=x onerror=alert(1)> | evil:amd64 | no RELRO: relocated data such as the GOT stays writable"
[ "$(grep -c '^tr: error |' "$work/out")" = 1 ] || fail "elf-relro's page lists other findings"
# linked both ways: index -> package -> check -> package, each back to the index
grep -qF "<a href=\"$evil\">" "$site/index.html" || fail "index does not link the package"
grep -qF '<a href="checks/elf-relro.html">' "$site/index.html" "$site/$evil" ||
	fail "the package page does not link its check"
grep -qF "<a href=\"../$evil\">evil:amd64</a>" "$site/checks/elf-relro.html" ||
	fail "the check page does not link the package"
grep -qF '<a href="../index.html">index</a>' "$site/checks/elf-relro.html" &&
	grep -qF '<a href="index.html">index</a>' "$site/$evil" || fail "no way back to the index"

# by maintainer: a page per maintainer, named safely
run_distsec scan --profile debian --format html --group-by maintainer --report-dir "$work/msite" $debs
expect_rc 1
(cd "$work/msite" && ls) >"$work/files"
printf '%s\n' Fine_Maintainer__f_example.org_.html _script_alert__x____script___Q___q_example.org_.html \
	checks index.html index.json | diff - "$work/files" || fail "the maintainer site's files"
raw "$work/msite"/*.html
(cd "$work/msite" && page index.html ./*.html checks/*.html)
page "$work/msite/_script_alert__x____script___Q___q_example.org_.html"
has "h1: <script>alert('x')</script> \"Q\" <q@example.org>" \
	"tr: info | elf-pie | /usr/bin/<img src=x onerror=alert(1)> | evil:amd64 | not built as a position-independent executable (PIE): ASLR cannot move its code"

# 3. distsec merge of the shards' JSON reports: the same page and site
for k in 1 2; do
	run_distsec scan --profile debian --shard $k/2 --format json -o "$work/s$k.json" $debs
done
run_distsec merge --format html --group-by package --report-dir "$work/merged" -o "$work/m.html" \
	"$work/s1.json" "$work/s2.json"
expect_rc 1
cmp "$work/r.html" "$work/m.html" || fail "merge --format html differs from the scan's page"
diff -r "$site" "$work/merged" || fail "merge's site differs from the scan's"

# 4. the trend: an earlier report (--history), the --baseline report, now:
# stack fixed, evil still there; in a scan's page and a merged site's index
run_distsec scan --profile debian -v --format json -o "$work/h1.json" "$work/debs/stack.deb"
run_distsec scan --profile debian -v --format json -o "$work/old.json" "$work/debs/evil.deb" \
	"$work/debs/stack.deb"
now="$work/debs/evil.deb $work/debs/fine.deb"
run_distsec scan --profile debian --baseline "$work/old.json" --history "$work/h1.json" \
	--format html -o "$work/t.html" $now
expect_rc 0
page "$work/t.html"
has "h2: Errors and warnings per check over time" \
	"tr: errors/warnings | $work/h1.json | $work/old.json | now" \
	"tr: elf-relro | 0/0 | 1/0 | 1/0" "tr: elf-execstack | 1/0 | 1/0 | 0/0" \
	"bar: elf-execstack, $work/h1.json: 1 errors" "bar: elf-relro, now: 1 errors"
[ "$(grep -c '^tr: elf-[a-z]* | [0-9]*/' "$work/out")" = 2 ] || fail "the trend has other checks"
for k in 1 2; do
	run_distsec scan --profile debian --baseline "$work/old.json" --shard $k/2 --format json \
		-o "$work/t$k.json" $now
done
run_distsec merge --format html --history "$work/h1.json" --group-by package \
	--report-dir "$work/tsite" -o "$work/tm.html" "$work/t1.json" "$work/t2.json"
expect_rc 0
cmp "$work/t.html" "$work/tm.html" || fail "merge's trend page differs from the scan's"
# each shard compared itself with the whole old report: an old finding is
# absent once, not once per shard that lacks it
run_distsec scan --profile debian --baseline "$work/old.json" --format json -o "$work/tj.json" $now
run_distsec merge --format json -o "$work/tmj.json" "$work/t1.json" "$work/t2.json"
python3 - "$work/tj.json" "$work/tmj.json" <<'PY' || fail "merge counts absent findings per shard"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a["summary"]["baseline"] == b["summary"]["baseline"] == \
    {"file": a["summary"]["baseline"]["file"], "new": 1, "unchanged": 3, "absent": 2}, \
    (a["summary"]["baseline"], b["summary"]["baseline"])
assert a["absent"] == b["absent"], (a["absent"], b["absent"])
PY
page "$work/tsite/index.html"
has "tr: errors/warnings | $work/h1.json | $work/old.json | now" "tr: elf-relro | 0/0 | 1/0 | 1/0"
run_distsec scan --history "$work/h1.json" $now
expect_rc 2
grep -qF -- "--history draws a trend chart of --format html only" "$work/err" || fail "--history with text"
run_distsec merge --format html --history "$work/none.json" "$work/t1.json" "$work/t2.json"
expect_rc 2
grep -qF -- "distsec: --history $work/none.json: " "$work/err" || fail "a missing --history report"

# 5. a browser renders the index with its chart, and the hostile package's
# page without a script or img element; the index's screenshot is kept in
# the build's meson-logs (a CI artifact)
if command -v chromium >/dev/null; then
	browse() { # WHAT FILE: chromium's DOM of FILE in $work/dom
		timeout 120 chromium --headless --no-sandbox --disable-gpu --window-size=1000,1300 "$1" "file://$2" \
			>"$work/dom" 2>"$work/chromium" || { tail -5 "$work/chromium" >&2; fail "chromium $1 $2"; }
	}
	browse --dump-dom "$site/index.html"
	grep -q '<svg xmlns="http://www.w3.org/2000/svg" class="chart"' "$work/dom" &&
		[ "$(grep -c '<rect ' "$work/dom")" -ge 6 ] || fail "chromium's DOM of the index has no chart"
	for f in "$site/index.html" "$site/$evil" "$site/checks/elf-relro.html" "$work/tree1.html"; do
		browse --dump-dom "$f"
		grep -q 'alert(' "$work/dom" || fail "chromium's DOM of $f lacks the hostile strings"
		! grep -q '<script\|<img\|<iframe\| on[a-z]*="' "$work/dom" || fail "chromium built markup from a hostile string in $f"
	done
	shot="${BUILDDIR:-$work}/meson-logs/html-index.png"
	mkdir -p "$(dirname "$shot")"
	(cd "$work" && browse --screenshot "$site/index.html" && mv screenshot.png "$shot") ||
		fail "no screenshot of the index"
	[ "$(head -c 8 "$shot" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ] || fail "$shot is not a PNG"
	echo "screenshot of the index: $shot"
else
	echo "skipped: chromium not installed: the pages not rendered by a browser"
fi
echo "html: ok"
