// Where the project file is: gkebuild.yaml in the current folder or the nearest
// folder above it, as git finds .git, so every command works from a subfolder.
#pragma once

#include <filesystem>

namespace gkebuild::project {

inline constexpr const char* kProjectFileName = "gkebuild.yaml";

// The nearest gkebuild.yaml from `start` upwards, or an empty path.
std::filesystem::path find_project_file(const std::filesystem::path& start);

}  // namespace gkebuild::project
