// An image of one layer whose blob is a given tar, byte for byte (hostile names included),
// tagged in an OCI layout: what an untrusted `oci:DIR` or registry image can hold.
#pragma once

#include <filesystem>
#include <string>

#include "images/image/image.h"

namespace gkebuild::testing {

image::Image image_of_tar(const std::filesystem::path& layout_dir, const std::string& tag,
                          const std::filesystem::path& tar);

}  // namespace gkebuild::testing
