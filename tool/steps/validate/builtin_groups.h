// The API groups Kubernetes itself serves. An apiVersion in one of them names a
// built-in kind, so a kind without a schema there is a typo; any other group is a
// custom resource (Gateway API, VolumeSnapshot, metrics.k8s.io...), skipped unless
// --strict-kinds. A "*.k8s.io" suffix is no test: SIG projects use it for CRDs.
#pragma once

#include <string_view>

namespace gkebuild::validate {

// The group of "apps/v1" is "apps"; of "v1" it is "" (core), which is built-in.
bool is_builtin_api_group(std::string_view api_version);

}  // namespace gkebuild::validate
