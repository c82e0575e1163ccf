#!/bin/sh
# An installed tree finds its own modules and data: `meson install` into a
# DESTDIR (the program runs from there, not from the configured prefix),
# then the same tree moved to another prefix.  Without DISTSEC_* in the
# environment, `distsec backends` lists every module this build made,
# file-stig finds its rules and `distsec profiles` its profiles; with a
# module gone, `distsec backends` says which and where it looked.
. "$(dirname "$0")/lib.sh"
[ -n "${BUILDDIR:-}" ] || { echo "SKIP: BUILDDIR not set (run through meson test)"; exit 77; }
dest="$work/dest"
meson install -C "$BUILDDIR" --destdir "$dest" --no-rebuild --quiet >"$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; fail "meson install failed"; }
unset DISTSEC_BACKEND_DIR DISTSEC_DATA_DIR
built=$(cd "$BUILDDIR/backends" && ls ./*.so 2>/dev/null | sed 's|^\./||' || true)

# check_tree BIN: the program at BIN finds everything installed with it
check_tree() {
	prefix=$(dirname "$(dirname "$1")")
	"$1" backends >"$work/out" 2>&1 || fail "$1 backends failed"
	grep -q missing "$work/out" && { cat "$work/out"; fail "a module is missing"; }
	for m in $built; do
		case $m in distsec-*) grep -qF "($prefix/" "$work/out" ||
			{ cat "$work/out"; fail "$m not loaded from $prefix"; } ;;
		esac
	done
	"$1" profiles >"$work/out" || fail "no profiles"
	expect_line "$prefix/share/distsec/profiles/debian)"
	mkdir -p "$root/etc/cron.d"
	printf '# job\n' >"$root/etc/cron.d/job"
	chmod 0644 "$root/etc/cron.d/job"
	rc=0
	"$1" scan --root "$root" --check file-stig --backend none >"$work/out" 2>"$work/err" || rc=$?
	expect_rc 1
	expect_line "GEN003080: /etc/cron.d/job is mode 0644"
}

bin=$(find "$dest" -path '*/bin/distsec' -type f)
[ -x "$bin" ] || fail "no installed program under $dest"
check_tree "$bin"

# the same tree under another prefix
old=$(dirname "$(dirname "$bin")")
mkdir -p "$work/elsewhere"
mv "$old" "$work/elsewhere/opt"
check_tree "$work/elsewhere/opt/bin/distsec"

# a module removed: named, with every directory looked in
for m in $built; do rm "$(find "$work/elsewhere/opt" -name "$m")"; done
"$work/elsewhere/opt/bin/distsec" backends >"$work/out"
for m in $built; do
	expect_line "missing: module $m (built with this program); looked in:"
done
[ -z "$built" ] || expect_line "$work/elsewhere/opt/bin/backends"
echo "install: ok"
