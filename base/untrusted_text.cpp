#include "base/untrusted_text.h"

#include <vector>

#include "base/printable.h"

namespace gkebuild {
namespace {

// Where the authority of a URL (after "scheme://") ends: at a path, query, fragment, space
// or quote, or at the end of the text.
std::size_t authority_end(std::string_view text, std::size_t start) {
  const std::size_t end = text.find_first_of("/?#'\"<> \t\r\n", start);
  return end == std::string_view::npos ? text.size() : end;
}

std::string percent_decoded(std::string_view text) {
  auto hex = [](char c) { return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1; };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// The secrets of `url` written by hand, without a URL parser: a URL too malformed to parse
// still has its userinfo before the last '@' of its authority.
std::vector<std::string> secrets_of(std::string_view url) {
  const std::size_t scheme = url.find("://");
  const std::size_t start = scheme == std::string_view::npos ? 0 : scheme + 3;
  const std::size_t at = url.substr(0, authority_end(url, start)).rfind('@');
  if (at == std::string_view::npos || at < start) return {};
  const std::string_view userinfo = url.substr(start, at - start);
  std::vector<std::string> secrets{std::string(userinfo)};
  if (const std::size_t colon = userinfo.find(':'); colon != std::string_view::npos) {
    secrets.emplace_back(userinfo.substr(colon + 1));
    secrets.push_back(percent_decoded(userinfo.substr(colon + 1)));
  }
  return secrets;
}

}  // namespace

std::string without_userinfo(std::string_view text, std::string_view url) {
  std::string out(text);
  for (const std::string& secret : secrets_of(url))
    for (auto at = out.find(secret); !secret.empty() && at != std::string::npos; at = out.find(secret, at + 3))
      out.replace(at, secret.size(), "***");
  for (std::size_t scheme = out.find("://"); scheme != std::string::npos; scheme = out.find("://", scheme + 3)) {
    const std::size_t start = scheme + 3;
    const std::size_t at = std::string_view(out).substr(0, authority_end(out, start)).rfind('@');
    if (at != std::string::npos && at >= start && out.compare(start, at - start, "***") != 0)
      out.replace(start, at - start, "***");
  }
  return out;
}

std::string untrusted_text(std::string_view text, std::string_view url) {
  return printable_lines(without_userinfo(text, url));
}

}  // namespace gkebuild
