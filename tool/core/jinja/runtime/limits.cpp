#include "tool/core/jinja/runtime/limits.h"

#include <atomic>
#include <string>

#include "tool/core/jinja/errors.h"

namespace gkebuild::jinja {

namespace {
std::atomic<int64_t> render_total{0};

[[noreturn]] void fail_budget() {
  throw EvalError("out of template memory: the values this render holds would pass the " +
                  std::to_string(kMaxRenderBytes >> 20) + " MiB that renders may hold at once");
}
}  // namespace

void RenderMemory::settle_thread() noexcept {
  render_total.fetch_add(local_, std::memory_order_relaxed);
  local_ = 0;
}

void RenderMemory::settle(int64_t charged) {
  const int64_t total = render_total.fetch_add(local_, std::memory_order_relaxed) + local_;
  local_ = 0;
  if (charged > 0 && total > static_cast<int64_t>(kMaxRenderBytes)) {
    render_total.fetch_sub(charged, std::memory_order_relaxed);
    fail_budget();
  }
}

void RenderMemory::require_room(uint64_t bytes) {
  const int64_t held = render_total.load(std::memory_order_relaxed) + local_;
  if (bytes > kMaxRenderBytes || held + static_cast<int64_t>(bytes) > static_cast<int64_t>(kMaxRenderBytes))
    fail_budget();
}

void fail_result_size(uint64_t count, uint64_t unit_bytes) {
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(count, unit_bytes, &bytes) || bytes > kMaxResultBytes)
    throw EvalError("result too large: more than the " + std::to_string(kMaxResultBytes >> 20) +
                    " MiB that one operation may build");
  RenderMemory::require_room(bytes);
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
