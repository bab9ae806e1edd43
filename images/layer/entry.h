// One file system entry of a layer, as it will appear in the image.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace gkebuild::layer {

enum class EntryType { kFile, kDirectory, kSymlink };

struct Entry {
  std::string path;  // inside the image, relative: "usr/bin/app" (no leading or trailing '/')
  EntryType type = EntryType::kFile;
  uint32_t mode = 0644;  // permission bits only (07777)
  uint32_t uid = 0;
  uint32_t gid = 0;
  int64_t size = 0;                 // files: the number of bytes read from `source`
  std::string link_target;          // symlinks
  std::filesystem::path source;     // files: where the content comes from
};

}  // namespace gkebuild::layer
