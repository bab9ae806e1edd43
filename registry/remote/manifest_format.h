// Writing an image's manifests in one media-type family: OCI, or Docker
// schema 2 on request. Blobs keep their digests; only descriptors change, so a
// converted manifest (and an index over converted manifests) gets a new digest.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "images/oci/manifest.h"

namespace gkebuild::registry {

enum class ManifestFormat { kOci, kDocker };

// "oci" or "docker"; nullopt for anything else.
std::optional<ManifestFormat> parse_manifest_format(std::string_view name);

// `manifest` with every media type in `format`. Throws RegistryError(kBadInput)
// for a layer type the format cannot express.
oci::Manifest convert_manifest(oci::Manifest manifest, ManifestFormat format);

// The index (or manifest list) media type of `format`.
std::string index_media_type(ManifestFormat format);

}  // namespace gkebuild::registry
