#!/bin/sh
# Container images scanned as the system they hold (docs/USAGE.md,
# "Container images"): OCI layouts, OCI archives and Docker archives made
# by mkimage.py.  First small images made here (whiteouts, opaque
# directories, hostile blobs and manifests: each a finding or a clear
# error, never a crash); then a real Debian minbase layer (mmdebstrap,
# cached in the build directory; skipped when it or the mirror is not
# there) with a top layer that whites out /usr/bin/chage and adds a
# non-PIE /usr/sbin/appd as the entrypoint.
. "$SRCDIR/e2e/lib.sh"
# the scans' private roots go to a TMPDIR of the test's own, where none
# may be left behind (/tmp holds other runs' while they run)
TMPDIR="$work/tmp"
export TMPDIR
mkdir "$TMPDIR"
command -v python3 >/dev/null || { echo "*skipped*: python3 is not installed"; exit 77; }
command -v cc >/dev/null || { echo "*skipped*: no C compiler"; exit 77; }
mk="$SRCDIR/e2e/mkimage.py"

printf 'int main(void){return 0;}\n' >"$work/appd.c"
cc -no-pie -fno-pie -O1 -o "$work/appd" "$work/appd.c"

# records FILE: "severity check path owner layer" for each finding
records() {
	python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["findings"]:
    o = f["owner"]
    print(f["severity"], f["check"], f["path"], o.get("name", o["status"]), f.get("layer", "-"))
EOF
}

# ---- small images: whiteouts, opaque directories, capabilities, links --
python3 - "$work/small.tar" "$work/appd" <<'EOF'
import io, sys, tarfile
elf = open(sys.argv[2], "rb").read()
with tarfile.open(sys.argv[1], "w") as t:
    for name, data in [("usr/bin/chage", elf), ("usr/bin/keep", elf), ("opt/app/old", elf)]:
        ti = tarfile.TarInfo(name)
        ti.size, ti.mode = len(data), 0o755
        t.addfile(ti, io.BytesIO(data))
EOF
python3 "$mk" "$work/small" --base "$work/small.tar" --top usr/sbin/appd="$work/appd" \
	--top opt/app/new="$work/appd" --whiteout usr/bin/chage --opaque opt/app \
	--capped usr/bin/ping="$work/appd" --hardlink usr/sbin/appd2=usr/sbin/appd \
	--entrypoint appd --user 0:0
top=$(cat "$work/small/top.oci")
for img in "oci:$work/small/layout" "oci-archive:$work/small/oci.tar" "$work/small/oci.tar" \
	"$work/small/layout"; do
	run_distsec scan -v -q --backend none --check elf-pie,image-root-user --format json \
		-o "$work/r.json" "$img"
	expect_rc 1
	records "$work/r.json" | sort >"$work/out"
	cat >"$work/want" <<EOF
error elf-pie /usr/sbin/appd unknown $top
info elf-pie /opt/app/new unknown $top
error elf-pie /usr/bin/ping unknown $top
info elf-pie /usr/sbin/appd2 unknown $top
info elf-pie /usr/bin/keep unknown $(python3 -c "import json;print(json.load(open('$work/small/layout/blobs/sha256/' + json.load(open('$work/small/layout/index.json'))['manifests'][0]['digest'][7:]))['layers'][0]['digest'])")
warning image-root-user /usr/sbin/appd unknown $top
EOF
	sort "$work/want" | diff -u - "$work/out" || fail "$img: findings"
done
# the report names the image
python3 - "$work/r.json" "$work/small/layout" <<'EOF' || fail "image record"
import json, sys
d = json.load(open(sys.argv[1]))
im = d["image"]
idx = json.load(open(sys.argv[2] + "/index.json"))
assert d["root"] == sys.argv[2], d["root"]
assert im["format"] == "oci-layout", im
assert im["digest"] == idx["manifests"][0]["digest"], im
assert im["tags"] == ["test"] and im["platform"] == "linux/amd64", im
assert im["user"] == "0:0" and im["command"] == ["appd"] and im["program"] == "/usr/sbin/appd", im
EOF
run_distsec scan -q --backend none "$work/small/layout"
expect_line "image $work/small/layout ($(python3 -c "import json;print(json.load(open('$work/small/layout/index.json'))['manifests'][0]['digest'])"), linux/amd64, test)"
# both report formats that carry the layer stay valid
for fmt in json sarif; do
	distsec scan -q --backend none --format $fmt -o "$work/r.$fmt" "$work/small/oci.tar" || true
	python3 "$SRCDIR/e2e/validate.py" $fmt "$work/r.$fmt" >/dev/null || fail "$fmt report invalid"
done
grep -qF "\"layer\":\"$top\"" "$work/r.sarif" || fail "sarif: no layer property"
docker_top=$(cat "$work/small/top.docker")
run_distsec scan -v -q --backend none --check elf-pie --format json -o "$work/r.json" \
	"docker-archive:$work/small/docker.tar"
expect_rc 1
records "$work/r.json" | grep ' /usr/sbin/appd ' >"$work/out" || true
expect_line "error elf-pie /usr/sbin/appd unknown $docker_top"
run_distsec scan -q --backend none --format json -o "$work/r.json" "$work/small/docker.tar"
python3 -c "import json,sys; im=json.load(open(sys.argv[1]))['image']; assert im['format']=='docker-archive' and im['tags']==['distsec/test:latest'], im" \
	"$work/r.json" || fail "docker image record"

# ---- platforms -------------------------------------------------------
python3 "$mk" "$work/multi" --base "$work/small.tar" --top usr/sbin/appd="$work/appd" \
	--entrypoint /usr/sbin/appd --platforms linux/arm64,linux/amd64
run_distsec scan -q --backend none --platform linux/arm64 --format json -o "$work/r.json" \
	"$work/multi/layout"
python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['image']['platform']=='linux/arm64'" \
	"$work/r.json" || fail "--platform linux/arm64 not chosen"
run_distsec scan -q --backend none --platform linux/s390x "$work/multi/layout"
expect_rc 2
grep -qF "no manifest for platform linux/s390x in the index (it has: linux/arm64, linux/amd64)" \
	"$work/err" || { cat "$work/err"; fail "no-platform error"; }

# ---- hostile images: a finding or a clear error, never a crash -------
# hostile KIND FILE RC MESSAGE: the scan of FILE exits RC and says MESSAGE
for kind in digest escape docker-escape truncated size dotdot; do
	python3 "$mk" "$work/h-$kind" --base "$work/small.tar" --top usr/sbin/appd="$work/appd" \
		--entrypoint /usr/sbin/appd --hostile "$kind"
done
hostile() {
	run_distsec scan -q --backend none --format json -o "$work/r.json" "$work/h-$1/$2"
	expect_rc "$3"
	grep -qF -- "$4" "$work/err" || { cat "$work/err"; fail "$1 $2: missing message: $4"; }
	if [ "$3" = 1 ]; then
		python3 - "$work/r.json" "$4" <<'EOF' || fail "$1 $2: no scan-unreadable finding"
import json, sys
d = json.load(open(sys.argv[1]))
assert any(f["check"] == "scan-unreadable" and f["path"] == "/" and f["severity"] == "error"
           and sys.argv[2] in f["message"] for f in d["findings"]), d["findings"]
EOF
	fi
}
otop() { cat "$work/h-$1/top.oci"; }
dtop() { cat "$work/h-$1/top.docker"; }
hostile digest oci.tar 1 "layer $(otop digest): its sha256 is "
hostile digest docker.tar 1 "layer $(dtop digest): its sha256 is "
hostile escape oci.tar 2 "layer 2: digest ../../../../etc/passwd does not name a blob of the layout"
hostile docker-escape docker.tar 2 "manifest.json: layer ../outside.tar does not name a member of the archive"
hostile truncated oci.tar 1 "layer $(otop truncated): truncated gzip input: the rest of the layer is not read"
hostile truncated docker.tar 1 "layer $(dtop truncated): Truncated input file"
hostile size oci.tar 1 "its manifest says 4611686018427387904"
hostile dotdot oci.tar 1 "entry ../../../tmp/escaped leaves the root: not applied"
hostile dotdot docker.tar 1 "entry ../../../tmp/escaped leaves the root: not applied"
[ ! -e /tmp/escaped ] || fail "a layer entry was written out of the root"
# an archive cut short (inside a member, never at a 512-byte boundary) is
# no image: a clear error
head -c $(($(wc -c <"$work/small/oci.tar") / 1024 * 512 + 100)) "$work/small/oci.tar" >"$work/cut.tar"
run_distsec scan -q --backend none "oci-archive:$work/cut.tar"
expect_rc 2
grep -qE "runs past the end of the archive|truncated at byte [0-9]+ \(not a whole tar archive\)" "$work/err" || { cat "$work/err"; fail "cut archive"; }
# no private copy is left behind
ls -d "$TMPDIR"/distsec-image-* 2>/dev/null && fail "a private root was left behind"

# ---- a real Alpine root as the base layer: apk owners -----------------
alpine="${DISTSEC_REALDATA:-$SRCDIR/../../shared/realdata}/alpine-3-x86_64-rootfs.tar.gz"
if [ -f "$alpine" ]; then
	gzip -dc "$alpine" >"$work/alpine.tar"
	python3 "$mk" "$work/alp" --base "$work/alpine.tar" --top usr/sbin/appd="$work/appd" \
		--whiteout bin/busybox --entrypoint appd --user nobody
	run_distsec scan -v -q --check elf-pie,image-root-user --format json -o "$work/r.json" \
		"$work/alp/oci.tar"
	expect_rc 1
	records "$work/r.json" >"$work/out"
	expect_line "error elf-pie /usr/sbin/appd not-owned $(cat "$work/alp/top.oci")"
	expect_line "pass elf-pie /bin/bbsuid busybox-suid "
	grep -q ' /bin/busybox ' "$work/out" && fail "alpine: the whited-out /bin/busybox was scanned"
	grep -q 'image-root-user' "$work/out" && fail "alpine: User nobody is not root"
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['backend']=='apk', d['backend']" \
		"$work/r.json" || fail "alpine: backend"
else
	echo "note: no $alpine: the Alpine part is not run"
fi

# ---- a real Debian minbase layer -------------------------------------
cache="${BUILDDIR:-$work}/images-cache"
base="$cache/bookworm-minbase.tar"
if [ ! -f "$base" ] || [ ! -s "$base" ]; then
	if ! command -v mmdebstrap >/dev/null; then
		echo "*skipped*: mmdebstrap is not installed (the Debian minbase part)"
		exit 0
	fi
	rm -rf "$cache"
	mkdir -p "$cache"
	# the name's .tar says the format to mmdebstrap; through cached, so
	# that ci/test's stages after the first copy the first one's layer
	if ! cached "$cache/new.tar" mmdebstrap --quiet --variant=minbase bookworm "$cache/new.tar" \
		>"$work/mmdebstrap.log" 2>&1; then
		tail -n 5 "$work/mmdebstrap.log"
		rm -rf "$cache"
		echo "*skipped*: mmdebstrap could not build bookworm minbase (mirror unreachable?)"
		exit 0
	fi
	mv "$cache/new.tar" "$base"
fi
"$DISTSEC" backends | grep -q '^  dpkg ' || { echo "*skipped*: built without the dpkg backend"; exit 0; }
python3 "$mk" "$work/deb" --base "$base" --top usr/sbin/appd="$work/appd" \
	--whiteout usr/bin/chage --entrypoint /usr/sbin/appd
for img in "oci-archive:$work/deb/oci.tar" "docker-archive:$work/deb/docker.tar"; do
	case $img in oci*) top=$(cat "$work/deb/top.oci") ;; *) top=$(cat "$work/deb/top.docker") ;; esac
	run_distsec scan -v -q --check elf-pie,elf-relro --format json -o "$work/r.json" "$img"
	expect_rc 1
	records "$work/r.json" >"$work/out"
	expect_line "error elf-pie /usr/sbin/appd not-owned $top"
	expect_line "pass elf-pie /usr/bin/passwd passwd "
	grep -q ' /usr/bin/chage ' "$work/out" && fail "$img: the whited-out /usr/bin/chage was scanned"
	grep -q ' /usr/bin/chfn passwd ' "$work/out" || fail "$img: /usr/bin/chfn (passwd) not scanned"
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['backend']=='dpkg', d['backend']" \
		"$work/r.json" || fail "$img: backend"
done
if command -v skopeo >/dev/null; then
	# skopeo's own Docker archive of the same image
	skopeo copy -q "oci-archive:$work/deb/oci.tar" "docker-archive:$work/deb/skopeo.tar:distsec/test:1" ||
		fail "skopeo copy"
	run_distsec scan -v -q --check elf-pie --format json -o "$work/r.json" "$work/deb/skopeo.tar"
	expect_rc 1
	records "$work/r.json" >"$work/out"
	expect_line "error elf-pie /usr/sbin/appd not-owned $(cat "$work/deb/top.docker")"
	expect_line "pass elf-pie /usr/bin/passwd passwd "
	grep -q ' /usr/bin/chage ' "$work/out" && fail "skopeo archive: /usr/bin/chage was scanned"
else
	echo "note: skopeo is not installed: its Docker archive is not tried"
fi
echo "images: ok"
