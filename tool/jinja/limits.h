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

// Nesting of lists and dicts that printing, tojson, toyaml, pprint, == and sorting walk
// (a list can even contain itself: `x.append(x)`).
constexpr int kMaxValueDepth = 1000;

// Counts one level of value nesting for as long as it lives, on this thread; the one past
// kMaxValueDepth throws EvalError instead of letting the walk overflow the stack.
class ValueNesting {
 public:
  ValueNesting();
  ~ValueNesting() { --depth_; }
  ValueNesting(const ValueNesting&) = delete;
  ValueNesting& operator=(const ValueNesting&) = delete;

 private:
  static thread_local int depth_;
};

// The largest string or list one operation may build (padding, repetition, formatting).
constexpr uint64_t kMaxResultBytes = uint64_t{256} << 20;

// Throws EvalError when `count` units of `unit_bytes` bytes would exceed kMaxResultBytes.
void require_result_size(uint64_t count, uint64_t unit_bytes = 1);

// value * 10 + digit for widths and precisions read from a format, saturating far above
// kMaxResultBytes instead of overflowing.
int append_decimal_digit(int value, char digit);

}  // namespace gkebuild::jinja
