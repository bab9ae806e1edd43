#include "cli/held_stdout.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "base/error.h"

namespace gkebuild::cli {
namespace {

void write_all(const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t wrote = ::write(STDOUT_FILENO, text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) throw Error(ErrorKind::kFailed, std::string("cannot write to stdout: ") + std::strerror(errno));
    done += static_cast<std::size_t>(wrote);
  }
}

}  // namespace

HeldStdout::HeldStdout() {
  struct stat status {};
  if (fstat(STDOUT_FILENO, &status) != 0 || !S_ISREG(status.st_mode)) return;
  const int flags = fcntl(STDOUT_FILENO, F_GETFL);
  const off_t at = lseek(STDOUT_FILENO, 0, SEEK_CUR);
  // At the end of the file and not appending: cutting back to `at` removes exactly what we wrote.
  if (flags < 0 || (flags & O_APPEND) || at != status.st_size) return;
  direct_ = true;
  start_ = at;
}

void HeldStdout::add(std::string&& piece) {
  if (direct_) write_all(piece);
  else pieces_.push_back(std::move(piece));
}

void HeldStdout::commit() {
  for (const auto& piece : pieces_) std::cout.write(piece.data(), static_cast<std::streamsize>(piece.size()));
  pieces_.clear();
}

void HeldStdout::abandon() {
  pieces_.clear();
  if (!direct_) return;
  if (ftruncate(STDOUT_FILENO, static_cast<off_t>(start_)) == 0) lseek(STDOUT_FILENO, static_cast<off_t>(start_), SEEK_SET);
}

}  // namespace gkebuild::cli
