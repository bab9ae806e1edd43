// The errors a template raises. EvalError is raised while a template is evaluated, before a
// position is attached; the renderer turns it into a TemplateError naming template, line and
// column. Both carry the error's kind, so that callers (and the conformance suite, which
// compares kinds with Jinja2's exception classes) can tell a syntax error from an undefined
// name or a failing operation.
#pragma once

#include <string>
#include <string_view>

#include "base/error.h"
#include "base/source_error.h"

namespace gkebuild::jinja {

// The kind of a template error, as Jinja2's exception classes tell them apart.
enum class TemplateErrorKind {
  Syntax,     // the template does not parse (Jinja2: TemplateSyntaxError)
  Undefined,  // an undefined value was used (Jinja2: UndefinedError)
  NotFound,   // include/import/extends of a template that does not exist (TemplateNotFound)
  Runtime,    // any other failure while rendering (TypeError, ValueError, ...)
};

std::string_view to_string(TemplateErrorKind kind);

// A failure while rendering, before it is given a position; bad input for the CLI.
class EvalError : public Error {
 public:
  explicit EvalError(const std::string& message, TemplateErrorKind kind = TemplateErrorKind::Runtime)
      : Error(gkebuild::ErrorKind::kBadInput, message), template_kind_(kind) {}
  TemplateErrorKind template_kind() const { return template_kind_; }

 private:
  TemplateErrorKind template_kind_;
};

// A positioned template error (file:line:col with the line and a caret).
class TemplateError : public SourceError {
 public:
  TemplateError(TemplateErrorKind kind, SourceLocation where, std::string message, std::string_view source = {})
      : SourceError(std::move(where), std::move(message), source), template_kind_(kind) {}
  TemplateErrorKind template_kind() const { return template_kind_; }

 private:
  TemplateErrorKind template_kind_;
};

}  // namespace gkebuild::jinja
