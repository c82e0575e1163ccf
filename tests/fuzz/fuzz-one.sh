#!/bin/bash
# fuzz-one.sh FUZZER NAME SEED... — runs one libFuzzer target for
# $FUZZ_SECONDS (default 60) from the given seed files and directories.
# The growing corpus and any crashing input live in
# <build>/tests/fuzz/work/NAME; a crash fails the test and says where the
# input is (fix the bug, then add the input to tests/fuzz/regress/NAME).
set -u
fuzzer=$1 name=$2
shift 2
secs=${FUZZ_SECONDS:-60}
work=$(dirname "$fuzzer")/work/$name
mkdir -p "$work/corpus" "$work/artifacts"
rm -rf "$work/seeds"
mkdir -p "$work/seeds"
for s in "$@"; do
	if [ -d "$s" ]; then
		find "$s" -maxdepth 1 -type f ! -name '.*' -exec cp -t "$work/seeds" {} +
	else
		cp "$s" "$work/seeds/"
	fi
done
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# -malloc_limit_mb: libarchive sizes its read-ahead buffer from a member
# header's 32-bit length before it finds the file too short, so a hostile
# .rpm makes it malloc up to 4 GiB once (untouched, freed at once); that
# is the library's way, not a leak, and does not count as a failure here.
"$fuzzer" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2560 -malloc_limit_mb=4608 \
	-print_final_stats=1 \
	-artifact_prefix="$work/artifacts/" "$work/corpus" "$work/seeds" 2>"$work/log"
rc=$?
grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "$work/log"
if [ $rc -ne 0 ]; then
	tail -60 "$work/log"
	echo "fuzz-$name: FAILED (exit $rc); inputs in $work/artifacts:"
	ls -l "$work/artifacts"
	exit 1
fi
echo "fuzz-$name: ${secs}s, no crash, corpus $(ls "$work/corpus" | wc -l) inputs"
