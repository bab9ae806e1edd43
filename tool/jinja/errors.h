// The errors a template raises. EvalError is raised while a template is evaluated, before a
// position is attached; the renderer turns it into a TemplateError naming template, line and
// column. Both carry the error's kind, so that callers (and the conformance suite, which
// compares kinds with Jinja2's exception classes) can tell a syntax error from an undefined
// name or a failing operation.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "base/source_error.h"

namespace gkebuild::jinja {

enum class ErrorKind {
  Syntax,     // the template does not parse (Jinja2: TemplateSyntaxError)
  Undefined,  // an undefined value was used (Jinja2: UndefinedError)
  NotFound,   // include/import/extends of a template that does not exist (TemplateNotFound)
  Runtime,    // any other failure while rendering (TypeError, ValueError, ...)
};

std::string_view to_string(ErrorKind kind);

class EvalError : public std::runtime_error {
 public:
  explicit EvalError(const std::string& message, ErrorKind kind = ErrorKind::Runtime)
      : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

class TemplateError : public SourceError {
 public:
  TemplateError(ErrorKind kind, SourceLocation where, std::string message, std::string_view source = {})
      : SourceError(std::move(where), std::move(message), source), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

}  // namespace gkebuild::jinja
