// OCI manifests, indexes and image configs as a registry or a layout on disk hands them over.
#include "fuzz_target.h"
#include "images/oci/manifest.h"

GKEBUILD_FUZZ_TARGET({
  try {
    gkebuild::oci::parse_manifest(input);
  } catch (const std::runtime_error&) {
  }
  try {
    gkebuild::oci::parse_index(input);
  } catch (const std::runtime_error&) {
  }
  gkebuild::oci::parse_image_config(input);
})
