#include "base/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <system_error>

#include "base/error.h"
#include "base/input_file.h"
#include "base/printable.h"

namespace gkebuild {
namespace {

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& path) {
  throw std::system_error(errno, std::generic_category(), what + " " + path.string());
}

// The process's umask, read once. umask(2) can only be read by setting it, which would race
// with threads creating files, so /proc is asked first.
mode_t process_umask() {
  static const mode_t mask = [] {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.starts_with("Umask:")) return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
    }
    mode_t old = ::umask(022);
    ::umask(old);
    return old;
  }();
  return mask;
}

mode_t mode_for(FileAccess access) {
  return access == FileAccess::kOwnerOnly ? 0600 : (0666 & ~process_umask());
}

}  // namespace

TemporaryFile::TemporaryFile(const std::filesystem::path& dir, std::string_view stem) {
  std::filesystem::create_directories(dir);
  std::string pattern = (dir / ("." + std::string(stem) + ".XXXXXX")).string();
  fd_ = ::mkstemp(pattern.data());
  if (fd_ < 0) fail("cannot create a temporary file in", dir);
  path_ = pattern;
}

TemporaryFile::~TemporaryFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
}

void TemporaryFile::write(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", path_);
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

void TemporaryFile::commit(const std::filesystem::path& target, FileAccess access) {
  // mkstemp creates files 0600 whatever the umask; give them the mode open(2) would.
  if (::fchmod(fd_, mode_for(access)) != 0) fail("cannot set the mode of", path_);
  if (::fsync(fd_) != 0) fail("cannot flush", path_);
  if (::close(fd_) != 0) {
    fd_ = -1;
    fail("cannot close", path_);
  }
  fd_ = -1;
  if (::rename(path_.c_str(), target.c_str()) != 0) fail("cannot rename onto", target);
  committed_ = true;
}

void write_file_atomically(const std::filesystem::path& path, std::string_view content,
                           FileAccess access) {
  auto dir = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  TemporaryFile tmp(dir, path.filename().string());
  tmp.write(content);
  tmp.commit(path, access);
}

std::string read_file(const std::filesystem::path& path) {
  std::string refusal;
  const int fd = open_input_file(path, refusal);
  if (fd < 0 && !refusal.empty())
    throw Error(ErrorKind::kBadInput, "cannot read " + printable(path.string()) + ": " + refusal);
  if (fd < 0) fail("cannot read", path);
  auto text = read_all(fd, std::string().max_size());
  if (!text) fail("cannot read", path);
  return std::move(*text);
}

}  // namespace gkebuild
