// One file system entry of a layer, as it will appear in the image.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gkebuild::layer {

// kHardlink: another name for the file at `link_target` (a path of the same layer, written
// before it). kCharDevice, kBlockDevice, kFifo: special files (`device_major`, `device_minor`).
// A whiteout (".wh.NAME", ".wh..wh..opq") is a kFile of size 0 without a source.
enum class EntryType { kFile, kDirectory, kSymlink, kHardlink, kCharDevice, kBlockDevice, kFifo };

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
  std::string link_target;          // symlinks and hard links
  std::filesystem::path source;     // files: where the content comes from
  // Files listed from a directory someone else may change (a build context): when set, the
  // writer opens `source` without following a symlink and refuses any file that is not this
  // one, or not `size` bytes long, so that a swap after listing cannot put other bytes in.
  std::optional<FileIdentity> listed_as;
  uint32_t device_major = 0;  // character and block devices
  uint32_t device_minor = 0;
};

// The OCI whiteouts: ".wh.NAME" deletes NAME of the layers below, ".wh..wh..opq" in a
// directory hides everything the layers below put in it.
inline constexpr std::string_view kWhiteoutPrefix = ".wh.";
inline constexpr std::string_view kOpaqueWhiteout = ".wh..wh..opq";

}  // namespace gkebuild::layer
