#include "tool/submit/follow_view.h"

#include <algorithm>
#include <map>

#include "base/printable.h"

namespace gkebuild::submit {
namespace {

// "3 succeeded, 1 failed" for the Jobs a small terminal cannot list one by one.
std::string summary(const std::vector<std::pair<std::string, std::string>>& lines, std::size_t from) {
  std::map<std::string, int> counts;
  for (std::size_t i = from; i < lines.size(); ++i)
    counts[lines[i].second.substr(0, lines[i].second.find_first_of(":( "))]++;
  std::string text;
  for (const auto& [state, count] : counts) text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + state;
  return text;
}

// Job names and their words come from run.json (which a checkout may have planted) or the
// cluster's events: shown escaped, so that no control character reaches the terminal or
// breaks the block drawn in place.
std::vector<std::pair<std::string, std::string>> escaped(const std::vector<std::pair<std::string, std::string>>& lines) {
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(lines.size());
  for (const auto& [name, words] : lines) out.emplace_back(printable(name), printable(words));
  return out;
}

}  // namespace

FollowView::FollowView(std::ostream& status, std::ostream& logs, bool terminal, int rows)
    : status_(status), logs_(logs), terminal_(terminal), rows_(std::max(rows, 6)) {}

void FollowView::show(const std::vector<std::pair<std::string, std::string>>& given) {
  // A Job's words may quote a pod's message or an error: masked as its log lines are, then escaped.
  std::vector<std::pair<std::string, std::string>> masked = given;
  if (mask_)
    for (auto& line : masked) line.second = mask_(std::move(line.second));
  const auto lines = escaped(masked);
  for (const auto& [name, words] : lines) name_width_ = std::max(name_width_, name.size());
  if (terminal_) {
    if (lines == current_) return;
    current_ = lines;
    erase_block();
    draw_block();
    return;
  }
  if (printed_.size() != lines.size()) printed_.resize(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (printed_[i] == lines[i]) continue;
    printed_[i] = lines[i];
    status_ << lines[i].first << std::string(name_width_ - lines[i].first.size() + 2, ' ') << lines[i].second << "\n";
  }
  status_.flush();
}

void FollowView::log(const std::string& prefix, const std::string& line) {
  if (terminal_) erase_block();
  logs_ << "[" << printable(prefix) << "] " << printable_lines(mask_ ? mask_(line) : line) << "\n";
  logs_.flush();
  if (terminal_) draw_block();
}

void FollowView::finish() {
  if (terminal_) status_.flush();
  drawn_ = 0;
}

void FollowView::erase_block() {
  if (drawn_ == 0) return;
  status_ << "\x1b[" << drawn_ << "F\x1b[J";  // to the block's first line, then clear below
  drawn_ = 0;
}

void FollowView::draw_block() {
  const std::size_t room = static_cast<std::size_t>(rows_ - 2);
  // When the screen is too small, unfinished Jobs first: their lines still change.
  std::vector<std::pair<std::string, std::string>> order;
  for (bool finished : {false, true})
    for (const auto& line : current_) {
      const bool done = line.second.starts_with("succeeded") || line.second.starts_with("failed");
      if (current_.size() <= room ? finished : done == finished) order.push_back(line);
    }
  const std::size_t shown = order.size() > room ? room - 1 : order.size();
  for (std::size_t i = 0; i < shown; ++i) {
    status_ << order[i].first << std::string(name_width_ - order[i].first.size() + 2, ' ') << order[i].second
            << "\n";
    ++drawn_;
  }
  if (shown < order.size()) {
    status_ << "… " << order.size() - shown << " more: " << summary(order, shown) << "\n";
    ++drawn_;
  }
  status_.flush();
}

}  // namespace gkebuild::submit
