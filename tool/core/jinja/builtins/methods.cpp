// Python methods callable on template values: str.upper(), dict.items(), list.append() …
// Lists and dicts can be changed in place, as Jinja2 allows: the template's own directly, the
// context's once copied out of their values document (edit_in_place).
#include <algorithm>
#include <span>

#include "tool/core/jinja/builtins/filters.h"
#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/runtime/objects.h"
#include "tool/core/jinja/values/python_format.h"
#include "tool/core/jinja/values/unicode.h"

namespace gkebuild::jinja {

namespace {

// Each type's methods and what calling one may change (effects.h). The dict and list methods
// that change their container are the ones that copy a values document's container out first
// (edit_in_place) and that the interpreter notes (note_changed_in_place). fromkeys and popitem
// are not supported (dict_method raises): declared as changing, like the other writers, they
// raise the same error for every dict.
using enum Effect;
constexpr MethodEntry kStrMethods[] = {
    {"upper", ReadsOnly}, {"lower", ReadsOnly}, {"strip", ReadsOnly}, {"lstrip", ReadsOnly},
    {"rstrip", ReadsOnly}, {"split", ReadsOnly}, {"rsplit", ReadsOnly}, {"startswith", ReadsOnly},
    {"endswith", ReadsOnly}, {"replace", ReadsOnly}, {"join", ReadsOnly}, {"format", ReadsOnly},
    {"title", ReadsOnly}, {"capitalize", ReadsOnly}, {"count", ReadsOnly}, {"find", ReadsOnly},
    {"rfind", ReadsOnly}, {"index", ReadsOnly}, {"splitlines", ReadsOnly}, {"zfill", ReadsOnly},
    {"isdigit", ReadsOnly}, {"isalpha", ReadsOnly}, {"isalnum", ReadsOnly}, {"isspace", ReadsOnly},
    {"islower", ReadsOnly}, {"isupper", ReadsOnly}, {"center", ReadsOnly}, {"ljust", ReadsOnly},
    {"rjust", ReadsOnly}, {"swapcase", ReadsOnly}, {"casefold", ReadsOnly}, {"removeprefix", ReadsOnly},
    {"removesuffix", ReadsOnly}, {"partition", ReadsOnly}, {"rpartition", ReadsOnly},
};
constexpr MethodEntry kDictMethods[] = {
    {"items", ReadsOnly}, {"keys", ReadsOnly}, {"values", ReadsOnly}, {"get", ReadsOnly}, {"copy", ReadsOnly},
    {"clear", ChangesState}, {"fromkeys", ChangesState}, {"pop", ChangesState}, {"popitem", ChangesState},
    {"setdefault", ChangesState}, {"update", ChangesState},
};
constexpr MethodEntry kListMethods[] = {
    {"count", ReadsOnly}, {"index", ReadsOnly}, {"copy", ReadsOnly}, {"append", ChangesState},
    {"extend", ChangesState}, {"insert", ChangesState}, {"pop", ChangesState}, {"remove", ChangesState},
    {"reverse", ChangesState}, {"clear", ChangesState},
};

// Asked on every attribute of a dict (`job.name`): the sizes and first letters that occur in
// the table rule out nearly every other name before any comparison.
template <size_t N>
class MethodNames {
 public:
  constexpr explicit MethodNames(const MethodEntry (&entries)[N]) : entries_(entries) {
    for (const MethodEntry& entry : entries) {
      sizes_ |= uint64_t{1} << entry.name.size();
      firsts_ |= uint64_t{1} << (entry.name[0] - 'a');
    }
  }
  const MethodEntry* find(std::string_view name) const {
    if (name.empty() || name.size() >= 64 || name[0] < 'a' || name[0] > 'z' || !(sizes_ >> name.size() & 1) ||
        !(firsts_ >> (name[0] - 'a') & 1))
      return nullptr;
    for (const MethodEntry& candidate : std::span(entries_, N))
      if (candidate.name.size() == name.size() && candidate.name[0] == name[0] && candidate.name == name)
        return &candidate;
    return nullptr;
  }

 private:
  const MethodEntry* entries_;
  uint64_t sizes_ = 0;
  uint64_t firsts_ = 0;
};

constexpr MethodNames kStrMethodNames(kStrMethods);
constexpr MethodNames kDictMethodNames(kDictMethods);
constexpr MethodNames kListMethodNames(kListMethods);

const Value& need(const CallArgs& args, size_t i, std::string_view method) {
  if (i >= args.positional.size())
    throw EvalError(std::string(method) + "() takes at least " + std::to_string(i + 1) + " argument(s)");
  return args.positional[i];
}

std::string_view need_str(const CallArgs& args, size_t i, std::string_view method) {
  const Value& v = need(args, i, method);
  if (!v.is_str()) throw EvalError("must be str, not " + std::string(type_name(v)));
  return v.str();
}

// What a piece of a split string costs until it is a value: its string, then its value.
constexpr uint64_t kPartBytes = sizeof(std::string) + sizeof(Value);

Value list_of_strings(const std::vector<std::string>& parts) {
  std::vector<Value> out;
  out.reserve(parts.size());
  for (const auto& p : parts) out.push_back(Value::string(p));
  return Value::list(std::move(out));
}

Value split(std::string_view text, const CallArgs& args, bool from_right) {
  Bound b = args.bind(from_right ? "rsplit" : "split", {"sep", "maxsplit"});
  int64_t maxsplit = arg_int(b[1], -1, "maxsplit");
  std::vector<std::string> parts;
  if (!b[0] || b[0]->is_none()) {
    // Runs of whitespace separate; leading/trailing whitespace is ignored.
    std::vector<std::string_view> words;
    auto chars = split_code_points(text);
    std::vector<std::pair<size_t, size_t>> spans;
    size_t byte = 0;
    size_t start = std::string_view::npos;
    for (std::string_view c : chars) {
      size_t p = 0;
      bool space = is_space(decode_utf8(c, p));
      if (space && start != std::string_view::npos) {
        spans.emplace_back(start, byte);
        start = std::string_view::npos;
      } else if (!space && start == std::string_view::npos) {
        start = byte;
      }
      byte += c.size();
    }
    if (start != std::string_view::npos) spans.emplace_back(start, byte);
    require_result_size(spans.size(), kPartBytes);
    if (maxsplit < 0 || static_cast<size_t>(maxsplit) + 1 >= spans.size()) {
      for (auto [s, e] : spans) parts.emplace_back(text.substr(s, e - s));
    } else if (!from_right) {
      for (size_t i = 0; i < static_cast<size_t>(maxsplit); ++i) parts.emplace_back(text.substr(spans[i].first, spans[i].second - spans[i].first));
      parts.emplace_back(rstrip_space(text.substr(spans[static_cast<size_t>(maxsplit)].first)));
    } else {
      size_t keep = spans.size() - static_cast<size_t>(maxsplit);
      parts.emplace_back(lstrip_space(text.substr(0, spans[keep - 1].second)));
      for (size_t i = keep; i < spans.size(); ++i) parts.emplace_back(text.substr(spans[i].first, spans[i].second - spans[i].first));
    }
    return list_of_strings(parts);
  }
  std::string_view sep = arg_str(b[0], "", "sep");
  if (sep.empty()) throw EvalError("empty separator");
  if (!from_right) {
    size_t pos = 0;
    while (maxsplit < 0 || static_cast<int64_t>(parts.size()) < maxsplit) {
      size_t found = text.find(sep, pos);
      if (found == std::string_view::npos) break;
      parts.emplace_back(text.substr(pos, found - pos));
      require_result_size(parts.size(), kPartBytes);  // ','.join(...) * 10**8 split again
      pos = found + sep.size();
    }
    parts.emplace_back(text.substr(pos));
  } else {
    size_t end = text.size();
    std::vector<std::string> reversed;
    while (maxsplit < 0 || static_cast<int64_t>(reversed.size()) < maxsplit) {
      if (end < sep.size()) break;
      size_t found = text.rfind(sep, end - sep.size());
      if (found == std::string_view::npos) break;
      reversed.emplace_back(text.substr(found + sep.size(), end - found - sep.size()));
      require_result_size(reversed.size(), kPartBytes);
      end = found;
    }
    parts.emplace_back(text.substr(0, end));
    parts.insert(parts.end(), reversed.rbegin(), reversed.rend());
  }
  return list_of_strings(parts);
}

bool affix_matches(std::string_view text, const Value& affix, bool prefix) {
  auto one = [&](std::string_view a) {
    if (a.size() > text.size()) return false;
    return prefix ? text.substr(0, a.size()) == a : text.substr(text.size() - a.size()) == a;
  };
  if (affix.is_str()) return one(affix.str());
  if (affix.kind() == Kind::Tuple) {
    for (const Value& item : affix.items()) {
      if (!item.is_str()) throw EvalError("tuple for startswith must only contain str");
      if (one(item.str())) return true;
    }
    return false;
  }
  throw EvalError(std::string(prefix ? "startswith" : "endswith") +
                  " first arg must be str or a tuple of str, not " + std::string(type_name(affix)));
}

int64_t code_point_index(std::string_view text, size_t byte) { return static_cast<int64_t>(code_point_count(text.substr(0, byte))); }

Value python_title(std::string_view text) {
  std::string out;
  bool previous_cased = false;
  for (size_t pos = 0; pos < text.size();) {
    char32_t cp = decode_utf8(text, pos);
    if (previous_cased) append_lower(out, cp);
    else append_title(out, cp);
    previous_cased = is_cased(cp);
  }
  return Value::string(std::move(out));
}

template <class Pred>
Value all_chars(std::string_view text, Pred pred) {
  if (text.empty()) return Value::boolean(false);
  for (size_t pos = 0; pos < text.size();)
    if (!pred(decode_utf8(text, pos))) return Value::boolean(false);
  return Value::boolean(true);
}

Value justify(std::string_view text, const CallArgs& args, std::string_view name) {
  int64_t width = arg_int(&need(args, 0, name), 0, "width");
  std::string fill = args.positional.size() > 1 ? std::string(need_str(args, 1, name)) : " ";
  int64_t len = static_cast<int64_t>(code_point_count(text));
  if (width <= len) return Value::string(std::string(text));
  require_result_size(static_cast<uint64_t>(width), fill.size());
  int64_t margin = width - len;
  int64_t left = name == "rjust" ? margin : name == "ljust" ? 0 : margin / 2 + (margin & width & 1);
  std::string out;
  for (int64_t i = 0; i < left; ++i) out += fill;
  out += text;
  for (int64_t i = 0; i < margin - left; ++i) out += fill;
  return Value::string(std::move(out));
}

// str.partition / str.rpartition: (head, sep, tail), the whole string on the side the
// search starts from when sep is absent.
Value partition(std::string_view s, std::string_view sep, bool from_right) {
  if (sep.empty()) throw EvalError("empty separator");
  size_t pos = from_right ? s.rfind(sep) : s.find(sep);
  auto str = [](std::string_view part) { return Value::string(std::string(part)); };
  if (pos == std::string_view::npos)
    return from_right ? Value::tuple({str(""), str(""), str(s)}) : Value::tuple({str(s), str(""), str("")});
  return Value::tuple({str(s.substr(0, pos)), str(sep), str(s.substr(pos + sep.size()))});
}

Value str_method(Interpreter& in, std::string_view s, std::string_view name, CallArgs& args) {
  if (name == "upper") return Value::string(to_upper(s));
  if (name == "lower" || name == "casefold") return Value::string(to_lower(s));
  if (name == "strip" || name == "lstrip" || name == "rstrip") {
    bool left = name != "rstrip", right = name != "lstrip";
    if (!args.positional.empty() && !args.positional[0].is_none())
      return Value::string(std::string(strip_chars(s, need_str(args, 0, name), left, right)));
    std::string_view r = left && right ? strip_space(s) : left ? lstrip_space(s) : rstrip_space(s);
    return Value::string(std::string(r));
  }
  if (name == "split") return split(s, args, false);
  if (name == "rsplit") return split(s, args, true);
  if (name == "startswith") return Value::boolean(affix_matches(s, need(args, 0, name), true));
  if (name == "endswith") return Value::boolean(affix_matches(s, need(args, 0, name), false));
  if (name == "replace") {
    std::string_view old = need_str(args, 0, name), replacement = need_str(args, 1, name);
    int64_t count = args.positional.size() > 2 ? arg_int(&args.positional[2], -1, "count") : -1;
    CallArgs filter_args;
    filter_args.positional = {Value::borrowed(old), Value::borrowed(replacement), Value::integer(count)};
    return in.call_filter(*find_filter("replace"), Value::borrowed(s), filter_args);
  }
  if (name == "join") {
    std::string out;
    Sequence seq = in.iterate(need(args, 0, name));
    for (size_t i = 0; i < seq.size(); ++i) {
      Value item = seq.at(i);
      if (!item.is_str())
        throw EvalError("sequence item " + std::to_string(i) + ": expected str instance, " +
                        std::string(type_name(item)) + " found");
      if (i) out += s;
      out += item.str();
      require_result_size(out.size());
    }
    return Value::string(std::move(out));
  }
  if (name == "format") return Value::string(brace_format(s, args));
  if (name == "title") return python_title(s);
  if (name == "capitalize") {
    std::string out;
    size_t pos = 0;
    if (!s.empty()) append_title(out, decode_utf8(s, pos));
    out += to_lower(s.substr(pos));
    return Value::string(std::move(out));
  }
  if (name == "swapcase") {
    std::string out;
    for (size_t pos = 0; pos < s.size();) {
      char32_t cp = decode_utf8(s, pos);
      if (is_upper_cp(cp)) append_lower(out, cp);
      else append_upper(out, cp);
    }
    return Value::string(std::move(out));
  }
  if (name == "count") {
    std::string_view sub = need_str(args, 0, name);
    if (sub.empty()) return Value::integer(static_cast<int64_t>(code_point_count(s)) + 1);
    int64_t n = 0;
    for (size_t pos = s.find(sub); pos != std::string_view::npos; pos = s.find(sub, pos + sub.size())) ++n;
    return Value::integer(n);
  }
  if (name == "find" || name == "index" || name == "rfind") {
    std::string_view sub = need_str(args, 0, name);
    size_t pos = name == "rfind" ? s.rfind(sub) : s.find(sub);
    if (pos == std::string_view::npos) {
      if (name == "index") throw EvalError("substring not found");
      return Value::integer(-1);
    }
    return Value::integer(code_point_index(s, pos));
  }
  if (name == "partition" || name == "rpartition") return partition(s, need_str(args, 0, name), name == "rpartition");
  if (name == "splitlines") {
    bool keep = !args.positional.empty() && truthy(args.positional[0]);
    std::vector<std::string> parts;
    const auto lines = split_lines(s, keep);
    require_result_size(lines.size(), kPartBytes);
    for (auto line : lines) parts.emplace_back(line);
    return list_of_strings(parts);
  }
  if (name == "zfill") {
    int64_t width = arg_int(&need(args, 0, name), 0, "width");
    int64_t len = static_cast<int64_t>(code_point_count(s));
    if (width <= len) return Value::string(std::string(s));
    require_result_size(static_cast<uint64_t>(width));
    std::string zeros(static_cast<size_t>(width - len), '0');
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) return Value::string(std::string(1, s[0]) + zeros + std::string(s.substr(1)));
    return Value::string(zeros + std::string(s));
  }
  if (name == "isdigit") return all_chars(s, [](char32_t c) { return c >= '0' && c <= '9'; });
  if (name == "isalpha") return all_chars(s, [](char32_t c) { return is_alpha(c); });
  if (name == "isalnum") return all_chars(s, [](char32_t c) { return is_alpha(c) || (c >= '0' && c <= '9'); });
  if (name == "isspace") return all_chars(s, [](char32_t c) { return is_space(c); });
  if (name == "islower" || name == "isupper") {
    bool any = false;
    for (size_t pos = 0; pos < s.size();) {
      char32_t cp = decode_utf8(s, pos);
      if (name == "islower" ? is_upper_cp(cp) : is_lower_cp(cp)) return Value::boolean(false);
      any = any || is_cased(cp);
    }
    return Value::boolean(any);
  }
  if (name == "center" || name == "ljust" || name == "rjust") return justify(s, args, name);
  if (name == "removeprefix") {
    std::string_view p = need_str(args, 0, name);
    return Value::string(std::string(s.substr(0, p.size()) == p ? s.substr(p.size()) : s));
  }
  if (name == "removesuffix") {
    std::string_view p = need_str(args, 0, name);
    bool match = !p.empty() && s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
    return Value::string(std::string(match ? s.substr(0, s.size() - p.size()) : s));
  }
  throw EvalError("'str' object has no attribute '" + std::string(name) + "'");
}

Value dict_method(const Value& self, std::string_view name, CallArgs& args) {
  if (name == "items" || name == "keys" || name == "values") {
    std::vector<Value> out;
    mapping_for_each(self, [&](const Value& k, const Value& v) {
      if (name == "items") out.push_back(Value::tuple({k, v}));
      else out.push_back(name == "keys" ? k : v);
    });
    return Value::list(std::move(out));
  }
  if (name == "get") {
    Value found;
    if (mapping_find(self, need(args, 0, name), found)) return found;
    return args.positional.size() > 1 ? args.positional[1] : Value::none();
  }
  if (name == "copy") {
    std::vector<std::pair<Value, Value>> pairs;
    mapping_for_each(self, [&](const Value& k, const Value& v) { pairs.emplace_back(k, v); });
    return Value::dict(std::move(pairs));
  }
  if (self.kind() != Kind::Dict)
    throw EvalError("dict." + std::string(name) + "() cannot change data that came from the render context");
  auto& pairs = self.mutable_pairs();
  auto find = [&](const Value& key) {
    for (auto it = pairs.begin(); it != pairs.end(); ++it)
      if (equals(it->first, key)) return it;
    return pairs.end();
  };
  if (name == "clear") {
    pairs.clear();
    return Value::none();
  }
  if (name == "update") {
    auto put = [&](const Value& k, const Value& v) {
      auto it = find(k);
      if (it != pairs.end()) it->second = v;
      else pairs.emplace_back(k, v);
    };
    if (!args.positional.empty()) mapping_for_each(need(args, 0, name), put);
    for (const auto& [k, v] : args.keywords) put(Value::string(std::string(k)), v);
    static_cast<DictBox*>(self.object_ptr())->recharge();
    return Value::none();
  }
  if (name == "setdefault" || name == "pop") {
    const Value& key = need(args, 0, name);
    auto it = find(key);
    if (it != pairs.end()) {
      Value found = it->second;
      if (name == "pop") pairs.erase(it);
      return found;
    }
    if (args.positional.size() > 1 || name == "setdefault") {
      Value fallback = args.positional.size() > 1 ? args.positional[1] : Value::none();
      if (name == "setdefault") {
        pairs.emplace_back(key, fallback);
        static_cast<DictBox*>(self.object_ptr())->recharge();
      }
      return fallback;
    }
    throw EvalError(repr(key));
  }
  throw EvalError("dict." + std::string(name) + "() is not supported");
}

Value list_method(const Value& self, std::string_view name, CallArgs& args) {
  if (name == "count" || name == "index") {
    const Value& x = need(args, 0, name);
    Sequence seq(self);
    int64_t n = 0;
    for (size_t i = 0; i < seq.size(); ++i) {
      if (!equals(seq.at(i), x)) continue;
      if (name == "index") return Value::integer(static_cast<int64_t>(i));
      ++n;
    }
    if (name == "index") throw EvalError(repr(x) + " is not in list");
    return Value::integer(n);
  }
  if (name == "copy") return Value::list(to_vector(self));
  if (self.kind() != Kind::List)
    throw EvalError("list." + std::string(name) + "() cannot change data that came from the render context");
  auto& items = self.mutable_items();
  auto position = [&](const Value& index, bool for_insert) {
    int64_t i = index.as_int();
    int64_t n = static_cast<int64_t>(items.size());
    if (i < 0) i += n;
    if (for_insert) return static_cast<size_t>(std::clamp<int64_t>(i, 0, n));
    if (i < 0 || i >= n) throw EvalError("pop index out of range");
    return static_cast<size_t>(i);
  };
  auto* box = static_cast<ListBox*>(self.object_ptr());
  if (name == "append") {
    items.push_back(need(args, 0, name));
    box->recharge();
  } else if (name == "extend") {
    std::vector<Value> more = to_vector(need(args, 0, name));
    require_result_size(items.size() + more.size(), sizeof(Value));
    items.insert(items.end(), more.begin(), more.end());
    box->recharge();
  } else if (name == "insert") {
    items.insert(items.begin() + static_cast<std::ptrdiff_t>(position(need(args, 0, name), true)), need(args, 1, name));
    box->recharge();
  } else if (name == "pop") {
    if (items.empty()) throw EvalError("pop from empty list");
    size_t i = args.positional.empty() ? items.size() - 1 : position(args.positional[0], false);
    Value popped = items[i];
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(i));
    return popped;
  } else if (name == "remove") {
    const Value& x = need(args, 0, name);
    auto it = std::find_if(items.begin(), items.end(), [&](const Value& v) { return equals(v, x); });
    if (it == items.end()) throw EvalError("list.remove(x): x not in list");
    items.erase(it);
  } else if (name == "clear") items.clear();
  else if (name == "reverse") std::reverse(items.begin(), items.end());
  else throw EvalError("list." + std::string(name) + "() is not supported");
  return Value::none();
}

}  // namespace

bool is_dict_method(std::string_view name) { return kDictMethodNames.find(name) != nullptr; }

const MethodEntry* find_method(const Value& self, std::string_view name) {
  if (self.is_str()) return kStrMethodNames.find(name);
  if (self.is_mapping()) return kDictMethodNames.find(name);
  if (self.kind() == Kind::Tuple) return name == "count" || name == "index" ? kListMethodNames.find(name) : nullptr;
  if (self.is_list_like()) return kListMethodNames.find(name);
  return nullptr;
}

std::span<const MethodEntry> str_methods() { return kStrMethods; }
std::span<const MethodEntry> dict_methods() { return kDictMethods; }
std::span<const MethodEntry> list_methods() { return kListMethods; }

Value call_method(Interpreter& in, const Value& self, const MethodEntry& method, CallArgs& args) {
  in.before_call(method.effect);
  const std::string_view name = method.name;
  if (self.is_str()) return str_method(in, self.str(), name, args);
  const bool changes = method.effect != Effect::ReadsOnly;
  if (self.is_doc() && (self.doc_edited() || changes)) return call_method(in, edit_in_place(self), method, args);
  // A list or dict changed in place may now hold itself (`x.append(x)`): the interpreter empties
  // such containers when the render ends, so that no reference cycle outlives it.
  if (changes && (self.kind() == Kind::List || self.kind() == Kind::Dict)) in.note_changed_in_place(self);
  if (self.is_mapping()) return dict_method(self, name, args);
  return list_method(self, name, args);
}

}  // namespace gkebuild::jinja
