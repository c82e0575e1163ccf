#!/bin/sh
# Provenance of a package-file scan: JSON lists each package file
# read (path, size, sha256, format, the package's own name, version, arch)
# and each finding names its input; root is null and backend none when
# nothing of the root was read (--installed-state reads it: root "/");
# SARIF has the package file as an artifact (file URI, sha-256) and each
# member with a result as its child (parentIndex, URI relative to it), no
# ROOT base, and every result points at its member artifact.
. "$(dirname "$0")/lib.sh"
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
d="$work/pkg"
mkdir -p "$d/DEBIAN" "$d/usr/bin"
printf 'Package: prov\nVersion: 2.5-1\nArchitecture: amd64\nMaintainer: P <p@example.org>\nDescription: fixture\n' \
	>"$d/DEBIAN/control"
cp "$FIXTURES/nopie-norelro" "$d/usr/bin/prov-a"
cp "$FIXTURES/pie-full" "$d/usr/bin/prov-b"
chmod 755 "$d/usr/bin/prov-a" "$d/usr/bin/prov-b"
deb="$work/prov_2.5-1_amd64.deb"
dpkg-deb --root-owner-group -Znone -b "$d" "$deb" >/dev/null
size=$(wc -c <"$deb")
sha=$(sha256sum "$deb" | cut -d' ' -f1)

distsec scan -q --fail-on never --format json -o "$work/r.json" "$deb"
distsec scan -q --fail-on never --format sarif -o "$work/r.sarif" "$deb"
distsec scan -q --fail-on never --installed-state --format json -o "$work/host.json" "$deb"
python3 - "$work/r.json" "$work/r.sarif" "$work/host.json" "$deb" "$size" "$sha" <<'PY' || fail "provenance"
import json, os, sys
r, sarif, host = (json.load(open(f)) for f in sys.argv[1:4])
deb, size, sha = sys.argv[4], int(sys.argv[5]), sys.argv[6]
assert r['root'] is None, r['root']
assert r['backend'] == 'none', r['backend']
assert host['root'] == '/', host['root']
assert r['inputs'] == [{'path': deb, 'size': size, 'sha256': sha, 'format': 'dpkg',
                        'package': {'status': 'package', 'name': 'prov', 'version': '2.5-1',
                                    'arch': 'amd64', 'source': 'prov',
                                    'maintainer': 'P <p@example.org>'}}], r['inputs']
found = sorted((f['check'], f['severity'], f['path'], f['input']) for f in r['findings'])
assert found == [('elf-fortify', 'info', '/usr/bin/prov-a', deb),
                 ('elf-fortify', 'info', '/usr/bin/prov-b', deb),
                 ('elf-pie', 'info', '/usr/bin/prov-a', deb),
                 ('elf-relro', 'error', '/usr/bin/prov-a', deb)], found
run = sarif['runs'][0]
assert 'originalUriBaseIds' not in run, run.get('originalUriBaseIds')
arts = run['artifacts']
assert arts[0]['location']['uri'] == 'file://' + os.path.realpath(deb), arts[0]
assert arts[0]['hashes'] == {'sha-256': sha}, arts[0]
assert arts[1] == {'location': {'uri': 'usr/bin/prov-a'}, 'parentIndex': 0}, arts[1]
res = [x for x in run['results'] if x['ruleId'] == 'elf-relro']
loc = res[0]['locations'][0]['physicalLocation']['artifactLocation']
assert loc == {'uri': 'usr/bin/prov-a', 'index': 1}, loc
PY
echo "PASS"
