// What a push sends: the manifests of an image (an index's children first,
// the top one last) as the exact bytes to PUT, and the blobs they name.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "images/oci/layout.h"
#include "registry/remote/manifest_format.h"

namespace gkebuild::registry {

struct PlannedManifest {
  std::string media_type;
  std::string bytes;
  oci::Digest digest;
};

struct PushPlan {
  std::vector<PlannedManifest> manifests;  // children first; back() is the top one
  std::vector<oci::Descriptor> blobs;      // configs and layers, each digest once
};

// Reads the image `top` from `layout`. Manifests keep their stored bytes (and
// digests) unless `format` asks for the other media-type family.
PushPlan plan_push(const oci::Layout& layout, const oci::Descriptor& top,
                   const std::optional<ManifestFormat>& format);

}  // namespace gkebuild::registry
