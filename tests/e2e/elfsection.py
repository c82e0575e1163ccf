#!/usr/bin/env python3
"""Damages one section of a 64-bit little-endian ELF file in place, for
the debug-file tests (tests/e2e/dwarf-flags.sh):

  elfsection.py FILE size NAME N        sets the section's sh_size to N
  elfsection.py FILE replace NAME OLD NEW   replaces bytes in its contents
                                        (same length; OLD, NEW in Python
                                        bytes-literal syntax)
"""
import ast
import struct
import sys


def sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    def hdr(i):
        return shoff + i * shentsize
    stroff, = struct.unpack_from("<Q", data, hdr(shstrndx) + 0x18)
    for i in range(shnum):
        h = hdr(i)
        name_off, = struct.unpack_from("<I", data, h)
        end = data.index(b"\0", stroff + name_off)
        yield data[stroff + name_off:end].decode(), h


def main():
    path, op, name = sys.argv[1:4]
    data = bytearray(open(path, "rb").read())
    h = dict(sections(data)).get(name)
    if h is None:
        sys.exit(f"{path}: no section {name}")
    if op == "size":
        struct.pack_into("<Q", data, h + 0x20, int(sys.argv[4]))
    elif op == "replace":
        old, new = (ast.literal_eval(a) for a in sys.argv[4:6])
        assert len(old) == len(new)
        off, size = struct.unpack_from("<QQ", data, h + 0x18)
        body = bytes(data[off:off + size])
        if old not in body:
            sys.exit(f"{path}: {old!r} not in {name}")
        data[off:off + size] = body.replace(old, new)
    open(path, "wb").write(data)


main()
