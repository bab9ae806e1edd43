#include "rootfs_tree.h"

#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <sstream>

namespace gkebuild::run_step::testing {
namespace fs = std::filesystem;

std::map<std::string, std::string> tree_of(const fs::path& rootfs) {
  std::map<std::string, std::string> out;
  for (auto it = fs::recursive_directory_iterator(rootfs); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path& path = it->path();
    struct stat st {};
    ::lstat(path.c_str(), &st);
    std::ostringstream d;
    d << std::oct << (st.st_mode & 0177777) << std::dec << " " << st.st_uid << ":" << st.st_gid;
    if (S_ISREG(st.st_mode)) {
      std::ifstream in(path, std::ios::binary);
      const std::string content(std::istreambuf_iterator<char>(in), {});
      d << " links=" << st.st_nlink << " " << (content.size() < 100 ? content : std::to_string(std::hash<std::string>()(content)));
    }
    if (S_ISLNK(st.st_mode)) d << " -> " << fs::read_symlink(path).string();
    out[fs::relative(path, rootfs).string()] = d.str();
  }
  return out;
}

}  // namespace gkebuild::run_step::testing
