#include "jinja/errors.h"

namespace gkebuild::jinja {

std::string_view to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Syntax: return "syntax";
    case ErrorKind::Undefined: return "undefined";
    case ErrorKind::NotFound: return "not_found";
    case ErrorKind::Runtime: break;
  }
  return "runtime";
}

}  // namespace gkebuild::jinja
