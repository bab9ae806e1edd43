#include "tool/core/kube/credential_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "base/source_error.h"

namespace gkebuild::kube {
namespace {

// What the reading thread hands back.
struct Reading {
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  std::string text;
  std::string error;  // empty when the whole file was read
};

void read_all(int fd, std::size_t max_bytes, Reading& reading) {
  std::string text, error;
  char chunk[1 << 14];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) error = std::string("cannot read: ") + std::strerror(errno);
    if (n > 0 && text.size() + static_cast<std::size_t>(n) > max_bytes)
      error = "grew past " + std::to_string(max_bytes) + " bytes while it was read";
    if (n <= 0 || !error.empty()) break;
    text.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  std::lock_guard lock(reading.mutex);
  reading.text = std::move(text);
  reading.error = std::move(error);
  reading.done = true;
  reading.finished.notify_all();
}

}  // namespace

std::string read_credential_file(const std::filesystem::path& path, std::size_t max_bytes) {
  const SourceLocation where{path.string()};
  // O_NONBLOCK: opening a FIFO without a writer would otherwise wait here.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) throw SourceError(where, std::string("cannot read: ") + std::strerror(errno));
  struct stat info {};
  std::string refusal;
  if (::fstat(fd, &info) != 0) refusal = std::string("cannot read: ") + std::strerror(errno);
  else if (!S_ISREG(info.st_mode))
    refusal = "not a regular file (a FIFO, device or folder); a credential file must be a file or a symlink to one";
  else if (static_cast<std::uintmax_t>(info.st_size) > max_bytes)
    refusal = "file is " + std::to_string(info.st_size) + " bytes; a credential file may have at most " +
              std::to_string(max_bytes);
  if (!refusal.empty()) {
    ::close(fd);
    throw SourceError(where, refusal);
  }
  // A read of a regular file cannot be interrupted, and one on a hung network mount never
  // returns: it runs on its own thread, which is left behind when the time is up.
  auto reading = std::make_shared<Reading>();
  std::thread([fd, max_bytes, reading] { read_all(fd, max_bytes, *reading); }).detach();
  std::unique_lock lock(reading->mutex);
  if (!reading->finished.wait_for(lock, kCredentialFileTimeLimit, [&] { return reading->done; }))
    throw SourceError(where, "not read within " + std::to_string(kCredentialFileTimeLimit.count()) +
                                 " s (a hung network mount?)");
  if (!reading->error.empty()) throw SourceError(where, reading->error);
  return std::move(reading->text);
}

}  // namespace gkebuild::kube
