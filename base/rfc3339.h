// RFC 3339 timestamps: image configs and history, run records, Kubernetes
// (expirationTimestamp, log line prefixes, sinceTime).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gkebuild {

using SystemClock = std::chrono::system_clock;

// "2024-05-01T10:00:00Z", with optional fraction and a Z or ±hh:mm offset.
std::optional<SystemClock::time_point> parse_rfc3339(std::string_view text);

// A UTC timestamp "YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ" whose string order is time order,
// or nullopt when `text` is not a timestamp; for comparing log line prefixes.
std::optional<std::string> sortable_timestamp(std::string_view text);

// Whole-second UTC, "2024-05-01T10:00:00Z" (image configs, sinceTime).
std::string format_rfc3339_seconds(SystemClock::time_point when);
std::string format_rfc3339_seconds(int64_t unix_seconds);
// UTC with milliseconds, "2024-05-01T10:00:00.123Z" (run records, local runs).
std::string format_rfc3339_milliseconds(SystemClock::time_point when);

}  // namespace gkebuild
