// An exclusive advisory lock on a file (flock), held for the object's lifetime.
// The kernel drops it when the process dies, so a killed build never leaves a
// layout locked.
#pragma once

#include <filesystem>

namespace gkebuild::oci {

class FileLock {
 public:
  // Blocks until the lock on `path` (created if missing) is held.
  explicit FileLock(const std::filesystem::path& path);
  ~FileLock();
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&&) = delete;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace gkebuild::oci
