// The layers of images from an OCI layout, each unpacked once (by its checked blob digest) into a
// folder of its own: a container's root is an overlay of them, so a new image version that shares
// its base unpacks only its new layers (as containerd's overlayfs snapshotter does).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "images/oci/digest.h"
#include "images/oci/manifest.h"

namespace gkebuild::local_runner {

struct UnpackedImage {
  oci::Digest digest;          // the manifest's
  oci::ImageConfig config;
  // The image's layers, each unpacked once into a read-only folder (layer_folders.h), topmost
  // first: an overlay's lowerdir. Shared by every run of every image that has them.
  std::vector<std::filesystem::path> lowers;
};

// The image `image` (a NAME:TAG of the layout's index.json, or a sha256:… manifest or index
// digest) with its layers unpacked under `cache_dir` (layers/ and chains/, lower_folders): each
// blob checked against its digest as it is unpacked, so the folders can be shared by every project
// on the machine; each unpacked into a temporary folder and renamed into place, so an
// interrupted unpack is never mistaken for a finished one.
// Throws std::runtime_error: no layout, an image that is not in it (naming those that are).
UnpackedImage unpack_image(const std::filesystem::path& layout_dir, const std::string& image,
                           const std::filesystem::path& cache_dir);

}  // namespace gkebuild::local_runner
