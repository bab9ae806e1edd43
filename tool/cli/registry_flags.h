// What `gkebuild push` and `gkebuild image --push` share: the registry flags
// (TLS, insecure registries, parallel blobs, manifest format, request log),
// the progress display, the -o json shape, and how registry errors end a run.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "remote/progress.h"
#include "remote/push.h"

namespace gkebuild::cli {

struct RegistryFlags {
  std::vector<std::string> insecure;
  std::string ca_file;
  std::string format;
  int jobs = 4;
  bool verbose = false;
};

// --insecure-registry, --ca-file, --format, -j/--jobs, -v/--verbose.
void add_registry_flags(CLI::App& command, RegistryFlags& flags);

registry::SessionOptions session_options(const RegistryFlags& flags);
// Throws RegistryError(kBadInput) for an unknown --format.
registry::PushOptions push_options(const RegistryFlags& flags);

// One pushed image as -o json prints it: reference, digest, sizes, tags, blobs.
nlohmann::json push_result_json(const registry::PushResult& result);

// The progress display on stderr, only when it is a terminal and the output
// is text without --quiet.
class PushProgress {
 public:
  PushProgress(bool quiet, const std::string& output);
  PushProgress(const PushProgress&) = delete;  // attach() hands out `this`
  PushProgress& operator=(const PushProgress&) = delete;
  void attach(registry::PushOptions& options);
  void finish();

 private:
  std::optional<registry::ProgressDisplay> display_;
};

// Runs `body`; a RegistryError becomes "gkebuild COMMAND: error: …" on stderr
// and exit 2 (bad input) or 1 (the registry refused or failed).
int reporting_registry_errors(const std::string& command, const std::function<int()>& body);

}  // namespace gkebuild::cli
