#include "base/quantity.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

namespace gkebuild {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::optional<double> suffix_multiplier(std::string_view suffix) {
  static constexpr std::pair<std::string_view, double> kSuffixes[] = {
      {"", 1},       {"n", 1e-9},  {"u", 1e-6},  {"m", 1e-3},  {"k", 1e3},
      {"M", 1e6},    {"G", 1e9},   {"T", 1e12},  {"P", 1e15},  {"E", 1e18},
      {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
      {"Pi", 1125899906842624.0}, {"Ei", 1152921504606846976.0}};
  for (auto [name, factor] : kSuffixes)
    if (suffix == name) return factor;
  return std::nullopt;
}

// <signedNumber> ::= [+-] (<digits> | <digits>. | <digits>.<digits> | .<digits>); returns its length.
std::size_t signed_number_length(std::string_view text) {
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  std::size_t digits = 0, dots = 0;
  for (; i < text.size() && (is_digit(text[i]) || text[i] == '.'); ++i) {
    if (text[i] == '.') ++dots; else ++digits;
  }
  return digits == 0 || dots > 1 ? 0 : i;
}

}  // namespace

std::optional<double> parse_quantity(std::string_view text) {
  const std::size_t length = signed_number_length(text);
  if (length == 0) return std::nullopt;
  std::string_view suffix = text.substr(length);
  double scale = 1;
  if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    // An exponent: the rest must be an integer ("1e3", "5E-2"); "E" alone is exa.
    std::string_view exponent = suffix.substr(1);
    std::size_t sign = exponent[0] == '+' || exponent[0] == '-' ? 1 : 0;
    if (exponent.size() == sign || exponent.size() > sign + 4) return std::nullopt;
    for (std::size_t i = sign; i < exponent.size(); ++i)
      if (!is_digit(exponent[i])) return std::nullopt;
    scale = std::pow(10.0, std::strtod(std::string(exponent).c_str(), nullptr));
  } else {
    auto factor = suffix_multiplier(suffix);
    if (!factor) return std::nullopt;
    scale = *factor;
  }
  return std::strtod(std::string(text.substr(0, length)).c_str(), nullptr) * scale;
}

}  // namespace gkebuild
