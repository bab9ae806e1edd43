#include "tool/core/jinja/values/number_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "tool/core/jinja/values/value.h"

namespace gkebuild::jinja {

void append_int(std::string& out, int64_t value) {
  char buffer[24];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, static_cast<size_t>(result.ptr - buffer));  // (pointer, length): no iterator-range path
}

void append_float(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "nan";
    return;
  }
  if (std::isinf(value)) {
    out += value < 0 ? "-inf" : "inf";
    return;
  }
  // Shortest round-trip digits in scientific form, then laid out by Python's repr rule:
  // exponent form when the decimal exponent is < -4 or >= 16.
  char buffer[40];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  std::string_view sci(buffer, result.ptr - buffer);
  size_t e_pos = sci.find('e');
  std::string_view mantissa = sci.substr(0, e_pos);
  int exponent = std::atoi(std::string(sci.substr(e_pos + 1)).c_str());
  bool negative = !mantissa.empty() && mantissa[0] == '-';
  if (negative) mantissa.remove_prefix(1);
  std::string digits;
  for (char c : mantissa)
    if (c != '.') digits += c;
  if (negative) out += '-';
  if (exponent < -4 || exponent >= 16) {
    out += digits[0];
    if (digits.size() > 1) {
      out += '.';
      out.append(digits, 1);
    }
    out += 'e';
    out += exponent < 0 ? '-' : '+';
    int magnitude = exponent < 0 ? -exponent : exponent;
    if (magnitude < 10) out += '0';
    out += std::to_string(magnitude);
    return;
  }
  if (exponent < 0) {
    out += "0.";
    out.append(static_cast<size_t>(-exponent - 1), '0');
    out += digits;
    return;
  }
  size_t integer_digits = static_cast<size_t>(exponent) + 1;
  if (digits.size() <= integer_digits) {
    out += digits;
    out.append(integer_digits - digits.size(), '0');
    out += ".0";
  } else {
    out.append(digits, 0, integer_digits);
    out += '.';
    out.append(digits, integer_digits);
  }
}

std::string format_float(double value) {
  std::string out;
  append_float(out, value);
  return out;
}

void throw_int_overflow() {
  throw EvalError("integer result out of range: gkebuild integers are 64-bit (Python's are unbounded)");
}

int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw_int_overflow();
  return r;
}
int64_t checked_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) throw_int_overflow();
  return r;
}
int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw_int_overflow();
  return r;
}
int64_t checked_pow(int64_t base, int64_t exponent) {
  int64_t result = 1;
  while (exponent > 0) {
    if (exponent & 1) result = checked_mul(result, base);
    exponent >>= 1;
    if (exponent > 0) base = checked_mul(base, base);
  }
  return result;
}

int64_t floor_div(int64_t a, int64_t b) {
  if (a == std::numeric_limits<int64_t>::min() && b == -1) throw_int_overflow();
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t floor_mod(int64_t a, int64_t b) {
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

double float_mod(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0) {
    if ((b < 0) != (r < 0)) r += b;
  } else {
    r = std::copysign(0.0, b);
  }
  return r;
}

double float_floor_div(double a, double b) {
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div == 0) return std::copysign(0.0, a / b);
  double floored = std::floor(div);
  if (div - floored > 0.5) floored += 1.0;
  return floored;
}

double python_round(double value, int digits) {
  if (!std::isfinite(value)) return value;
  if (digits > 300) return value;
  if (digits < -300) return std::copysign(0.0, value);
  if (digits >= 0) {
    // printf rounds the exact binary value half-to-even, exactly like Python's dtoa path.
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
    return std::strtod(buffer, nullptr);
  }
  double scale = std::pow(10.0, -digits);
  double scaled = value / scale;
  double rounded = std::nearbyint(scaled);
  return std::copysign(rounded * scale, value);
}

namespace {
bool digit_value(char c, int& out) {
  if (c >= '0' && c <= '9') out = c - '0';
  else if (c >= 'a' && c <= 'z') out = c - 'a' + 10;
  else if (c >= 'A' && c <= 'Z') out = c - 'A' + 10;
  else return false;
  return true;
}

std::string_view trim_ascii(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}
}  // namespace

ParsedInt parse_python_int(std::string_view text, int base, int64_t& out) {
  text = trim_ascii(text);
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  auto has_prefix = [&](char p) {
    return text.size() >= 2 && text[0] == '0' && (text[1] == p || text[1] == (p - 32));
  };
  if (base == 0) {
    if (has_prefix('x')) base = 16;
    else if (has_prefix('o')) base = 8;
    else if (has_prefix('b')) base = 2;
    else {
      base = 10;
      // Python rejects leading zeros in base 0 ("010"), except for zero itself.
      if (text.size() > 1 && text[0] == '0' && text.find_first_not_of("0_") != std::string_view::npos)
        return ParsedInt::Invalid;
    }
    if (base != 10) text.remove_prefix(2);
    if (!text.empty() && text[0] == '_') text.remove_prefix(1);
  } else if ((base == 16 && has_prefix('x')) || (base == 8 && has_prefix('o')) || (base == 2 && has_prefix('b'))) {
    text.remove_prefix(2);
    if (!text.empty() && text[0] == '_') text.remove_prefix(1);
  }
  if (text.empty()) return ParsedInt::Invalid;
  int64_t value = 0;
  bool too_big = false;
  bool last_underscore = true;  // forbids a leading '_'
  for (char c : text) {
    if (c == '_') {
      if (last_underscore) return ParsedInt::Invalid;
      last_underscore = true;
      continue;
    }
    int d;
    if (!digit_value(c, d) || d >= base) return ParsedInt::Invalid;
    // Keeps checking the digits after an overflow: "99999999999999999999x" is invalid, not too big.
    if (__builtin_mul_overflow(value, base, &value) || __builtin_add_overflow(value, d, &value)) too_big = true;
    last_underscore = false;
  }
  if (last_underscore) return ParsedInt::Invalid;
  if (too_big) return ParsedInt::TooBig;
  out = negative ? -value : value;
  return ParsedInt::Ok;
}

bool parse_python_float(std::string_view text, double& out) {
  text = trim_ascii(text);
  std::string cleaned;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '_') {
      bool between_digits = i > 0 && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i - 1])) &&
                            std::isdigit(static_cast<unsigned char>(text[i + 1]));
      if (!between_digits) return false;
      continue;
    }
    cleaned += c;
  }
  std::string lower;
  for (char c : cleaned) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view body = lower;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == "inf" || body == "infinity") {
    out = negative ? -HUGE_VAL : HUGE_VAL;
    return true;
  }
  if (body == "nan") {
    out = std::nan("");
    return true;
  }
  if (body.empty() || body.find_first_not_of("0123456789.e+-") != std::string_view::npos) return false;
  if (body.find_first_of("0123456789") == std::string_view::npos) return false;
  const char* begin = cleaned.c_str();
  char* end = nullptr;
  double value = std::strtod(begin, &end);
  if (end != begin + cleaned.size()) return false;
  out = value;
  return true;
}

}  // namespace gkebuild::jinja
