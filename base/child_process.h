// Running a short-lived helper program (gcloud, a docker credential helper) and collecting
// what it prints: stdin gets `input` (or /dev/null), stdout and stderr are read together until
// both close, so a child that fills either pipe first never blocks.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gkebuild {

struct ChildOutput {
  int exit_code = -1;  // 128 + the signal when it was killed
  std::string out;
  std::string err;
};

struct ChildOptions {
  std::optional<std::string> input;          // written to stdin, then closed; none: /dev/null
  std::size_t output_limit = std::size_t{16} << 20;  // per stream; the rest is read and dropped
};

// Runs argv[0], looked up on PATH, with this process's environment. nullopt when it cannot
// be started (not installed); the caller says what to install.
std::optional<ChildOutput> run_child(const std::vector<std::string>& argv, const ChildOptions& options = {});

}  // namespace gkebuild
