#include "tool/steps/local_runner/root_path.h"

#include <deque>
#include <stdexcept>
#include <vector>

#include "base/confined_path.h"
#include "base/error.h"

namespace gkebuild::local_runner {
namespace fs = std::filesystem;
namespace {

// Linux gives up after 40 links in one lookup; so do we.
constexpr int kMaxLinks = 40;

std::deque<std::string> split(std::string_view path) {
  auto parts = path_components(path);
  return {parts.begin(), parts.end()};
}

fs::path join(const fs::path& root, const std::vector<std::string>& parts) {
  fs::path out = root;
  for (const auto& p : parts) out /= p;
  return out;
}

}  // namespace

fs::path resolve_in_root(const fs::path& root, std::string_view relative) {
  std::deque<std::string> pending = split(relative);
  std::vector<std::string> resolved;
  int links = 0;
  while (!pending.empty()) {
    std::string part = std::move(pending.front());
    pending.pop_front();
    if (part == ".") continue;
    if (part == "..") {
      if (!resolved.empty()) resolved.pop_back();
      continue;
    }
    fs::path here = join(root, resolved) / part;
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(here, ec))) {
      resolved.push_back(std::move(part));
      continue;
    }
    if (++links > kMaxLinks) {
      throw Error(ErrorKind::kFailed, "too many levels of symbolic links at " + here.string());
    }
    std::string target = fs::read_symlink(here).string();
    std::deque<std::string> target_parts = split(target);
    pending.insert(pending.begin(), target_parts.begin(), target_parts.end());
    if (target.starts_with('/')) resolved.clear();
  }
  return join(root, resolved);
}

}  // namespace gkebuild::local_runner
