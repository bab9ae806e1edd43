// The one table from how a command ended to its exit code, as kubectl-style tools
// use them. Libraries throw gkebuild::Error with a kind or return an Outcome; only
// the CLI turns either into a number. It sits in base/ because the workload programs
// (workloads/, which include nothing of tool/) end by the same table; the namespace
// stays cli:: since it is a command-line convention, not a library's.
#pragma once

#include "base/error.h"

namespace gkebuild::cli {

inline constexpr int kExitSuccess = 0;
inline constexpr int kExitFailure = 1;        // findings, a failed run, a refused push or API call
inline constexpr int kExitUsage = 2;          // bad input, usage errors, the tool could not run
inline constexpr int kExitInterrupted = 130;  // 128 + SIGINT, as shells report it

constexpr int exit_code(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kBadInput: return kExitUsage;
    case ErrorKind::kFailed: return kExitFailure;
    case ErrorKind::kInterrupted: return kExitInterrupted;
    case ErrorKind::kCannotRun: return kExitUsage;
  }
  return kExitUsage;
}

constexpr int exit_code(Outcome outcome) {
  switch (outcome) {
    case Outcome::kSucceeded: return kExitSuccess;
    case Outcome::kFailed: return kExitFailure;
    case Outcome::kInterrupted: return kExitInterrupted;
  }
  return kExitUsage;
}

}  // namespace gkebuild::cli
