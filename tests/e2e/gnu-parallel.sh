#!/bin/sh
# The GNU parallel recipe of docs/USAGE.md ("GNU parallel, on this
# machine"), run as written on 100 real Debian package files (only the
# mirror's path is replaced): its merged SARIF report equals one run's, and
# so does a JSON merge of the same shards.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/recipes.sh"
command -v parallel >/dev/null || { echo "SKIP: GNU parallel not installed (Debian package parallel)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
recipe_debs
recipe_bin

recipe 1 'GNU parallel, on this machine' | sed "s|/srv/mirror/pool|$work/pool|g" >"$work/recipe.sh"
grep -q '^parallel ' "$work/recipe.sh" || { cat "$work/recipe.sh" >&2; fail "no parallel command in the recipe"; }
echo "the recipe:" && cat "$work/recipe.sh"
# the merge exits as the scan would: 1 for error findings
rc=0
(cd "$work" && sh -e recipe.sh) >"$work/recipe.out" 2>&1 </dev/null || rc=$?
case $rc in 0|1) ;; *) cat "$work/recipe.out" >&2; fail "the recipe failed (exit status $rc)" ;; esac
[ "$(wc -l <"$work/list")" = 100 ] || fail "the recipe's list holds $(wc -l <"$work/list") package files"
[ "$(ls "$work"/shard-*.json | wc -l)" = 8 ] || fail "$(ls "$work"/shard-*.json | wc -l) shard reports, not 8"

rc_one=0
distsec scan -j2 --files-from "$work/list" --format sarif -o "$work/one.sarif" || rc_one=$?
[ "$rc_one" = "$rc" ] || fail "the recipe exited $rc, one run $rc_one"
same_report "$work/one.sarif" "$work/archive.sarif"
same_json_merge "$work"/shard-*.json
echo "merged report = one run (SARIF and JSON)"
echo "PASS"
