// str() and repr() of values, as Python prints them.
#include <cstdio>

#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/values/number_format.h"
#include "tool/core/jinja/values/unicode.h"
#include "tool/core/jinja/values/value.h"

namespace gkebuild::jinja {

void append_str_repr(std::string& out, std::string_view text) {
  // Python prefers single quotes, and switches to double quotes when only ' appears.
  bool has_single = text.find('\'') != std::string_view::npos;
  bool has_double = text.find('"') != std::string_view::npos;
  char quote = has_single && !has_double ? '"' : '\'';
  out += quote;
  for (size_t pos = 0; pos < text.size();) {
    char32_t cp = decode_utf8(text, pos);
    if (cp == static_cast<char32_t>(quote) || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (!is_printable(cp)) {
      char buffer[16];
      if (cp < 0x100) std::snprintf(buffer, sizeof buffer, "\\x%02x", static_cast<unsigned>(cp));
      else if (cp < 0x10000) std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(cp));
      else std::snprintf(buffer, sizeof buffer, "\\U%08x", static_cast<unsigned>(cp));
      out += buffer;
    } else {
      append_utf8(out, cp);
    }
  }
  out += quote;
}

namespace {
void append_sequence_repr(std::string& out, const Value& value, char open, char close) {
  ValueNesting nesting;
  out += open;
  Sequence seq(value);
  for (size_t i = 0; i < seq.size(); ++i) {
    if (i) out += ", ";
    append_repr(out, seq.at(i));
  }
  if (value.kind() == Kind::Tuple && seq.size() == 1) out += ',';
  out += close;
}

void append_mapping_repr(std::string& out, const Value& value) {
  ValueNesting nesting;
  out += '{';
  bool first = true;
  mapping_for_each(value, [&](const Value& k, const Value& v) {
    if (!first) out += ", ";
    first = false;
    append_repr(out, k);
    out += ": ";
    append_repr(out, v);
  });
  out += '}';
}
}  // namespace

void append_repr(std::string& out, const Value& value) {
  require_growth_within_limit(out.size());  // once per item: `[s] * 100000 | string` of a long s
  switch (value.kind()) {
    case Kind::Str:
      if (value.is_markup()) {
        out += "Markup(";
        append_str_repr(out, value.str());
        out += ')';
      } else {
        append_str_repr(out, value.str());
      }
      return;
    case Kind::Undefined: out += "Undefined"; return;
    case Kind::List:
    case Kind::DocList: append_sequence_repr(out, value, '[', ']'); return;
    case Kind::Tuple: append_sequence_repr(out, value, '(', ')'); return;
    case Kind::Dict:
    case Kind::DocDict: append_mapping_repr(out, value); return;
    default: append_str(out, value); return;
  }
}

void append_str(std::string& out, const Value& value) {
  switch (value.kind()) {
    case Kind::Undefined: return;
    case Kind::None: out += "None"; return;
    case Kind::Bool: out += value.as_bool() ? "True" : "False"; return;
    case Kind::Int: append_int(out, value.as_int()); return;
    case Kind::Float: append_float(out, value.as_float()); return;
    case Kind::Str: out += value.str(); return;
    case Kind::Object: value.object_ptr()->repr(out); return;
    default: append_repr(out, value); return;
  }
}

std::string to_str(const Value& value) {
  if (value.is_str()) return std::string(value.str());
  std::string out;
  append_str(out, value);
  return out;
}

std::string repr(const Value& value) {
  std::string out;
  append_repr(out, value);
  return out;
}

}  // namespace gkebuild::jinja
