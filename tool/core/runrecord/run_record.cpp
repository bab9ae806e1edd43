#include "tool/core/runrecord/run_record.h"

#include <array>
#include <cstdio>
#include <ctime>

#include "base/rfc3339.h"

namespace gkebuild::runrecord {
namespace {

constexpr std::array<std::string_view, 5> kStateNames = {"pending", "running", "succeeded", "failed", "stopped"};

}  // namespace

std::string_view to_string(JobState state) { return kStateNames[static_cast<std::size_t>(state)]; }

std::optional<JobState> parse_job_state(std::string_view text) {
  for (std::size_t i = 0; i < kStateNames.size(); ++i)
    if (kStateNames[i] == text) return static_cast<JobState>(i);
  return std::nullopt;
}

std::string format_timestamp(TimePoint when) { return format_rfc3339_milliseconds(when); }

std::optional<TimePoint> parse_timestamp(std::string_view text) { return parse_rfc3339(text); }

}  // namespace gkebuild::runrecord
