// What the image peer tests compare of an unpacked root file system.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <string>

#include "base/atomic_file.h"
#include "images/oci/digest.h"

namespace gkebuild::testing {

// Name -> "type mode uid:gid link|content-hash" for every entry of an unpacked root.
inline std::map<std::string, std::string> describe_tree(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    struct stat st {};
    ::lstat(it->path().c_str(), &st);
    std::string what = S_ISDIR(st.st_mode) ? "dir" : S_ISLNK(st.st_mode) ? "link" : "file";
    what += " " + std::to_string(st.st_mode & 07777) + " " + std::to_string(st.st_uid) + ":" +
            std::to_string(st.st_gid);
    if (S_ISLNK(st.st_mode)) what += " -> " + fs::read_symlink(it->path()).string();
    if (S_ISREG(st.st_mode)) what += " " + oci::sha256_of(read_file(it->path())).hex.substr(0, 12);
    out[it->path().lexically_relative(root).string()] = what;
  }
  return out;
}

}  // namespace gkebuild::testing
