#!/usr/bin/env python3
"""Prints 'N passed, N failed' from one or more meson testlog.json files."""
import json
import sys

passed = failed = skipped = 0
for path in sys.argv[1:]:
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r["result"] in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif r["result"] == "SKIP":
                skipped += 1
            else:
                failed += 1
                print(f"failed: {r['name']} ({r['result']})")
print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
sys.exit(1 if failed else 0)
