// The follow view: one status line per Job and the pods' log lines with a "[job] "
// prefix. On a terminal the status block is redrawn in place below the log lines;
// otherwise only status lines that changed are printed, so a CI log stays readable.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace gkebuild::submit {

class FollowView {
 public:
  // `status` and `logs` may be the same stream. `terminal`: redraw in place on `status`
  // (`rows` bounds the block's height).
  FollowView(std::ostream& status, std::ostream& logs, bool terminal, int rows = 24);

  // (job, words) for every Job, in the run's order.
  void show(const std::vector<std::pair<std::string, std::string>>& lines);
  void log(const std::string& prefix, const std::string& line);
  // Every log line and status line passes through `mask` before it is shown (a run's secret
  // values become ***).
  void mask_with(std::function<std::string(std::string)> mask) { mask_ = std::move(mask); }
  // Leaves the last block on screen; later output goes below it.
  void finish();

 private:
  void erase_block();
  void draw_block();

  std::ostream& status_;
  std::ostream& logs_;
  bool terminal_;
  int rows_;
  int drawn_ = 0;  // lines of the block on screen
  std::vector<std::pair<std::string, std::string>> current_;
  std::vector<std::pair<std::string, std::string>> printed_;  // non-terminal: what was last said
  std::size_t name_width_ = 0;
  std::function<std::string(std::string)> mask_;
};

}  // namespace gkebuild::submit
