#!/usr/bin/env python3
"""pacmanmodes.py ROOT: gives ROOT's files and directories the owner and
mode its pacman database records for them: each package's
var/lib/pacman/local/NAME-VERSION/mtree (gzip'd mtree(5) text, as makepkg
wrote it into the package's .MTREE: `/set` defaults, then `./PATH key=value`
lines with uid, gid, mode and type), and what no package lists keeps its
owner, less the group's and others' write bits (umask 022).  A root
unpacked from a git checkout (0644/0755, no setuid bit, no 0600 shadow)
becomes the root pacman installed.  Symlinks are left alone.  Prints how
many paths changed."""
import gzip, os, re, sys

import rootmodes

root = sys.argv[1]
local = os.path.join(root, 'var/lib/pacman/local')


def unescape(s):
    # mtree writes bytes outside the safe set as \ and three octal digits
    return re.sub(rb'\\([0-7]{3})', lambda m: bytes([int(m.group(1), 8)]), s)


want = {}          # path (bytes, relative) -> (uid, gid, mode)
for pkg in sorted(os.listdir(local)):
    mtree = os.path.join(local, pkg, 'mtree')
    if not os.path.isfile(mtree):
        continue
    defaults = {}
    for line in gzip.open(mtree).read().splitlines():
        if not line or line.startswith(b'#'):
            continue
        words = line.split()
        kv = dict(w.split(b'=', 1) for w in words[1:] if b'=' in w)
        if words[0] == b'/set':
            defaults.update(kv)
            continue
        if words[0] == b'/unset':
            for k in words[1:]:
                defaults.pop(k, None)
            continue
        path = unescape(words[0])
        if not path.startswith(b'./') or path[2:3] == b'.':
            continue   # .PKGINFO, .MTREE and the like are not installed
        e = {**defaults, **kv}
        if e.get(b'type') == b'link':
            continue
        want[path[2:]] = (int(e.get(b'uid', 0)), int(e.get(b'gid', 0)), int(e[b'mode'], 8))

print(rootmodes.apply(root, want))
