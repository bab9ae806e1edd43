// Publish, the push half of ko's build and publish: the images tool/steps/project_images
// built into a layout, pushed to <registry>/<project>-<image>:latest (the name
// render gives them) and pinned by digest in <project>/.gkebuild/images.json for
// `gkebuild render`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "images/oci/layout.h"
#include "registry/remote/push.h"
#include "tool/core/project/project.h"
#include "tool/steps/project_images/project_images.h"

namespace gkebuild::publish {

struct PublishedImage {
  std::string name;       // the key under images:
  std::string reference;  // "host/repo@sha256:…"
  std::string digest;     // "sha256:…" of the pushed manifest
  uint64_t bytes_sent = 0;
  registry::PushResult push;  // every blob's outcome, for -o json
};

// Pushes each image of `built` from `store` (where build_project_images put and
// tagged it) to its reference, and pins it as soon as its push completed.
// `push` carries TLS/insecure registries, jobs, format and progress. Throws
// registry::RegistryError.
std::vector<PublishedImage> publish_images(const project::Project& project, oci::Layout& store,
                                           const std::vector<project_images::ProjectImage>& built,
                                           const registry::PushOptions& push);

}  // namespace gkebuild::publish
