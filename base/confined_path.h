// Paths that a user's file names relative to a folder it must stay in (a project's
// templates, a build context): `..` or a symlink must not lead out of that folder.
#pragma once

#include <filesystem>
#include <optional>

namespace gkebuild {

// `relative` under `root` with every symlink that exists resolved, or nullopt when it is
// absolute or the resolved path is not `root` or below it. What does not exist yet is
// resolved lexically, so a later `..` cannot climb out either.
std::optional<std::filesystem::path> confined_path(const std::filesystem::path& root,
                                                   const std::filesystem::path& relative);

// Whether `path` is `root` or below it, both taken as they are (no symlinks resolved).
bool is_within(const std::filesystem::path& root, const std::filesystem::path& path);

}  // namespace gkebuild
