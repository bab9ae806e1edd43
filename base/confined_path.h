// Paths that a user's file names relative to a folder it must stay in (a project's
// templates, a build context, the files gkebuild keeps in `.gkebuild/`): `..` or a symlink
// must not lead out of that folder.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace gkebuild {

// `relative` under `root` with every symlink that exists resolved, or nullopt when it is
// absolute or the resolved path is not `root` or below it. What does not exist yet is
// resolved lexically, so a later `..` cannot climb out either.
std::optional<std::filesystem::path> confined_path(const std::filesystem::path& root,
                                                   const std::filesystem::path& relative);

// Whether `path` is `root` or below it, both taken as they are (no symlinks resolved).
bool is_within(const std::filesystem::path& root, const std::filesystem::path& path);

// A file gkebuild keeps for itself beneath `root` (a project's `.gkebuild/`: the pin file, run
// records), which a checkout under review may have planted: the folders on the way are
// confined to `root` as confined_path does, the file itself is opened with O_NOFOLLOW and
// must be a regular file of at most `max_bytes` (a symlink to /proc/self/environ, a FIFO or a
// device is refused, not read). Returns the open descriptor (the caller closes it), or -1 when
// there is no such file. Throws Error (bad input) naming the path, never quoting content.
int open_confined_file(const std::filesystem::path& root, const std::filesystem::path& relative,
                       std::size_t max_bytes);

// open_confined_file, then the whole file; nullopt when there is none.
std::optional<std::string> read_confined_file(const std::filesystem::path& root,
                                              const std::filesystem::path& relative, std::size_t max_bytes);

}  // namespace gkebuild
