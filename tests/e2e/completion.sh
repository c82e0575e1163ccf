#!/bin/sh
# The bash completion: a comma list keeps the ids before the one being
# completed; --package completes from the database of the --root given
# (a dpkg status file made here), --profile from `distsec profiles`.
. "$(dirname "$0")/lib.sh"
bc=/usr/share/bash-completion/bash_completion
[ -r "$bc" ] || { echo "SKIP: bash-completion not installed"; exit 77; }
command -v bash >/dev/null || { echo "SKIP: bash not installed"; exit 77; }

# complete WORD...: the candidates for the last word, one a line
complete_words() {
	bash -c '
		. "$1"; . "$2"; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_distsec
		printf "%s\n" "${COMPREPLY[@]}"' sh "$bc" "$SRCDIR/../src/distsec.bash-completion" \
		"$DISTSEC" "$@" >"$work/out" 2>"$work/err"
}

complete_words scan --check elf-pie,elf-re
expect_line "elf-pie,elf-relro"
grep -qx "elf-relro" "$work/out" && fail "the comma list lost its first id"
complete_words scan --skip a,b,file-s
expect_line "a,b,file-stig"
complete_words scan --check elf-c
expect_line "elf-canary"
expect_line "elf-chroot-chdir"

# explain takes a check id; --sarif-category free text, never file names
complete_words explain elf-re
expect_line "elf-relro"
[ "$(wc -l <"$work/out")" = 1 ] || { cat "$work/out"; fail "explain completes more than the id"; }
complete_words explain elf-relro ""
grep -q . "$work/out" && { cat "$work/out"; fail "explain completes a second argument"; }
complete_words scan --sarif-c
expect_line "--sarif-category"
complete_words scan --sarif-category ""
[ "$(cat "$work/out")" = "distsec/" ] || { cat "$work/out"; fail "--sarif-category offers $(cat "$work/out")"; }
complete_words scan --format t
expect_line "tmt"
expect_line "text"
complete_words merge --format h
expect_line "html"
complete_words merge --hist
expect_line "--history"
complete_words scan --hist
expect_line "--history"
complete_words scan --basel
expect_line "--baseline"
complete_words d
expect_line "diff"
complete_words diff --fail
expect_line "--fail-on"
# merge: its render options and JSON reports; scan --shard K/N
complete_words m
expect_line "merge"
complete_words merge --gr
expect_line "--group-by"
complete_words merge --sh
grep -q . "$work/out" && { cat "$work/out"; fail "merge offers scan's --shard"; }
complete_words scan --sha
expect_line "--shard"
complete_words scan --shard 3
expect_line "3/4"
complete_words checks --format ""
[ "$(tr '\n' ' ' <"$work/out")" = "text json markdown man " ] || { cat "$work/out"; fail "checks --format offers other than text json markdown man"; }
complete_words diff --format ""
[ "$(tr '\n' ' ' <"$work/out")" = "text json " ] || { cat "$work/out"; fail "diff --format offers other than text json"; }

complete_words scan --profile deb
expect_line "debian"

mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
for p in fixone fixtwo; do
	printf 'Package: %s\nStatus: install ok installed\nVersion: 1.0\nArchitecture: all\nMaintainer: F <f@example.org>\nDescription: fixture\n\n' "$p"
done >"$root/var/lib/dpkg/status"
: >"$root/var/lib/dpkg/info/fixone.list"
: >"$root/var/lib/dpkg/info/fixtwo.list"
if "$DISTSEC" backends --root "$root" | grep -q "would use: dpkg"; then
	complete_words scan --root "$root" --package fix
	expect_line "fixone"
	expect_line "fixtwo"
	[ "$(wc -l <"$work/out")" = 2 ] || { cat "$work/out"; fail "packages of the host listed"; }
else
	echo "note: no dpkg backend: --package completion not checked"
fi
echo "completion: ok"
