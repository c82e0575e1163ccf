/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Container images (image.c): an OCI image layout (a directory), an OCI
 * archive (a tar of one) or a Docker archive (`docker save`), read as the
 * system it holds: the layers applied in order with their whiteouts into
 * an index in memory (path -> the layer and entry that last wrote it),
 * every blob's sha256 checked as it is read.  Contents are never written
 * out, but for the package databases the backends read, which are copied
 * into a private directory standing for the root.
 */
#ifndef DISTSEC_IMAGE_H
#define DISTSEC_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "distsec/backend.h"
#include "distsec/scan.h"

struct ds_image;

/* Does arg start with the oci:, oci-archive: or docker-archive: prefix? */
bool ds_image_prefixed(const char *arg);
/* Does arg name an image: by its prefix, or as a host directory or file
 * whose contents are one? */
bool ds_image_named(const char *arg);

/* Reads the image arg names: its index or manifest, its config, and every
 * layer (the index of the flattened view).  platform: "os/arch[/variant]",
 * NULL for the host's.  NULL with why when the image cannot be used at all
 * (no manifest, no platform matches); what is wrong inside a layer (a
 * digest that does not match, a truncated blob, a path leaving the root)
 * is kept as a problem (ds_image_problems) and the rest is read. */
struct ds_image *ds_image_open(const char *arg, const char *platform, uint64_t max_decompressed,
                               struct ds_error *err);
void ds_image_free(struct ds_image *im);
const struct ds_image_info *ds_image_info(const struct ds_image *im);
/* What was wrong in the image's blobs, one sentence each. */
size_t ds_image_problems(const struct ds_image *im, const char *const **out);
size_t ds_image_layer_count(const struct ds_image *im);

/* Copies the flattened view's files under the paths some backend reads
 * (ds_backend.root_files) into dirfd, and the view's top-level symbolic
 * links (merged /usr) as relative ones: a root for probe and open.  0, or
 * -1 with why. */
int ds_image_copy_root_files(struct ds_image *im, int dirfd, struct ds_error *err);

/* The regular files of the flattened view want() takes, with their
 * contents (read while the layers were indexed, each at most 256 KiB). */
void ds_image_each_kept(const struct ds_image *im,
                        void (*cb)(const char *path, const unsigned char *data, size_t len,
                                   void *ctx),
                        void *ctx);
/* The path a name of the view resolves to through its symbolic links
 * (absolute; NULL when nothing of the view is there).  Caller frees. */
char *ds_image_resolve(const struct ds_image *im, const char *path);

/* Reads layer i again and calls cb for each of its members the flattened
 * view holds (a regular file with its contents, as a package file's
 * member); layer is its digest.  0, or -1 with why when the layer could
 * not be read whole (the members before were handed out). */
int ds_image_layer_members(struct ds_image *im, size_t i,
                           void (*cb)(const struct ds_member *m, const char *layer, void *ctx),
                           void *ctx, struct ds_error *err);

#endif
