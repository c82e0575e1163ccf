#!/usr/bin/env python3
"""realdigests.py ROOT: every regular file of ROOT but the package
databases' own has the digest its package database records there: apk's
`Z:` (Q1 and the base64 of the SHA-1) in lib/apk/db/installed, pacman's
sha256digest in var/lib/pacman/local/*/mtree.  So an excerpt of a real
root, committed as test data, is byte for byte what the package manager
installed.  Prints each file with its package; exits 1 at a file that has
no digest or another one."""
import base64, glob, gzip, hashlib, os, sys

root = sys.argv[1]
want = {}          # path -> (package, algorithm, digest as recorded)

apk = os.path.join(root, 'lib/apk/db/installed')
if os.path.isfile(apk):
    pkg = d = f = None
    for line in open(apk, encoding='utf-8', errors='replace'):
        k, _, v = line.rstrip('\n').partition(':')
        if k == 'P':
            pkg, d, f = v, None, None
        elif k == 'F':
            d, f = v, None
        elif k == 'R':
            f = d + '/' + v if d else v
        elif k == 'Z' and f:
            want[f] = (pkg, 'sha1', v)

for mtree in glob.glob(os.path.join(root, 'var/lib/pacman/local/*/mtree')):
    pkg = os.path.basename(os.path.dirname(mtree))
    with gzip.open(mtree, 'rt', encoding='utf-8', errors='replace') as m:
        for line in m:
            fields = line.split()
            if not fields or not fields[0].startswith('./'):
                continue
            for kv in fields[1:]:
                if kv.startswith('sha256digest='):
                    want[fields[0][2:]] = (pkg, 'sha256', kv.split('=', 1)[1])

bad = 0
for top, dirs, files in os.walk(root):
    dirs.sort()
    for name in sorted(files):
        full = os.path.join(top, name)
        path = os.path.relpath(full, root)
        if os.path.islink(full) or path.startswith(('lib/apk/db/', 'var/lib/pacman/')):
            continue
        if path not in want:
            print(f'{path}: no package records a digest for it')
            bad = 1
            continue
        pkg, alg, digest = want[path]
        data = open(full, 'rb').read()
        if alg == 'sha1':
            got = 'Q1' + base64.b64encode(hashlib.sha1(data).digest()).decode()
        else:
            got = hashlib.sha256(data).hexdigest()
        if got != digest:
            print(f'{path}: {alg} {got}, {pkg} records {digest}')
            bad = 1
        else:
            print(f'{path} {pkg}')
sys.exit(bad)
