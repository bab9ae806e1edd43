// Where each kind gkebuild handles lives in the REST API: a small fixed table
// instead of API discovery, since gkebuild only ever sends these kinds.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace gkebuild::kube {

struct ResourceType {
  std::string_view api_version;  // "v1", "batch/v1"
  std::string_view kind;         // "Job"
  std::string_view plural;       // "jobs"
  bool namespaced;
};

// The entry for `api_version` + `kind`; throws std::runtime_error naming the
// kinds gkebuild knows (with a suggestion) for any other.
const ResourceType& resource_type(std::string_view api_version, std::string_view kind);
// The entry for an object's apiVersion and kind.
const ResourceType& resource_type_of(const nlohmann::json& object);

// /api/v1/namespaces/NS/pods or /apis/batch/v1/namespaces/NS/jobs (NS ignored when cluster-scoped).
std::string collection_path(const ResourceType& type, const std::string& namespace_name);
std::string object_path(const ResourceType& type, const std::string& namespace_name, const std::string& name);

}  // namespace gkebuild::kube
