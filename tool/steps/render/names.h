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

// True if `id` can be a run id: a DNS-1123 label of at most 40 characters.
bool is_valid_run_id(std::string_view id);

}  // namespace gkebuild::render
