#!/usr/bin/env python3
"""Turns a v4 .rpm built by rpmbuild (xz or gzip payload) into an rpm v6
package, laid out as rpm's docs/manual/format_v6.md describes it, because
Debian 12's rpm (4.18) cannot build one:

- lead: major version 4, architecture and OS numbers zero;
- signature: only the HEADERSIGNATURES region, the header's SHA256 and
  SHA3-256 digests and the RESERVED (999) space, no size or MD5/SHA1 tags;
- header: RPMFORMAT 6, 64-bit sizes only (LONGFILESIZES, LONGSIZE,
  PAYLOADSIZE, PAYLOADSIZEALT instead of FILESIZES, SIZE, ARCHIVESIZE),
  payload SHA256 digests of the new payload (compressed and not);
- payload: rpm's own cpio with stripped "07070X" headers that carry only the
  file's index in the header (file metadata lives in the header alone),
  ending with a newc TRAILER!!! entry.

Hard-linked files are not handled (the fixtures have none).

usage: rpm-v6.py IN.rpm OUT.rpm
"""
import gzip
import hashlib
import lzma
import struct
import sys

HDR_MAGIC = b"\x8e\xad\xe8\x01\x00\x00\x00\x00"
ALIGN = {2: 1, 3: 2, 4: 4, 5: 8}          # CHAR/INT8, INT16, INT32, INT64
BIN, STRING, STRING_ARRAY, INT32, INT64 = 7, 6, 8, 4, 5


def read_header(buf, off):
    """Returns ({tag: (type, count, raw bytes)}, end offset)."""
    if buf[off:off + 8] != HDR_MAGIC:
        sys.exit("not an rpm header at %d" % off)
    il, dl = struct.unpack(">II", buf[off + 8:off + 16])
    index = buf[off + 16:off + 16 + 16 * il]
    data = buf[off + 16 + 16 * il:off + 16 + 16 * il + dl]
    entries = [struct.unpack(">IIiI", index[i * 16:i * 16 + 16]) for i in range(il)]
    tags = {}
    for n, (tag, typ, offset, count) in enumerate(entries):
        if tag in (62, 63):
            continue
        ends = [e[2] for e in entries if e[2] > offset and e[0] not in (62, 63)]
        end = min(ends) if ends else dl
        raw = data[offset:end]
        if typ in (STRING, STRING_ARRAY, 9):          # keep exactly count strings
            parts = raw.split(b"\0")[:count if typ != STRING else 1]
            raw = b"".join(p + b"\0" for p in parts)
        elif typ in ALIGN:
            raw = raw[:ALIGN[typ] * count]
        else:
            raw = raw[:count]
        tags[tag] = (typ, count, raw)
    return tags, off + 16 + 16 * il + dl


def write_header(tags, region):
    """An immutable region header of tags, sorted, data in index order."""
    order = sorted(tags)
    il = len(order) + 1
    data = b""
    index = []
    for tag in order:
        typ, count, raw = tags[tag]
        a = ALIGN.get(typ, 1)
        data += b"\0" * ((-len(data)) % a)
        index.append(struct.pack(">IIiI", tag, typ, len(data), count))
        data += raw
    trailer_at = len(data)
    data += struct.pack(">IIiI", region, BIN, -16 * il, 16)
    index.insert(0, struct.pack(">IIiI", region, BIN, trailer_at, 16))
    return HDR_MAGIC + struct.pack(">II", il, len(data)) + b"".join(index) + data


def strings(tags, tag):
    return [s.decode() for s in tags[tag][2].split(b"\0")[:tags[tag][1]]]


def ints(tags, tag):
    typ, count, raw = tags[tag]
    return list(struct.unpack(">%d%s" % (count, "I" if typ == INT32 else "Q"), raw))


def cpio_members(cpio):
    """(name, data) of each newc entry, in order."""
    off = 0
    while True:
        if cpio[off:off + 6] not in (b"070701", b"070702"):
            sys.exit("unexpected cpio magic at %d" % off)
        fields = [int(cpio[off + 6 + 8 * i:off + 14 + 8 * i], 16) for i in range(13)]
        size, namesize = fields[6], fields[11]
        name = cpio[off + 110:off + 110 + namesize - 1].decode()
        off += 110 + namesize
        off += (-off) % 4
        if name == "TRAILER!!!":
            return
        yield name, cpio[off:off + size]
        off += size
        off += (-off) % 4


def stripped_cpio(cpio, paths):
    out = b""
    for name, data in cpio_members(cpio):
        fx = paths.index("/" + name.lstrip("./"))
        out += b"07070X" + b"%08x" % fx
        out += b"\0" * ((-len(out)) % 4)
        out += data
        out += b"\0" * ((-len(out)) % 4)
    trailer = b"070701" + b"".join(b"%08x" % v for v in
                                   (0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 11, 0))
    out += trailer + b"TRAILER!!!\0"
    out += b"\0" * ((-len(out)) % 4)
    return out


def main(src, dst):
    buf = open(src, "rb").read()
    lead = bytearray(buf[:96])
    lead[4] = 4                                  # major: v6 packages say 4
    lead[8:10] = b"\0\0"                         # archnum
    lead[76:78] = b"\0\0"                        # osnum
    _, sig_end = read_header(buf, 96)
    hdr_at = sig_end + (-sig_end) % 8
    tags, payload_at = read_header(buf, hdr_at)

    compressor = strings(tags, 1125)[0] if 1125 in tags else "gzip"
    payload = buf[payload_at:]
    if compressor == "xz":
        cpio, recompress = lzma.decompress(payload), lambda b: lzma.compress(b)
    elif compressor == "gzip":
        cpio, recompress = gzip.decompress(payload), lambda b: gzip.compress(b)
    else:
        sys.exit("payload compressor %s not handled" % compressor)

    dirs, bases, idx = strings(tags, 1118), strings(tags, 1117), ints(tags, 1116)
    paths = [dirs[idx[i]] + bases[i] for i in range(len(bases))]
    new_cpio = stripped_cpio(cpio, paths)
    new_payload = recompress(new_cpio)

    sizes = ints(tags, 1028) if 1028 in tags else ints(tags, 5008)
    for t in (1009, 1028, 1046, 5093, 269, 273):     # 32-bit sizes, legacy digests
        tags.pop(t, None)
    tags[5008] = (INT64, len(sizes), struct.pack(">%dQ" % len(sizes), *sizes))
    tags[5009] = (INT64, 1, struct.pack(">Q", sum(sizes)))
    tags[5112] = (INT64, 1, struct.pack(">Q", len(new_payload)))
    tags[5113] = (INT64, 1, struct.pack(">Q", len(new_cpio)))
    tags[5114] = (INT32, 1, struct.pack(">I", 6))
    tags[5062] = (STRING, 1, b"utf-8\0")
    tags[5092] = (STRING_ARRAY, 1, hashlib.sha256(new_payload).hexdigest().encode() + b"\0")
    tags[5097] = (STRING_ARRAY, 1, hashlib.sha256(new_cpio).hexdigest().encode() + b"\0")
    tags[5093] = (INT32, 1, struct.pack(">I", 8))  # PGPHASHALGO_SHA256
    header = write_header(tags, 63)

    sig = {
        273: (STRING, 1, hashlib.sha256(header).hexdigest().encode() + b"\0"),
        279: (STRING, 1, hashlib.sha3_256(header).hexdigest().encode() + b"\0"),
        999: (BIN, 4096, b"\0" * 4096),
    }
    signature = write_header(sig, 62)
    signature += b"\0" * ((-len(signature)) % 8)
    with open(dst, "wb") as f:
        f.write(bytes(lead) + signature + header + new_payload)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
