// The Kubernetes JSON schemas compiled into gkebuild (schema_pack.cpp, at build time, from
// the kubernetes-validate package): the minor versions GKE offers, strict flavour, zstd
// compressed. A version is decompressed on first use only (start-up stays cheap); the
// non-strict flavour is the strict one without its `additionalProperties: false`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tool/steps/validate/schema_names.h"

namespace gkebuild::validate {

struct EmbeddedSchemaVersion {
  const char* version;  // "1.35.0"
  std::size_t index_size, data_size;  // decompressed
  const char* index;  // zstd frame of "name offset length\n" lines
  std::size_t index_compressed_size;
  const char* data;   // zstd frame of the documents, one after another
  std::size_t data_compressed_size;
};

// The embedded versions, oldest first.
std::vector<KubernetesVersion> embedded_schema_versions();

// The embedded version for `wanted`: the newest whose major.minor is <= wanted's, or nullopt.
std::optional<KubernetesVersion> embedded_version_for(const KubernetesVersion& wanted);

// The document `name` ("job-batch-v1.json", "_definitions.json") of an embedded version, in the
// strict or non-strict flavour; nullopt when that version has no such document.
std::optional<std::string> embedded_schema(const KubernetesVersion& version, std::string_view name, bool strict);

// Whether the version has the document, from its index alone (no data decompressed).
bool has_embedded_schema(const KubernetesVersion& version, std::string_view name);

// A stamp that changes whenever the embedded schemas do (for cache keys).
long long embedded_schemas_stamp();

}  // namespace gkebuild::validate
