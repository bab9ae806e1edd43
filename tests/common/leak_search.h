// The search the secrets tests end with: every file a run or a build wrote (a project
// folder, caches, registry storage, run records), gzip-compressed ones (layer blobs) read
// decompressed too, for a secret's value; the files that hold it are named.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gkebuild::testing {

// Each regular file under `root` (symlinks not followed) whose bytes, or whose gunzipped bytes
// when it is gzip data, contain one of `needles`: "PATH: NEEDLE" per find.
std::vector<std::string> files_holding(const std::filesystem::path& root, const std::vector<std::string>& needles);

// How many regular files the search above reads under `root` (a test asserts it read some).
std::size_t files_under(const std::filesystem::path& root);

}  // namespace gkebuild::testing
