// Errors that point into a file: "file:line:col: message", the offending line
// and a caret under the column, as compilers print them.
#pragma once

#include <string>
#include <string_view>

#include "base/error.h"

namespace gkebuild {

struct SourceLocation {
  std::string file;  // as the user named it; "<stdin>" or "<string>" when there is none
  int line = 0;      // 1-based; 0 when unknown
  int column = 0;    // 1-based; 0 when unknown
};

// "file:line:col" (or "file:line", or "file") for messages.
std::string to_string(const SourceLocation& where);

// Bad input, the position being in something the user wrote; or, with kind kFailed, a step
// written there that failed when it ran (a Dockerfile's RUN).
class SourceError : public Error {
 public:
  // `source` is the whole text the location points into; when given, the
  // message shows the offending line with a caret.
  SourceError(SourceLocation where, std::string message, std::string_view source = {},
              ErrorKind kind = ErrorKind::kBadInput);

  const SourceLocation& where() const { return where_; }
  const std::string& message() const { return message_; }

 private:
  SourceLocation where_;
  std::string message_;
};

// Formats "file:line:col: error: message\n  line text\n      ^".
std::string format_diagnostic(const SourceLocation& where, std::string_view message,
                              std::string_view source);

// The 1-based line `line` of `source`, without its line ending; empty if out of range.
std::string_view line_of(std::string_view source, int line);

}  // namespace gkebuild
