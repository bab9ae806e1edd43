// Jinja's tests (`x is defined`, `x is divisibleby 3` …), looked up by name at parse time.
#pragma once

#include <string_view>
#include <vector>

#include "tool/core/jinja/builtins/effects.h"

namespace gkebuild::jinja {

// The test's table entry; null when no test has that name. Called through
// Interpreter::call_test, which acts on the entry's Effect.
const TestEntry* find_test(std::string_view name);
// Every test's entry, find_test's table (for tests/tool/core/jinja/effects_test.cpp).
const std::vector<TestEntry>& test_entries();

}  // namespace gkebuild::jinja
