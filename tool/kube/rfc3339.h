// RFC 3339 timestamps as Kubernetes writes them (expirationTimestamp, log line prefixes).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace gkebuild::kube {

using Clock = std::chrono::system_clock;

// "2024-05-01T10:00:00Z", with optional fraction and a Z or ±hh:mm offset.
std::optional<Clock::time_point> parse_rfc3339(std::string_view text);

// A UTC timestamp "YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ" whose string order is time order,
// or nullopt when `text` is not a timestamp; for comparing log line prefixes.
std::optional<std::string> sortable_timestamp(std::string_view text);

// Whole-second UTC, as the sinceTime query parameter takes it.
std::string format_rfc3339_seconds(Clock::time_point when);

}  // namespace gkebuild::kube
