// Reading an image out of an OCI layout (FROM oci:DIR[:TAG]).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "images/image/image.h"

namespace gkebuild::image {

// The image tagged `tag`, or the layout's only image when `tag` is empty. An index
// entry is followed to its linux/amd64 manifest. Throws std::runtime_error saying
// what is missing.
Image load_image(std::shared_ptr<const oci::Layout> layout, const std::string& tag);

// The image whose manifest (or index) `descriptor` points at.
Image load_image(std::shared_ptr<const oci::Layout> layout, oci::Descriptor descriptor);

}  // namespace gkebuild::image
