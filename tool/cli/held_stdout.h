// Output for stdout that must stay empty when the command fails (render --template): kept
// in pieces until commit() where stdout is a pipe or a terminal, which cannot take back what
// they were given; written as it comes where stdout is a regular file at its end (`> out`),
// which abandon() cuts back to its old length. So a large render neither holds its whole
// output in memory nor copies it, where the file system lets it be taken back.
//
// Written as it comes, the pieces after the first go to a writer thread in batches: copying
// megabytes into the page cache is a third of a data-heavy render's time, and it overlaps
// the render.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gkebuild::cli {

class HeldStdout {
 public:
  HeldStdout();
  ~HeldStdout();
  HeldStdout(const HeldStdout&) = delete;
  HeldStdout& operator=(const HeldStdout&) = delete;

  // One piece of output, in order. Throws Error(kFailed) once a direct write has failed.
  void add(std::string&& piece);
  // Everything has been added: what is held goes out (throws as add does).
  void commit();
  // The command failed: nothing of it stays on stdout (best effort for a file).
  void abandon();

 private:
  void write_in_background(std::string&& piece);
  void hand_over_batch();  // the pieces gathered so far, to the writer thread
  void write_queued();
  // Waits for the writer thread: after what is queued is written, or at once with `discard`.
  void stop_writer(bool discard);
  void throw_if_write_failed();

  bool direct_ = false;  // stdout is a regular file, written as pieces come
  long long start_ = 0;  // its length (and offset) before the first piece
  std::vector<std::string> pieces_;

  bool wrote_first_ = false;  // the first piece is written here: a small render starts no thread
  std::vector<std::string> batch_;  // pieces gathered for the writer thread
  std::size_t batch_bytes_ = 0;
  std::thread writer_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::vector<std::string>> queue_;  // batches for the writer, at most kQueuedBatches
  bool stopping_ = false;
  std::string write_error_;  // the writer's failure, reported by the next add or commit
};

}  // namespace gkebuild::cli
