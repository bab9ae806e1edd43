#include "tool/core/project/quantities.h"

#include <cctype>
#include <string>

#include "base/quantity.h"
#include "tool/core/kube/object_names.h"

namespace gkebuild::project {

// Kubernetes' rules, kept in one place (tool/core/kube/object_names.h).
bool is_dns_label(std::string_view name, std::size_t max_length) { return kube::is_dns_label(name, max_length); }

bool is_dns_subdomain(std::string_view name) { return kube::is_dns_subdomain(name); }

bool is_resource_quantity(std::string_view text) {
  auto value = parse_quantity(text);
  return value && *value >= 0;
}

std::optional<long long> parse_duration(std::string_view text) {
  if (text.empty()) return std::nullopt;
  long long total = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == start || i == text.size() || i - start > 9) return std::nullopt;
    long long amount = std::stoll(std::string(text.substr(start, i - start)));
    switch (text[i++]) {
      case 'd': total += amount * 86400; break;
      case 'h': total += amount * 3600; break;
      case 'm': total += amount * 60; break;
      case 's': total += amount; break;
      default: return std::nullopt;
    }
  }
  return total;
}

}  // namespace gkebuild::project
