#include "base/dns_name.h"

namespace gkebuild {
namespace {

bool alphanumeric(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

}  // namespace

bool is_dns_subdomain(std::string_view name) {
  if (name.empty() || name.size() > 253) return false;
  char before = '.';
  for (char c : name) {
    if (!alphanumeric(c) && c != '-' && c != '.') return false;
    // A part starts and ends with a letter or digit: no ".-", "-.", "..".
    if ((c == '.' || c == '-') && before == '.') return false;
    if (c == '.' && before == '-') return false;
    before = c;
  }
  return alphanumeric(name.back());
}

}  // namespace gkebuild
