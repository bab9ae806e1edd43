#include "base/source_error.h"

namespace gkebuild {

std::string to_string(const SourceLocation& where) {
  std::string out = where.file;
  if (where.line > 0) {
    out += ":" + std::to_string(where.line);
    if (where.column > 0) out += ":" + std::to_string(where.column);
  }
  return out;
}

std::string_view line_of(std::string_view source, int line) {
  if (line < 1) return {};
  size_t start = 0;
  for (int i = 1; i < line; ++i) {
    size_t nl = source.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  size_t end = source.find('\n', start);
  std::string_view text = source.substr(start, end == std::string_view::npos ? end : end - start);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}

std::string format_diagnostic(const SourceLocation& where, std::string_view message,
                              std::string_view source) {
  std::string out = to_string(where) + ": error: " + std::string(message);
  std::string_view text = line_of(source, where.line);
  if (text.empty()) return out;
  out += "\n  ";
  out += text;
  if (where.column > 0) {
    out += "\n  ";
    // Keep tabs so the caret lines up under tab-indented text.
    for (int i = 0; i + 1 < where.column && i < static_cast<int>(text.size()); ++i)
      out += text[i] == '\t' ? '\t' : ' ';
    out += '^';
  }
  return out;
}

SourceError::SourceError(SourceLocation where, std::string message, std::string_view source)
    : Error(ErrorKind::kBadInput, format_diagnostic(where, message, source)),
      where_(std::move(where)),
      message_(std::move(message)) {}

}  // namespace gkebuild
