#include "tool/steps/validate/package_schemas.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include "base/atomic_file.h"
#include "base/error.h"

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

namespace {

// /tmp/gkebuild-cache-<uid>, created 0700. Another user could create that name first and feed
// us schemas (or read what we cache), so an existing one is used only if it is a real folder
// of ours that nobody else can write.
fs::path private_temp_cache_dir() {
  const uid_t uid = ::geteuid();
  const fs::path dir = fs::temp_directory_path() / ("gkebuild-cache-" + std::to_string(uid));
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    throw system_failure(errno, "cannot create the cache folder " + dir.string());
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0)
    throw system_failure(errno, "cannot inspect the cache folder " + dir.string());
  if (!S_ISDIR(st.st_mode) || st.st_uid != uid || (st.st_mode & 022) != 0)
    throw Error(ErrorKind::kCannotRun, "the cache folder " + dir.string() +
                " is not a folder owned by this user and writable only by it; "
                "remove it, or set XDG_CACHE_HOME or HOME");
  return dir;
}

}  // namespace

fs::path default_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "gkebuild";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "gkebuild";
  return private_temp_cache_dir();
}

namespace {

constexpr const char* kPathCacheName = "kubernetes-validate-path";

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
  if (package_dir.empty()) return std::nullopt;
  fs::path root = fs::path(package_dir) / "kubernetes-json-schema";
  std::error_code ec;
  if (fs::is_directory(root, ec)) return root;
  return std::nullopt;
}

}  // namespace

// Only a found package is remembered: "not installed" is asked again each time (a package
// installed a minute later is used at once). The embedded schemas mean Python is asked only
// for a Kubernetes version gkebuild does not carry.
std::optional<fs::path> kubernetes_validate_schema_root(const fs::path& cache_dir) {
  fs::path cache_file = cache_dir / kPathCacheName;
  std::string remembered;
  if (std::ifstream in(cache_file); in) std::getline(in, remembered);
  if (auto root = schema_root_in(remembered)) return root;
  std::string package_dir = ask_python();
  auto root = schema_root_in(package_dir);
  if (!root) return std::nullopt;
  try {
    write_file_atomically(cache_file, package_dir + "\n");
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
