#include "tool/core/jinja/values/calls.h"

namespace gkebuild::jinja {

Bound CallArgs::bind(std::string_view function, std::initializer_list<std::string_view> names) const {
  Bound bound;
  if (positional.empty() && keywords.empty()) return bound;
  if (positional.size() > names.size()) {
    throw EvalError(std::string(function) + "() takes at most " + std::to_string(names.size()) +
                    " argument(s) (" + std::to_string(positional.size()) + " given)");
  }
  for (size_t i = 0; i < positional.size(); ++i) bound.slots[i] = &positional[i];
  for (const auto& [key, value] : keywords) {
    size_t index = 0;
    for (std::string_view name : names) {
      if (name == key) break;
      ++index;
    }
    if (index == names.size())
      throw EvalError(std::string(function) + "() got an unexpected keyword argument '" + std::string(key) + "'");
    if (bound.slots[index])
      throw EvalError(std::string(function) + "() got multiple values for argument '" + std::string(key) + "'");
    bound.slots[index] = &value;
  }
  return bound;
}

bool arg_bool(const Value* value, bool fallback) { return value ? truthy(*value) : fallback; }

int64_t arg_int(const Value* value, int64_t fallback, std::string_view what) {
  if (!value) return fallback;
  if (value->is_int() || value->is_bool()) return value->as_int();
  throw EvalError("'" + std::string(type_name(*value)) + "' object cannot be interpreted as an integer (" +
                  std::string(what) + ")");
}

std::string_view arg_str(const Value* value, std::string_view fallback, std::string_view what) {
  if (!value) return fallback;
  if (value->is_str()) return value->str();
  throw EvalError(std::string(what) + " must be a string, not " + std::string(type_name(*value)));
}

}  // namespace gkebuild::jinja
