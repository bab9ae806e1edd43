// The two ways a workload run ends early, mapped to the project's exit codes.
#pragma once

#include <stdexcept>

namespace gkebuild::workloads {

// Bad input from the user (sizes, precisions, data files): exit 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The run cannot be done here (no device, not enough memory, a CUDA error): exit 1.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gkebuild::workloads
