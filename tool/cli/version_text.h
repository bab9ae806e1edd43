// What `gkebuild version` and `gkebuild --version` print: the version, the git commit the
// binary was built from and the build type (defined in version_command.cpp).
#pragma once

#include <string>

namespace gkebuild::cli {

std::string version_text();

// What gkebuild is, for --help and the manual page.
inline constexpr const char* kGkebuildDescription = "render, build, push, validate and run GPU experiments on GKE";

}  // namespace gkebuild::cli
