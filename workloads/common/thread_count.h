// How many CPU threads a workload may use: the CPUs the process is pinned to, capped by the
// cgroup's CPU quota (a Kubernetes CPU limit), so a pod with `cpu: 4` does not run 96 threads.
#pragma once

namespace gkebuild::workloads {

int available_cpus();

// `requested` when > 0, else available_cpus().
int thread_count(int requested);

}  // namespace gkebuild::workloads
