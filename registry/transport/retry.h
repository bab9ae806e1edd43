// Retrying an operation that failed in a way worth another try (a dropped
// connection, 408, 429, 5xx), with exponential backoff and jitter.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace gkebuild::registry {

struct RetryPolicy {
  int attempts = 5;  // in all, the first one included
  std::chrono::milliseconds first_delay{200};
  std::chrono::milliseconds max_delay{5000};
  // No retry starts once this long has passed since the first failure, so that
  // slow failures (stalls that each take their limit) end in bounded time, while
  // a long upload that drops once still gets another try.
  std::chrono::milliseconds give_up_after{std::chrono::minutes(10)};
};

// The delay before attempt `attempt` (1 = the first retry): doubling, capped,
// then scaled by a random factor in [0.5, 1.5) so parallel uploads spread out.
std::chrono::milliseconds backoff_delay(const RetryPolicy& policy, int attempt);

// Runs `operation` until it succeeds, throws a non-retryable error, or the
// attempts or the time (give_up_after) are spent (then the last error propagates). `log` hears about retries.
void with_retries(const RetryPolicy& policy, const std::function<void(const std::string&)>& log,
                  const std::function<void()>& operation);

}  // namespace gkebuild::registry
