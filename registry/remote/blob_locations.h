// Where blobs are known to live in registries ("registry/repository" per
// digest), learnt from pulls and pushes and kept beside a layout, so a later
// push can mount a blob from another repository instead of uploading it, or
// fetch a base layer it never downloaded.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace gkebuild::registry {

class BlobLocations {
 public:
  // Loads `file` if it exists; an unreadable file is treated as empty (it is only a cache).
  explicit BlobLocations(std::filesystem::path file);

  // The file kept in a layout's gkebuild/ folder.
  static std::filesystem::path file_in(const std::filesystem::path& layout_root);

  void add(const std::string& digest, const std::string& registry, const std::string& repository);
  // Known repositories holding `digest`, as {registry, repository} pairs.
  std::vector<std::pair<std::string, std::string>> find(const std::string& digest) const;
  // Writes the file atomically, merged with what other processes wrote meanwhile.
  void save() const;

 private:
  using Table = std::map<std::string, std::set<std::string>>;  // digest -> "registry/repository"
  static Table load(const std::filesystem::path& file);

  std::filesystem::path file_;
  mutable std::mutex mutex_;
  Table table_;
};

}  // namespace gkebuild::registry
