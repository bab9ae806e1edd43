#include "registry/remote/blob_locations.h"

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"

namespace gkebuild::registry {

BlobLocations::BlobLocations(std::filesystem::path file) : file_(std::move(file)), table_(load(file_)) {}

std::filesystem::path BlobLocations::file_in(const std::filesystem::path& layout_root) {
  return layout_root / "gkebuild" / "blob-locations.json";
}

BlobLocations::Table BlobLocations::load(const std::filesystem::path& file) {
  Table table;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return table;
  try {
    auto json = nlohmann::json::parse(read_file(file));
    for (auto& [digest, places] : json.items())
      for (auto& place : places) table[digest].insert(place.get<std::string>());
  } catch (const std::exception&) {
    return {};
  }
  return table;
}

void BlobLocations::add(const std::string& digest, const std::string& registry,
                        const std::string& repository) {
  std::lock_guard lock(mutex_);
  table_[digest].insert(registry + "/" + repository);
}

std::vector<std::pair<std::string, std::string>> BlobLocations::find(const std::string& digest) const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::string, std::string>> out;
  auto it = table_.find(digest);
  if (it == table_.end()) return out;
  for (const auto& place : it->second) {
    auto slash = place.find('/');
    out.emplace_back(place.substr(0, slash), place.substr(slash + 1));
  }
  return out;
}

void BlobLocations::save() const {
  std::lock_guard lock(mutex_);
  Table merged = load(file_);
  for (const auto& [digest, places] : table_) merged[digest].insert(places.begin(), places.end());
  nlohmann::json json = nlohmann::json::object();
  for (const auto& [digest, places] : merged) json[digest] = places;
  write_file_atomically(file_, json.dump(1));
}

}  // namespace gkebuild::registry
