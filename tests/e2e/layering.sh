#!/bin/sh
# The rules of docs/DESIGN.md that the source itself must keep, checked on
# the source: no exit() but main.c's (a forked child's _exit is its own
# process's end); stderr written by main.c and the warning sink (util.c)
# only, every other message going through ds_warn/ds_note (isatty of
# STDERR_FILENO is no write); no check id named outside src/checks/; at
# most six .c files at the top of src/; no circle among src/core's files.
set -eu
top=$SRCDIR/..
cd "$top"
bad=0
# rule FILE DESCRIPTION: the lines of FILE.hits are offences
rule() {
	if [ -s "$1.hits" ]; then
		echo "FAIL: $2:" >&2
		cat "$1.hits" >&2
		bad=1
	fi
	rm -f "$1.hits"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
# (backends/ are left out: dpkg's loader child writes its stderr into a
# memfd the parent reads back as the error text)
srcs=$(find src -name '*.c' -o -name '*.h' | LC_ALL=C sort)
# code PATTERN: FILE:LINE:TEXT of the lines matching PATTERN outside comments
code() {
	# shellcheck disable=SC2086
	grep -nE "$1" $srcs | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*|//)' |
		sed -E 's,/\*([^*]|\*+[^*/])*\*+/,,g; s,//.*,,' | grep -E "$1" || :
}
code '(^|[^_[:alnum:]])(exit|quick_exit)[[:space:]]*\(' | grep -v '^src/main\.c:' >"$tmp/exit.hits" || :
rule "$tmp/exit" "exit() outside src/main.c"
code '(^|[^_[:alnum:]])(stderr|perror[[:space:]]*\()' |
	grep -vE '^(src/main\.c|src/util/util\.c):' >"$tmp/stderr.hits" || :
rule "$tmp/stderr" "stderr written outside src/main.c and the warning sink (src/util/util.c)"
# the core, the outputs, the commands and the backends name no check: what
# they read of a check's records its descriptor declares (check.h,
# ds_fact), so a check id in a string outside src/checks/ is a check named
ids=$(sed -n 's/^[[:space:]]*\.id = "\([a-z0-9-]*\)",.*/\1/p' src/checks/*.c | LC_ALL=C sort -u | paste -sd'|')
[ -n "$ids" ] || { echo "FAIL: no check id found in src/checks/" >&2; exit 1; }
srcs=$(find src backends include -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.in' |
	grep -v '^src/checks/' | LC_ALL=C sort)
code "\"([^\"]*[^a-z0-9\"-])?($ids)([^a-z0-9\"-][^\"]*)?\"" >"$tmp/ids.hits"
rule "$tmp/ids" "a check id outside src/checks/"
# src/ by layer: the program's entry and a handful of files at the top,
# the rest in the layer folders
find src -maxdepth 1 -name '*.c' | LC_ALL=C sort >"$tmp/top"
[ "$(wc -l <"$tmp/top")" -le 6 ] || { cat "$tmp/top" >"$tmp/top.hits"; rule "$tmp/top" "more than six .c files at the top of src/"; }
# the core's files call each other in one direction: a file uses what
# another defines (a function or a table, ds_*), never in a circle, so
# each can be read knowing only those below it.  (src/core has no
# headers, so no #include circle either.)  Files defining the same names
# are alternatives (dwarf.c, dwarf_none.c) and not an edge.
python3 - src/core >"$tmp/circle.hits" <<'PY'
import os, re, sys
d = sys.argv[1]
def clean(t):
    t = re.sub(r"/\*.*?\*/", " ", t, flags=re.S)
    t = re.sub(r"//[^\n]*", " ", t)
    t = re.sub(r'"(\\.|[^"\\\n])*"', '""', t)
    return re.sub(r"'(\\.|[^'\\\n])*'", "''", t)
text = {f[:-2]: clean(open(os.path.join(d, f)).read()) for f in sorted(os.listdir(d)) if f.endswith(".c")}
head = r"^(?!static\b|extern\b|typedef\b)[A-Za-z_][^;{}#]*?\b(ds_\w+)\s*"
defs = {}
for n, t in text.items():
    for m in re.finditer(head + r"\([^;{}]*\)\s*\{", t, re.M):
        defs.setdefault(m.group(1), set()).add(n)
    for m in re.finditer(head.replace("#]", "#(]") + r"(\[[^\]]*\])?\s*=", t, re.M):
        defs.setdefault(m.group(1), set()).add(n)
if len(defs) < 50:
    sys.exit("only %d definitions found in %s: the parser is wrong" % (len(defs), d))
edge = {}
for n, t in text.items():
    for w in set(re.findall(r"\bds_\w+\b", t)):
        if n not in defs.get(w, {n}):
            for o in defs[w]:
                edge.setdefault(n, {}).setdefault(o, set()).add(w)
# a circle: a file reaching itself
def reach(a, b, seen):
    for c in edge.get(a, {}):
        if c == b:
            return [a, c]
        if c not in seen:
            seen.add(c)
            p = reach(c, b, seen)
            if p:
                return [a] + p
    return None
done = set()
for n in sorted(text):
    p = reach(n, n, set())
    if p and not set(p) & done:
        done |= set(p)
        print(" -> ".join("%s.c" % x for x in p))
        for a, b in zip(p, p[1:]):
            print("   %s.c uses %s.c's %s" % (a, b, ", ".join(sorted(edge[a][b]))))
PY
rule "$tmp/circle" "src/core files calling each other in a circle"
[ $bad = 0 ] || exit 1
echo "layering: ok"
