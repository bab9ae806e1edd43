// Parses a template into its AST. Filter and test names are resolved here, so an unknown
// one is a syntax error before anything renders, as in Jinja2.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/source_error.h"
#include "tool/core/jinja/syntax/ast.h"
#include "tool/core/jinja/syntax/lexer.h"

namespace gkebuild::jinja {

// File, line and column of a byte offset into the template's normalised source.
SourceLocation source_location(const Template& tmpl, size_t offset);

// Throws gkebuild::SourceError for lexical and syntax errors.
std::shared_ptr<Template> parse_template(std::string name, std::string_view source, const LexerOptions& options);

}  // namespace gkebuild::jinja
