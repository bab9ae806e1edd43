#include "base/source_error.h"

#include <algorithm>

#include "base/printable.h"

namespace gkebuild {

std::string to_string(const SourceLocation& where) {
  // The file as the user named it (-f, --values, a template): a newline or escape in the name
  // is shown escaped, so that it cannot start a line of its own.
  std::string out = printable(where.file);
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

namespace {

std::string printable_keeping_tabs(std::string_view text) {
  std::string out;
  for (size_t tab = text.find('\t'); tab != std::string_view::npos; tab = text.find('\t')) {
    out += printable(text.substr(0, tab)) + '\t';
    text.remove_prefix(tab + 1);
  }
  return out + printable(text);
}

}  // namespace

std::string format_diagnostic(const SourceLocation& where, std::string_view message,
                              std::string_view source) {
  std::string out = to_string(where) + ": error: " + std::string(message);
  std::string_view text = line_of(source, where.line);
  if (text.empty()) return out;
  // The quoted line is the user's file: its control characters are shown escaped, and the
  // caret is placed under the escaped text.
  out += "\n  ";
  out += printable_keeping_tabs(text);
  if (where.column > 0) {
    out += "\n  ";
    size_t before = std::min(text.size(), static_cast<size_t>(where.column - 1));
    // Keep tabs so the caret lines up under tab-indented text; one space per character, not
    // per byte of a UTF-8 sequence.
    for (char c : printable_keeping_tabs(text.substr(0, before))) {
      if (c == '\t') out += '\t';
      else if ((static_cast<unsigned char>(c) & 0xc0) != 0x80) out += ' ';
    }
    out += '^';
  }
  return out;
}

SourceError::SourceError(SourceLocation where, std::string message, std::string_view source, ErrorKind kind)
    : Error(kind, format_diagnostic(where, message, source)),
      where_(std::move(where)),
      message_(std::move(message)) {}

}  // namespace gkebuild
