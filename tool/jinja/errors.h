// The error a template raises while it is evaluated, before a position is attached.
// The renderer turns it into a gkebuild::SourceError naming template, line and column.
#pragma once

#include <string>

#include "base/error.h"

namespace gkebuild::jinja {

class EvalError : public Error {
 public:
  explicit EvalError(const std::string& message) : Error(ErrorKind::kBadInput, message) {}
};

}  // namespace gkebuild::jinja
