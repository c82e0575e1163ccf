#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Builds container images for tests/e2e/images.sh, as an OCI image layout,
an OCI archive and a Docker archive (`docker save`'s layout), from a base
layer tar and a top layer made here.

  mkimage.py OUT --base BASE.tar [--top NAME=HOSTFILE ...] [--capped NAME=HOSTFILE ...]
             [--whiteout PATH ...]
             [--opaque DIR ...] [--entrypoint PATH] [--user USER]
             [--hostile KIND] [--platforms LIST] [--compress gzip|zstd|none]

(--capped: with the file capability cap_net_raw=ep as a pax
SCHILY.xattr; --hardlink NAME=TARGET: a hard link to a --top file), writes OUT/layout/ (oci-layout, index.json, blobs/sha256/...), OUT/oci.tar,
OUT/docker.tar and OUT/top.oci and OUT/top.docker (the top layer's digest as
each names it).  --hostile makes one thing wrong: digest (the top layer's
bytes changed after its digest was taken), escape (the manifest's layer
digest is "../../x"), truncated (the top layer blob cut in half), size (its
declared size 2**62), dotdot (a top-layer entry ../../../tmp/escaped),
docker-escape (manifest.json names ../outside.tar).  --platforms
"linux/arm64,linux/amd64": an index of one manifest per platform (the
same layers).  --compress: the OCI layers' compression (gzip by default;
zstd runs the zstd program)."""
import argparse
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import tarfile


def sha(data):
    return hashlib.sha256(data).hexdigest()


def top_layer(args):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        def add(name, data, mode=0o644, pax=None):
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            ti.mode = mode
            ti.mtime = 1700000000
            ti.pax_headers = pax or {}
            t.addfile(ti, io.BytesIO(data))
        for w in args.whiteout:
            d, b = os.path.split(w.strip("/"))
            add(os.path.join(d, ".wh." + b), b"")
        for d in args.opaque:
            add(os.path.join(d.strip("/"), ".wh..wh..opq"), b"")
        for spec in args.top:
            name, host = spec.split("=", 1)
            with open(host, "rb") as f:
                add(name.strip("/"), f.read(), 0o755)
        for spec in args.capped:
            # cap_net_raw=ep (VFS_CAP_REVISION_2, effective)
            name, host = spec.split("=", 1)
            cap = {"SCHILY.xattr.security.capability": "\x01\x00\x00\x02\x00\x20\x00\x00"}
            with open(host, "rb") as f:
                add(name.strip("/"), f.read(), 0o755, cap)
        for spec in args.hardlink:
            name, target = spec.split("=", 1)
            ti = tarfile.TarInfo(name.strip("/"))
            ti.type, ti.linkname, ti.mode = tarfile.LNKTYPE, target.strip("/"), 0o755
            t.addfile(ti)
        if args.hostile == "dotdot":
            add("../../../tmp/escaped", b"#!/bin/sh\n", 0o755)
    return buf.getvalue()


def compress(data, how):
    if how == "zstd":
        return subprocess.run(["zstd", "-q", "-c", "-19"], input=data, stdout=subprocess.PIPE,
                              check=True).stdout
    return data if how == "none" else gzip.compress(data, compresslevel=1, mtime=0)


LAYER_TYPES = {"gzip": "tar+gzip", "zstd": "tar+zstd", "none": "tar"}


def write_blob(layout, data):
    h = sha(data)
    os.makedirs(os.path.join(layout, "blobs", "sha256"), exist_ok=True)
    with open(os.path.join(layout, "blobs", "sha256", h), "wb") as f:
        f.write(data)
    return h


def tar_dir(src, dst):
    with tarfile.open(dst, "w", format=tarfile.PAX_FORMAT) as t:
        for root, dirs, files in os.walk(src):
            dirs.sort()
            for n in sorted(files):
                p = os.path.join(root, n)
                t.add(p, os.path.relpath(p, src))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--base", required=True)
    ap.add_argument("--top", action="append", default=[])
    ap.add_argument("--whiteout", action="append", default=[])
    ap.add_argument("--capped", action="append", default=[])
    ap.add_argument("--hardlink", action="append", default=[])
    ap.add_argument("--opaque", action="append", default=[])
    ap.add_argument("--entrypoint")
    ap.add_argument("--user")
    ap.add_argument("--hostile")
    ap.add_argument("--platforms")
    ap.add_argument("--compress", default="gzip", choices=sorted(LAYER_TYPES))
    args = ap.parse_args()
    out = args.out
    shutil.rmtree(out, ignore_errors=True)
    layout = os.path.join(out, "layout")
    os.makedirs(layout)
    with open(args.base, "rb") as f:
        base_tar = f.read()
    top_tar = top_layer(args)
    base_gz = compress(base_tar, args.compress)
    top_gz = compress(top_tar, args.compress)
    base_h = write_blob(layout, base_gz)
    top_h = write_blob(layout, top_gz)
    cfg = {
        "architecture": "amd64", "os": "linux",
        "config": {"Env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]},
        "rootfs": {"type": "layers", "diff_ids": ["sha256:" + sha(base_tar), "sha256:" + sha(top_tar)]},
    }
    if args.entrypoint:
        cfg["config"]["Entrypoint"] = [args.entrypoint]
    if args.user is not None:
        cfg["config"]["User"] = args.user
    platforms = args.platforms.split(",") if args.platforms else [None]
    descs = []
    for plat in platforms:
        c = dict(cfg)
        if plat:
            os_, arch = plat.split("/")[:2]
            c["os"], c["architecture"] = os_, arch
        cfg_bytes = json.dumps(c, sort_keys=True).encode()
        cfg_h = write_blob(layout, cfg_bytes)
        top_digest = "sha256:" + top_h
        top_size = len(top_gz)
        if args.hostile == "escape":
            top_digest = "../../../../etc/passwd"
        if args.hostile == "size":
            top_size = 2 ** 62
        manifest = {
            "schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                       "digest": "sha256:" + cfg_h, "size": len(cfg_bytes)},
            "layers": [
                {"mediaType": "application/vnd.oci.image.layer.v1." + LAYER_TYPES[args.compress],
                 "digest": "sha256:" + base_h, "size": len(base_gz)},
                {"mediaType": "application/vnd.oci.image.layer.v1." + LAYER_TYPES[args.compress],
                 "digest": top_digest, "size": top_size},
            ],
        }
        mb = json.dumps(manifest, sort_keys=True).encode()
        mh = write_blob(layout, mb)
        d = {"mediaType": "application/vnd.oci.image.manifest.v1+json",
             "digest": "sha256:" + mh, "size": len(mb),
             "annotations": {"org.opencontainers.image.ref.name": "test"}}
        if plat:
            d["platform"] = {"os": c["os"], "architecture": c["architecture"]}
        descs.append(d)
    with open(os.path.join(layout, "index.json"), "w") as f:
        json.dump({"schemaVersion": 2, "manifests": descs}, f)
    with open(os.path.join(layout, "oci-layout"), "w") as f:
        json.dump({"imageLayoutVersion": "1.0.0"}, f)
    top_path = os.path.join(layout, "blobs", "sha256", top_h)
    if args.hostile == "digest":
        with open(top_path, "wb") as f:
            f.write(compress(top_tar + b"\0" * 512, args.compress))
    if args.hostile == "truncated":
        with open(top_path, "r+b") as f:
            f.truncate(len(top_gz) // 2)
    with open(os.path.join(out, "top.oci"), "w") as f:
        f.write("sha256:" + top_h + "\n")
    tar_dir(layout, os.path.join(out, "oci.tar"))

    # docker save: HEX.json (the config), ID/layer.tar (uncompressed),
    # manifest.json naming them; the layers are checked by diff_id
    dk = os.path.join(out, "docker")
    os.makedirs(dk)
    cfg_bytes = json.dumps(cfg, sort_keys=True).encode()
    cfg_name = sha(cfg_bytes) + ".json"
    with open(os.path.join(dk, cfg_name), "wb") as f:
        f.write(cfg_bytes)
    names = []
    for i, data in enumerate((base_tar, top_tar)):
        lid = sha(("layer%d" % i).encode())
        os.makedirs(os.path.join(dk, lid))
        if args.hostile == "truncated" and i == 1:
            data = data[: len(data) // 2]
        if args.hostile == "digest" and i == 1:
            data = data + b"\0" * 512
        with open(os.path.join(dk, lid, "layer.tar"), "wb") as f:
            f.write(data)
        names.append(lid + "/layer.tar")
    if args.hostile == "docker-escape":
        names[1] = "../outside.tar"
    with open(os.path.join(dk, "manifest.json"), "w") as f:
        json.dump([{"Config": cfg_name, "RepoTags": ["distsec/test:latest"], "Layers": names}], f)
    with open(os.path.join(out, "top.docker"), "w") as f:
        f.write("sha256:" + sha(top_tar) + "\n")
    tar_dir(dk, os.path.join(out, "docker.tar"))
    shutil.rmtree(dk)


if __name__ == "__main__":
    main()
