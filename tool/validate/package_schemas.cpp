#include "validate/package_schemas.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>

#include "base/atomic_file.h"

namespace gkebuild::validate {
namespace fs = std::filesystem;

std::string fnv1a_hex(std::string_view text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

fs::path default_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "gkebuild";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "gkebuild";
  return fs::temp_directory_path() / "gkebuild-cache";
}

namespace {

constexpr const char* kPathCacheName = "kubernetes-validate-path";
constexpr const char* kNotInstalled = "-";
constexpr std::time_t kRetryNotInstalledSeconds = 3600;

std::string ask_python() {
  FILE* pipe = popen(
      "python3 -c 'import kubernetes_validate, os; print(os.path.dirname(kubernetes_validate.__file__))' "
      "2>/dev/null",
      "r");
  if (!pipe) return {};
  std::string out;
  char buffer[512];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  pclose(pipe);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::optional<fs::path> schema_root_in(const std::string& package_dir) {
  if (package_dir.empty() || package_dir == kNotInstalled) return std::nullopt;
  fs::path root = fs::path(package_dir) / "kubernetes-json-schema";
  std::error_code ec;
  if (fs::is_directory(root, ec)) return root;
  return std::nullopt;
}

bool recently_checked(const fs::path& cache_file) {
  std::error_code ec;
  auto written = fs::last_write_time(cache_file, ec);
  if (ec) return false;
  auto age = fs::file_time_type::clock::now() - written;
  return age < std::chrono::seconds(kRetryNotInstalledSeconds);
}

}  // namespace

std::optional<fs::path> kubernetes_validate_schema_root(const fs::path& cache_dir) {
  fs::path cache_file = cache_dir / kPathCacheName;
  std::string remembered;
  if (std::ifstream in(cache_file); in) std::getline(in, remembered);
  if (auto root = schema_root_in(remembered)) return root;
  // Not installed when we last asked: ask Python again only now and then.
  if (remembered == kNotInstalled && recently_checked(cache_file)) return std::nullopt;
  std::string package_dir = ask_python();
  auto root = schema_root_in(package_dir);
  try {
    write_file_atomically(cache_file, (root ? package_dir : std::string(kNotInstalled)) + "\n");
  } catch (const std::exception&) {
    // A read-only cache only costs the next run another Python start.
  }
  return root;
}

std::vector<KubernetesVersion> VersionedSchemaRoot::versions(bool strict) const {
  std::vector<KubernetesVersion> found;
  std::error_code ec;
  const std::string suffix = strict ? "-local-strict" : "-local";
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    std::string name = entry.path().filename().string();
    if (!name.ends_with(suffix)) continue;
    KubernetesVersion v;
    if (parse_kubernetes_version(name.substr(0, name.size() - suffix.size()), v)) found.push_back(v);
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::optional<fs::path> VersionedSchemaRoot::directory_for(const KubernetesVersion& wanted,
                                                          bool strict) const {
  std::optional<KubernetesVersion> best;
  for (const auto& v : versions(strict))
    if (std::pair(v.major, v.minor) <= std::pair(wanted.major, wanted.minor)) best = v;
  if (!best) return std::nullopt;
  return root / ("v" + best->to_string() + (strict ? "-local-strict" : "-local"));
}

}  // namespace gkebuild::validate
