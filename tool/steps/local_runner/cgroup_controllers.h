// Whether this host's cgroups can apply a container's limits. runc writes them into the
// container's cgroup; a controller the host does not offer would make runc fail with a
// message about a cgroup file, or (for some) leave the limit unapplied, so it is checked
// before the container starts and named in a clear error.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tool/steps/local_runner/runtime_spec.h"

namespace gkebuild::local_runner {

// The controllers ("cpu", "memory", "pids") `limits` need that are not offered, given this
// process's /proc/self/cgroup and, for the unified (v2) hierarchy, the controllers listed
// in its cgroup.controllers. A v1 controller line ("4:memory:/x") offers its controllers.
std::vector<std::string> missing_cgroup_controllers(const ResourceLimits& limits, std::string_view proc_self_cgroup,
                                                    std::string_view unified_controllers);

// Throws std::runtime_error naming what is missing when this host cannot apply `limits`.
void check_cgroup_controllers(const ResourceLimits& limits);

}  // namespace gkebuild::local_runner
