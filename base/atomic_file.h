// Writing files so that a reader never sees half of one: write to a temporary
// name in the same directory, flush to disk, then rename over the target.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace gkebuild {

// Who may read a written file. kShared honours the umask, as open(2) with 0666 would;
// kOwnerOnly (0600) is for files that may hold secrets: run records, pins.
enum class FileAccess { kShared, kOwnerOnly };

// Replaces `path` with `content` atomically. Creates parent directories.
// Throws std::system_error naming the path on failure; the old file is intact then.
void write_file_atomically(const std::filesystem::path& path, std::string_view content,
                           FileAccess access = FileAccess::kShared);

// Reads a whole regular file (base/input_file.h); throws naming the path on failure.
std::string read_file(const std::filesystem::path& path);

// A temporary file in `dir` that is removed on destruction unless committed
// by renaming it to its final name.
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::filesystem::path& dir, std::string_view stem = "tmp");
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  int fd() const { return fd_; }
  const std::filesystem::path& path() const { return path_; }
  void write(std::string_view bytes);
  // Sets the mode `access` asks for, fsyncs, closes and renames onto `target`; after this
  // the destructor does nothing.
  void commit(const std::filesystem::path& target, FileAccess access = FileAccess::kShared);

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  bool committed_ = false;
};

}  // namespace gkebuild
