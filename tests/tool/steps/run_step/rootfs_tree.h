// An unpacked root file system as the buildah comparisons compare it: each path with its type
// and mode, owner, size-bounded contents (or their hash), link count and symlink target.
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace gkebuild::run_step::testing {

std::map<std::string, std::string> tree_of(const std::filesystem::path& rootfs);

}  // namespace gkebuild::run_step::testing
