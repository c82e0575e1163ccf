#!/usr/bin/env python3
"""Writes a large distsec JSON report for the end-to-end tests (as a scan
would write it, pretty-printed):

mkreport.py old|new OUT N   N one-file packages o0..; "new" renames every
                            other one (n0, n2...: the same path)
mkreport.py warnings OUT N  no findings, N distinct summary.warnings
mkreport.py big OUT N       N findings of N/4 packages, four checks
"""
import json, sys
kind, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def owner(name, i=0):
    return {"status": "package", "name": name, "version": "1.%d-1" % (i % 7), "arch": "amd64",
            "source": name, "maintainer": "Maintainer %d <m%d@example.org>" % (i % 50, i % 50)}
def doc(findings, warnings=()):
    return {"tool": {"name": "distsec", "version": "0.1.0"}, "root": "/", "backend": "dpkg",
            "profile": "debian", "findings": findings,
            "summary": {"files": len(findings), "elf_files": len(findings), "elf_not_judged": 0,
                        "scripts": 0, "packages": 0, "findings": {"error": 0, "warning": 0, "info": 0},
                        "waived": 0, "seconds": 1.5, "by_package": {}, "skipped_checks": [],
                        "warnings": list(warnings), "checks_run": ["elf-pie", "elf-relro"],
                        "unused_waivers": []}}
def rec(check, sev, path, own, msg, details):
    return {"check": check, "severity": sev, "path": path, "owner": own, "message": msg, "details": details}
if kind in ("old", "new"):
    # n one-file packages; the new side renames every other one
    f = []
    for i in range(n):
        name = "o%d" % i if kind == "old" or i % 2 else "n%d" % i
        f.append(rec("elf-pie", "pass", "/usr/bin/f%d" % i, owner(name, i), "PIE",
                     {"pie": True, "class": "exec", "type": "ET_DYN"}))
    d = doc(f)
elif kind == "warnings":
    d = doc([], ["warning number %d about something" % i for i in range(n)])
else:   # big: n findings of n/4 packages, as a real scan writes them
    f = []
    for i in range(n):
        pkg = "package-%d" % (i // 4)
        f.append(rec(["elf-pie", "elf-relro", "elf-canary", "elf-fortify"][i % 4],
                     ["pass", "info", "warning", "error"][i % 4],
                     "/usr/lib/x86_64-linux-gnu/%s/plugins/libplugin-%d.so.0.%d" % (pkg, i, i % 9),
                     owner(pkg, i // 4),
                     "not built as a position-independent executable (PIE): ASLR cannot move its code",
                     {"class": ["exec", "library", "daemon"][i % 3], "pie": i % 2 == 0, "type": "ET_DYN",
                      "relro": ["full", "partial", "none"][i % 3], "bind_now": i % 5 == 0}))
    d = doc(f)
json.dump(d, open(out, "w"), indent=2)
