// ConfinedTree and tree_path (base/confined_path.h): writing an untrusted tree beneath its root.
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <stdexcept>

#include "base/confined_path.h"
#include "base/printable.h"

namespace gkebuild {
namespace fs = std::filesystem;
namespace {

constexpr int kMaxLinks = 40;  // Linux gives up after 40 links in one lookup; so do we

[[noreturn]] void fail(std::string_view path, const std::string& why) {
  throw std::runtime_error("cannot write '" + printable(path) + "': " + why);
}

std::string errno_text() { return std::strerror(errno); }

// `name` in the folder `at`, made as a folder when missing, opened without following it
// (O_PATH): a folder, or a symlink when `symlink` comes back true.
int open_component(int at, const std::string& name, bool& symlink, std::string_view path) {
  for (bool made = false;; made = true) {
    const int fd = ::openat(at, name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && !made) {
      if (::mkdirat(at, name.c_str(), 0755) != 0 && errno != EEXIST) {
        fail(path, "cannot make the folder '" + printable(name) + "' on its way: " + errno_text());
      }
      continue;
    }
    if (fd < 0) fail(path, "cannot open '" + printable(name) + "' on its way: " + errno_text());
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !(S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode))) {
      ::close(fd);
      fail(path, "'" + printable(name) + "' on its way is not a folder");
    }
    symlink = S_ISLNK(st.st_mode);
    return fd;
  }
}

std::string read_link(int fd, std::string_view path) {
  char target[PATH_MAX];
  const ssize_t n = ::readlinkat(fd, "", target, sizeof target);
  if (n < 0) fail(path, "cannot read a symlink on its way: " + errno_text());
  return std::string(target, static_cast<size_t>(n));
}

}  // namespace

std::vector<std::string> path_components(std::string_view path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) parts.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

std::optional<std::string> tree_path(std::string_view path) {
  std::vector<std::string> kept;
  for (auto& part : path_components(path)) {
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

ConfinedTree::ConfinedTree(const fs::path& root) {
  fs::create_directories(root);
  root_ = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root_ < 0) throw std::runtime_error("cannot open the folder " + root.string() + ": " + errno_text());
}

ConfinedTree::~ConfinedTree() {
  forget(0);
  if (resolved_ >= 0) ::close(resolved_);
  ::close(root_);
}

void ConfinedTree::forget(size_t depth) {
  while (cached_.size() > depth) {
    ::close(cached_.back().fd);
    cached_.pop_back();
  }
}

// The folder that holds `path`'s last component (returned in `name`). The folders named as the
// last entry's were are reused; the walk goes on from where the names part.
int ConfinedTree::parent_folder(std::string_view path, std::string& name) {
  std::vector<std::string> parts = path_components(path);
  if (parts.empty()) fail(path, "the name is empty");
  for (const auto& part : parts) {
    if (part == "." || part == "..") fail(path, "the name has a '" + part + "' component");
  }
  name = std::move(parts.back());
  parts.pop_back();
  size_t same = 0;
  while (same < cached_.size() && same < parts.size() && cached_[same].name == parts[same]) ++same;
  forget(same);
  for (size_t i = same; i < parts.size(); ++i) {
    bool symlink = false;
    const int fd = open_component(cached_.empty() ? root_ : cached_.back().fd, parts[i], symlink, path);
    if (symlink) {
      ::close(fd);
      return resolve_rest(parts, i, path);
    }
    cached_.push_back({parts[i], fd});
  }
  return cached_.empty() ? root_ : cached_.back().fd;
}

// The slow way, from the first symlink on: each symlink's target is walked in its place,
// from the root when it is absolute, and `..` never climbs above the root.
int ConfinedTree::resolve_rest(const std::vector<std::string>& parts, size_t from, std::string_view path) {
  std::vector<int> opened;
  std::vector<int> folders;
  for (const auto& f : cached_) folders.push_back(f.fd);
  std::deque<std::string> pending(parts.begin() + static_cast<std::ptrdiff_t>(from), parts.end());
  auto close_opened = [&] {
    for (int fd : opened) ::close(fd);
  };
  try {
    for (int links = 0; !pending.empty();) {
      const std::string part = std::move(pending.front());
      pending.pop_front();
      if (part == ".") continue;
      if (part == "..") {
        if (!folders.empty()) folders.pop_back();
        continue;
      }
      bool symlink = false;
      const int fd = open_component(folders.empty() ? root_ : folders.back(), part, symlink, path);
      opened.push_back(fd);
      if (!symlink) {
        folders.push_back(fd);
        continue;
      }
      if (++links > kMaxLinks) fail(path, "too many levels of symbolic links on its way");
      const std::string target = read_link(fd, path);
      const auto target_parts = path_components(target);
      pending.insert(pending.begin(), target_parts.begin(), target_parts.end());
      if (target.starts_with('/')) folders.clear();
    }
  } catch (...) {
    close_opened();
    throw;
  }
  const int found = ::fcntl(folders.empty() ? root_ : folders.back(), F_DUPFD_CLOEXEC, 0);
  close_opened();
  if (found < 0) fail(path, "cannot keep its folder open: " + errno_text());
  if (resolved_ >= 0) ::close(resolved_);
  resolved_ = found;
  return resolved_;
}

// Makes `path` with `make_at(folder, name)`; what is already there is replaced, except a folder,
// which only a folder may meet (and then stays).
template <typename Make>
void ConfinedTree::make(std::string_view path, bool directory, Make make_at) {
  std::string name;
  const int at = parent_folder(path, name);
  if (make_at(at, name.c_str()) == 0) return;
  if (errno != EEXIST) fail(path, errno_text());
  struct stat st {};
  if (::fstatat(at, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
    if (directory) return;
    fail(path, "a folder of the same name is in the way");
  }
  if (::unlinkat(at, name.c_str(), 0) != 0 || make_at(at, name.c_str()) != 0) fail(path, errno_text());
}

void ConfinedTree::make_directory(std::string_view path) {
  make(path, true, [](int at, const char* name) { return ::mkdirat(at, name, 0755); });
}

void ConfinedTree::make_symlink(std::string_view path, const std::string& target) {
  make(path, false, [&](int at, const char* name) { return ::symlinkat(target.c_str(), at, name); });
}

void ConfinedTree::make_hard_link(std::string_view path, const fs::path& existing) {
  make(path, false, [&](int at, const char* name) { return ::linkat(AT_FDCWD, existing.c_str(), at, name, 0); });
}

}  // namespace gkebuild
