#!/usr/bin/env python3
"""A hostile copy of an ELF64 for the end-to-end tests: one section's
header claims SIZE bytes and the file is extended (a hole, sparse on disk)
so the claim is within its bounds, as libelf checks.  shnum: the header
claims SIZE sections through extended numbering (e_shnum 0, the count in
section 0's sh_size), the file extended to hold them all.

mkelf.py IN dynsym|dynstr|note|rodata|dynamic|shnum SIZE OUT...
"""
import os, shutil, struct, sys

def hostile_copy(src, out, what, size):
    shutil.copyfile(src, out)
    with open(out, 'r+b') as f:
        data = f.read()
        assert data[:4] == b'\x7fELF' and data[4] == 2, 'ELF64 only'
        shoff, = struct.unpack_from('<Q', data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
        def shdr(i):
            return struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
        if what == 'shnum':
            f.seek(0x3c)
            f.write(struct.pack('<H', 0))
            f.seek(shoff + 0x20)
            f.write(struct.pack('<Q', size))
            f.truncate(shoff + size * shentsize)
            return
        names = shdr(shstrndx)[4]
        def name(i):
            off = names + shdr(i)[0]
            return data[off:data.index(b'\0', off)].decode()
        types = {'dynsym': 11, 'note': 7, 'dynamic': 6}
        target = None
        for i in range(shnum):
            h = shdr(i)
            if what == 'dynstr' and h[1] == 11:
                target = h[6]   # the symbol table's sh_link
            elif what == 'rodata' and name(i) == '.rodata':
                target = i
            elif what in types and h[1] == types[what]:
                target = i
            if target is not None:
                break
        assert target is not None, 'no ' + what
        h = shdr(target)
        f.seek(shoff + target * shentsize + 0x20)   # sh_size
        f.write(struct.pack('<Q', size))
        f.truncate(max(len(data), h[4] + size))

src, what, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
for out in sys.argv[4:]:
    hostile_copy(src, out, what, size)
