// How a build brings in `FROM host/repo:tag`: pulled into the build's layout
// (only layers it lacks), then read from there.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "images/image/image.h"
#include "images/oci/layout.h"
#include "registry/transport/session.h"

namespace gkebuild::publish {

std::function<image::Image(const std::string&)> registry_pull(std::shared_ptr<oci::Layout> store,
                                                              registry::SessionOptions session);

}  // namespace gkebuild::publish
