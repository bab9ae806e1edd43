// The root of every error gkebuild's libraries throw. Each carries a kind, so the
// CLI can choose an exit code from one table (base/exit_codes.h) without
// knowing which library threw; libraries never choose exit codes themselves.
#pragma once

#include <stdexcept>
#include <string>
#include <system_error>

namespace gkebuild {

enum class ErrorKind {
  kBadInput,     // something the user gave is wrong: a flag, a project file, a Dockerfile
  kFailed,       // a well-formed request failed: a registry or API server refused, a build step failed
  kInterrupted,  // the user stopped it (Ctrl-C)
  kCannotRun,    // the tool cannot run here: it needs root, a program that is not installed, a
                 // kernel feature the host lacks; or a bug in gkebuild itself
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

// Bad input found where no position is known: a word, a flag value, a digest. A caller that
// knows where it came from (the Dockerfile's line, the flag's name) catches this type, and only
// this type, and rethrows it as a SourceError; an I/O failure on the way passes through.
class InputError : public Error {
 public:
  explicit InputError(const std::string& message) : Error(ErrorKind::kBadInput, message) {}
};

// A failed system call as a failed operation: `what`, then the system's words for
// `error_number` (errno), as std::system_error words them.
inline Error system_failure(int error_number, const std::string& what) {
  return Error(ErrorKind::kFailed, what + ": " + std::generic_category().message(error_number));
}

}  // namespace gkebuild
