#include "tool/core/runrecord/json_error.h"

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
  std::string reason(colon == std::string_view::npos ? what : what.substr(colon + 2));
  // "…; last read: '<bytes of the file>'": run records are files gkebuild wrote itself, and a
  // planted one must not have its content echoed (issue 30), so the quote is left out.
  if (auto quote = reason.find("; last read: "); quote != std::string::npos) reason.erase(quote);
  return reason;
}

SourceError json_parse_error(const nlohmann::json::parse_error& error, std::string_view text,
                             const std::string& file) {
  // `byte` counts the characters read, the offending one included.
  std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
  // No source line: the file is gkebuild's own, and its lines are not quoted (see above).
  return SourceError(location_of_offset(text, offset, file), json_parse_reason(error));
}

}  // namespace gkebuild::runrecord
