#!/bin/sh
# man-checks.sh DISTSEC IN OUT: the man page IN with its "CHECKS-LIST:" comment
# line replaced by `DISTSEC checks --format man` (run at build time).
set -eu
"$1" checks --format man >"$3.list"
awk -v list="$3.list" 'index($0, "CHECKS-LIST:") { while ((getline l < list) > 0) print l; next } { print }' "$2" >"$3"
rm -f "$3.list"
