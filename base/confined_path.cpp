#include "base/confined_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>

#include "base/input_file.h"
#include "base/error.h"
#include "base/printable.h"

namespace gkebuild {
namespace fs = std::filesystem;

bool is_within(const fs::path& root, const fs::path& path) {
  const fs::path r = root.lexically_normal(), p = path.lexically_normal();
  auto root_end = r.end();
  if (!r.empty() && r.filename().empty()) --root_end;  // "a/b/" ends with an empty element
  return std::mismatch(r.begin(), root_end, p.begin(), p.end()).first == root_end;
}

namespace {

constexpr int kMaxLinks = 40;  // as Linux in one lookup

// `relative` walked from the real folder `start` as the kernel would walk it, each symlink's
// target walked in its place (from "/" when absolute) whether or not it exists; a name that does
// not exist is taken as it is. nullopt after too many symlinks.
std::optional<fs::path> walked(const fs::path& start, const fs::path& relative) {
  std::deque<fs::path> pending(relative.begin(), relative.end());
  fs::path current = start;
  for (int links = 0; !pending.empty();) {
    const fs::path part = std::move(pending.front());
    pending.pop_front();
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      current = current.parent_path();
      continue;
    }
    if (part == "/") {
      current = "/";
      continue;
    }
    fs::path next = current / part;
    struct stat st {};
    if (::lstat(next.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
      current = std::move(next);
      continue;
    }
    std::error_code error;
    const fs::path target = fs::read_symlink(next, error);
    if (error || ++links > kMaxLinks) return std::nullopt;
    pending.insert(pending.begin(), target.begin(), target.end());
  }
  return current;
}

}  // namespace

std::optional<fs::path> confined_path(const fs::path& root, const fs::path& relative) {
  if (relative.empty() || relative.is_absolute()) return std::nullopt;
  std::error_code error;
  const fs::path real_root = fs::weakly_canonical(root, error);
  if (error) return std::nullopt;
  const auto resolved = walked(real_root, relative);
  if (!resolved || !is_within(real_root, *resolved)) return std::nullopt;
  return resolved;
}

namespace {

[[noreturn]] void refuse(const fs::path& path, const std::string& why) {
  throw Error(ErrorKind::kBadInput, printable(path.string()) + ": " + why);
}

}  // namespace

int open_confined_file(const fs::path& root, const fs::path& relative, std::size_t max_bytes) {
  const fs::path path = root / relative;
  if (!confined_path(root, relative))
    refuse(path, "leads outside " + printable(root.string()) + " (through a symlink); gkebuild reads the files it "
                 "keeps there only from inside it");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  if (fd < 0 && errno == ENOENT) return -1;
  if (fd < 0 && errno == ELOOP)
    refuse(path, "is a symlink; gkebuild reads the files it keeps here only as regular files (remove it)");
  if (fd < 0) refuse(path, std::string("cannot read: ") + std::strerror(errno));
  struct stat status {};
  std::string why;
  if (::fstat(fd, &status) != 0) why = std::string("cannot read: ") + std::strerror(errno);
  else if (!S_ISREG(status.st_mode)) why = "is not a regular file; gkebuild reads the files it keeps here only as regular files";
  else if (static_cast<std::uintmax_t>(status.st_size) > max_bytes)
    why = "is larger than the " + std::to_string(max_bytes) + " bytes gkebuild reads of it";
  if (why.empty()) return fd;
  ::close(fd);
  refuse(path, why);
}

fs::path confined_folder(const fs::path& root, const fs::path& relative) {
  fs::path folder = root;
  for (const auto& part : relative) {
    const std::string name = part.string();
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos)
      refuse(root / relative, "is not a folder name beneath " + printable(root.string()));
    folder /= part;
    if (::mkdir(folder.c_str(), 0777) != 0 && errno != EEXIST)
      refuse(folder, std::string("cannot be made: ") + std::strerror(errno));
    struct stat status {};
    if (::lstat(folder.c_str(), &status) != 0) refuse(folder, std::string("cannot be read: ") + std::strerror(errno));
    if (S_ISLNK(status.st_mode))
      refuse(folder, "is a symlink; gkebuild keeps its own folders here only as real folders (remove it)");
    if (!S_ISDIR(status.st_mode)) refuse(folder, "is not a folder; gkebuild keeps its own folder here (remove it)");
  }
  return folder;
}

std::optional<std::string> read_confined_file(const fs::path& root, const fs::path& relative, std::size_t max_bytes) {
  const int fd = open_confined_file(root, relative, max_bytes);
  if (fd < 0) return std::nullopt;
  auto text = read_all(fd, max_bytes);
  if (!text) refuse(root / relative, std::string("cannot read: ") + std::strerror(errno));
  if (text->size() > max_bytes)
    refuse(root / relative, "grew past the " + std::to_string(max_bytes) + " bytes gkebuild reads of it");
  return text;
}

void create_new_file(const fs::path& root, std::string_view relative, std::string_view content, unsigned mode) {
  const fs::path path = root / relative;
  const auto parts = path_components(relative);
  if (parts.empty()) refuse(path, "the name is empty");
  for (const auto& part : parts)
    if (part == "." || part == "..") refuse(path, "the name has a '" + part + "' component");
  int at = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);  // the folder the user named, as named
  if (at < 0) refuse(root, std::string("cannot open: ") + std::strerror(errno));
  fs::path folder = root;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    folder /= parts[i];
    if (::mkdirat(at, parts[i].c_str(), 0755) != 0 && errno != EEXIST) {
      const int saved = errno;
      ::close(at);
      refuse(folder, std::string("cannot make the folder: ") + std::strerror(saved));
    }
    const int next = ::openat(at, parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    const int saved = errno;
    ::close(at);
    if (next < 0 && (saved == ELOOP || saved == ENOTDIR))
      refuse(folder, "is a symlink or not a folder; gkebuild writes here only into folders, never through a symlink");
    if (next < 0) refuse(folder, std::string("cannot open: ") + std::strerror(saved));
    at = next;
  }
  const int fd = ::openat(at, parts.back().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  const int saved = errno;
  ::close(at);
  if (fd < 0 && saved == EEXIST) refuse(path, "exists (a file or a symlink); not overwritten");
  if (fd < 0) refuse(path, std::string("cannot create: ") + std::strerror(saved));
  for (std::string_view rest = content; !rest.empty();) {
    const ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int failed = errno;
      ::close(fd);
      refuse(path, std::string("cannot write: ") + std::strerror(failed));
    }
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
  if (::close(fd) != 0) refuse(path, std::string("cannot write: ") + std::strerror(errno));
}

}  // namespace gkebuild
