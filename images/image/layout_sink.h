// Writing an image into an OCI layout: layer blobs it lacks (copied from where
// they are, verified), then the config, then the manifest last, so a tag never
// points at an image with missing blobs.
#pragma once

#include "images/image/image.h"

namespace gkebuild::image {

// Returns the manifest's descriptor; tag it with Layout::tag.
oci::Descriptor write_to_layout(oci::Layout& layout, const Image& image);

}  // namespace gkebuild::image
