// The lower folders of a container's overlay root (a local run's, and a RUN step's): each layer of the image unpacked once, into
// a folder of its own keyed by its blob digest (checked as it is unpacked), in overlayfs' form (whiteouts as 0:0 character
// devices, opaque directories marked with an xattr), so that images sharing a base share its
// folders. When the folders would not fit in one overlay mount (its options are at most a page),
// the image is unpacked into one tree keyed by its layers' chain of blob digests instead.
#pragma once

#include <filesystem>
#include <vector>

#include "images/image/image.h"

namespace gkebuild::local_runner {

// The folders, topmost first (overlayfs' lowerdir order), under `cache_dir`/layers and
// `cache_dir`/chains. An image without layers (FROM scratch) gets one empty folder. Each folder
// is unpacked under a temporary name and renamed into place, so an interrupted unpack is never
// taken for a finished one; each folder's mtime is set to now, its last use (what `gkebuild prune
// --older-than` goes by). Throws std::runtime_error for a corrupt layer.
std::vector<std::filesystem::path> lower_folders(const image::Image& image, const std::filesystem::path& cache_dir);

// overlayfs' limit on the length of the lowerdir option (the mount options are one page).
inline constexpr size_t kMaxLowerdirLength = 3500;

}  // namespace gkebuild::local_runner
