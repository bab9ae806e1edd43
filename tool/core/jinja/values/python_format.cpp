#include "tool/core/jinja/values/python_format.h"

#include <cmath>
#include <algorithm>
#include <cstdio>

#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/values/number_format.h"
#include "tool/core/jinja/values/unicode.h"

namespace gkebuild::jinja {

namespace {

struct Spec {
  char fill = ' ';
  char align = 0;  // < > ^ =
  char sign = '-';
  bool alternate = false;
  bool zero = false;
  int width = -1;
  bool comma = false;
  int precision = -1;
  char type = 0;
};

std::string pad(std::string body, const Spec& spec, char default_align) {
  size_t len = code_point_count(body);
  if (spec.width < 0 || len >= static_cast<size_t>(spec.width)) return body;
  size_t missing = static_cast<size_t>(spec.width) - len;
  char align = spec.align ? spec.align : default_align;
  std::string fill(1, spec.fill);
  auto repeat = [&](size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += fill;
    return s;
  };
  if (align == '<') return body + repeat(missing);
  if (align == '^') return repeat(missing / 2) + body + repeat(missing - missing / 2);
  if (align == '=') {
    size_t sign_len = !body.empty() && (body[0] == '-' || body[0] == '+' || body[0] == ' ') ? 1 : 0;
    return body.substr(0, sign_len) + repeat(missing) + body.substr(sign_len);
  }
  return repeat(missing) + body;
}

std::string group_thousands(const std::string& digits) {
  std::string out;
  int count = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (count && count % 3 == 0) out.insert(out.begin(), ',');
    out.insert(out.begin(), *it);
    ++count;
  }
  return out;
}

std::string c_format(const char* pattern, int precision, double value) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, pattern, precision, value);
  return buffer;
}

// Python's %g / {:g}: like C's, which Python follows for these types.
std::string format_float_type(double value, char type, int precision, bool alternate) {
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  if (std::isnan(value)) return "nan";
  if (precision < 0) precision = 6;
  std::string pattern = std::string("%") + (alternate ? "#" : "") + ".*" + type;
  return c_format(pattern.c_str(), precision, value);
}

std::string format_number(const Value& value, const Spec& spec) {
  std::string body;
  bool negative = false;
  char type = spec.type;
  if (value.is_float() || type == 'f' || type == 'F' || type == 'e' || type == 'E' || type == 'g' ||
      type == 'G' || type == '%') {
    double d = value.as_float();
    negative = std::signbit(d) && !std::isnan(d);
    double magnitude = std::fabs(d);
    if (type == 0) {
      body = spec.precision < 0 ? format_float(magnitude) : format_float_type(magnitude, 'g', spec.precision, false);
      if (spec.precision >= 0 && body.find_first_of(".e") == std::string::npos && std::isfinite(magnitude)) {
        // Python's empty type with a precision behaves like 'g' but keeps at least one digit after the point.
      }
    } else if (type == '%') {
      body = format_float_type(magnitude * 100, 'f', spec.precision, spec.alternate) + "%";
    } else {
      body = format_float_type(magnitude, type, spec.precision, spec.alternate);
    }
    if (spec.comma) {
      size_t end = body.find_first_not_of("0123456789");
      body = group_thousands(body.substr(0, end)) + (end == std::string::npos ? "" : body.substr(end));
    }
  } else {
    int64_t i = value.as_int();
    negative = i < 0;
    uint64_t magnitude = negative ? static_cast<uint64_t>(-(i + 1)) + 1 : static_cast<uint64_t>(i);
    char buffer[72];
    switch (type) {
      case 'x': std::snprintf(buffer, sizeof buffer, "%llx", static_cast<unsigned long long>(magnitude)); break;
      case 'X': std::snprintf(buffer, sizeof buffer, "%llX", static_cast<unsigned long long>(magnitude)); break;
      case 'o': std::snprintf(buffer, sizeof buffer, "%llo", static_cast<unsigned long long>(magnitude)); break;
      case 'b': {
        std::string bits;
        do {
          bits.insert(bits.begin(), static_cast<char>('0' + (magnitude & 1)));
          magnitude >>= 1;
        } while (magnitude);
        std::snprintf(buffer, sizeof buffer, "%s", bits.c_str());
        break;
      }
      case 'c': {
        std::string s;
        append_utf8(s, static_cast<char32_t>(i));
        return pad(s, spec, '<');
      }
      default: std::snprintf(buffer, sizeof buffer, "%llu", static_cast<unsigned long long>(magnitude));
    }
    body = buffer;
    if (spec.comma) body = group_thousands(body);
    if (spec.alternate && (type == 'x' || type == 'X' || type == 'o' || type == 'b'))
      body = std::string("0") + (type == 'o' ? 'o' : type) + body;
  }
  std::string sign = negative ? "-" : (spec.sign == '+' ? "+" : spec.sign == ' ' ? " " : "");
  if (spec.zero && !spec.align) {
    Spec zero = spec;
    zero.fill = '0';
    zero.align = '=';
    return pad(sign + body, zero, '>');
  }
  return pad(sign + body, spec, '>');
}

Spec parse_spec(std::string_view text) {
  Spec spec;
  size_t i = 0;
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (text.size() >= 2 && is_align(text[1])) {
    spec.fill = text[0];
    spec.align = text[1];
    i = 2;
  } else if (!text.empty() && is_align(text[0])) {
    spec.align = text[0];
    i = 1;
  }
  if (i < text.size() && (text[i] == '+' || text[i] == '-' || text[i] == ' ')) spec.sign = text[i++];
  if (i < text.size() && text[i] == '#') spec.alternate = true, ++i;
  if (i < text.size() && text[i] == '0') spec.zero = true, ++i;
  if (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    spec.width = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
      spec.width = append_decimal_digit(spec.width, text[i++]);
    require_result_size(static_cast<uint64_t>(spec.width));
  }
  if (i < text.size() && text[i] == ',') spec.comma = true, ++i;
  if (i < text.size() && text[i] == '.') {
    ++i;
    spec.precision = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
      spec.precision = append_decimal_digit(spec.precision, text[i++]);
    require_result_size(static_cast<uint64_t>(spec.precision));
  }
  if (i < text.size()) spec.type = text[i++];
  if (i != text.size()) throw EvalError("Invalid format specifier");
  return spec;
}

}  // namespace

std::string format_with_spec(const Value& value, std::string_view spec_text) {
  Spec spec = parse_spec(spec_text);
  if (value.is_number() && !(value.is_bool() && spec.type == 0)) {
    if (spec.type == 's') throw EvalError("Unknown format code 's' for object of type '" + std::string(type_name(value)) + "'");
    return format_number(value, spec);
  }
  if (spec.type != 0 && spec.type != 's')
    throw EvalError(std::string("Unknown format code '") + spec.type + "' for object of type '" +
                    std::string(type_name(value)) + "'");
  std::string text = to_str(value);
  if (spec.precision >= 0) text = text.substr(0, byte_offset_of(text, static_cast<size_t>(spec.precision)));
  return pad(text, spec, '<');
}

std::string brace_format(std::string_view fmt, const CallArgs& args) {
  std::string out;
  size_t auto_index = 0;
  for (size_t i = 0; i < fmt.size(); ++i) {
    char c = fmt[i];
    if (c == '}') {
      if (i + 1 < fmt.size() && fmt[i + 1] == '}') {
        out += '}';
        ++i;
        continue;
      }
      throw EvalError("Single '}' encountered in format string");
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    size_t close = fmt.find('}', i);
    if (close == std::string_view::npos) throw EvalError("Single '{' encountered in format string");
    std::string_view field = fmt.substr(i + 1, close - i - 1);
    i = close;
    std::string_view spec;
    char conversion = 0;
    if (size_t colon = field.find(':'); colon != std::string_view::npos) {
      spec = field.substr(colon + 1);
      field = field.substr(0, colon);
    }
    if (size_t bang = field.find('!'); bang != std::string_view::npos) {
      conversion = bang + 1 < field.size() ? field[bang + 1] : 0;
      field = field.substr(0, bang);
    }
    const Value* value = nullptr;
    if (field.empty()) {
      if (auto_index >= args.positional.size())
        throw EvalError("Replacement index " + std::to_string(auto_index) + " out of range for positional args tuple");
      value = &args.positional[auto_index++];
    } else if (std::isdigit(static_cast<unsigned char>(field[0]))) {
      size_t index = static_cast<size_t>(std::stoul(std::string(field)));
      if (index >= args.positional.size())
        throw EvalError("Replacement index " + std::to_string(index) + " out of range for positional args tuple");
      value = &args.positional[index];
    } else {
      for (const auto& [key, v] : args.keywords)
        if (key == field) value = &v;
      if (!value) throw EvalError("'" + std::string(field) + "'");
    }
    if (conversion == 'r') out += format_with_spec(Value::string(repr(*value)), spec);
    else if (conversion == 's') out += format_with_spec(Value::string(to_str(*value)), spec);
    else out += format_with_spec(*value, spec);
  }
  return out;
}

namespace {
std::string percent_one(const Value& value, char conv, std::string_view flags, int width, int precision) {
  Spec spec;
  spec.width = width;
  spec.precision = precision;
  for (char f : flags) {
    if (f == '-') spec.align = '<';
    else if (f == '+') spec.sign = '+';
    else if (f == ' ' && spec.sign != '+') spec.sign = ' ';
    else if (f == '0') spec.zero = true;
    else if (f == '#') spec.alternate = true;
  }
  if (spec.align == '<') spec.zero = false;
  switch (conv) {
    case 's':
    case 'r':
    case 'a': {
      std::string text = conv == 's' ? to_str(value) : repr(value);
      if (precision >= 0) text = text.substr(0, byte_offset_of(text, static_cast<size_t>(precision)));
      spec.precision = -1;
      spec.zero = false;
      return pad(text, spec, '>');
    }
    case 'd':
    case 'i':
    case 'u':
    case 'x':
    case 'X':
    case 'o': {
      if (!value.is_number())
        throw EvalError(std::string("%") + conv + " format: a real number is required, not " + std::string(type_name(value)));
      Value integral = value.is_float() ? Value::integer(static_cast<int64_t>(std::trunc(value.as_float()))) : value;
      spec.type = conv == 'i' || conv == 'u' ? 'd' : conv;
      if (conv == 'o' && spec.alternate) spec.alternate = true;
      std::string text = format_number(Value::integer(integral.as_int()), [&] {
        Spec s = spec;
        s.width = -1;
        s.zero = false;
        return s;
      }());
      if (precision >= 0) {
        bool neg = !text.empty() && (text[0] == '-' || text[0] == '+' || text[0] == ' ');
        std::string digits = text.substr(neg ? 1 : 0);
        while (digits.size() < static_cast<size_t>(precision)) digits.insert(digits.begin(), '0');
        text = (neg ? text.substr(0, 1) : "") + digits;
      }
      if (spec.zero) {
        spec.fill = '0';
        spec.align = '=';
      }
      return pad(text, spec, '>');
    }
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G': {
      if (!value.is_number())
        throw EvalError("must be real number, not " + std::string(type_name(value)));
      spec.type = conv;
      if (spec.precision < 0) spec.precision = 6;
      return format_number(Value::floating(value.as_float()), spec);
    }
    case 'c': {
      if (value.is_str()) return pad(std::string(value.str()), spec, '>');
      std::string s;
      append_utf8(s, static_cast<char32_t>(value.as_int()));
      return pad(s, spec, '>');
    }
    default: throw EvalError(std::string("unsupported format character '") + conv + "'");
  }
}
}  // namespace

std::string percent_format(std::string_view fmt, const Value& values) {
  std::vector<Value> positional;
  bool mapping = values.is_mapping();
  if (values.kind() == Kind::Tuple) positional = values.items();
  else if (!mapping) positional.push_back(values);
  size_t next = 0;
  std::string out;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out += fmt[i];
      continue;
    }
    if (++i >= fmt.size()) throw EvalError("incomplete format");
    const Value* value = nullptr;
    Value keyed;
    if (fmt[i] == '(') {
      size_t close = fmt.find(')', i);
      if (close == std::string_view::npos) throw EvalError("incomplete format key");
      std::string_view key = fmt.substr(i + 1, close - i - 1);
      if (!mapping) throw EvalError("format requires a mapping");
      if (!mapping_find(values, key, keyed)) throw EvalError("'" + std::string(key) + "'");
      value = &keyed;
      i = close + 1;
    }
    size_t flags_start = i;
    while (i < fmt.size() && std::string_view("-+ #0").find(fmt[i]) != std::string_view::npos) ++i;
    std::string_view flags = fmt.substr(flags_start, i - flags_start);
    int width = -1, precision = -1;
    while (i < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[i])))
      width = append_decimal_digit(std::max(width, 0), fmt[i++]);
    if (i < fmt.size() && fmt[i] == '.') {
      ++i;
      precision = 0;
      while (i < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[i])))
        precision = append_decimal_digit(precision, fmt[i++]);
    }
    require_result_size(static_cast<uint64_t>(std::max(width, 0)));
    require_result_size(static_cast<uint64_t>(std::max(precision, 0)));
    if (i >= fmt.size()) throw EvalError("incomplete format");
    char conv = fmt[i];
    if (conv == '%') {
      out += '%';
      continue;
    }
    if (!value) {
      if (mapping) {
        keyed = values;
        value = &keyed;
      } else {
        if (next >= positional.size()) throw EvalError("not enough arguments for format string");
        value = &positional[next++];
      }
    }
    out += percent_one(*value, conv, flags, width, precision);
  }
  if (!mapping && next < positional.size()) throw EvalError("not all arguments converted during string formatting");
  return out;
}

}  // namespace gkebuild::jinja
