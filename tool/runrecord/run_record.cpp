#include "runrecord/run_record.h"

#include <array>
#include <cstdio>
#include <ctime>

#include "kube/rfc3339.h"

namespace gkebuild::runrecord {
namespace {

constexpr std::array<std::string_view, 4> kStateNames = {"pending", "running", "succeeded", "failed"};

}  // namespace

std::string_view to_string(JobState state) { return kStateNames[static_cast<std::size_t>(state)]; }

std::optional<JobState> parse_job_state(std::string_view text) {
  for (std::size_t i = 0; i < kStateNames.size(); ++i)
    if (kStateNames[i] == text) return static_cast<JobState>(i);
  return std::nullopt;
}

std::string format_timestamp(TimePoint when) {
  auto millis = std::chrono::floor<std::chrono::milliseconds>(when);
  auto seconds = std::chrono::floor<std::chrono::seconds>(millis);
  std::time_t as_time_t = Clock::to_time_t(seconds);
  std::tm tm{};
  gmtime_r(&as_time_t, &tm);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>((millis - seconds).count()));
  return buffer;
}

std::optional<TimePoint> parse_timestamp(std::string_view text) { return kube::parse_rfc3339(text); }

}  // namespace gkebuild::runrecord
