#include "tool/cli/held_stdout.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <exception>
#include <iostream>

#include "base/error.h"

namespace gkebuild::cli {
namespace {

// The writer thread is handed batches of about 256 KiB (four pieces of 64 KiB): waking it for
// every piece cost more than the writes it took over. One batch waits while one is written:
// each batch in flight is memory the heap must grow by (two of 512 KiB were 0.5 ms slower).
constexpr std::size_t kBatchBytes = std::size_t{256} << 10;
constexpr std::size_t kQueuedBatches = 1;

// All of `pieces`, in order, with as few system calls as the kernel allows.
void write_all(const std::vector<std::string>& pieces) {
  std::vector<iovec> parts;
  for (const auto& piece : pieces)
    if (!piece.empty()) parts.push_back({const_cast<char*>(piece.data()), piece.size()});
  for (std::size_t first = 0; first < parts.size();) {
    const int count = static_cast<int>(std::min<std::size_t>(parts.size() - first, IOV_MAX));
    ssize_t wrote = ::writev(STDOUT_FILENO, parts.data() + first, count);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) throw Error(ErrorKind::kFailed, std::string("cannot write to stdout: ") + std::strerror(errno));
    while (first < parts.size() && static_cast<std::size_t>(wrote) >= parts[first].iov_len) {
      wrote -= static_cast<ssize_t>(parts[first].iov_len);
      ++first;
    }
    if (first < parts.size()) {
      parts[first].iov_base = static_cast<char*>(parts[first].iov_base) + wrote;
      parts[first].iov_len -= static_cast<std::size_t>(wrote);
    }
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

HeldStdout::~HeldStdout() { stop_writer(/*discard=*/true); }

void HeldStdout::add(std::string&& piece) {
  if (!direct_) {
    pieces_.push_back(std::move(piece));
  } else if (!wrote_first_) {
    wrote_first_ = true;
    batch_.push_back(std::move(piece));
    write_all(batch_);
    batch_.clear();
  } else {
    write_in_background(std::move(piece));
  }
}

void HeldStdout::write_in_background(std::string&& piece) {
  batch_bytes_ += piece.size();
  batch_.push_back(std::move(piece));
  if (batch_bytes_ >= kBatchBytes) hand_over_batch();
}

void HeldStdout::hand_over_batch() {
  if (batch_.empty()) return;
  if (!writer_.joinable()) writer_ = std::thread([this] { write_queued(); });
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return queue_.size() < kQueuedBatches || !write_error_.empty(); });
  if (!write_error_.empty()) throw Error(ErrorKind::kFailed, write_error_);
  queue_.push_back(std::move(batch_));
  batch_.clear();
  batch_bytes_ = 0;
  changed_.notify_all();
}

void HeldStdout::write_queued() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return !queue_.empty() || stopping_; });
    if (queue_.empty()) return;
    std::vector<std::string> batch = std::move(queue_.front());
    queue_.pop_front();
    changed_.notify_all();  // room for the next batch while this one is written
    lock.unlock();
    std::string error;
    try {
      write_all(batch);
    } catch (const std::exception& e) {  // an Error, or no memory for the list of pieces
      error = e.what();
    }
    batch = {};  // freed before the lock is taken again
    lock.lock();
    if (!error.empty()) {
      write_error_ = error;
      queue_.clear();
      changed_.notify_all();
      return;
    }
  }
}

void HeldStdout::stop_writer(bool discard) {
  if (!writer_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    if (discard) queue_.clear();
    stopping_ = true;
  }
  changed_.notify_all();
  writer_.join();
}

void HeldStdout::throw_if_write_failed() {
  std::lock_guard lock(mutex_);
  if (!write_error_.empty()) throw Error(ErrorKind::kFailed, write_error_);
}

void HeldStdout::commit() {
  if (writer_.joinable()) {
    hand_over_batch();
    stop_writer(/*discard=*/false);
  } else if (!batch_.empty()) {
    write_all(batch_);  // less than a batch after the first piece: no thread was needed
    batch_.clear();
  }
  throw_if_write_failed();
  for (const auto& piece : pieces_) std::cout.write(piece.data(), static_cast<std::streamsize>(piece.size()));
  pieces_.clear();
}

void HeldStdout::abandon() {
  stop_writer(/*discard=*/true);
  pieces_.clear();
  batch_.clear();
  if (!direct_) return;
  if (ftruncate(STDOUT_FILENO, static_cast<off_t>(start_)) == 0) lseek(STDOUT_FILENO, static_cast<off_t>(start_), SEEK_SET);
}

}  // namespace gkebuild::cli
