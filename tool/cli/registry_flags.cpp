#include "tool/cli/registry_flags.h"
#include "tool/cli/verbosity_flags.h"

#include <unistd.h>

#include <iostream>

#include "registry/transport/errors.h"

namespace gkebuild::cli {

using registry::ErrorKind;
using registry::RegistryError;

namespace {

const char* outcome_name(registry::BlobOutcome outcome) {
  switch (outcome) {
    case registry::BlobOutcome::kPresent: return "present";
    case registry::BlobOutcome::kMounted: return "mounted";
    case registry::BlobOutcome::kUploaded: return "uploaded";
  }
  return "";
}

}  // namespace

void add_registry_connection_flags(CLI::App& command, RegistryFlags& flags) {
  command.add_option("--insecure-registry", flags.insecure,
                     "HOST:PORT that may use plain HTTP or unverified TLS (loopback always may)");
  command.add_option("--ca-file", flags.ca_file, "PEM file of CAs to verify the registry with")
      ->check(CLI::ExistingFile);
}

void add_registry_flags(CLI::App& command, RegistryFlags& flags) {
  add_registry_connection_flags(command, flags);
  command.add_option("--format", flags.format, "Manifest format: oci or docker (default: as built)");
  command.add_option("-j,--jobs", flags.jobs, "Blobs in flight at once")->check(CLI::Range(1, 64));
  add_verbose_flag(command, flags.verbose);
}

registry::SessionOptions session_options(const RegistryFlags& flags) {
  registry::SessionOptions session;
  session.insecure_registries = flags.insecure;
  session.ca_file = flags.ca_file;
  // One write a line: blobs are pushed from several threads at once.
  if (flags.verbose) session.log = [](const std::string& line) { std::cerr << ("gkebuild: " + line + "\n"); };
  return session;
}

registry::PushOptions push_options(const RegistryFlags& flags) {
  registry::PushOptions options;
  options.jobs = flags.jobs;
  options.session = session_options(flags);
  if (!flags.format.empty()) {
    options.format = registry::parse_manifest_format(flags.format);
    if (!options.format)
      throw RegistryError(ErrorKind::kBadInput, "--format must be oci or docker, not \"" + flags.format + "\"");
  }
  return options;
}

nlohmann::json push_result_json(const registry::PushResult& r) {
  nlohmann::json blobs = nlohmann::json::array();
  for (const auto& b : r.blobs)
    blobs.push_back({{"digest", b.digest}, {"mediaType", b.media_type}, {"size", b.size},
                     {"outcome", outcome_name(b.outcome)}, {"bytesSent", b.bytes_sent}});
  return {{"reference", r.reference}, {"digest", r.digest}, {"mediaType", r.media_type},
          {"size", r.size}, {"tags", r.tags}, {"bytesSent", r.bytes_sent()}, {"blobs", blobs}};
}

PushProgress::PushProgress(bool quiet, const std::string& output) {
  if (!quiet && output == "text" && ::isatty(STDERR_FILENO)) display_.emplace(std::cerr);
}

void PushProgress::attach(registry::PushOptions& options) {
  if (display_) options.on_progress = [this](const registry::BlobProgress& p) { display_->update(p); };
}

void PushProgress::finish() {
  if (display_) display_->finish();
}

}  // namespace gkebuild::cli
