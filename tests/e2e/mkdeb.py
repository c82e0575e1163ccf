#!/usr/bin/env python3
"""Writes a hostile .deb for the end-to-end tests, without dpkg-deb:
members may be sparse (a size with no data behind it), the data member may
claim more than the file holds, control fields may be huge.

mkdeb.py OUT [--maintainer-bytes N] [--control-pad N] [--cut-after-header]
             [--control FILE] [--md5sums PATH,...] PATH:MODE:SOURCE ...
SOURCE = a file, zeros:SIZE, python:SIZE, link:TARGET (a tar hard link to an
earlier member), symlink:TARGET; --control: the control file's bytes as
given (any bytes: escapes, invalid UTF-8); --md5sums: a control md5sums
listing these paths only.
"""
import argparse, gzip, io, os, tarfile

ap = argparse.ArgumentParser()
ap.add_argument('out')
ap.add_argument('--maintainer-bytes', type=int, default=0)
ap.add_argument('--control-pad', type=int, default=0)
ap.add_argument('--cut-after-header', action='store_true',
                help='end the file 100 bytes into the last member: its size is a claim only')
ap.add_argument('--control', help='the control file, as its bytes')
ap.add_argument('--md5sums', help='a control md5sums listing these paths only (dpkg never checks it)')
ap.add_argument('members', nargs='*')
a = ap.parse_intermixed_args()

maint = 'Hostile Maker <h@example.org>' + ('x' * a.maintainer_bytes)
control = ('Package: hostile\nVersion: 1.0\nArchitecture: amd64\nMaintainer: %s\n'
           'Description: hostile test package\n' % maint)
if a.control_pad:
    control += ''.join(' %s\n' % ('p' * 70) for _ in range(a.control_pad // 72 + 1))
cbuf = io.BytesIO()
with tarfile.open(fileobj=cbuf, mode='w:gz') as t:
    data = open(a.control, 'rb').read() if a.control else control.encode()
    ti = tarfile.TarInfo('./control')
    ti.size = len(data)
    t.addfile(ti, io.BytesIO(data))
    if a.md5sums is not None:
        data = ''.join('%s  %s\n' % ('0' * 32, p.lstrip('/'))
                       for p in a.md5sums.split(',') if p).encode()
        ti = tarfile.TarInfo('./md5sums')
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data))
control_tgz = cbuf.getvalue()

# data.tar, uncompressed: (header bytes, content source, size) per member
parts = []
for spec in a.members:
    path, mode, src = spec.split(':', 2)
    ti = tarfile.TarInfo('./' + path.lstrip('/'))
    ti.mode = int(mode, 8)
    if src.startswith(('link:', 'symlink:')):
        kind, target = src.split(':', 1)
        ti.type = tarfile.LNKTYPE if kind == 'link' else tarfile.SYMTYPE
        ti.linkname = target if kind == 'symlink' else './' + target.lstrip('/')
        parts.append((ti.tobuf(format=tarfile.GNU_FORMAT), b'', 0))
    elif src.startswith(('zeros:', 'python:')):
        # a hole; "python:" begins with a script line, so it is judged as one
        kind, size = src.split(':')
        ti.size = int(size)
        head = b'#!/usr/bin/python3\nimport os\n' if kind == 'python' else b''
        parts.append((ti.tobuf(format=tarfile.GNU_FORMAT), head, ti.size))
    else:
        body = open(src, 'rb').read()
        ti.size = len(body)
        parts.append((ti.tobuf(format=tarfile.GNU_FORMAT), body, ti.size))
data_size = sum(len(h) + (s + 511) // 512 * 512 for h, _, s in parts) + 1024

def ar_header(name, size):
    return ('%-16s%-12d%-6d%-6d%-8s%-10d`\n' % (name, 0, 0, 0, '100644', size)).encode()

def write_data_tar(f):
    """The data tar at f's position; returns where the last member's data began."""
    start = 0
    for header, body, size in parts:
        f.write(header)
        start = f.tell()
        if len(body) < size:
            f.write(body)
            f.seek((size + 511) // 512 * 512 - len(body), 1)   # a hole: sparse on disk
        else:
            f.write(body + b'\0' * ((-size) % 512))
    f.write(b'\0' * 1024)
    return start

with open(a.out, 'wb') as f:
    f.write(b'!<arch>\n')
    f.write(ar_header('debian-binary', 4) + b'2.0\n')
    f.write(ar_header('control.tar.gz', len(control_tgz)) + control_tgz)
    if len(control_tgz) % 2:
        f.write(b'\n')
    if a.cut_after_header:
        # data.tar.gz whose stream ends 100 bytes into the last member
        buf = io.BytesIO()
        cut = write_data_tar(buf) + 100
        gz = gzip.compress(buf.getvalue()[:cut])
        f.write(ar_header('data.tar.gz', len(gz)) + gz + b'\n' * (len(gz) % 2))
    else:
        f.write(ar_header('data.tar', data_size))
        write_data_tar(f)
        f.truncate()
