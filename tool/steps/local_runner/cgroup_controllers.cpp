#include "tool/steps/local_runner/cgroup_controllers.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "base/error.h"

namespace gkebuild::local_runner {
namespace {

std::string read_text(const char* path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The controllers this process's cgroups offer: v1 lines name them ("4:cpu,cpuacct:/x");
// when there are none, the host is cgroup v2 only and the unified hierarchy's list counts.
std::set<std::string> offered(std::string_view proc_self_cgroup, std::string_view unified_controllers) {
  std::set<std::string> v1;
  std::istringstream lines{std::string(proc_self_cgroup)};
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    std::istringstream names(line.substr(first + 1, second - first - 1));
    for (std::string name; std::getline(names, name, ',');)
      if (!name.empty() && !name.starts_with("name=")) v1.insert(name);
  }
  if (!v1.empty()) return v1;
  std::set<std::string> v2;
  std::istringstream words{std::string(unified_controllers)};
  for (std::string name; words >> name;) v2.insert(name);
  return v2;
}

}  // namespace

std::vector<std::string> missing_cgroup_controllers(const ResourceLimits& limits, std::string_view proc_self_cgroup,
                                                    std::string_view unified_controllers) {
  std::vector<std::string> needed{"pids"};
  if (limits.cpu_millis) needed.push_back("cpu");
  if (limits.memory_bytes) needed.push_back("memory");
  const auto available = offered(proc_self_cgroup, unified_controllers);
  std::erase_if(needed, [&](const std::string& name) { return available.contains(name); });
  std::sort(needed.begin(), needed.end());
  return needed;
}

void check_cgroup_controllers(const ResourceLimits& limits) {
  const auto missing = missing_cgroup_controllers(limits, read_text("/proc/self/cgroup"),
                                                  read_text("/sys/fs/cgroup/cgroup.controllers"));
  if (missing.empty()) return;
  std::string names;
  for (const auto& name : missing) names += (names.empty() ? "" : ", ") + name;
  throw Error(ErrorKind::kCannotRun, "this host's cgroups offer no " + names +
              " controller, so the container's limits (the Job's resources.limits, a pids limit) "
              "cannot be applied; enable the controller, or run the Job on a cluster");
}

}  // namespace gkebuild::local_runner
