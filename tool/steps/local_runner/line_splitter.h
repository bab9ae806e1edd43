// Cuts a byte stream into lines as chunks arrive: each complete line goes out without its
// '\n', a last line without one goes out at the end, and a line longer than the limit goes
// out in pieces instead of growing without bound.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace gkebuild::local_runner {

class LineSplitter {
 public:
  explicit LineSplitter(size_t max_line = size_t{1} << 20) : max_line_(max_line) {}

  template <typename Emit>
  void feed(std::string_view chunk, Emit&& emit) {
    while (!chunk.empty()) {
      const size_t newline = std::min(chunk.find('\n'), chunk.size());
      const size_t room = max_line_ - pending_.size();
      const size_t take = std::min(newline, room);
      pending_.append(chunk.substr(0, take));
      const bool ends_line = take == newline && newline < chunk.size();
      if (ends_line || pending_.size() >= max_line_) flush(emit);
      chunk.remove_prefix(ends_line ? take + 1 : take);
    }
  }

  template <typename Emit>
  void finish(Emit&& emit) {
    if (!pending_.empty()) flush(emit);
  }

 private:
  template <typename Emit>
  void flush(Emit& emit) {
    std::string line;
    line.swap(pending_);
    emit(std::string_view(line));
  }

  size_t max_line_;
  std::string pending_;
};

}  // namespace gkebuild::local_runner
