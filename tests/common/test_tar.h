// Tars written entry by entry with libarchive, names and link targets taken as given (`..`,
// absolute names, links that lead out), for tests that feed hostile archives to the code that
// unpacks layers and ADDed tars.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace gkebuild::testing {

struct TarEntry {
  std::string path;
  char kind = 'f';  // f file, d directory, l symlink, h hard link, c character device, b block device, p fifo
  std::string content_or_target;  // a file's content; a link's target
  int mode = 0644;
  int uid = 0;
  int gid = 0;
};

enum class TarFilter { kNone, kGzip, kZstd };

void write_test_tar(const std::filesystem::path& out, const std::vector<TarEntry>& entries,
                    TarFilter filter = TarFilter::kNone);

// Archives that try to write into `outside` (an absolute folder beside the root they are unpacked
// into, holding the file "victim"), by name: `..` names, absolute names, a symlink out and then a
// file through it, relative symlinks up, symlink chains, a folder replaced by a symlink, hard links
// to a file outside (directly, with `..`, through a symlink) and device nodes.
std::vector<std::pair<std::string, std::vector<TarEntry>>> hostile_tars(const std::filesystem::path& outside);

}  // namespace gkebuild::testing
