// Checks and conversions for the small value languages in a project file:
// Kubernetes names, quantities that a resource can hold, durations ("90m", "2h30m").
#pragma once

#include <optional>
#include <string_view>

namespace gkebuild::project {

// A DNS-1123 label: lower-case letters, digits and '-', starting and ending alphanumeric.
bool is_dns_label(std::string_view name, std::size_t max_length = 63);
// A DNS-1123 subdomain: dot-separated labels, at most 253 characters (ServiceAccount names).
bool is_dns_subdomain(std::string_view name);
// A Kubernetes quantity that is not negative ("4", "500m", "16Gi", "1.5", "1e3"), as
// resource requests, limits and volume sizes must be.
bool is_resource_quantity(std::string_view text);
// "45s", "90m", "2h30m", "1d" in seconds; nullopt when malformed.
std::optional<long long> parse_duration(std::string_view text);

}  // namespace gkebuild::project
