// Paths inside a container's root file system, resolved the way the container will see
// them: symlinks are followed, an absolute target starts again at the root, and ".."
// never climbs above it. Unpacking a layer goes through this, so no entry and no symlink
// in an image can make gkebuild write outside the root file system.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace gkebuild::local_runner {

// Entry names are made relative and normal with tree_path (base/confined_path.h).

// The host path of `relative` inside `root`, every existing symlink on the way resolved
// within `root` (like chroot + realpath). Missing components are kept as they are; a
// symlink as the last component is followed too. Throws on a symlink loop.
std::filesystem::path resolve_in_root(const std::filesystem::path& root, std::string_view relative);

}  // namespace gkebuild::local_runner
