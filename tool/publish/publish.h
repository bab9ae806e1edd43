// Build and publish: the project's images built (tool/imageproject), pushed to
// <registry>/<project>-<image>:latest (the name render gives them), and pinned
// by digest in <project>/.gkebuild/images.json for `gkebuild render`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "imageproject/project_images.h"
#include "remote/push.h"

namespace gkebuild::publish {

struct PublishOptions {
  // Which images (empty: all), where workload binaries are, build options.
  // build.build.pull left empty pulls FROM images with push.session's settings.
  imageproject::ProjectImageOptions build;
  registry::PushOptions push;      // TLS/insecure registries, jobs, format, progress
  std::filesystem::path layout;    // empty: <project>/.gkebuild/oci
};

struct PublishedImage {
  std::string name;       // the key under images:
  std::string reference;  // "host/repo@sha256:…"
  std::string digest;     // "sha256:…" of the pushed manifest
  uint64_t bytes_sent = 0;
  registry::PushResult push;  // every blob's outcome, for -o json
};

// Builds, pushes and pins each image in turn; a pin is recorded as soon as its
// push completed. Throws SourceError / DockerfileError (bad project, build)
// and registry::RegistryError (push).
std::vector<PublishedImage> publish_project_images(const std::filesystem::path& project_file,
                                                   const PublishOptions& options);

}  // namespace gkebuild::publish
