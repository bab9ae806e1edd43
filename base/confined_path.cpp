#include "base/confined_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

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

std::optional<fs::path> confined_path(const fs::path& root, const fs::path& relative) {
  if (relative.empty() || relative.is_absolute()) return std::nullopt;
  std::error_code error;
  const fs::path real_root = fs::weakly_canonical(root, error);
  if (error) return std::nullopt;
  const fs::path resolved = fs::weakly_canonical(real_root / relative, error);
  if (error || !is_within(real_root, resolved)) return std::nullopt;
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
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || text.size() + static_cast<std::size_t>(n) > max_bytes) {
      const int saved = errno;
      ::close(fd);
      if (n == 0) return text;
      refuse(root / relative, n < 0 ? std::string("cannot read: ") + std::strerror(saved)
                                    : "grew past the " + std::to_string(max_bytes) + " bytes gkebuild reads of it");
    }
    text.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace gkebuild
