#!/usr/bin/env python3
"""apkmodes.py ROOT: gives ROOT's files and directories the owner and mode
its apk database (lib/apk/db/installed) records for them: an `a:UID:GID:MODE`
line after a file's `R:`, an `M:UID:GID:MODE` line after a directory's `F:`,
else apk's defaults (0:0, 0644 a file, 0755 a directory), and what no
package owns apk's umask (022).  A root unpacked from a tarball made under
another umask (a git checkout: 0664, 0775, no group shadow) becomes the root
apk installed.  Symlinks are left alone.  Prints how many paths changed."""
import os, sys

import rootmodes

root = sys.argv[1]
db = os.path.join(root, 'lib/apk/db/installed')
want = {}          # path -> (uid, gid, mode)
d = f = None
for line in open(db, encoding='utf-8', errors='replace'):
    line = line.rstrip('\n')
    if not line:
        d = f = None
        continue
    k, _, v = line.partition(':')
    if k == 'F':
        d, f = v, None
        want[d] = (0, 0, 0o755)
    elif k == 'M' and d is not None:
        u, g, m = v.split(':')
        want[d] = (int(u), int(g), int(m, 8))
    elif k == 'R' and d is not None:
        f = d + '/' + v
        want[f] = (0, 0, 0o644)
    elif k == 'a' and f is not None:
        u, g, m = v.split(':')
        want[f] = (int(u), int(g), int(m, 8))

print(rootmodes.apply(root, {os.fsencode(k): v for k, v in want.items()}))
