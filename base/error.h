// The root of every error gkebuild's libraries throw. Each carries a kind, so the
// CLI can choose an exit code from one table (base/exit_codes.h) without
// knowing which library threw; libraries never choose exit codes themselves.
#pragma once

#include <stdexcept>
#include <string>

namespace gkebuild {

enum class ErrorKind {
  kBadInput,     // something the user gave is wrong: a flag, a project file, a Dockerfile
  kFailed,       // a well-formed request failed: a registry or API server refused, a build step failed
  kInterrupted,  // the user stopped it (Ctrl-C)
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

// How a command that ran to its end went, for commands whose result is more than
// "no error": a run whose Jobs failed, validation findings, a follow cut short.
enum class Outcome {
  kSucceeded,
  kFailed,
  kInterrupted,
};

}  // namespace gkebuild
