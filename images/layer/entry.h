// One file system entry of a layer, as it will appear in the image.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace gkebuild::layer {

enum class EntryType { kFile, kDirectory, kSymlink };

// Which file a path named when it was listed (stat's st_dev, st_ino).
struct FileIdentity {
  uint64_t device = 0;
  uint64_t inode = 0;
};

struct Entry {
  std::string path;  // inside the image, relative: "usr/bin/app" (no leading or trailing '/')
  EntryType type = EntryType::kFile;
  uint32_t mode = 0644;  // permission bits only (07777)
  uint32_t uid = 0;
  uint32_t gid = 0;
  int64_t size = 0;                 // files: the number of bytes read from `source`
  std::string link_target;          // symlinks
  std::filesystem::path source;     // files: where the content comes from
  // Files listed from a directory someone else may change (a build context): when set, the
  // writer opens `source` without following a symlink and refuses any file that is not this
  // one, or not `size` bytes long, so that a swap after listing cannot put other bytes in.
  std::optional<FileIdentity> listed_as;
};

}  // namespace gkebuild::layer
