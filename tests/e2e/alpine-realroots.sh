#!/bin/sh
# Real Alpine roots, as excerpts committed in tests/data/realroots (what
# each holds and where it comes from: its README.md; DISTSEC_REALDATA=DIR
# reads the same file names from DIR instead): each root's own
# lib/apk/db/installed, whole and byte for byte, and the busybox, curl and
# libcurl it installed, which realdigests.py finds with the checksums that
# database records.  Alpine 3.20 x86_64 and 3.18 aarch64 with curl
# installed by apk; Alpine's own 3.20.3 armhf minirootfs (busybox: no
# public armhf root with curl was found); an Alpine 3.10 armv7 root whose
# apk installed libcurl (no curl program).  Owners (name, version, arch,
# origin, maintainer) from the apk backend; the musl programs judged as
# glibc ones are (elf-pie and elf-relro pass, elf-not-judged stays
# silent); the excerpt scanned whole under the alpine profile the apk
# backend picks, exact findings.  Runs as any user: no file-stig owner rule
# applies to a root without etc/passwd.
. "$(dirname "$0")/lib.sh"
data="${DISTSEC_REALDATA:-$SRCDIR/data/realroots}"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
"$DISTSEC" backends | grep -q '^  apk ' || { echo "SKIP: built without the apk backend"; exit 77; }

# realroot TARBALL ARCH NPKGS BUSYBOX-VERSION BUSYBOX-MAINTAINER [CURL-VERSION
# FILE...]: FILE /usr/bin/curl is curl's, another libcurl's
ran=""
realroot() {
	t="$data/$1" arch=$2 npkgs=$3 bbver=$4 bbmaint=$5 curlver=${6:--}
	shift 5
	[ $# = 0 ] || shift
	[ -f "$t" ] || { echo "note: no $t"; return 0; }
	ran="$ran $arch"
	r="$root/$arch"
	mkdir -p "$r"
	# python's tarfile, not tar -J: xz(1) need not be installed
	python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$t" "$r"
	python3 "$SRCDIR/e2e/realdigests.py" "$r" >"$work/digests" || fail "$arch: $(cat "$work/digests")"
	run_distsec backends --root "$r"
	expect_line "root $r would use: apk (apk database lib/apk/db/installed: $npkgs packages)"

	paths="/bin/busybox $*"
	# shellcheck disable=SC2086
	run_distsec scan --root "$r" -v --check elf-pie,elf-relro,elf-not-judged --format json $paths
	expect_rc 0
	python3 - "$work/out" "$arch" "$bbver" "$bbmaint" "$curlver" "$@" <<'PY' || fail "$arch: owners"
import json, sys
out, arch, bbver, bbmaint, curlver, *curl = sys.argv[1:]
got = {(f["path"], f["check"]): f for f in json.load(open(out))["findings"]}
want = {"/bin/busybox": ("busybox", bbver, "busybox", bbmaint)}
for path in curl:
    want[path] = ("curl" if path == "/usr/bin/curl" else "libcurl", curlver, "curl",
                  "Natanael Copa <ncopa@alpinelinux.org>")
# judged: elf-pie and elf-relro pass, no elf-not-judged; a library is no
# executable, so elf-pie passes it by
assert sorted(got) == sorted((p, c) for p in want for c in ("elf-pie", "elf-relro")
                             if not (".so." in p and c == "elf-pie")), sorted(got)
for (path, check), f in got.items():
    name, version, source, maintainer = want[path]
    o = f["owner"]
    assert f["severity"] == "pass", f
    assert (o["status"], o["name"], o["version"], o["arch"], o["source"], o["maintainer"]) == \
        ("package", name, version, arch, source, maintainer), (path, o)
PY
	case " $* " in *" /usr/bin/curl "*) run_distsec scan --root "$r" -v --check elf-pie /usr/bin/curl
		expect_line "pass     elf-pie                   /usr/bin/curl  [curl-$curlver]  built as a position-independent executable"
	esac

	# the excerpt whole, every default check: busybox's mktemp import and
	# its fortifiable calls with no checked twin are all, and its code is
	# decoded on every machine (function starts from its calls: its
	# .ARM.exidx names _start alone, and on x86-64 and aarch64 it has no
	# unwind tables at all): its setgid is in xsetgid(), a wrapper passing
	# on its caller's gid (info), and x86-64's inlined check_suid() moves
	# getgid()'s result with -Os's `xchg %eax, %edi` (a drop back)
	run_distsec scan --root "$r" --fail-on never --format json -o "$work/$arch.json"
	expect_rc 0
	python3 - "$work/$arch.json" "$paths" "$arch" <<'PY' || fail "$arch: the excerpt under the alpine profile"
import json, sys
d = json.load(open(sys.argv[1]))
elf = sys.argv[2].split()
s = d["summary"]
assert (d["profile"], d["backend"]) == ("alpine", "apk"), (d["profile"], d["backend"])
assert (s["files"], s["elf_files"], s["elf_not_judged"], s["packages"]) == (len(elf) + 1, len(elf), 0, len(elf)), s
assert s["findings"] == {"error": 0, "warning": 1, "info": 2}, s["findings"]
got = sorted((f["severity"], f["check"], f["path"]) for f in d["findings"])
want = [("info", "elf-fortify", "/bin/busybox"), ("info", "elf-nodrop-groups", "/bin/busybox"),
        ("warning", "elf-badfuncs", "/bin/busybox")]
assert got == want, got
assert all(v == {"relro": "yes", "pie": "yes"} for v in s["by_package"].values()), s["by_package"]
PY
	echo "$arch: $(tr '\n' ' ' <"$work/digests")"
}

busybox_1_36="Sören Tempel <soeren+alpine@soeren-tempel.net>"
realroot alpine-3.20-x86_64.tar.xz x86_64 26 1.36.1-r29 "$busybox_1_36" 8.9.0-r0 \
	/usr/bin/curl /usr/lib/libcurl.so.4.8.0
realroot alpine-3.18-aarch64.tar.xz aarch64 49 1.36.1-r5 "$busybox_1_36" 8.4.0-r0 \
	/usr/bin/curl /usr/lib/libcurl.so.4.8.0
realroot alpine-3.20-armhf.tar.xz armhf 14 1.36.1-r29 "$busybox_1_36"
realroot alpine-3.10-armv7.tar.xz armv7 163 1.30.1-r5 "Natanael Copa <ncopa@alpinelinux.org>" 7.66.0-r3 \
	/usr/lib/libcurl.so.4.6.0
[ -n "$ran" ] || { echo "SKIP: none of the real Alpine roots is in $data"; exit 77; }
echo "PASS:$ran"
