#include "images/dockerfile_build/layer_cache.h"

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"

namespace gkebuild::build {
namespace fs = std::filesystem;

std::string cache_key(const std::string& material) { return oci::sha256_of(material).hex; }

namespace {

std::string entry_text(const layer::BuiltLayer& built) {
  nlohmann::json j{{"blob", built.blob}, {"diff_id", built.diff_id.str()}};
  return j.dump();
}

}  // namespace

std::optional<layer::BuiltLayer> LayerCache::find(const std::string& kind,
                                                  const std::string& key) const {
  fs::path path = layout_.cache_dir() / kind / (key + ".json");
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return std::nullopt;
  try {
    auto j = nlohmann::json::parse(read_file(path));
    layer::BuiltLayer built{j.at("blob").get<oci::Descriptor>(),
                            oci::Digest::parse(j.at("diff_id").get<std::string>())};
    // A blob removed (or truncated) behind the cache's back is a miss, not an error.
    auto size = fs::file_size(layout_.blob_path(built.blob.digest), error);
    if (error || static_cast<int64_t>(size) != built.blob.size) return std::nullopt;
    return built;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void LayerCache::store(const std::string& kind, const std::string& key, const std::string& text) const {
  write_file_atomically(layout_.cache_dir() / kind / (key + ".json"), text);
}

std::optional<layer::BuiltLayer> LayerCache::find_by_stat(const std::string& key) const {
  return find("stat", key);
}

bool LayerCache::list_seen(const std::string& key) const {
  std::error_code error;
  return fs::exists(layout_.cache_dir() / "list" / (key + ".json"), error);
}

std::optional<layer::BuiltLayer> LayerCache::find_by_content(const std::string& key) const {
  return find("content", key);
}

void LayerCache::remember(const std::string& stat_key, const std::string& list_key,
                          const std::string& content_key, const layer::BuiltLayer& built) const {
  std::string text = entry_text(built);
  store("content", content_key, text);
  store("list", list_key, "{}");
  store("stat", stat_key, text);
}

void LayerCache::remember_stat(const std::string& stat_key, const layer::BuiltLayer& built) const {
  store("stat", stat_key, entry_text(built));
}

void LayerCache::remember_run(const std::string& key, const layer::BuiltLayer& built) const {
  store("run", key, entry_text(built));
}

}  // namespace gkebuild::build
