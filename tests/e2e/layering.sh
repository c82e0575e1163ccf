#!/bin/sh
# The rules of docs/DESIGN.md that the source itself must keep, checked on
# the source: no exit() but main.c's (a forked child's _exit is its own
# process's end); stderr written by main.c and the warning sink (util.c)
# only, every other message going through ds_warn/ds_note (isatty of
# STDERR_FILENO is no write); no check id named outside src/checks/.
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
[ $bad = 0 ] || exit 1
echo "layering: ok"
