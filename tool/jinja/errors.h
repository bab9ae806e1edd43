// The error a template raises while it is evaluated, before a position is attached.
// The renderer turns it into a gkebuild::SourceError naming template, line and column.
#pragma once

#include <stdexcept>
#include <string>

namespace gkebuild::jinja {

class EvalError : public std::runtime_error {
 public:
  explicit EvalError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace gkebuild::jinja
