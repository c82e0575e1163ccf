#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/chksec-ref.py ROOT: rpm-chksec --all's per-package verdict for the
rpm database of ROOT, computed independently of distsec with readelf.

A re-implementation (not a copy) of the rules of Steve Grubb's rpm-chksec
0.5.2, the script Fedora QA ran, applied below ROOT instead of on /:
  - packages: `rpm -qa` minus those whose NAME-VERSION-RELEASE.ARCH matches
    kernel. / debuginfo. / .noarch / gpg-pubkey (its egrep -v);
  - files: `rpm -ql`, regular files only (rpm-chksec's `[ -f ]`; a symlink
    is not followed here: below a root it would lead to the host), ELF only;
  - a file's RELRO: "no"; "partial" with a GNU_RELRO program header
    (readelf -lW); "full" when readelf -dW shows BIND_NOW (rpm-chksec's
    grep: with or without GNU_RELRO);
  - a file's PIE: "no" unless the ELF type is DYN; a DYN is "yes" with a
    DT_DEBUG entry, else "DSO";
  - a file's class, first match: daemon (its path is the first word of an
    ExecStart= in a file of the package under /lib/systemd/, or the program
    an /etc/rc.d/init.d script of the package names), library (path has
    /lib and .so), setuid, setgid (mode bits), setcap (a
    security.capability xattr: rpm-chksec asks filecap), network-ip
    (imports connect/listen/accept/accept4 and a name-service call from
    glibc), network-local (only the first group), else exec;
  - the package: RELRO "no" when any ELF file's RELRO is "no"; PIE "no" when
    a file of an important class (daemon, setuid, setgid, setcap,
    network-ip, network-local) is not PIE ("DSO" is not "no"); CLASS: the
    class of the last file that made a "no" (rpm-chksec's APP_SUM).
distsec's vocabulary adds "partial": no "no", but a file of an important
class has only partial RELRO (rpm-chksec's single-package table colours it
yellow; its --all says "yes").  Both are printed.

Output: TSV, a header line, then one line per package, sorted:
package (NAME.ARCH), relro_all (rpm-chksec --all), relro (distsec's
spelling), pie, class (empty when none), elf_files.
"""
import os
import re
import subprocess
import sys

IMPORTANT = {"daemon", "setuid", "setgid", "setcap", "network-ip", "network-local"}
SKIP = re.compile(r"kernel.|debuginfo.|.noarch|gpg-pubkey")
NET1 = re.compile(r"\s(connect|listen|accept|accept4)@\S*GLIBC")
NET2 = re.compile(r"\s(getaddrinfo|getnameinfo|getservent|getservbyname|getservbyport|"
                  r"gethostbyname|gethostbyname2|gethostbyaddr|gethostbyaddr2)@\S*GLIBC")


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, errors="replace").stdout


def rpm(root, *args):
    db = next((d for d in ("/usr/lib/sysimage/rpm", "/var/lib/rpm")
               if os.path.isdir(root + d) and os.listdir(root + d)), "/var/lib/rpm")
    return run("rpm", "--root", root, "--dbpath", db, *args)


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def regular(path):
    try:
        return os.path.isfile(path) and not os.path.islink(path)
    except OSError:
        return False


def daemons(root, files):
    """Programs the package's unit files and init scripts start."""
    out = set()
    for f in files:
        host = root + f
        if not regular(host):
            continue
        if "/etc/rc.d/init.d" in f:
            name = os.path.basename(f)
            for cand in (name, name + "d"):
                for d in ("/usr/sbin", "/usr/bin", "/sbin", "/bin"):
                    if regular(root + d + "/" + cand):
                        out.add(d + "/" + cand)
        elif "/lib/systemd/" in f:
            try:
                text = open(host, errors="replace").read()
            except OSError:
                continue
            for line in text.splitlines():
                if line.lower().startswith("execstart="):
                    words = line.replace("=", " ").split()
                    if len(words) > 1:
                        out.add(words[1])
    return out


def file_facts(host, path, mode, daemon_set):
    ph = run("readelf", "-lW", host)
    dyn = run("readelf", "-dW", host)
    hdr = run("readelf", "-hW", host)
    relro = "no"
    if "GNU_RELRO" in ph:
        relro = "partial"
    if "BIND_NOW" in dyn:
        relro = "full"
    pie = "no"
    if re.search(r"Type:\s*DYN", hdr):
        pie = "yes" if "(DEBUG)" in dyn else "DSO"
    if path in daemon_set:
        cls = "daemon"
    elif "/lib" in path and ".so" in path:
        cls = "library"
    elif mode & 0o4000:
        cls = "setuid"
    elif mode & 0o2000:
        cls = "setgid"
    elif has_caps(host):
        cls = "setcap"
    else:
        syms = run("readelf", "-sW", host)
        if NET1.search(syms):
            cls = "network-ip" if NET2.search(syms) else "network-local"
        else:
            cls = "exec"
    return relro, pie, cls


def has_caps(host):
    try:
        return len(os.getxattr(host, "security.capability", follow_symlinks=False)) > 0
    except OSError:
        return False


def verdict(root, nvra):
    files = [f for f in rpm(root, "-ql", nvra).splitlines() if f.startswith("/")]
    dset = daemons(root, files)
    relro_sum, pie_sum, app_sum, yellow, nelf = "yes", "yes", "", False, 0
    for f in files:
        host = root + f
        if not regular(host) or not is_elf(host):
            continue
        nelf += 1
        relro, pie, cls = file_facts(host, f, os.lstat(host).st_mode, dset)
        if cls in IMPORTANT:
            if relro == "no":
                relro_sum, app_sum = "no", cls
            if pie == "no":
                pie_sum, app_sum = "no", cls
            if relro == "partial":
                yellow = True
        elif relro == "no":   # library and exec: partial RELRO is enough
            relro_sum, app_sum = "no", cls
    relro3 = "no" if relro_sum == "no" else "partial" if yellow else "yes"
    return relro_sum, relro3, pie_sum, app_sum, nelf


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: chksec-ref.py ROOT")
    root = os.path.abspath(sys.argv[1])
    rows = []
    q = rpm(root, "-qa", "--qf", "%{NAME}\t%{ARCH}\t%{NAME}-%{VERSION}-%{RELEASE}.%{ARCH}\n")
    for line in q.splitlines():
        name, arch, nvra = line.split("\t")
        if SKIP.search(nvra):
            continue
        rows.append((f"{name}.{arch}",) + verdict(root, nvra))
    print("package\trelro_all\trelro\tpie\tclass\telf_files")
    for r in sorted(rows):
        print("\t".join(str(x) for x in r))


if __name__ == "__main__":
    main()
