// Finding the schemas the kubernetes-validate Python package ships, for Kubernetes versions
// gkebuild does not embed, without paying for a Python start on every run: the package
// directory, once found, is remembered in a small file under the cache directory.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tool/steps/validate/schema_names.h"

namespace gkebuild::validate {

// $XDG_CACHE_HOME/gkebuild, or ~/.cache/gkebuild, or else a private $TMPDIR/gkebuild-cache-<uid>
// (created 0700; throws if it exists and is not a folder of this user that only it can write).
std::filesystem::path default_cache_dir();

// A short stable name for cache files (FNV-1a, 16 hex digits).
std::string fnv1a_hex(std::string_view text);

// <site-packages>/kubernetes_validate/kubernetes-json-schema, if the package is installed.
std::optional<std::filesystem::path> kubernetes_validate_schema_root(
    const std::filesystem::path& cache_dir);

// A folder of version directories (v1.37.0-local-strict/ …), as kubernetes-validate ships.
struct VersionedSchemaRoot {
  std::filesystem::path root;
  // The directory for the newest version whose major.minor is <= `wanted`.
  std::optional<std::filesystem::path> directory_for(const KubernetesVersion& wanted, bool strict) const;
  std::vector<KubernetesVersion> versions(bool strict) const;
};

}  // namespace gkebuild::validate
