#include "tool/steps/render/names.h"

#include <cstdint>

#include "tool/core/project/quantities.h"

namespace gkebuild::render {
namespace {

std::string hex(std::uint64_t value, int digits) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i, value >>= 4) out[static_cast<std::size_t>(i)] = kDigits[value & 15];
  return out;
}

// FNV-1a: a small, stable hash for name suffixes (not for security).
std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

std::string sanitize(std::string_view text) {
  std::string out;
  for (char c : text) {
    char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    bool keep = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9');
    if (keep) out += lower;
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

}  // namespace

std::string kube_name(const std::vector<std::string>& parts, std::size_t max_length) {
  std::string joined;
  for (const auto& part : parts) {
    std::string clean = sanitize(part);
    if (clean.empty()) continue;
    joined += (joined.empty() ? "" : "-") + clean;
  }
  if (joined.empty()) joined = "gkebuild";
  if (joined.size() <= max_length) return joined;
  std::string suffix = hex(fnv1a(joined), 8);
  std::string prefix = joined.substr(0, max_length - suffix.size() - 1);
  while (!prefix.empty() && prefix.back() == '-') prefix.pop_back();
  return prefix + "-" + suffix;
}

std::string run_id_of(std::string_view run_name) {
  return is_valid_run_id(run_name) ? std::string(run_name) : kube_name({std::string(run_name)}, 40);
}

std::string letter_first(const std::string& name, const std::string& prefix, std::size_t max_length) {
  if (!name.empty() && name[0] >= 'a' && name[0] <= 'z') return name;
  return kube_name({prefix, name}, max_length);
}

bool is_valid_run_id(std::string_view id) { return project::is_dns_label(id, 40); }

}  // namespace gkebuild::render
