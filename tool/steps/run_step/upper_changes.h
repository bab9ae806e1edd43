// What a RUN changed, read from the upper folder of its overlay mount, as layer entries: the
// files, directories, symlinks and special files it added or changed (with the owner and mode
// the upper folder gives them), hard links (two names of one inode in the upper folder),
// deletions as ".wh.NAME" and directories it emptied and remade as ".wh..wh..opq".
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "images/layer/entry.h"

namespace gkebuild::run_step {

// A directory's mode and owner.
struct DirectoryState {
  uint32_t mode = 0, uid = 0, gid = 0;
  bool operator==(const DirectoryState&) const = default;
};

// What the runtime made for its mount points, which the layer must not hold.
struct RuntimeMade {
  // Paths (relative: "etc/hosts", "proc") that did not exist before the container started. They
  // are left out, and so is a directory among them that holds nothing else the RUN wrote.
  std::set<std::string> paths;
  // The existing directories the runtime created them in, as they were before: overlayfs copies
  // such a directory up; it is left out when it holds nothing else and its mode and owner are the same.
  std::map<std::string, DirectoryState> parents;
};

// Entries are sorted by path; each file entry's source is its path in `upper`. Throws
// std::runtime_error when the folder cannot be read.
std::vector<layer::Entry> upper_changes(const std::filesystem::path& upper, const RuntimeMade& runtime_made);

}  // namespace gkebuild::run_step
