#!/bin/sh
# The rules of docs/DESIGN.md that the source itself must keep, checked on
# the source: no exit() but main.c's (a forked child's _exit is its own
# process's end); stderr written by main.c and the warning sink (util.c)
# only, every other message going through ds_warn/ds_note (isatty of
# STDERR_FILENO is no write).
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
[ $bad = 0 ] || exit 1
echo "layering: ok"
