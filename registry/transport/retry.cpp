#include "registry/transport/retry.h"

#include <algorithm>
#include <optional>
#include <random>
#include <thread>

#include "registry/transport/errors.h"

namespace gkebuild::registry {

std::chrono::milliseconds backoff_delay(const RetryPolicy& policy, int attempt) {
  thread_local std::mt19937 random{std::random_device{}()};
  double base = static_cast<double>(policy.first_delay.count()) * (1 << std::min(attempt - 1, 16));
  base = std::min(base, static_cast<double>(policy.max_delay.count()));
  std::uniform_real_distribution<double> jitter(0.5, 1.5);
  return std::chrono::milliseconds(static_cast<long>(base * jitter(random)));
}

void with_retries(const RetryPolicy& policy, const std::function<void(const std::string&)>& log,
                  const std::function<void()>& operation) {
  std::optional<std::chrono::steady_clock::time_point> first_failure;
  for (int attempt = 1;; ++attempt) {
    try {
      operation();
      return;
    } catch (const RegistryError& e) {
      if (!e.retryable() || attempt >= policy.attempts) throw;
      const auto now = std::chrono::steady_clock::now();
      if (!first_failure) first_failure = now;
      auto delay = backoff_delay(policy, attempt);
      if (now + delay - *first_failure > policy.give_up_after) throw;
      if (log) log(std::string(e.what()) + "; retrying in " + std::to_string(delay.count()) + " ms");
      std::this_thread::sleep_for(delay);
    }
  }
}

}  // namespace gkebuild::registry
