// Where a kind's JSON schema comes from, in order: each --schema-location (a folder or
// a kubeconform URL/path template), the schemas shipped by the kubernetes-validate
// Python package (asked only for a version gkebuild does not embed), the cache folder, then
// the schemas built into gkebuild (embedded_schemas.h). Nothing is fetched unless a location
// is a URL.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tool/steps/validate/schema_names.h"

namespace gkebuild::validate {

struct SchemaLocatorOptions {
  std::vector<std::string> locations;          // --schema-location, in order
  std::optional<KubernetesVersion> version;    // nullopt: the newest shipped version
  bool strict = true;                          // the -strict flavour (no unknown fields)
  std::filesystem::path cache_dir;             // e.g. ~/.cache/gkebuild
};

struct SchemaSource {
  std::string id;    // file path or URL of the kind's schema, or embedded:vX.Y.Z-local[-strict]/NAME
  std::string base;  // folder or URL prefix its relative $refs resolve against ('/'-terminated)
  std::string text;  // empty for an embedded schema until text_of reads it
  long long stamp = 0;  // file modification time, for cache keys; 0 for URLs
};

class SchemaLocator {
 public:
  explicit SchemaLocator(SchemaLocatorOptions options);

  std::optional<SchemaSource> find(std::string_view api_version, std::string_view kind) const;
  // The document a $ref names (e.g. "_definitions.json"), next to `from`. Throws if absent.
  std::string read_sibling(const SchemaSource& from, const std::string& name) const;
  // The source's text, decompressing an embedded schema's version on first use.
  std::string text_of(const SchemaSource& source) const;

  const KubernetesVersion& version() const { return version_; }
  // The places searched, for "no schema" messages.
  std::string searched() const;
  // Whether any built-in source (package, cache or embedded) has schemas for the version.
  bool has_bundled_schemas() const { return !bundled_dirs_.empty() || embedded_.has_value(); }

 private:
  std::optional<SchemaSource> from_location(const std::string& location, const SchemaNames& names) const;
  std::optional<SchemaSource> from_file(const std::filesystem::path& path) const;
  std::optional<SchemaSource> from_url(const std::string& url) const;
  std::optional<std::string> from_embedded(const std::string& target) const;

  SchemaLocatorOptions options_;
  KubernetesVersion version_;
  std::vector<std::filesystem::path> bundled_dirs_;  // versioned dirs: package, then cache
  std::optional<KubernetesVersion> embedded_;       // the embedded version that answers, if any
};

// The version used when --kubernetes-version is not given.
inline constexpr KubernetesVersion kFallbackKubernetesVersion{1, 37, 0};

}  // namespace gkebuild::validate
