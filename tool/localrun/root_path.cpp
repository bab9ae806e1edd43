#include "localrun/root_path.h"

#include <deque>
#include <stdexcept>
#include <vector>

namespace gkebuild::localrun {
namespace fs = std::filesystem;
namespace {

// Linux gives up after 40 links in one lookup; so do we.
constexpr int kMaxLinks = 40;

std::deque<std::string> split(std::string_view path) {
  std::deque<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) parts.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

fs::path join(const fs::path& root, const std::vector<std::string>& parts) {
  fs::path out = root;
  for (const auto& p : parts) out /= p;
  return out;
}

}  // namespace

std::optional<std::string> normal_relative_path(std::string_view path) {
  std::vector<std::string> kept;
  for (auto& part : split(path)) {
    if (part == ".") continue;
    if (part == "..") {
      if (kept.empty()) return std::nullopt;
      kept.pop_back();
      continue;
    }
    kept.push_back(std::move(part));
  }
  std::string out;
  for (const auto& p : kept) out += (out.empty() ? "" : "/") + p;
  return out;
}

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
      throw std::runtime_error("too many levels of symbolic links at " + here.string());
    }
    std::string target = fs::read_symlink(here).string();
    std::deque<std::string> target_parts = split(target);
    pending.insert(pending.begin(), target_parts.begin(), target_parts.end());
    if (target.starts_with('/')) resolved.clear();
  }
  return join(root, resolved);
}

}  // namespace gkebuild::localrun
