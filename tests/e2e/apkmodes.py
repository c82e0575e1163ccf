#!/usr/bin/env python3
"""apkmodes.py ROOT: gives ROOT's files and directories the owner and mode
its apk database (lib/apk/db/installed) records for them: an `a:UID:GID:MODE`
line after a file's `R:`, an `M:UID:GID:MODE` line after a directory's `F:`,
else apk's defaults (0:0, 0644 a file, 0755 a directory), and what no
package owns apk's umask (022).  A root unpacked from a tarball made under
another umask (a git checkout: 0664, 0775, no group shadow) becomes the root
apk installed.  Symlinks are left alone.  Prints how many paths changed."""
import os, stat, sys

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

changed = 0
for top, dirs, files in os.walk(root):
    for name in dirs + files:
        p = os.path.join(top, name)
        st = os.lstat(p)
        if stat.S_ISLNK(st.st_mode):
            continue
        rel = os.path.relpath(p, root)
        u, g, m = want.get(rel, (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode) & ~0o022))
        if (st.st_uid, st.st_gid) != (u, g):
            os.lchown(p, u, g)
            changed += 1
        if stat.S_IMODE(st.st_mode) != m:
            os.chmod(p, m)
            changed += 1
print(changed)
