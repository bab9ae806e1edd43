#include "tool/steps/prune/blob_users.h"

#include <set>

#include <nlohmann/json.hpp>

#include "base/confined_path.h"

namespace gkebuild::prune {
namespace fs = std::filesystem;
namespace {

constexpr std::uintmax_t kMaxIndex = 16u << 20;  // an index or manifest larger than this is not ours
constexpr int kMaxDepth = 4;                     // index -> index -> manifest -> blobs, with room

std::string hex_of(const nlohmann::json& descriptor) {
  if (!descriptor.is_object() || !descriptor.contains("digest") || !descriptor["digest"].is_string()) return "";
  const std::string digest = descriptor["digest"];
  return digest.starts_with("sha256:") ? digest.substr(7) : "";
}

bool plain_hex(const std::string& hex) {
  return hex.size() == 64 && hex.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// The file as JSON; discarded (null) when missing, too large, reached through a symlink or not JSON.
nlohmann::json read_json(const fs::path& folder, const std::string& name) {
  try {
    const auto text = read_confined_file(folder, name, kMaxIndex);
    return nlohmann::json::parse(text.value_or(""), nullptr, false);
  } catch (const std::exception&) {
    return nullptr;
  }
}

// Adds `hex` and, when it is an index or a manifest in the store, everything it references.
void reach(const fs::path& blobs, const std::string& hex, int depth, std::set<std::string>& seen) {
  if (!plain_hex(hex) || !seen.insert(hex).second || depth > kMaxDepth) return;
  const auto doc = read_json(blobs, hex);
  if (!doc.is_object()) return;  // a layer, or not there
  if (doc.contains("config")) reach(blobs, hex_of(doc["config"]), depth + 1, seen);
  for (const char* list : {"layers", "manifests"})
    if (doc.contains(list) && doc[list].is_array())
      for (const auto& d : doc[list]) reach(blobs, hex_of(d), depth + 1, seen);
}

}  // namespace

BlobUsers blob_users(const fs::path& store) {
  BlobUsers users;
  const fs::path blobs = store / "blobs" / "sha256";
  std::error_code error;
  for (const auto& record : fs::directory_iterator(store / "projects", error)) {
    fs::path layout;
    try {
      layout = read_confined_file(store / "projects", record.path().filename(), 4096).value_or("");
    } catch (const std::exception&) {
    }
    if (layout.empty() || !layout.is_absolute() || !fs::is_regular_file(fs::symlink_status(layout / "index.json"))) {
      users.stale_records.push_back(record.path());
      continue;
    }
    users.projects.push_back(layout);
    const auto index = read_json(layout, "index.json");
    std::set<std::string> seen;
    if (index.is_object() && index.contains("manifests") && index["manifests"].is_array())
      for (const auto& d : index["manifests"]) reach(blobs, hex_of(d), 1, seen);
    for (const auto& hex : seen) users.by_blob[hex].push_back(layout.parent_path().parent_path().string());
  }
  return users;
}

}  // namespace gkebuild::prune
