// Filters over sequences and mappings: join, map, select, sort, groupby, dictsort …
#include <algorithm>

#include "tool/core/jinja/builtins/filters.h"
#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/runtime/objects.h"
#include "tool/core/jinja/values/operators.h"
#include "tool/core/jinja/builtins/tests.h"
#include "tool/core/jinja/values/unicode.h"

namespace gkebuild::jinja {

namespace {

std::vector<Value> items_of(Interpreter& in, const Value& v) {
  if (v.is_undefined()) {
    in.require_defined(v);
    return {};
  }
  if (v.kind() == Kind::List || v.kind() == Kind::Tuple) return v.items();
  if (v.is_str()) {
    // Owned characters: `v` may be a temporary (a filter result) that dies before the list.
    std::vector<Value> characters;
    for (std::string_view c : split_code_points(v.str())) characters.push_back(Value::string(std::string(c)));
    return characters;
  }
  return to_vector(v);
}

Value lower_key(const Value& v, bool case_sensitive) {
  if (!case_sensitive && v.is_str()) return Value::string(to_lower(v.str()));
  return v;
}

// Key function of sort/unique/min/max/groupby: an attribute path (comma-separated for
// several keys), lowercased strings unless case-sensitive.
struct KeyMaker {
  Interpreter& in;
  std::vector<std::string> paths;
  bool case_sensitive;
  const Value* fallback = nullptr;

  KeyMaker(Interpreter& in, const Value* attribute, bool case_sensitive, bool allow_multiple)
      : in(in), case_sensitive(case_sensitive) {
    if (!attribute || attribute->is_none()) return;
    std::string spec = attribute->is_str() ? std::string(attribute->str()) : to_str(*attribute);
    if (!allow_multiple) {
      paths.push_back(spec);
      return;
    }
    size_t start = 0;
    while (true) {
      size_t comma = spec.find(',', start);
      paths.push_back(spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }

  Value operator()(const Value& item) const {
    if (paths.empty()) return lower_key(item, case_sensitive);
    if (paths.size() == 1) return one(item, paths[0]);
    std::vector<Value> keys;
    for (const auto& path : paths) keys.push_back(one(item, path));
    return Value::list(std::move(keys));
  }

  Value one(const Value& item, const std::string& path) const {
    Value v = get_attribute_path(in, item, path);
    if (v.is_undefined() && fallback) v = *fallback;
    return lower_key(v, case_sensitive);
  }
};

Value f_default(Interpreter&, const Value& v, CallArgs& a) {
  Bound b = a.bind("default", {"default_value", "boolean"});
  bool boolean = arg_bool(b[1], false);
  if (v.is_undefined() || (boolean && !truthy(v))) return b[0] ? *b[0] : Value::borrowed("");
  return v;
}

Value f_length(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("length", {});
  if (v.is_undefined()) in.require_defined(v);
  return Value::integer(static_cast<int64_t>(length(v)));
}

Value f_list(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("list", {});
  return Value::list(items_of(in, v));
}

Value f_first(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("first", {});
  Sequence seq = in.iterate(v);
  if (seq.size() == 0) return Value::undefined_with("No first item, sequence was empty.");
  return seq.at(0);
}

Value f_last(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("last", {});
  Sequence seq = in.iterate(v);
  if (seq.size() == 0) return Value::undefined_with("No last item, sequence was empty.");
  return seq.at(seq.size() - 1);
}

Value f_join(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("join", {"d", "attribute"});
  std::string separator = b[0] ? in.str(*b[0]) : "";
  std::vector<Value> items = items_of(in, v);
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += separator;
    Value item = b[1] && !b[1]->is_none() ? get_attribute_path(in, items[i], in.str(*b[1])) : items[i];
    in.append(out, item);
    require_result_size(out.size());  // range(1000000) | join('x' * 1000)
  }
  return Value::string(std::move(out));
}

Value f_reverse(Interpreter& in, const Value& v, CallArgs& a) {
  a.bind("reverse", {});
  if (v.is_str()) {
    auto chars = split_code_points(v.str());
    std::string out;
    for (auto it = chars.rbegin(); it != chars.rend(); ++it) out += *it;
    return Value::string(std::move(out));
  }
  std::vector<Value> items = items_of(in, v);
  std::reverse(items.begin(), items.end());
  return Value::list(std::move(items));
}

// Calls a filter by name with extra arguments (map('upper'), select('odd')).
Value apply_named_filter(Interpreter& in, std::string_view name, const Value& item, const CallArgs& extra, size_t skip) {
  const FilterEntry* filter = find_filter(name);
  if (!filter) throw EvalError("No filter named '" + std::string(name) + "'.");
  CallArgs args;
  args.positional.assign(extra.positional.begin() + static_cast<std::ptrdiff_t>(skip), extra.positional.end());
  args.keywords = extra.keywords;
  return in.call_filter(*filter, item, args);
}

bool apply_named_test(Interpreter& in, std::string_view name, const Value& item, const CallArgs& extra, size_t skip) {
  const TestEntry* test = find_test(name);
  if (!test) throw EvalError("No test named '" + std::string(name) + "'.");
  CallArgs args;
  args.positional.assign(extra.positional.begin() + static_cast<std::ptrdiff_t>(skip), extra.positional.end());
  args.keywords = extra.keywords;
  return in.call_test(*test, item, args);
}

Value f_map(Interpreter& in, const Value& v, CallArgs& a) {
  // Jinja2 maps only a true value: none (an empty YAML key) or "" yields nothing.
  if (!in.test(v)) return Value::list({});
  std::vector<Value> items = items_of(in, v);
  std::vector<Value> out;
  out.reserve(items.size());
  if (a.positional.empty()) {
    Bound b = a.bind("map", {"attribute", "default"});
    if (!b[0]) throw EvalError("map requires a filter argument");
    std::string path = in.str(*b[0]);
    for (const Value& item : items) {
      Value got = get_attribute_path(in, item, path);
      if (got.is_undefined() && b[1]) got = *b[1];
      out.push_back(got);
    }
    return Value::list(std::move(out));
  }
  std::string name = in.str(a.positional[0]);
  for (const Value& item : items) out.push_back(apply_named_filter(in, name, item, a, 1));
  return Value::list(std::move(out));
}

Value select_impl(Interpreter& in, const Value& v, CallArgs& a, bool want, bool by_attribute) {
  if (!in.test(v)) return Value::list({});  // as f_map
  std::vector<Value> items = items_of(in, v);
  std::vector<Value> out;
  size_t test_index = by_attribute ? 1 : 0;
  std::string path;
  if (by_attribute) {
    if (a.positional.empty()) throw EvalError("Missing parameter for attribute name");
    path = in.str(a.positional[0]);
  }
  std::string test_name = a.positional.size() > test_index ? in.str(a.positional[test_index]) : "";
  for (const Value& item : items) {
    Value subject = by_attribute ? get_attribute_path(in, item, path) : item;
    bool result = test_name.empty() ? in.test(subject) : apply_named_test(in, test_name, subject, a, test_index + 1);
    if (result == want) out.push_back(item);
  }
  return Value::list(std::move(out));
}

Value f_select(Interpreter& in, const Value& v, CallArgs& a) { return select_impl(in, v, a, true, false); }
Value f_reject(Interpreter& in, const Value& v, CallArgs& a) { return select_impl(in, v, a, false, false); }
Value f_selectattr(Interpreter& in, const Value& v, CallArgs& a) { return select_impl(in, v, a, true, true); }
Value f_rejectattr(Interpreter& in, const Value& v, CallArgs& a) { return select_impl(in, v, a, false, true); }

void stable_sort_by(std::vector<Value>& items, const std::vector<Value>& keys, bool reverse) {
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return reverse ? compare(keys[y], keys[x]) < 0 : compare(keys[x], keys[y]) < 0;
  });
  std::vector<Value> sorted;
  sorted.reserve(items.size());
  for (size_t i : order) sorted.push_back(items[i]);
  items = std::move(sorted);
}

Value f_sort(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("sort", {"reverse", "case_sensitive", "attribute"});
  std::vector<Value> items = items_of(in, v);
  KeyMaker key(in, b[2], arg_bool(b[1], false), true);
  std::vector<Value> keys;
  for (const Value& item : items) keys.push_back(key(item));
  stable_sort_by(items, keys, arg_bool(b[0], false));
  return Value::list(std::move(items));
}

Value f_unique(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("unique", {"case_sensitive", "attribute"});
  KeyMaker key(in, b[1], arg_bool(b[0], false), false);
  std::vector<Value> out, seen;
  for (const Value& item : items_of(in, v)) {
    Value k = key(item);
    bool duplicate = false;
    for (const Value& s : seen)
      if (equals(s, k)) duplicate = true;
    if (duplicate) continue;
    seen.push_back(k);
    out.push_back(item);
  }
  return Value::list(std::move(out));
}

Value min_max(Interpreter& in, const Value& v, CallArgs& a, bool want_max) {
  Bound b = a.bind(want_max ? "max" : "min", {"case_sensitive", "attribute"});
  KeyMaker key(in, b[1], arg_bool(b[0], false), true);
  std::vector<Value> items = items_of(in, v);
  if (items.empty()) return Value::undefined_with("No aggregated item, sequence was empty.");
  size_t best = 0;
  Value best_key = key(items[0]);
  for (size_t i = 1; i < items.size(); ++i) {
    Value k = key(items[i]);
    int c = compare(k, best_key);
    if (want_max ? c > 0 : c < 0) {
      best = i;
      best_key = k;
    }
  }
  return items[best];
}
Value f_min(Interpreter& in, const Value& v, CallArgs& a) { return min_max(in, v, a, false); }
Value f_max(Interpreter& in, const Value& v, CallArgs& a) { return min_max(in, v, a, true); }

Value f_sum(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("sum", {"attribute", "start"});
  Value total = b[1] ? *b[1] : Value::integer(0);
  for (const Value& item : items_of(in, v)) {
    Value x = b[0] && !b[0]->is_none() ? get_attribute_path(in, item, in.str(*b[0])) : item;
    if (x.is_undefined()) in.fail_undefined(x);
    total = binary_op(BinaryOp::Add, total, x);
  }
  return total;
}

Value f_batch(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("batch", {"linecount", "fill_with"});
  int64_t count = arg_int(b[0], 0, "linecount");
  if (count <= 0) throw EvalError("batch size must be positive");
  if (b[1] && !b[1]->is_none()) require_result_size(static_cast<uint64_t>(count), sizeof(Value));  // padding
  std::vector<Value> out, current;
  for (const Value& item : items_of(in, v)) {
    if (static_cast<int64_t>(current.size()) == count) {
      out.push_back(Value::list(std::move(current)));
      current.clear();
    }
    current.push_back(item);
  }
  if (!current.empty()) {
    if (b[1] && !b[1]->is_none())
      while (static_cast<int64_t>(current.size()) < count) current.push_back(*b[1]);
    out.push_back(Value::list(std::move(current)));
  }
  return Value::list(std::move(out));
}

Value f_slice(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("slice", {"slices", "fill_with"});
  int64_t slices = arg_int(b[0], 0, "slices");
  if (slices <= 0) throw EvalError("slice count must be positive");
  require_result_size(static_cast<uint64_t>(slices), sizeof(Value));  // a list per slice
  std::vector<Value> seq = items_of(in, v);
  int64_t length = static_cast<int64_t>(seq.size());
  int64_t per_slice = length / slices;
  int64_t with_extra = length % slices;
  int64_t offset = 0;
  std::vector<Value> out;
  for (int64_t n = 0; n < slices; ++n) {
    int64_t start = offset + n * per_slice;
    if (n < with_extra) ++offset;
    int64_t end = offset + (n + 1) * per_slice;
    std::vector<Value> part(seq.begin() + start, seq.begin() + end);
    if (b[1] && !b[1]->is_none() && n >= with_extra) part.push_back(*b[1]);
    out.push_back(Value::list(std::move(part)));
  }
  return Value::list(std::move(out));
}

Value f_groupby(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("groupby", {"attribute", "default", "case_sensitive"});
  if (!b[0]) throw EvalError("groupby() missing required argument 'attribute'");
  bool case_sensitive = arg_bool(b[2], false);
  KeyMaker key(in, b[0], case_sensitive, false);
  key.fallback = b[1];
  KeyMaker output_key(in, b[0], true, false);
  output_key.fallback = b[1];
  std::vector<Value> items = items_of(in, v);
  std::vector<Value> keys;
  for (const Value& item : items) keys.push_back(key(item));
  stable_sort_by(items, keys, false);
  std::vector<Value> sorted_keys;
  for (const Value& item : items) sorted_keys.push_back(key(item));
  std::vector<Value> out;
  for (size_t i = 0; i < items.size();) {
    size_t j = i;
    std::vector<Value> group;
    while (j < items.size() && equals(sorted_keys[j], sorted_keys[i])) group.push_back(items[j++]);
    Value grouper = case_sensitive ? sorted_keys[i] : output_key(group[0]);
    out.push_back(Value::group_tuple(grouper, Value::list(std::move(group))));
    i = j;
  }
  return Value::list(std::move(out));
}

Value f_items(Interpreter&, const Value& v, CallArgs& a) {
  a.bind("items", {});
  if (v.is_undefined()) return Value::list({});  // Jinja2 returns nothing, even for StrictUndefined
  if (!v.is_mapping()) throw EvalError("Can only get item pairs from a mapping.");
  std::vector<Value> out;
  mapping_for_each(v, [&](const Value& k, const Value& val) { out.push_back(Value::tuple({k, val})); });
  return Value::list(std::move(out));
}

Value f_dictsort(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("dictsort", {"case_sensitive", "by", "reverse"});
  bool case_sensitive = arg_bool(b[0], false);
  std::string_view by = arg_str(b[1], "key", "by");
  if (by != "key" && by != "value") throw EvalError("You can only sort by either \"key\" or \"value\"");
  // Jinja2 calls value.items(), which a (lenient) Undefined answers with an UndefinedError.
  if (v.is_undefined()) in.fail_undefined(v);
  if (!v.is_mapping()) throw EvalError("dictsort expects a mapping, got " + std::string(type_name(v)));
  std::vector<Value> pairs, keys;
  mapping_for_each(v, [&](const Value& k, const Value& val) {
    pairs.push_back(Value::tuple({k, val}));
    keys.push_back(lower_key(by == "key" ? k : val, case_sensitive));
  });
  stable_sort_by(pairs, keys, arg_bool(b[2], false));
  return Value::list(std::move(pairs));
}

Value f_attr(Interpreter& in, const Value& v, CallArgs& a) {
  Bound b = a.bind("attr", {"name"});
  if (!b[0]) throw EvalError("attr() missing required argument 'name'");
  std::string name = in.str(*b[0]);
  if (v.is_undefined()) in.fail_undefined(v);
  if (v.is_mapping() && !has_method(v, name)) {
    // attr() is getattr only: dict keys are not attributes, dict methods (items, keys...) are.
    return Value::undefined_with("'dict object' has no attribute '" + name + "'");
  }
  return in.getattr(v, name);
}

}  // namespace

Value get_attribute_path(Interpreter& in, const Value& item, std::string_view path) {
  Value current = item;
  size_t start = 0;
  while (true) {
    size_t dot = path.find('.', start);
    std::string_view part = path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    bool digits = !part.empty() && part.find_first_not_of("0123456789") == std::string_view::npos;
    Value key = digits ? Value::integer(std::stoll(std::string(part))) : Value::string(std::string(part));
    if (current.is_undefined()) return current;
    current = in.getitem(current, key);
    if (dot == std::string_view::npos) return current;
    start = dot + 1;
  }
}

const std::vector<FilterEntry>& sequence_filters() {
  // None of these keeps state. map, select and reject call the filter or test they name through
  // the interpreter, which acts on that one's own entry.
  using enum Effect;
  static const std::vector<FilterEntry> filters = {
      {"default", f_default, ReadsOnly}, {"d", f_default, ReadsOnly}, {"length", f_length, ReadsOnly},
      {"count", f_length, ReadsOnly}, {"list", f_list, ReadsOnly}, {"first", f_first, ReadsOnly},
      {"last", f_last, ReadsOnly}, {"join", f_join, ReadsOnly}, {"reverse", f_reverse, ReadsOnly},
      {"map", f_map, ReadsOnly}, {"select", f_select, ReadsOnly}, {"reject", f_reject, ReadsOnly},
      {"selectattr", f_selectattr, ReadsOnly}, {"rejectattr", f_rejectattr, ReadsOnly},
      {"sort", f_sort, ReadsOnly}, {"unique", f_unique, ReadsOnly}, {"min", f_min, ReadsOnly},
      {"max", f_max, ReadsOnly}, {"sum", f_sum, ReadsOnly}, {"batch", f_batch, ReadsOnly},
      {"slice", f_slice, ReadsOnly}, {"groupby", f_groupby, ReadsOnly}, {"items", f_items, ReadsOnly},
      {"dictsort", f_dictsort, ReadsOnly}, {"attr", f_attr, ReadsOnly},
  };
  return filters;
}

}  // namespace gkebuild::jinja
