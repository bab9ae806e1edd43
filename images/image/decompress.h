// Streaming decompression of layer blobs (gzip with any number of members, zstd,
// or a plain tar), in bounded memory.
#pragma once

#include <filesystem>
#include <string_view>

#include "images/layer/byte_sink.h"

namespace gkebuild::image {

// Throws std::runtime_error for a corrupt blob or an unknown media type.
void decompress_blob(const std::filesystem::path& blob, std::string_view media_type,
                     layer::ByteSink& out);

}  // namespace gkebuild::image
