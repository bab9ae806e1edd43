#include "tool/core/kube/object_names.h"

#include "base/dns_name.h"
#include "base/printable.h"

namespace gkebuild::kube {
namespace {

bool is_lower_alphanumeric(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

constexpr const char* kLabelRule = "lower-case letters, digits and '-', starting and ending with a letter or digit";
constexpr const char* kSubdomainRule =
    "lower-case letters, digits, '-' and '.', each part between dots starting and ending with a letter or digit";

}  // namespace

bool is_dns_label(std::string_view name, std::size_t max_length) {
  if (name.empty() || name.size() > max_length) return false;
  if (!is_lower_alphanumeric(name.front()) || !is_lower_alphanumeric(name.back())) return false;
  for (char c : name)
    if (!is_lower_alphanumeric(c) && c != '-') return false;
  return true;
}

bool is_dns_subdomain(std::string_view name) { return gkebuild::is_dns_subdomain(name); }  // base/dns_name.h

std::optional<std::string> name_problem(std::string_view kind, std::string_view name) {
  const std::string a = "a " + printable(kind) + " name is ";
  if (kind == "Namespace" || kind == "Service") {
    if (is_dns_label(name)) return std::nullopt;
    return a + "a DNS-1123 label of at most 63 characters: " + kLabelRule;
  }
  if (kind == "Role" || kind == "ClusterRole" || kind == "RoleBinding" || kind == "ClusterRoleBinding") {
    if (!name.empty() && name != "." && name != ".." && name.find_first_of("/%") == std::string_view::npos)
      return std::nullopt;
    return a + "a path segment: not empty, '.' or '..', and without '/' or '%'";
  }
  const bool subdomain = is_dns_subdomain(name);
  if (kind == "Job") {
    if (subdomain && name.size() <= 63) return std::nullopt;
    return a + "a DNS-1123 subdomain of at most 63 characters (its pods' job-name label holds it): " + kSubdomainRule;
  }
  if (subdomain) return std::nullopt;
  return a + "a DNS-1123 subdomain of at most 253 characters: " + kSubdomainRule;
}

bool is_kind_name(std::string_view kind) {
  if (kind.empty() || !((kind.front() >= 'A' && kind.front() <= 'Z') || (kind.front() >= 'a' && kind.front() <= 'z')))
    return false;
  for (char c : kind)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

}  // namespace gkebuild::kube
