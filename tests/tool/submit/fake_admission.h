// What the fake cluster checks of an object before it stores one (fake_cluster.h), as the API
// server's validation does: the name per kind (kube::name_problem), a namespace that exists, and
// the object against the Kubernetes schema gkebuild embeds (tool/steps/validate). Each refusal is
// the ApiError the server answers: 422 Invalid with a cause per field, 404 NotFound for a missing
// namespace. Stricter than a server in one way: it reads the strict schemas, so an unknown field
// (which a server without fieldValidation=Strict drops with a warning) is refused, since a field
// the server drops is a bug of what submit sends. Custom resources (Kueue's) have no embedded
// schema: their names and namespaces are checked, their fields are not.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

#include "tool/core/kube/resources.h"

namespace gkebuild::testing {

// Throws kube::ApiError (422 or 404) when the API server would refuse to store `object` (its
// namespace set) for `action` ("create Job team/x"); `namespace_exists` answers for namespaced kinds.
void admit(const nlohmann::json& object, const kube::ResourceType& type, const std::string& action,
           const std::function<bool(const std::string&)>& namespace_exists);

}  // namespace gkebuild::testing
