#include "base/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace gkebuild {

int open_input_file(const std::filesystem::path& path, std::string& refusal, Pipes pipes) {
  refusal.clear();
  // Looked at before it is opened: opening a named pipe just to close it again would leave its
  // writer without a reader (SIGPIPE).
  struct stat named {};
  if (pipes == Pipes::kRead && ::stat(path.c_str(), &named) == 0 && S_ISFIFO(named.st_mode))
    return ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return -1;
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return -1;
  }
  if (S_ISREG(status.st_mode)) {
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
  }
  ::close(fd);
  refusal = S_ISDIR(status.st_mode) ? "is a folder"
                                    : "is not a regular file (a FIFO, a device or a socket); gkebuild reads input "
                                      "files only when they are regular files";
  return -1;
}

std::optional<std::string> read_all(int fd, std::size_t max_bytes) {
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int saved = errno;
      ::close(fd);
      errno = saved;
      if (n < 0) return std::nullopt;
      return text;
    }
    text.append(chunk, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) {
      ::close(fd);
      return text;
    }
  }
}

}  // namespace gkebuild
