"""Used by apkmodes.py: gives a root's files and
directories the owner and mode a package database records for them."""
import os, stat


def apply(root, want):
    """want: path relative to root (bytes) -> (uid, gid, mode).  What it
    does not name keeps its owner, less the group's and others' write bits
    (the package manager's umask, 022).  Symlinks are left alone.  Returns
    how many owners and modes changed."""
    changed = 0
    broot = os.fsencode(root)
    for top, dirs, files in os.walk(broot):
        for name in dirs + files:
            p = os.path.join(top, name)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                continue
            rel = os.path.relpath(p, broot)
            u, g, m = want.get(rel, (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode) & ~0o022))
            # owner first: chown clears the set-id bits the mode then sets
            if (st.st_uid, st.st_gid) != (u, g):
                os.lchown(p, u, g)
                changed += 1
            if stat.S_IMODE(st.st_mode) != m:
                os.chmod(p, m)
                changed += 1
    return changed
