// The search the secrets tests end with: every file a run or a build wrote (a project
// folder, $HOME and $XDG_CACHE_HOME, caches, registry storage, run records), compressed ones
// (gzip and zstd layer blobs) read decompressed too, and what `logs`, `status` and `report`
// print, for a secret's value; the files that hold it are named. A folder or file it cannot
// read stops it with an error: a search that skips what it cannot read proves nothing.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace gkebuild::testing {

// What the search could not read (a folder, a file, a compressed blob), named.
class LeakSearchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Each regular file under `root` (symlinks not followed) whose bytes, or whose decompressed
// bytes when it is gzip or zstd data, contain one of `needles`: "PATH: NEEDLE" per find.
// Throws LeakSearchError when `root` or anything under it cannot be listed or read.
std::vector<std::string> files_holding(const std::filesystem::path& root, const std::vector<std::string>& needles);

// "WHAT: NEEDLE" for each needle `text` (a command's output) holds.
std::vector<std::string> text_holding(const std::string& what, const std::string& text,
                                      const std::vector<std::string>& needles);

// The output of `gkebuild logs`, `status` and `report` (their latest run), run in `project`
// with `environment` (shell assignments, such as HOME=...), searched as text_holding does.
std::vector<std::string> shown_holding(const std::filesystem::path& project, const std::string& environment,
                                       const std::vector<std::string>& needles);

// How many regular files the search above reads under `root` (a test asserts it read some).
std::size_t files_under(const std::filesystem::path& root);

}  // namespace gkebuild::testing
