#include "base/confined_path.h"

#include <algorithm>

namespace gkebuild {
namespace fs = std::filesystem;

bool is_within(const fs::path& root, const fs::path& path) {
  const fs::path r = root.lexically_normal(), p = path.lexically_normal();
  auto root_end = r.end();
  if (!r.empty() && r.filename().empty()) --root_end;  // "a/b/" ends with an empty element
  return std::mismatch(r.begin(), root_end, p.begin(), p.end()).first == root_end;
}

std::optional<fs::path> confined_path(const fs::path& root, const fs::path& relative) {
  if (relative.empty() || relative.is_absolute()) return std::nullopt;
  std::error_code error;
  const fs::path real_root = fs::weakly_canonical(root, error);
  if (error) return std::nullopt;
  const fs::path resolved = fs::weakly_canonical(real_root / relative, error);
  if (error || !is_within(real_root, resolved)) return std::nullopt;
  return resolved;
}

}  // namespace gkebuild
