#include "tool/cli/name_value.h"

#include "base/source_error.h"

namespace gkebuild::cli {

std::vector<NameValue> parse_name_values(std::string_view flag, const std::vector<std::string>& texts,
                                         std::string_view shape, EmptyValue empty) {
  std::vector<NameValue> pairs;
  for (const auto& text : texts) {
    const auto equals = text.find('=');
    const bool bad = equals == std::string::npos || equals == 0 ||
                     (empty == EmptyValue::kRejected && equals + 1 == text.size());
    if (bad) throw SourceError({std::string(flag) + " " + text}, "expected " + std::string(shape));
    pairs.emplace_back(text.substr(0, equals), text.substr(equals + 1));
  }
  return pairs;
}

std::map<std::string, std::string> parse_name_value_map(std::string_view flag, const std::vector<std::string>& texts,
                                                        std::string_view shape, EmptyValue empty) {
  std::map<std::string, std::string> out;
  for (auto& [name, value] : parse_name_values(flag, texts, shape, empty)) out[name] = std::move(value);
  return out;
}

}  // namespace gkebuild::cli
