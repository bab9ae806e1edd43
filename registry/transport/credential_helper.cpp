#include "registry/transport/credential_helper.h"

#include <nlohmann/json.hpp>

#include "base/child_process.h"
#include "registry/transport/errors.h"

namespace gkebuild::registry {
namespace {

// `PROGRAM get` with the server on stdin (the docker credential helper protocol). A helper's
// output past 1 MiB is no credential: the rest is dropped.
ChildOutput run(const std::string& program, const std::string& input) {
  auto ran = run_child({program, "get"}, {.input = input, .output_limit = std::size_t{1} << 20});
  if (!ran)
    throw RegistryError(ErrorKind::kBadInput, "credential helper " + program + " is not installed or not on PATH");
  return std::move(*ran);
}

// What to do about a failing helper. Its output is never repeated: a helper that fails half
// way may have printed part of a credential. docker-credential-gcloud fails so when gcloud has
// no account, so it gets the steps that fix that.
std::string helper_hint(const std::string& program) {
  if (program == "docker-credential-gcloud")
    return ": gcloud may have no active account here: run `gcloud auth login`, then try again (run `echo HOST | "
           "docker-credential-gcloud get` to see what it says)";
  return ": run `echo HOST | " + program + " get` to see what it says";
}

}  // namespace

std::optional<Credentials> run_credential_helper(const std::string& helper,
                                                 const std::string& server) {
  std::string program = "docker-credential-" + helper;
  ChildOutput result = run(program, server);
  if (result.exit_code != 0) {
    // The documented "no credentials" answer; anything else is a failure.
    if ((result.out + result.err).find("credentials not found") != std::string::npos)
      return std::nullopt;
    throw RegistryError(ErrorKind::kBadInput, "credential helper " + program + " failed for " +
                                                  server + " (exit status " +
                                                  std::to_string(result.exit_code) + ")" +
                                                  helper_hint(program));
  }
  auto answer = nlohmann::json::parse(result.out, nullptr, false);
  if (!answer.is_object() || !answer.contains("Secret") || !answer["Secret"].is_string())
    throw RegistryError(ErrorKind::kBadInput, "credential helper " + program +
                                                  " printed an answer without a Secret for " +
                                                  server);
  Credentials credentials;
  credentials.username = answer.value("Username", "");
  if (credentials.username == "<token>")
    credentials.identity_token = answer["Secret"].get<std::string>();
  else
    credentials.password = answer["Secret"].get<std::string>();
  return credentials;
}

}  // namespace gkebuild::registry
