#include "runrecord/json_error.h"

#include <algorithm>

namespace gkebuild::runrecord {

SourceLocation location_of_offset(std::string_view text, std::size_t offset, const std::string& file) {
  offset = std::min(offset, text.size());
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {file, line, static_cast<int>(offset - line_start) + 1};
}

std::string json_parse_reason(const nlohmann::json::parse_error& error) {
  std::string_view what = error.what();
  // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error …"
  auto column = what.find("column ");
  auto colon = column == std::string_view::npos ? what.find("] ") : what.find(": ", column);
  if (colon == std::string_view::npos) return std::string(what);
  return std::string(what.substr(colon + 2));
}

SourceError json_parse_error(const nlohmann::json::parse_error& error, std::string_view text,
                             const std::string& file) {
  // `byte` counts the characters read, the offending one included.
  std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
  return SourceError(location_of_offset(text, offset, file), json_parse_reason(error), text);
}

}  // namespace gkebuild::runrecord
