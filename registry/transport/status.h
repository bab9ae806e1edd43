// Turning a registry's answer into an error that says what went wrong.
#pragma once

#include <initializer_list>
#include <string>

#include "base/http_client.h"

namespace gkebuild::registry {

// The registry's own explanation from an OCI error body
// ({"errors":[{"code":"…","message":"…"}]}), or "" when there is none.
std::string registry_error_text(const HttpResponse& response);

// Throws unless `response.status` is one of `expected`: RegistryError(kRetryable)
// for 408, 429 and 5xx, kRemote otherwise. `what` names the step and the registry,
// e.g. "uploading sha256:ab… to 127.0.0.1:5000/app".
void expect_status(const HttpResponse& response, std::initializer_list<long> expected,
                   const std::string& what);

}  // namespace gkebuild::registry
