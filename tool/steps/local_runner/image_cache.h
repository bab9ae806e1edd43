// Root file systems of images from an OCI layout, unpacked once per list of layers.
#pragma once

#include <filesystem>
#include <string>

#include "images/oci/digest.h"
#include "images/oci/manifest.h"

namespace gkebuild::local_runner {

struct UnpackedImage {
  oci::Digest digest;          // the manifest's
  oci::ImageConfig config;
  std::filesystem::path rootfs;  // shared by every run of the image: never write into it
};

// The image `image` (a NAME:TAG of the layout's index.json, or a sha256:… manifest or index
// digest) unpacked under `cache_dir`/KEY/rootfs, KEY the SHA-256 of its layers' blob digests
// (each blob checked against its digest as it is unpacked, so the folder can be shared by every
// project on the machine). The first call unpacks into a temporary
// folder and renames it into place, so an interrupted unpack is never mistaken for a
// finished one and two runs unpacking at once both end with the same tree.
// Throws std::runtime_error: no layout, an image that is not in it (naming those that are).
UnpackedImage unpack_image(const std::filesystem::path& layout_dir, const std::string& image,
                           const std::filesystem::path& cache_dir);

}  // namespace gkebuild::local_runner
