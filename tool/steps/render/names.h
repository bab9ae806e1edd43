// Names of rendered objects and runs: valid Kubernetes names, stable for the same input.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gkebuild::render {

// Joins `parts` with '-' into a DNS-1123 label of at most `max_length` characters.
// Characters outside [a-z0-9-] become '-'; a name that is too long keeps a prefix and
// ends in a hash of the whole name, so distinct inputs stay distinct.
std::string kube_name(const std::vector<std::string>& parts, std::size_t max_length = 52);

// The run id (the gkebuild.io/run label and the end of Job names) of the run named `run_name`
// (EXPERIMENT-YYYYMMDD-HHMMSS, runrecord::run_name): the name itself where it is a valid run id,
// else a DNS label made of it. render and submit both name a run's objects through it.
std::string run_id_of(std::string_view run_name);

// `name` as a DNS-1035 label, the rule of a Service's name and of a JobSet's (whose Jobs and
// pods it names): a label that starts with a letter is kept; one that starts with a digit
// ("3d-unet-…", from an experiment's name) gets `prefix` in front, within `max_length`.
std::string letter_first(const std::string& name, const std::string& prefix, std::size_t max_length);

// True if `id` can be a run id: a DNS-1123 label of at most 40 characters.
bool is_valid_run_id(std::string_view id);

}  // namespace gkebuild::render
