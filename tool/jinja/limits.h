// Limits that keep hostile templates from exhausting the stack or the memory: past them a
// template gets a clear error with its position instead of a crash (README, "Limits").
#pragma once

#include <cstddef>
#include <cstdint>

namespace gkebuild::jinja {

// Nesting of expressions (parentheses, brackets, operators, filters) and blocks together.
// Parsing, evaluating and freeing a template recurse once per level; Python Jinja2 itself
// gives up (RecursionError) after a few hundred.
constexpr int kMaxNesting = 256;

// The largest string or list one operation may build (padding, repetition, formatting).
constexpr uint64_t kMaxResultBytes = uint64_t{256} << 20;

// Throws EvalError when `count` units of `unit_bytes` bytes would exceed kMaxResultBytes.
void require_result_size(uint64_t count, uint64_t unit_bytes = 1);

// value * 10 + digit for widths and precisions read from a format, saturating far above
// kMaxResultBytes instead of overflowing.
int append_decimal_digit(int value, char digit);

}  // namespace gkebuild::jinja
