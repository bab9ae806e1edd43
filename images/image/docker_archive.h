// The `docker save` tarball `docker load` reads: manifest.json, the config as
// <hex>.json and each layer uncompressed as <diff_id hex>/layer.tar.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "images/image/image.h"

namespace gkebuild::image {

// Written to a temporary name beside `file`, then renamed. `repo_tags`: "name:tag".
void write_docker_archive(const std::filesystem::path& file, const Image& image,
                          const std::vector<std::string>& repo_tags);

}  // namespace gkebuild::image
