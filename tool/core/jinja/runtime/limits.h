// Limits that keep hostile templates from exhausting the stack or the memory: past them a
// template gets a clear error with its position instead of a crash
// (docs/jinja2-differences.md, "Limits").
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

// The largest string or list one operation may build (padding, repetition, formatting,
// concatenation, joining, splitting, escaping, a string turned into a list).
constexpr uint64_t kMaxResultBytes = uint64_t{256} << 20;

// What the strings, lists and dicts that renders make may hold at once, in this process (the
// context they read is the caller's and not counted; text a loop or a macro has captured is).
// With kMaxResultBytes for the one operation under way, a hostile render stays under 1 GB.
constexpr uint64_t kMaxRenderBytes = uint64_t{512} << 20;

// The bytes that template-made values hold. Counted per thread and added to the process's
// total in steps of kChargeStep, so that the many small strings of a render cost no shared
// write each; the total is exact to a step per thread.
class RenderMemory {
 public:
  static constexpr int64_t kChargeStep = int64_t{1} << 20;
  // Counts `bytes` more; past kMaxRenderBytes, takes them back and throws EvalError.
  static void charge(uint64_t bytes) {
    local_ += static_cast<int64_t>(bytes);
    if (local_ >= kChargeStep) settle(static_cast<int64_t>(bytes));
  }
  static void release(uint64_t bytes) noexcept {
    local_ -= static_cast<int64_t>(bytes);
    if (local_ <= -kChargeStep) settle(0);
  }
  // Throws EvalError when `bytes` more would pass kMaxRenderBytes (nothing is counted).
  static void require_room(uint64_t bytes);
  // Hands this thread's count to the total; a thread that rendered calls it before it ends.
  static void settle_thread() noexcept;

 private:
  static void settle(int64_t charged);  // moves local_ into the total; may throw, see charge
  inline static thread_local int64_t local_ = 0;
};

// Throws EvalError when `count` units of `unit_bytes` bytes would exceed kMaxResultBytes, or
// would not fit in what kMaxRenderBytes leaves. Inline: small results (nearly all) pass at once.
void fail_result_size(uint64_t count, uint64_t unit_bytes);
inline void require_result_size(uint64_t count, uint64_t unit_bytes = 1) {
  if (count < (uint64_t{1} << 16) && unit_bytes <= 64) return;
  fail_result_size(count, unit_bytes);
}

// For a result checked as it grows, once per item written (JSON, repr, YAML, a loop's text):
// the one operation's limit only, a compare on the hot path.
inline void require_growth_within_limit(uint64_t bytes) {
  if (bytes > kMaxResultBytes) fail_result_size(bytes, 1);
}

// value * 10 + digit for widths and precisions read from a format, saturating far above
// kMaxResultBytes instead of overflowing.
int append_decimal_digit(int value, char digit);

}  // namespace gkebuild::jinja
