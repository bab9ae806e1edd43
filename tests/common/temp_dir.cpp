#include "tests/common/temp_dir.h"

#include <unistd.h>

#include <system_error>

#include "base/atomic_file.h"

namespace gkebuild::testing {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "gkebuild-test-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;  // a destructor must not throw; a left-over folder under /tmp is harmless
  std::filesystem::remove_all(path_, ignored);
}

std::filesystem::path TempDir::write(const std::string& name, const std::string& content) const {
  auto file = path_ / name;
  std::filesystem::create_directories(file.parent_path());
  write_file_atomically(file, content);
  return file;
}

}  // namespace gkebuild::testing
