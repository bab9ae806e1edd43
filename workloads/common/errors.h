// The two ways a workload run ends early; their kinds choose the exit code
// from the project's one table (base/exit_codes.h).
#pragma once

#include <string>

#include "base/error.h"

namespace gkebuild::workloads {

// Bad input from the user (sizes, precisions, data files): exit 2.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(ErrorKind::kBadInput, message) {}
};

// The run cannot be done here (no device, not enough memory, a CUDA error): exit 1.
class RunError : public Error {
 public:
  explicit RunError(const std::string& message) : Error(ErrorKind::kFailed, message) {}
};

}  // namespace gkebuild::workloads
