// Folders that are gkebuild's own on this machine, where no checkout can plant a file: the live
// state of local runs and RUN steps (the runtime's --root, bundles and their overlay mounts, the
// proof that a run's gkebuild still runs it) and the unpacked layers they start from. A project
// folder, its `.gkebuild/` included, is input and never holds any of these: a state.json planted
// there would make runc run its hooks on the host (docs/limits-and-security.md#trust).
#pragma once

#include <filesystem>
#include <string>

namespace gkebuild {

// Live state, small and gone at reboot: GKEBUILD_RUNTIME_DIR when set; as root /run/gkebuild;
// else $XDG_RUNTIME_DIR/gkebuild; else TMPDIR/gkebuild-runtime-UID. Made 0700 and checked
// (private_folder). Throws Error (failed) when it cannot be made or is not ours alone.
std::filesystem::path runtime_dir();

// Unpacked layers and containers' scratch folders, on disk: GKEBUILD_CACHE_DIR when set; as root
// /var/cache/gkebuild; else $XDG_CACHE_HOME/gkebuild, ~/.cache/gkebuild, TMPDIR/gkebuild-cache-UID.
// Made 0700 and checked likewise.
std::filesystem::path machine_cache_dir();

// `dir` made (0700, with missing parents) when missing, then checked to be a folder (not a
// symlink) owned by this user that nobody else may write; returns it. Throws Error (failed)
// naming the folder otherwise.
std::filesystem::path private_folder(const std::filesystem::path& dir);

// `relative` (one or more plain names) made beneath `parent`, a private_folder, one folder at a
// time with mkdir and without following a symlink (0700); returns parent/relative. Throws Error
// (failed) when a name is a symlink or not a folder.
std::filesystem::path private_subfolder(const std::filesystem::path& parent, const std::filesystem::path& relative);

// A short stable key for a folder: the first 16 hex digits of the SHA-256 of its real path, so
// the state of two projects (or two checkouts of one) never meets.
std::string folder_key(const std::filesystem::path& dir);

}  // namespace gkebuild
