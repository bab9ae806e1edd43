#include "jinja/limits.h"

#include <string>

#include "jinja/errors.h"

namespace gkebuild::jinja {

void require_result_size(uint64_t count, uint64_t unit_bytes) {
  uint64_t bytes = 0;
  if (!__builtin_mul_overflow(count, unit_bytes, &bytes) && bytes <= kMaxResultBytes) return;
  throw EvalError("result too large: more than the " + std::to_string(kMaxResultBytes >> 20) +
                  " MiB that one operation may build");
}

thread_local int ValueNesting::depth_ = 0;

ValueNesting::ValueNesting() {
  if (depth_ >= kMaxValueDepth)
    throw EvalError("values nested deeper than " + std::to_string(kMaxValueDepth) +
                    " levels (a list or dict that contains itself?)");
  ++depth_;
}

int append_decimal_digit(int value, char digit) {
  constexpr int kSaturated = 1 << 30;
  if (value >= kSaturated / 10) return kSaturated;
  return value * 10 + (digit - '0');
}

}  // namespace gkebuild::jinja
