#include "tool/cli/override_flags.h"

#include "base/source_error.h"
#include "tool/cli/name_value.h"

namespace gkebuild::cli {
namespace {

// --sweep NAME=V1,V2: the values are a comma-separated list.
std::vector<plan::SweepOverride> sweep_overrides(const std::vector<std::string>& texts) {
  std::vector<plan::SweepOverride> sweeps;
  const auto pairs = parse_name_values("--sweep", texts, "NAME=VALUE,VALUE…, e.g. --sweep n=4096,8192");
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto& [name, list] = pairs[i];
    plan::SweepOverride sweep{name, {}};
    for (std::size_t start = 0, comma = 0; comma != std::string::npos; start = comma + 1) {
      comma = list.find(',', start);
      sweep.values.push_back(list.substr(start, comma == std::string::npos ? comma : comma - start));
      if (sweep.values.back().empty()) throw SourceError({"--sweep " + texts[i]}, "an empty value in the list");
    }
    sweeps.push_back(std::move(sweep));
  }
  return sweeps;
}

}  // namespace

void add_override_flags(CLI::App& command, OverrideFlags& flags) {
  plan::Overrides& overrides = flags.overrides;
  command.add_option("--accelerator", overrides.accelerators, "accelerator labels replacing the experiments' lists")
      ->delimiter(',');
  command.add_option("--sweep", flags.sweeps, "NAME=V1,V2: replace (or add) a sweep axis (repeatable)");
  command.add_option("--set", flags.sets, "set a template value: key.path=value, typed as a YAML scalar (repeatable)");
  command.add_option("--values", overrides.values_files, "a YAML or JSON values file (repeatable, merged in order)");
  command.add_option("--queue", overrides.queue,
                     "a Kueue LocalQueue: Jobs are created suspended and Kueue admits them by quota "
                     "(default: the experiment's queue:)");
  command.add_option("--parallelism", overrides.parallelism,
                     "run the sweep as one Indexed Job per accelerator, at most N points at once "
                     "(default: the experiment's parallelism:)")
      ->check(CLI::Range(1, 100000));
}

std::vector<render::Assignment> set_assignments(const std::vector<std::string>& sets) {
  return parse_name_values("--set", sets, "key=value (keys may be dotted: a.b=1)", EmptyValue::kAllowed);
}

plan::Overrides parsed_overrides(const OverrideFlags& flags) {
  plan::Overrides overrides = flags.overrides;
  overrides.sweeps = sweep_overrides(flags.sweeps);
  overrides.sets = set_assignments(flags.sets);
  return overrides;
}

}  // namespace gkebuild::cli
