// A fresh folder under the system temporary directory, removed with everything in it
// when the object goes away. The one temporary folder of every test suite.
#pragma once

#include <filesystem>
#include <string>

namespace gkebuild::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  // Writes `content` to `name` inside the folder (creating its parent folders); returns its path.
  std::filesystem::path write(const std::string& name, const std::string& content) const;

 private:
  std::filesystem::path path_;
};

}  // namespace gkebuild::testing
