// Writes one layer blob into an OCI layout in a single pass over the files:
// tar -> SHA-256 (diff_id) -> compressor -> SHA-256 (digest) -> temporary blob
// file, renamed into blobs/ when complete.
#pragma once

#include <vector>

#include "images/layer/compression.h"
#include "images/layer/entry.h"
#include "images/oci/layout.h"

namespace gkebuild::layer {

struct LayerOptions {
  CompressionOptions compression;
  int64_t mtime = 0;  // every entry's modification time (SOURCE_DATE_EPOCH)
};

struct BuiltLayer {
  oci::Descriptor blob;  // the compressed blob, with its OCI layer media type
  oci::Digest diff_id;   // SHA-256 of the uncompressed tar
};

// Entries are written in path order whatever order they come in.
BuiltLayer write_layer(const oci::Layout& layout, std::vector<Entry> entries,
                       const LayerOptions& options);

// The diff_id the entries would give, without compressing or writing anything.
oci::Digest diff_id_of(std::vector<Entry> entries, int64_t mtime);

// Streams the layer's uncompressed tar into `out`.
void write_tar(std::vector<Entry> entries, int64_t mtime, ByteSink& out);

std::string_view layer_media_type(Compression kind);

}  // namespace gkebuild::layer
