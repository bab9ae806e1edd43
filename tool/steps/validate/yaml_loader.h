// Reads a manifest stream (one file or stdin) into positioned Kubernetes objects:
// documents split with their file line offsets, `kind: List` expanded with the
// items' own positions, and everything that is not valid YAML reported as findings.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "tool/steps/validate/finding.h"
#include "tool/steps/validate/manifest.h"

namespace gkebuild::validate {

struct LoadLimits {
  // Kubernetes stores objects up to ~1.5 MiB; a much larger file is not a manifest.
  std::size_t max_bytes = 32u << 20;
  // Nodes one document may expand to (aliases count once per use): stops alias bombs.
  std::size_t max_nodes = 1'000'000;
  // Nesting depth after alias expansion: stops recursive aliases (manifests nest ~20 deep).
  std::size_t max_depth = 512;
};

struct LoadResult {
  std::vector<Manifest> manifests;
  std::vector<Finding> findings;  // syntax errors, duplicate keys, limits, binary data
};

// `text` is the whole content of `file`. Empty documents are skipped.
LoadResult load_manifests(std::string_view text, const std::string& file,
                          const LoadLimits& limits = {});

}  // namespace gkebuild::validate
