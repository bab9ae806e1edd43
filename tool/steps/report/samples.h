// Result lines matched to the Job that printed them and grouped by case and accelerator.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tool/steps/report/report_build.h"

namespace gkebuild::report {

struct Sample {
  const LoadedRun* run = nullptr;
  const runrecord::JobRecord* job = nullptr;
  const runrecord::ResultLine* line = nullptr;
};

struct GroupKey {
  CaseKey key;
  std::string accelerator;  // display name
  auto operator<=>(const GroupKey&) const = default;
};

using Groups = std::map<GroupKey, std::vector<Sample>>;

// The display name of results that ran on the CPU although their Job had a GPU.
inline constexpr std::string_view kCpuPathOn = "cpu path on ";

// "nvidia-l4", "2x nvidia-l4", "cpu (local)"; "cpu path on nvidia-l4" for a line whose device
// kind is "cpu" from a Job with a GPU.
std::string accelerator_name(const runrecord::JobRecord& job, const runrecord::RunRecord& run,
                             const runrecord::ResultLine& line);

// The step of a learning curve a line belongs to: its `step`, else its `epoch` (top level or
// under `extra`); nullopt for a line of neither.
std::optional<double> step_of(const runrecord::ResultLine& line);
// The same with the field's name ("step" or "epoch"): a learning curve's axis.
struct Step {
  std::string_view name;
  double value = 0;
};
std::optional<Step> step_field(const runrecord::ResultLine& line);

// "k=4096 m=4096 n=4096" from a result's shape object.
std::string shape_text(const nlohmann::json& shape);

// Every usable result line by group; lines naming no Job of their run join `skipped`. Lines
// of different sweep points (the Jobs' parameters in run.json) are different groups, but for
// the variables named in `pooled`.
// Lines of Jobs stopped before they finished (Ctrl-C) are left out unless `include_stopped`.
Groups group_samples(const std::vector<LoadedRun>& runs, std::vector<runrecord::SkippedLine>& skipped,
                     const std::vector<std::string>& pooled = {}, bool include_stopped = false);

}  // namespace gkebuild::report
