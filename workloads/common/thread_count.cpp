#include "workloads/common/thread_count.h"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <thread>

namespace gkebuild::workloads {
namespace {

int affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

// cgroup v2 "cpu.max" holds "QUOTA PERIOD" or "max PERIOD".
int cgroup_quota_cpus() {
  std::ifstream in("/sys/fs/cgroup/cpu.max");
  std::string quota;
  double period = 0;
  if (!(in >> quota >> period) || quota == "max" || period <= 0) return 0;
  try {
    return std::max(1, static_cast<int>(std::ceil(std::stod(quota) / period)));
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

int available_cpus() {
  const int cpus = affinity_cpus();
  const int quota = cgroup_quota_cpus();
  return quota > 0 ? std::min(cpus, quota) : cpus;
}

int thread_count(int requested) { return requested > 0 ? requested : available_cpus(); }

}  // namespace gkebuild::workloads
