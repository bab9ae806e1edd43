// Pulling an image (a base for FROM) into a local OCI layout: the tag is
// resolved to a digest (an index to its linux/amd64 manifest), the manifest
// and config are fetched and verified, and layer bytes only when asked for:
// a push fetches the layers its destination lacks by itself, from where the
// pull recorded them.
#pragma once

#include <string>

#include "images/oci/layout.h"
#include "images/oci/manifest.h"
#include "registry/transport/reference.h"
#include "registry/transport/session.h"

namespace gkebuild::registry {

struct PullOptions {
  SessionOptions session;
  oci::Platform platform;    // picked from an index; linux/amd64 by default
  bool fetch_layers = true;  // false: manifest and config only
  std::string tag;           // when set, the pulled manifest is tagged so in the layout
  int jobs = 4;              // layers fetched at once
};

struct PullResult {
  Reference resolved;            // the reference with the manifest's digest
  oci::Descriptor descriptor;    // of the platform manifest, as stored in the layout
  oci::Manifest manifest;
  oci::ImageConfig config;
  std::string index_digest;      // when the reference named an index, its digest
};

// Throws RegistryError naming the registry on failure; nothing is tagged then.
PullResult pull_image(const Reference& reference, oci::Layout& layout, const PullOptions& options);

}  // namespace gkebuild::registry
