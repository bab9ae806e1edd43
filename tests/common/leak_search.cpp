#include "tests/common/leak_search.h"

#include <fstream>
#include <iterator>

#include "tests/common/run.h"

namespace gkebuild::testing {
namespace fs = std::filesystem;
namespace {

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

template <typename Visit>
void each_file(const fs::path& root, Visit visit) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) visit(it->path());
  }
}

}  // namespace

std::vector<std::string> files_holding(const fs::path& root, const std::vector<std::string>& needles) {
  std::vector<std::string> found;
  each_file(root, [&](const fs::path& path) {
    std::string bytes = read_all(path);
    if (bytes.size() > 2 && bytes[0] == '\x1f' && bytes[1] == '\x8b')
      bytes += run_command("gzip -dc < " + shell_quoted(path.string())).out;
    for (const auto& needle : needles)
      if (!needle.empty() && bytes.find(needle) != std::string::npos) found.push_back(path.string() + ": " + needle);
  });
  return found;
}

std::size_t files_under(const fs::path& root) {
  std::size_t count = 0;
  each_file(root, [&](const fs::path&) { ++count; });
  return count;
}

}  // namespace gkebuild::testing
