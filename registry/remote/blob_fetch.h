// Bringing one blob from a registry into a layout, verified against its digest.
#pragma once

#include <string>

#include "images/oci/descriptor.h"
#include "images/oci/layout.h"
#include "registry/transport/session.h"

namespace gkebuild::registry {

// GETs /v2/<repository>/blobs/<digest> into `layout` (streaming, with retries).
// The body is held to the descriptor's size: a byte more ends the transfer at
// once, fewer is an error too, and nothing half-written stays behind.
// Throws RegistryError(kRemote) naming the registry when the bytes do not match.
void fetch_blob(Session& session, const std::string& repository, const oci::Descriptor& blob,
                oci::Layout& layout);

// GETs a manifest (or index) by tag or digest. Returns its bytes and media type;
// checks the digest when `reference` is one, or when the registry states one.
struct FetchedManifest {
  std::string bytes;
  std::string media_type;
  oci::Digest digest;
};
FetchedManifest fetch_manifest(Session& session, const std::string& repository,
                               const std::string& reference);
// The same for a manifest an index describes: held to the descriptor's size.
FetchedManifest fetch_manifest(Session& session, const std::string& repository, const oci::Descriptor& manifest);

}  // namespace gkebuild::registry
