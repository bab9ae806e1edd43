#include "tool/steps/run_step/upper_changes.h"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <stdexcept>
#include <utility>

#include "base/error.h"

namespace gkebuild::run_step {
namespace fs = std::filesystem;
using layer::Entry;
using layer::EntryType;
namespace {

[[noreturn]] void fail(const std::string& what, const fs::path& path) {
  throw Error(ErrorKind::kFailed, "cannot " + what + " " + path.string() + " (what the RUN changed): " + std::strerror(errno));
}

struct stat lstat_of(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) fail("read", path);
  return st;
}

std::vector<std::string> children_of(const fs::path& dir) {
  DIR* stream = ::opendir(dir.c_str());
  if (stream == nullptr) fail("list", dir);
  std::vector<std::string> names;
  while (const dirent* child = ::readdir(stream)) {
    const std::string name = child->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(stream);
  return names;
}

bool is_opaque(const fs::path& dir) {
  char value[2] = {};
  return ::lgetxattr(dir.c_str(), "trusted.overlay.opaque", value, sizeof value) == 1 && value[0] == 'y';
}

std::string joined(const std::string& parent, const std::string& name) {
  return parent.empty() ? name : parent + "/" + name;
}

class UpperWalker {
 public:
  UpperWalker(fs::path upper, const RuntimeMade& runtime_made)
      : upper_(std::move(upper)), runtime_made_(runtime_made) {}

  std::vector<Entry> walk() {
    add_children("");
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.path < b.path; });
    link_hard_links();
    return std::move(entries_);
  }

 private:
  // Adds the entries under `dir` ("" for the root); returns how many.
  size_t add_children(const std::string& dir) {
    size_t added = 0;
    for (const auto& name : children_of(upper_ / dir)) added += add(joined(dir, name), name);
    return added;
  }

  size_t add(const std::string& path, const std::string& name) {
    const fs::path host = upper_ / path;
    const struct stat st = lstat_of(host);
    const bool made_by_runtime = runtime_made_.paths.contains(path);
    Entry e{path, EntryType::kFile, static_cast<uint32_t>(st.st_mode & 07777), st.st_uid, st.st_gid};
    if (S_ISDIR(st.st_mode)) {
      const size_t before = entries_.size();
      e.type = EntryType::kDirectory;
      entries_.push_back(e);
      size_t added = 1 + add_children(path);
      if (is_opaque(host)) {
        entries_.push_back(whiteout(joined(path, std::string(layer::kOpaqueWhiteout))));
        ++added;
      }
      if (added == 1 && (made_by_runtime || only_held_mount_points(path, e))) {
        entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(before));
        return 0;
      }
      return added;
    }
    if (made_by_runtime) return 0;
    if (S_ISCHR(st.st_mode) && st.st_rdev == 0) {
      entries_.push_back(whiteout(joined(fs::path(path).parent_path().string(), std::string(layer::kWhiteoutPrefix) + name)));
      return 1;
    }
    if (!describe(host, st, e)) return 0;
    entries_.push_back(std::move(e));
    return 1;
  }

  // A directory that existed, unchanged, which overlayfs copied up only because the runtime
  // created a mount point in it.
  bool only_held_mount_points(const std::string& path, const Entry& e) const {
    auto before = runtime_made_.parents.find(path);
    return before != runtime_made_.parents.end() && before->second == DirectoryState{e.mode, e.uid, e.gid};
  }

  static Entry whiteout(const std::string& path) { return Entry{path, EntryType::kFile, 0}; }

  // Fills in what the type needs; false for a socket (a layer cannot hold one).
  bool describe(const fs::path& host, const struct stat& st, Entry& e) {
    if (S_ISREG(st.st_mode)) {
      e.size = st.st_size;
      e.source = host;
      if (st.st_nlink > 1) inodes_[e.path] = {st.st_dev, st.st_ino};
    } else if (S_ISLNK(st.st_mode)) {
      e.type = EntryType::kSymlink;
      e.link_target = fs::read_symlink(host).string();
    } else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
      e.type = S_ISCHR(st.st_mode) ? EntryType::kCharDevice : EntryType::kBlockDevice;
      e.device_major = major(st.st_rdev);
      e.device_minor = minor(st.st_rdev);
    } else if (S_ISFIFO(st.st_mode)) {
      e.type = EntryType::kFifo;
    } else {
      return false;
    }
    return true;
  }

  // The first name of an inode (in path order, the order of the tar) keeps the content; the
  // others become hard links to it.
  void link_hard_links() {
    std::map<std::pair<dev_t, ino_t>, std::string> first;
    for (Entry& e : entries_) {
      auto inode = inodes_.find(e.path);
      if (inode == inodes_.end()) continue;
      auto [known, inserted] = first.try_emplace(inode->second, e.path);
      if (inserted) continue;
      e.type = EntryType::kHardlink;
      e.link_target = known->second;
      e.size = 0;
      e.source.clear();
    }
  }

  fs::path upper_;
  const RuntimeMade& runtime_made_;
  std::vector<Entry> entries_;
  std::map<std::string, std::pair<dev_t, ino_t>> inodes_;
};

}  // namespace

std::vector<Entry> upper_changes(const fs::path& upper, const RuntimeMade& runtime_made) {
  return UpperWalker(upper, runtime_made).walk();
}

}  // namespace gkebuild::run_step
