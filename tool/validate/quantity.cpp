#include "validate/quantity.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

namespace gkebuild::validate {

namespace {
std::optional<double> suffix_multiplier(std::string_view suffix) {
  static const std::pair<std::string_view, double> kSuffixes[] = {
      {"", 1},       {"n", 1e-9},  {"u", 1e-6},  {"m", 1e-3},  {"k", 1e3},
      {"M", 1e6},    {"G", 1e9},   {"T", 1e12},  {"P", 1e15},  {"E", 1e18},
      {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
      {"Pi", 1125899906842624.0}, {"Ei", 1152921504606846976.0}};
  for (auto [name, factor] : kSuffixes)
    if (suffix == name) return factor;
  return std::nullopt;
}
}  // namespace

std::optional<double> parse_quantity(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  size_t digits = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
    ++i;
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  std::string number(text.substr(0, i));
  std::string_view suffix = text.substr(i);
  double exponent_factor = 1;
  if (!suffix.empty() && (suffix[0] == 'e' || suffix[0] == 'E') && suffix.size() > 1) {
    char* end = nullptr;
    std::string exponent(suffix.substr(1));
    long e = std::strtol(exponent.c_str(), &end, 10);
    if (*end != '\0') return std::nullopt;
    exponent_factor = std::pow(10.0, static_cast<double>(e));
    suffix = {};
  }
  auto factor = suffix_multiplier(suffix);
  if (!factor) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(number.c_str(), &end);
  if (*end != '\0') return std::nullopt;
  return value * *factor * exponent_factor;
}

std::optional<double> quantity_value(const nlohmann::json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) return parse_quantity(value.get_ref<const std::string&>());
  return std::nullopt;
}

}  // namespace gkebuild::validate
