// The filter table and tojson.
#include "tool/core/jinja/builtins/filters.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "base/ascii_scan.h"
#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/values/number_format.h"
#include "tool/core/jinja/builtins/randomness.h"
#include "tool/core/jinja/values/unicode.h"

namespace gkebuild::jinja {

namespace {

// A document list (not one a template changed) of one or more strings.
bool all_strings(const DocSlot& list) {
  if (list.type != DocSlot::List || list.size == 0) return false;
  for (uint32_t i = 0; i < list.size; ++i)
    if (list.items[i].type != DocSlot::Str) return false;
  return true;
}

// json.dumps(ensure_ascii=True) escaping plus Jinja's htmlsafe_json_dumps replacements.
void append_json_string(std::string& out, std::string_view text) {
  const char* first_stop = find_ascii_stop<true, '"', '\\', '<', '>', '&', '\''>(text.data(), text.data() + text.size());
  if (first_stop == text.data() + text.size()) {  // nothing to escape: most strings
    // A short one is quoted on the stack and appended in one call (a char append is a call too).
    if (text.size() <= 62) {
      char quoted[64];
      quoted[0] = '"';
      std::memcpy(quoted + 1, text.data(), text.size());
      quoted[text.size() + 1] = '"';
      out.append(quoted, text.size() + 2);
      return;
    }
    // Appended in three steps: resize() would write zeros first, then the text over them.
    out.reserve(out.size() + text.size() + 2);
    out += '"';
    out.append(text);
    out += '"';
    return;
  }
  out += '"';
  char buffer[16];
  for (size_t pos = 0; pos < text.size();) {
    // Runs of characters that stay as they are go out in one piece.
    const char* stop = pos == 0 ? first_stop
                                : find_ascii_stop<true, '"', '\\', '<', '>', '&', '\''>(text.data() + pos, text.data() + text.size());
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
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      case '<': out += "\\u003c"; continue;
      case '>': out += "\\u003e"; continue;
      case '&': out += "\\u0026"; continue;
      case '\'': out += "\\u0027"; continue;
      default: break;
    }
    require_growth_within_limit(out.size());  // escapes grow a string sixfold
    if (cp < 0x20 || cp > 0x7E) {  // outside " " to "~", like json.dumps(ensure_ascii=True)
      if (cp >= 0x10000) {
        char32_t v = cp - 0x10000;
        std::snprintf(buffer, sizeof buffer, "\\u%04x\\u%04x", static_cast<unsigned>(0xD800 + (v >> 10)),
                      static_cast<unsigned>(0xDC00 + (v & 0x3FF)));
      } else {
        std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(cp));
      }
      out += buffer;
    } else {
      out += static_cast<char>(cp);
    }
  }
  out += '"';
}

void append_json(std::string& out, const Value& value, int indent, int depth) {
  ValueNesting nesting;
  // Once per value: a list holding one long string many times is long JSON.
  require_growth_within_limit(out.size());
  auto newline = [&](int level) {
    require_result_size(out.size() + static_cast<uint64_t>(indent) * static_cast<uint64_t>(level));
    out += '\n';
    out.append(static_cast<size_t>(indent) * static_cast<size_t>(level), ' ');
  };
  switch (value.kind()) {
    case Kind::None: out += "null"; return;
    case Kind::Bool: out += value.as_bool() ? "true" : "false"; return;
    case Kind::Int: append_int(out, value.as_int()); return;
    case Kind::Float: {
      double d = value.as_float();
      if (std::isnan(d)) out += "NaN";
      else if (std::isinf(d)) out += d < 0 ? "-Infinity" : "Infinity";
      else append_float(out, d);
      return;
    }
    case Kind::Str: append_json_string(out, value.str()); return;
    case Kind::List:
    case Kind::Tuple:
    case Kind::DocList: {
      // A values document's list of strings (`args | tojson`): read from its slots.
      if (value.kind() == Kind::DocList && indent < 0 && all_strings(value.doc_slot())) {
        const DocSlot& list = value.doc_slot();
        for (uint32_t i = 0; i < list.size; ++i) {
          out.append(i ? std::string_view(", ") : std::string_view("["));
          append_json_string(out, {list.items[i].s, list.items[i].size});
        }
        out += ']';
        return;
      }
      Sequence seq(value);
      if (seq.size() == 0) {
        out += "[]";
        return;
      }
      out += '[';
      for (size_t i = 0; i < seq.size(); ++i) {
        if (i) out.append(indent >= 0 ? std::string_view(",") : std::string_view(", "));
        if (indent >= 0) newline(depth + 1);
        append_json(out, seq.at(i), indent, depth + 1);
      }
      if (indent >= 0) newline(depth);
      out += ']';
      return;
    }
    case Kind::Dict:
    case Kind::DocDict: {
      std::vector<std::pair<std::string, Value>> entries;
      mapping_for_each(value, [&](const Value& k, const Value& v) {
        if (!k.is_str() && !k.is_number() && !k.is_none())
          throw EvalError("keys must be str, int, float, bool or None, not " + std::string(type_name(k)));
        std::string key = k.is_bool() ? (k.as_bool() ? "true" : "false") : k.is_none() ? "null" : to_str(k);
        entries.emplace_back(std::move(key), v);
      });
      if (entries.empty()) {
        out += "{}";
        return;
      }
      std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      out += '{';
      for (size_t i = 0; i < entries.size(); ++i) {
        if (i) out.append(indent >= 0 ? std::string_view(",") : std::string_view(", "));
        if (indent >= 0) newline(depth + 1);
        append_json_string(out, entries[i].first);
        out += ": ";
        append_json(out, entries[i].second, indent, depth + 1);
      }
      if (indent >= 0) newline(depth);
      out += '}';
      return;
    }
    case Kind::Undefined: throw EvalError("Object of type Undefined is not JSON serializable");
    case Kind::Object: break;
  }
  throw EvalError("Object of type " + std::string(type_name(value)) + " is not JSON serializable");
}

void append_tojson(Interpreter& in, const Value& v, CallArgs& a, std::string& out) {
  // `{{ value | tojson }}` of a string, the common case in YAML templates: no binding, no walk.
  const bool no_args = a.positional.empty() && a.keywords.empty();
  if (v.is_str() && no_args) return append_json_string(out, v.str());
  int indent = -1;
  if (!no_args) {
    Bound b = a.bind("tojson", {"indent"});
    if (b[0] && !b[0]->is_none()) {
      const int64_t wanted = arg_int(b[0], 0, "indent");
      require_result_size(static_cast<uint64_t>(std::max<int64_t>(wanted, 0)));  // tojson(10**12)
      indent = static_cast<int>(wanted);
    }
  }
  in.require_defined(v);
  const size_t size = out.size();
  try {
    append_json(out, v, indent, 0);
  } catch (...) {
    out.resize(size);
    throw;
  }
}

Value f_tojson(Interpreter& in, const Value& v, CallArgs& a) {
  std::string out;
  append_tojson(in, v, a, out);
  return Value::markup(std::move(out));
}

const std::unordered_map<std::string_view, const FilterEntry*>& table() {
  static const std::unordered_map<std::string_view, const FilterEntry*> filters = [] {
    std::unordered_map<std::string_view, const FilterEntry*> map;
    for (const FilterEntry& entry : filter_entries()) map.emplace(entry.name, &entry);
    return map;
  }();
  return filters;
}

}  // namespace

// Every filter's entry, the groups' and these, in one list that never changes once made:
// find_filter's table points into it.
const std::vector<FilterEntry>& filter_entries() {
  static const std::vector<FilterEntry> filters = [] {
    using enum Effect;
    std::vector<FilterEntry> all = {
        {"tojson", f_tojson, ReadsOnly, append_tojson},
        {"random", random_filter, ChangesState},  // draws from the render's generator
    };
    for (const auto* group :
         {&text_filters(), &sequence_filters(), &yaml_filters(), &markup_filters(), &layout_filters()})
      all.insert(all.end(), group->begin(), group->end());
    return all;
  }();
  return filters;
}

const FilterEntry* find_filter(std::string_view name) {
  auto found = table().find(name);
  return found == table().end() ? nullptr : found->second;
}

}  // namespace gkebuild::jinja
