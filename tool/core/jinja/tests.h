// Jinja's tests (`x is defined`, `x is divisibleby 3` …), looked up by name at parse time.
#pragma once

#include <string_view>

#include "tool/core/jinja/ast.h"

namespace gkebuild::jinja {

TestFn find_test(std::string_view name);

}  // namespace gkebuild::jinja
