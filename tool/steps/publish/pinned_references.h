// The references `gkebuild render` writes for images that were pushed: the
// digest references of the pin file, like `ko resolve`.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "tool/core/project/project.h"

namespace gkebuild::publish {

using Warn = std::function<void(const std::string&)>;

// Image name -> "host/repo@sha256:…" for each image of `project` with a pin.
// A pin for another repository than the project names now (registry or project
// renamed) is left out, with a warning. A pin whose image was rebuilt since its
// push (the local layout's tag names another manifest) is kept: the cluster can
// pull only what was pushed. The warning then says to push again.
std::map<std::string, std::string> pinned_references(const project::Project& project, const Warn& warn);

}  // namespace gkebuild::publish
