// The layer cache, kept inside the OCI layout (<layout>/gkebuild/cache). Three
// small maps, each entry one JSON file written atomically:
//   stat/<key>    stat fingerprint (paths, modes, sizes, mtimes, inodes) -> layer
//   list/<key>    the same file list without times was built before (marker)
//   content/<key> diff_id + compression -> compressed blob
// A stat hit reuses the blob without reading a file. When only times changed
// (a fresh checkout, a copy), the list marker sends the build to hash the
// contents once, and a content hit still saves the compression.
#pragma once

#include <optional>
#include <string>

#include "images/layer/layer_writer.h"
#include "images/oci/layout.h"

namespace gkebuild::build {

class LayerCache {
 public:
  explicit LayerCache(const oci::Layout& layout) : layout_(layout) {}

  std::optional<layer::BuiltLayer> find_by_stat(const std::string& key) const;
  bool list_seen(const std::string& key) const;
  std::optional<layer::BuiltLayer> find_by_content(const std::string& key) const;

  void remember(const std::string& stat_key, const std::string& list_key,
                const std::string& content_key, const layer::BuiltLayer& built) const;
  void remember_stat(const std::string& stat_key, const layer::BuiltLayer& built) const;
  // run/<key>: a RUN's layer by the parent chain, the command and its environment.
  std::optional<layer::BuiltLayer> find_run(const std::string& key) const { return find("run", key); }
  void remember_run(const std::string& key, const layer::BuiltLayer& built) const;

 private:
  std::optional<layer::BuiltLayer> find(const std::string& kind, const std::string& key) const;
  void store(const std::string& kind, const std::string& key, const std::string& text) const;
  const oci::Layout& layout_;
};

// Cache keys are SHA-256 hex of what they cover.
std::string cache_key(const std::string& material);

}  // namespace gkebuild::build
