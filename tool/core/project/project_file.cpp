#include "tool/core/project/project_file.h"

namespace gkebuild::project {
namespace fs = std::filesystem;

fs::path find_project_file(const fs::path& start) {
  for (fs::path d = fs::absolute(start); !d.empty(); d = d.parent_path()) {
    if (fs::exists(d / kProjectFileName)) return d / kProjectFileName;
    if (d == d.parent_path()) break;
  }
  return {};
}

}  // namespace gkebuild::project
