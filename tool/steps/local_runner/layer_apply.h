// Applying an image layer to a root file system, as a container runtime does: entries in
// order with their owners, modes, times and extended attributes, and the OCI whiteouts
// (".wh.NAME" deletes NAME from the layers below, ".wh..wh..opq" empties a directory of
// them). Every path is resolved inside the root file system (see root_path.h).
#pragma once

#include <filesystem>

#include "images/oci/digest.h"

namespace gkebuild::local_runner {

// What the OCI whiteouts become.
enum class Whiteouts {
  kApply,    // deletions: the layers below are in `rootfs` already
  kOverlay,  // overlayfs' form, for a folder that holds this layer alone and is one lower folder of an
             // overlay mount: ".wh.NAME" -> NAME as a 0:0 character device, ".wh..wh..opq" -> the
             // directory's xattr trusted.overlay.opaque=y
};

// Applies the layer blob (a tar, plain, gzip or zstd) to `rootfs`, checking while it reads
// that the blob's bytes match `digest`. Throws std::runtime_error naming the layer and the
// entry: a corrupt or mismatching blob, an entry that would leave the root file system.
void apply_layer(const std::filesystem::path& blob, const oci::Digest& digest,
                 const std::filesystem::path& rootfs, Whiteouts whiteouts = Whiteouts::kApply);

}  // namespace gkebuild::local_runner
