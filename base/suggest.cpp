#include "base/suggest.h"

#include <algorithm>

#include "base/printable.h"

namespace gkebuild {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> closest_match(std::string_view name,
                                         const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_distance = 0;
  for (const auto& candidate : candidates) {
    size_t d = edit_distance(name, candidate);
    if (!best || d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  // A typo changes a few characters; beyond a third of the name it is another word.
  size_t limit = std::max<size_t>(2, name.size() / 3);
  if (best && best_distance <= limit) return best;
  return std::nullopt;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  auto match = closest_match(name, candidates);
  // Candidates may come from a user's file too (image names, keys), so they are made printable.
  return match ? " (did you mean '" + printable(*match) + "'?)" : "";
}

}  // namespace gkebuild
