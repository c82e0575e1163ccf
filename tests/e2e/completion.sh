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
