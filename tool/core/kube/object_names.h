// The names Kubernetes accepts for an object, per kind, as its API server checks them. A
// rendered object's name also names a file (`render -o DIR`, a run's manifests/), so a name
// that breaks these rules (`a/../../x`) is refused before any file is named after it; the
// project file's own names and `validate` use the same rules.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gkebuild::kube {

// A DNS-1123 label: lower-case letters, digits and '-', starting and ending alphanumeric, at
// most `max_length` (63) characters.
bool is_dns_label(std::string_view name, std::size_t max_length = 63);

// A DNS-1123 subdomain: DNS-1123 labels joined by '.', at most 253 characters.
bool is_dns_subdomain(std::string_view name);

// What is wrong with `name` as metadata.name of a `kind` ("a Job name is at most 63
// characters…"), or nullopt when the API server would take it. Namespace: a DNS-1123 label;
// Service: a DNS-1123 label (older API servers also want a leading letter, DNS-1035); Job: a
// DNS-1123 subdomain of at most 63 characters (it is the value of the job-name label its pods
// carry); Role, ClusterRole and their bindings: a path segment (no '/' or '%', not "." or "..");
// every other kind, custom resources included: a DNS-1123 subdomain.
std::optional<std::string> name_problem(std::string_view kind, std::string_view name);

// Whether `kind` can be a kind's name ("Job", "LocalQueue"): a letter, then letters and digits.
bool is_kind_name(std::string_view kind);

}  // namespace gkebuild::kube
