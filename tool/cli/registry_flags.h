// What `gkebuild push`, `gkebuild image --push` and `gkebuild submit` share: the
// registry flags (TLS, insecure registries, parallel blobs, manifest format, request
// log), the progress display and the -o json shape.
#pragma once

#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "registry/remote/progress.h"
#include "registry/remote/push.h"

namespace gkebuild::cli {

struct RegistryFlags {
  std::vector<std::string> insecure;
  std::string ca_file;
  std::string format;
  int jobs = 4;
  bool verbose = false;
};

// --insecure-registry and --ca-file: how to reach a registry (what submit needs).
void add_registry_connection_flags(CLI::App& command, RegistryFlags& flags);
// The connection flags and --format, -j/--jobs, -v/--verbose: how to push.
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

}  // namespace gkebuild::cli
