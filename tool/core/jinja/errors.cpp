#include "tool/core/jinja/errors.h"

namespace gkebuild::jinja {

std::string_view to_string(TemplateErrorKind kind) {
  switch (kind) {
    case TemplateErrorKind::Syntax: return "syntax";
    case TemplateErrorKind::Undefined: return "undefined";
    case TemplateErrorKind::NotFound: return "not_found";
    case TemplateErrorKind::Runtime: break;
  }
  return "runtime";
}

}  // namespace gkebuild::jinja
