// The Jinja lexer and parser, with each combination of the whitespace options the first byte picks.
#include "fuzz_target.h"
#include "tool/core/jinja/syntax/parser.h"

GKEBUILD_FUZZ_TARGET({
  if (input.empty()) return 0;
  const unsigned char flags = static_cast<unsigned char>(input[0]);
  const gkebuild::jinja::LexerOptions options{(flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0};
  gkebuild::jinja::parse_template("fuzz.j2", input.substr(1), options);
})
