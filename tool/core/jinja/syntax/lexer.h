// Splits a template into tokens exactly as Jinja2's regex lexer does, including its
// whitespace rules (-/+ markers, trim_blocks, lstrip_blocks, newline normalisation).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tool/core/jinja/syntax/token.h"

namespace gkebuild::jinja {

struct LexerOptions {
  bool trim_blocks = false;
  bool lstrip_blocks = false;
  bool keep_trailing_newline = false;
};

// Jinja normalises \r\n and \r to \n and drops one trailing newline before lexing; the
// lexer and every position refer to this normalised text.
std::string normalize_source(std::string_view source, bool keep_trailing_newline);

class LexError {
 public:
  LexError(size_t offset, std::string message) : offset(offset), message(std::move(message)) {}
  size_t offset;
  std::string message;
};

// Tokenises the normalised source; throws LexError.
std::vector<Token> tokenize(std::string_view source, const LexerOptions& options);

}  // namespace gkebuild::jinja
