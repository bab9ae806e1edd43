#include "tool/core/jinja/builtins/yaml_helpers.h"

#include <cmath>
#include <cstdio>

#include "base/ascii_scan.h"
#include "tool/core/jinja/builtins/filters.h"
#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/values/number_format.h"
#include "tool/core/jinja/values/unicode.h"

namespace gkebuild::jinja {

namespace {

bool is_reserved_word(std::string_view text) {
  static constexpr std::string_view kWords[] = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~",
                                                ".inf", "-.inf", "+.inf", ".nan", "<<", "="};
  // Every word is ASCII and at most 5 bytes, and no other character lower-cases to ASCII
  // but the Kelvin sign (to 'k', in no word): ASCII lower-casing in place is enough, and
  // toyaml asks this of every scalar it writes.
  if (text.size() > 5) return false;
  char lower[5];
  for (size_t i = 0; i < text.size(); ++i)
    lower[i] = text[i] >= 'A' && text[i] <= 'Z' ? static_cast<char>(text[i] - 'A' + 'a') : text[i];
  const std::string_view lowered(lower, text.size());
  for (std::string_view word : kWords)
    if (lowered == word) return true;
  return false;
}

bool starts_like_number(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  if (i < text.size() && text[i] == '.') ++i;
  return i < text.size() && text[i] >= '0' && text[i] <= '9';
}

}  // namespace

bool yaml_needs_quotes(std::string_view text) {
  if (text.empty()) return true;
  if (is_reserved_word(text) || starts_like_number(text)) return true;
  static constexpr std::string_view kIndicators = "-?:,[]{}#&*!|>'\"%@`";
  if (kIndicators.find(text.front()) != std::string_view::npos) return true;
  if (text.substr(0, 3) == "..." || text.substr(0, 3) == "---") return true;
  if (text.front() == ' ' || text.back() == ' ' || text.back() == ':') return true;
  if (text.find(": ") != std::string_view::npos || text.find(" #") != std::string_view::npos) return true;
  for (size_t pos = 0; pos < text.size();) {
    // Printable ASCII needs no decoding.
    pos = static_cast<size_t>(find_ascii_stop<true>(text.data() + pos, text.data() + text.size()) - text.data());
    if (pos == text.size()) break;
    char32_t cp = decode_utf8(text, pos);
    if (cp < 0x20 || cp == 0x7F || !is_printable(cp) || cp == 0xFEFF) return true;
  }
  return false;
}

std::string yaml_double_quoted(std::string_view text) {
  std::string out = "\"";
  out.reserve(text.size() + 2);
  char buffer[16];
  for (size_t pos = 0; pos < text.size();) {
    // Runs of printable ASCII other than the quote and the backslash go out as they are.
    const char* stop = find_ascii_stop<true, '"', '\\'>(text.data() + pos, text.data() + text.size());
    const size_t plain = static_cast<size_t>(stop - text.data());
    out.append(text, pos, plain - pos);
    pos = plain;
    if (pos == text.size()) break;
    char32_t cp = decode_utf8(text, pos);
    switch (cp) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      default: break;
    }
    if (cp < 0x20 || cp == 0x7F || (!is_printable(cp) && cp < 0x10000) || cp == 0xFEFF) {
      std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(cp));
      out += buffer;
    } else {
      append_utf8(out, cp);
    }
  }
  out += '"';
  return out;
}

namespace {

std::string yaml_float(double d) {
  if (std::isnan(d)) return ".nan";
  if (std::isinf(d)) return d < 0 ? "-.inf" : ".inf";
  std::string text = format_float(d);
  // YAML 1.1 (PyYAML) only reads floats that contain a dot: 1e+20 becomes 1.0e+20.
  size_t e = text.find('e');
  if (e != std::string::npos && text.find('.') == std::string::npos) text.insert(e, ".0");
  return text;
}

std::string yaml_scalar(const Value& value) {
  switch (value.kind()) {
    case Kind::None: return "null";
    case Kind::Bool: return value.as_bool() ? "true" : "false";
    case Kind::Int: return std::to_string(value.as_int());
    case Kind::Float: return yaml_float(value.as_float());
    case Kind::Str: return yaml_needs_quotes(value.str()) ? yaml_double_quoted(value.str()) : std::string(value.str());
    case Kind::Undefined: throw EvalError(value.undefined_message(), TemplateErrorKind::Undefined);
    default: throw EvalError("cannot convert a " + std::string(type_name(value)) + " to YAML");
  }
}

bool is_container(const Value& v) { return v.is_mapping() || v.is_list_like(); }
bool is_empty_container(const Value& v) { return is_container(v) && length(v) == 0; }

void emit(std::string& out, const Value& value, int indent, int level);

void emit_child(std::string& out, const Value& child, int indent, int level) {
  if (is_container(child) && !is_empty_container(child)) {
    out += '\n';
    emit(out, child, indent, level);
  } else {
    out += ' ';
    emit(out, child, indent, level);
  }
}

void emit(std::string& out, const Value& value, int indent, int level) {
  require_growth_within_limit(out.size());  // once per value: a long string listed many times
  ValueNesting nesting;
  std::string pad(static_cast<size_t>(indent * level), ' ');
  if (value.is_mapping()) {
    if (length(value) == 0) {
      out += "{}";
      return;
    }
    bool first = true;
    mapping_for_each(value, [&](const Value& key, const Value& child) {
      if (!first) out += '\n';
      first = false;
      out += pad;
      out += key.is_str() ? yaml_scalar(key) : yaml_scalar(key.is_number() || key.is_none() ? key : Value::string(to_str(key)));
      out += ':';
      emit_child(out, child, indent, level + 1);
    });
    return;
  }
  if (value.is_list_like()) {
    Sequence seq(value);
    if (seq.size() == 0) {
      out += "[]";
      return;
    }
    for (size_t i = 0; i < seq.size(); ++i) {
      if (i) out += '\n';
      out += pad;
      out += '-';
      Value item = seq.at(i);
      if (is_container(item) && !is_empty_container(item)) {
        // The first line of a nested block follows "- " directly; the rest are indented.
        std::string nested;
        emit(nested, item, indent, level + 1);
        size_t strip = static_cast<size_t>(indent * (level + 1));
        out.append(static_cast<size_t>(indent - 1), ' ');
        out += nested.substr(std::min(strip, nested.size()));
      } else {
        out += ' ';
        emit(out, item, indent, 0);
      }
    }
    return;
  }
  out += yaml_scalar(value);
}

Value f_toyaml(Interpreter& in, const Value& v, CallArgs& args) {
  Bound b = args.bind("toyaml", {"indent"});
  int64_t indent = arg_int(b[0], 2, "indent");
  if (indent < 1 || indent > 16) throw EvalError("toyaml indent must be between 1 and 16");
  in.require_defined(v);
  return Value::string(to_yaml(v, static_cast<int>(indent)));
}

Value f_quote(Interpreter& in, const Value& v, CallArgs& args) {
  args.bind("quote", {});
  return Value::string(yaml_double_quoted(in.str(v)));
}

Value f_required(Interpreter&, const Value& v, CallArgs& args) {
  Bound b = args.bind("required", {"message"});
  return check_required(v, b[0]);
}

}  // namespace

std::string to_yaml(const Value& value, int indent) {
  std::string out;
  emit(out, value, indent, 0);
  return out;
}

Value check_required(const Value& value, const Value* message) {
  bool missing = value.is_undefined() || value.is_none() || (value.is_str() && value.str().empty()) ||
                 (is_container(value) && length(value) == 0);
  if (!missing) return value;
  std::string text = message && message->is_str() ? std::string(message->str()) : "a required value is missing";
  if (value.is_undefined() && !(message && message->is_str())) text += " (" + value.undefined_message() + ")";
  // An undefined value is an Undefined error, with required's own message kept.
  throw EvalError(text, value.is_undefined() ? TemplateErrorKind::Undefined : TemplateErrorKind::Runtime);
}

const std::vector<FilterEntry>& yaml_filters() {
  using enum Effect;  // none of these keeps state
  static const std::vector<FilterEntry> filters = {
      {"toyaml", f_toyaml, ReadsOnly}, {"quote", f_quote, ReadsOnly}, {"required", f_required, ReadsOnly},
  };
  return filters;
}

}  // namespace gkebuild::jinja
