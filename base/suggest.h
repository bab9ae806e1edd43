// "Did you mean …?" for unknown names: the closest candidate by edit distance.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gkebuild {

// Levenshtein distance, case-sensitive.
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `name`, if it is close enough to be a plausible typo.
std::optional<std::string> closest_match(std::string_view name,
                                         const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" or "" — ready to append to a message.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace gkebuild
