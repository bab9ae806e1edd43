// Kubernetes' DNS-1123 subdomain rule, the names gkebuild gives runs, Jobs and pods: what it
// reads back from a run record is held to it before the name becomes part of a path, a container
// name or a message (a checkout may have planted the record).
#pragma once

#include <string_view>

namespace gkebuild {

// Lower-case letters, digits, '-' and '.', 1 to 253 characters, each dot-separated part starting
// and ending with a letter or digit (so no "..", no leading or trailing '.' or '-').
bool is_dns_subdomain(std::string_view name);

}  // namespace gkebuild
