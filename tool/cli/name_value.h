// The one parser of NAME=VALUE flags: --set, --sweep, --image, --build-arg.
// Libraries receive the split pairs, never the raw flag text.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gkebuild::cli {

using NameValue = std::pair<std::string, std::string>;

enum class EmptyValue { kAllowed, kRejected };

// Splits each "NAME=VALUE" at its first '='. A text without '=', with an empty NAME,
// or (when rejected) an empty VALUE throws SourceError located at "FLAG TEXT" and
// saying "expected SHAPE".
std::vector<NameValue> parse_name_values(std::string_view flag, const std::vector<std::string>& texts,
                                         std::string_view shape, EmptyValue empty = EmptyValue::kRejected);

// The same, keyed by NAME; a later NAME replaces an earlier one.
std::map<std::string, std::string> parse_name_value_map(std::string_view flag, const std::vector<std::string>& texts,
                                                        std::string_view shape,
                                                        EmptyValue empty = EmptyValue::kRejected);

}  // namespace gkebuild::cli
