// Evaluated call arguments and Python-style parameter binding for filters, tests,
// globals, methods and macros.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tool/core/jinja/values/value.h"

namespace gkebuild::jinja {

struct Bound {
  static constexpr size_t kMax = 10;
  const Value* slots[kMax] = {};
  const Value* operator[](size_t i) const { return slots[i]; }
  bool has(size_t i) const { return slots[i] != nullptr; }
};

struct CallArgs {
  std::vector<Value> positional;
  std::vector<std::pair<std::string_view, Value>> keywords;
  std::vector<Value> keep_alive;  // owners of keyword names that came from **kwargs

  // Matches arguments to `names` like a Python signature (positional first, then by
  // keyword); throws EvalError for too many arguments or an unknown keyword.
  Bound bind(std::string_view function, std::initializer_list<std::string_view> names) const;
};

// Helpers for optional bound arguments.
bool arg_bool(const Value* value, bool fallback);
int64_t arg_int(const Value* value, int64_t fallback, std::string_view what);
std::string_view arg_str(const Value* value, std::string_view fallback, std::string_view what);

}  // namespace gkebuild::jinja
