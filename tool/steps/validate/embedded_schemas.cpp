#include "tool/steps/validate/embedded_schemas.h"

#include <zstd.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "base/error.h"

namespace gkebuild::validate {

extern const EmbeddedSchemaVersion kEmbeddedSchemaVersions[];
extern const std::size_t kEmbeddedSchemaVersionCount;

namespace {

std::string decompress(const char* frame, std::size_t compressed_size, std::size_t size) {
  std::string out(size, '\0');
  const std::size_t written = ZSTD_decompress(out.data(), out.size(), frame, compressed_size);
  if (ZSTD_isError(written) || written != size)
    throw Error(ErrorKind::kFailed, "the embedded Kubernetes schemas are damaged (zstd)");
  return out;
}

struct Entry {
  std::size_t offset = 0, length = 0;
};

// A version's index and, once a document is read, its data; kept for the process.
struct Unpacked {
  std::map<std::string, Entry, std::less<>> index;
  std::string data;
};

const EmbeddedSchemaVersion* find_version(const KubernetesVersion& version) {
  for (std::size_t i = 0; i < kEmbeddedSchemaVersionCount; ++i) {
    KubernetesVersion v;
    if (parse_kubernetes_version(kEmbeddedSchemaVersions[i].version, v) && v == version)
      return &kEmbeddedSchemaVersions[i];
  }
  return nullptr;
}

std::mutex unpack_mutex;

Unpacked& unpacked(const EmbeddedSchemaVersion& packed, bool with_data) {
  static std::map<const EmbeddedSchemaVersion*, std::unique_ptr<Unpacked>> versions;
  std::lock_guard lock(unpack_mutex);
  auto& slot = versions[&packed];
  if (!slot) {
    slot = std::make_unique<Unpacked>();
    const std::string lines = decompress(packed.index, packed.index_compressed_size, packed.index_size);
    for (std::size_t start = 0; start < lines.size();) {
      const std::size_t end = lines.find('\n', start);
      const std::string line = lines.substr(start, end - start);
      const std::size_t space = line.find(' ');
      const std::size_t second = line.find(' ', space + 1);
      slot->index[line.substr(0, space)] = {std::stoul(line.substr(space + 1, second - space - 1)),
                                            std::stoul(line.substr(second + 1))};
      start = end + 1;
    }
  }
  if (with_data && slot->data.empty()) slot->data = decompress(packed.data, packed.data_compressed_size, packed.data_size);
  return *slot;
}

// kubernetes-validate's non-strict schemas are its strict ones without this one key.
void allow_unknown_fields(nlohmann::json& value) {
  if (value.is_object()) {
    if (auto found = value.find("additionalProperties"); found != value.end() && *found == false) value.erase(found);
    for (auto& child : value) allow_unknown_fields(child);
  } else if (value.is_array()) {
    for (auto& child : value) allow_unknown_fields(child);
  }
}

}  // namespace

std::vector<KubernetesVersion> embedded_schema_versions() {
  std::vector<KubernetesVersion> versions;
  for (std::size_t i = 0; i < kEmbeddedSchemaVersionCount; ++i) {
    KubernetesVersion v;
    if (parse_kubernetes_version(kEmbeddedSchemaVersions[i].version, v)) versions.push_back(v);
  }
  std::sort(versions.begin(), versions.end());
  return versions;
}

std::optional<KubernetesVersion> embedded_version_for(const KubernetesVersion& wanted) {
  std::optional<KubernetesVersion> best;
  for (const auto& v : embedded_schema_versions())
    if (std::pair(v.major, v.minor) <= std::pair(wanted.major, wanted.minor)) best = v;
  return best;
}

bool has_embedded_schema(const KubernetesVersion& version, std::string_view name) {
  const auto* packed = find_version(version);
  if (!packed) return false;
  const auto& index = unpacked(*packed, false).index;
  return index.find(name) != index.end();
}

std::optional<std::string> embedded_schema(const KubernetesVersion& version, std::string_view name, bool strict) {
  const auto* packed = find_version(version);
  if (!packed) return std::nullopt;
  const Unpacked& version_files = unpacked(*packed, true);
  const auto found = version_files.index.find(name);
  if (found == version_files.index.end()) return std::nullopt;
  std::string text = version_files.data.substr(found->second.offset, found->second.length);
  if (strict) return text;
  auto document = nlohmann::json::parse(text);
  allow_unknown_fields(document);
  return document.dump();
}

long long embedded_schemas_stamp() {
  // FNV-1a over the compressed frames' sizes and first bytes: enough to tell builds apart.
  unsigned long long h = 1469598103934665603ull;
  const auto mix = [&h](unsigned long long value) {
    h ^= value;
    h *= 1099511628211ull;
  };
  for (std::size_t i = 0; i < kEmbeddedSchemaVersionCount; ++i) {
    const auto& v = kEmbeddedSchemaVersions[i];
    mix(v.data_size);
    mix(v.data_compressed_size);
    for (std::size_t b = 0; b < v.data_compressed_size; b += 997) mix(static_cast<unsigned char>(v.data[b]));
  }
  return static_cast<long long>(h >> 1);
}

}  // namespace gkebuild::validate
