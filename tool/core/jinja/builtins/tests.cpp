#include "tool/core/jinja/builtins/tests.h"

#include <cmath>
#include <unordered_map>

#include "tool/core/jinja/values/calls.h"
#include "tool/core/jinja/builtins/filters.h"
#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/values/operators.h"
#include "tool/core/jinja/values/unicode.h"

namespace gkebuild::jinja {

namespace {

const Value& required_arg(const CallArgs& args, std::string_view test, std::string_view name) {
  Bound b = args.bind(test, {name});
  if (!b[0]) throw EvalError(std::string(test) + "() missing 1 required positional argument: '" + std::string(name) + "'");
  return *b[0];
}

bool t_defined(Interpreter&, const Value& v, CallArgs&) { return !v.is_undefined(); }
bool t_undefined(Interpreter&, const Value& v, CallArgs&) { return v.is_undefined(); }
bool t_none(Interpreter&, const Value& v, CallArgs&) { return v.is_none(); }
bool t_boolean(Interpreter&, const Value& v, CallArgs&) { return v.is_bool(); }
bool t_true(Interpreter&, const Value& v, CallArgs&) { return v.is_bool() && v.as_bool(); }
bool t_false(Interpreter&, const Value& v, CallArgs&) { return v.is_bool() && !v.as_bool(); }
bool t_integer(Interpreter&, const Value& v, CallArgs&) { return v.is_int(); }
bool t_float(Interpreter&, const Value& v, CallArgs&) { return v.is_float(); }
bool t_number(Interpreter&, const Value& v, CallArgs&) { return v.is_number(); }
bool t_string(Interpreter&, const Value& v, CallArgs&) { return v.is_str(); }
bool t_mapping(Interpreter&, const Value& v, CallArgs&) { return v.is_mapping(); }
// iter() on a strict Undefined raises; a lenient one iterates as empty.
bool t_iterable(Interpreter& in, const Value& v, CallArgs&) {
  if (v.is_undefined()) {
    in.require_defined(v);
    return true;
  }
  return is_iterable(v);
}
bool t_sequence(Interpreter& in, const Value& v, CallArgs&) {
  if (v.is_undefined()) return !in.strict();
  return v.is_str() || v.is_list_like() || v.is_mapping();
}
// Undefined has __call__ (calling it fails), so Python's callable() says True.
bool t_callable(Interpreter&, const Value& v, CallArgs&) {
  return v.is_undefined() || (v.is_object() && v.object_ptr()->as_callable());
}
bool t_escaped(Interpreter&, const Value& v, CallArgs&) { return v.is_markup(); }

Value modulo(Interpreter& in, const Value& v, const Value& divisor) {
  in.require_defined(v);
  if (v.is_undefined()) in.fail_undefined(v);
  return binary_op(BinaryOp::Mod, v, divisor);
}
bool t_even(Interpreter& in, const Value& v, CallArgs&) { return equals(modulo(in, v, Value::integer(2)), Value::integer(0)); }
bool t_odd(Interpreter& in, const Value& v, CallArgs&) { return equals(modulo(in, v, Value::integer(2)), Value::integer(1)); }
bool t_divisibleby(Interpreter& in, const Value& v, CallArgs& args) {
  return equals(modulo(in, v, required_arg(args, "divisibleby", "num")), Value::integer(0));
}

bool compare_with(Interpreter& in, const Value& v, CallArgs& args, CompareOp op, std::string_view name) {
  const Value& other = required_arg(args, name, "other");
  in.require_defined(v);
  in.require_defined(other);
  return compare_op(op, v, other);
}
bool t_eq(Interpreter& in, const Value& v, CallArgs& a) { return compare_with(in, v, a, CompareOp::Eq, "eq"); }
bool t_ne(Interpreter& in, const Value& v, CallArgs& a) { return compare_with(in, v, a, CompareOp::Ne, "ne"); }
bool t_lt(Interpreter& in, const Value& v, CallArgs& a) { return compare_with(in, v, a, CompareOp::Lt, "lt"); }
bool t_le(Interpreter& in, const Value& v, CallArgs& a) { return compare_with(in, v, a, CompareOp::LtEq, "le"); }
bool t_gt(Interpreter& in, const Value& v, CallArgs& a) { return compare_with(in, v, a, CompareOp::Gt, "gt"); }
bool t_ge(Interpreter& in, const Value& v, CallArgs& a) { return compare_with(in, v, a, CompareOp::GtEq, "ge"); }
bool t_in(Interpreter& in, const Value& v, CallArgs& args) {
  const Value& seq = required_arg(args, "in", "seq");
  in.require_defined(v);
  in.require_defined(seq);
  return contains(seq, v);
}

bool all_cased(Interpreter& in, const Value& v, bool want_lower) {
  std::string text = in.str(v);
  bool any_cased = false;
  for (size_t pos = 0; pos < text.size();) {
    char32_t cp = decode_utf8(text, pos);
    if (want_lower ? is_upper_cp(cp) : is_lower_cp(cp)) return false;
    if (is_cased(cp)) any_cased = true;
  }
  return any_cased;
}
bool t_lower(Interpreter& in, const Value& v, CallArgs&) { return all_cased(in, v, true); }
bool t_upper(Interpreter& in, const Value& v, CallArgs&) { return all_cased(in, v, false); }

bool t_sameas(Interpreter&, const Value& value, CallArgs& args) {
  const Value& v = resolved(value);
  const Value& other = resolved(required_arg(args, "sameas", "other"));
  if (v.kind() != other.kind()) return false;
  switch (v.kind()) {
    case Kind::None:
    case Kind::Undefined: return true;
    case Kind::Bool: return v.as_bool() == other.as_bool();
    case Kind::Int: return v.as_int() == other.as_int() && v.as_int() >= -5 && v.as_int() <= 256;
    case Kind::DocList:
    case Kind::DocDict: return &v.doc_slot() == &other.doc_slot();
    case Kind::Str: return v.str().data() == other.str().data() && v.str().size() == other.str().size();
    default: return v.object_ptr() == other.object_ptr();
  }
}

const std::unordered_map<std::string_view, const TestEntry*>& table() {
  static const std::unordered_map<std::string_view, const TestEntry*> tests = [] {
    std::unordered_map<std::string_view, const TestEntry*> map;
    for (const TestEntry& entry : test_entries()) map.emplace(entry.name, &entry);
    return map;
  }();
  return tests;
}

bool t_test(Interpreter&, const Value& v, CallArgs&) { return v.is_str() && table().count(v.str()) > 0; }

bool t_filter(Interpreter&, const Value& v, CallArgs&) { return v.is_str() && find_filter(v.str()) != nullptr; }

}  // namespace

// Tests only look: none keeps state. find_test's table points into this list, which never
// changes once made.
const std::vector<TestEntry>& test_entries() {
  using enum Effect;
  static const std::vector<TestEntry> tests = {
      {"defined", t_defined, ReadsOnly}, {"undefined", t_undefined, ReadsOnly}, {"none", t_none, ReadsOnly},
      {"boolean", t_boolean, ReadsOnly}, {"true", t_true, ReadsOnly}, {"false", t_false, ReadsOnly},
      {"integer", t_integer, ReadsOnly}, {"float", t_float, ReadsOnly}, {"number", t_number, ReadsOnly},
      {"string", t_string, ReadsOnly}, {"mapping", t_mapping, ReadsOnly}, {"iterable", t_iterable, ReadsOnly},
      {"sequence", t_sequence, ReadsOnly}, {"callable", t_callable, ReadsOnly}, {"escaped", t_escaped, ReadsOnly},
      {"even", t_even, ReadsOnly}, {"odd", t_odd, ReadsOnly}, {"divisibleby", t_divisibleby, ReadsOnly},
      {"eq", t_eq, ReadsOnly}, {"equalto", t_eq, ReadsOnly}, {"==", t_eq, ReadsOnly}, {"ne", t_ne, ReadsOnly},
      {"!=", t_ne, ReadsOnly}, {"lt", t_lt, ReadsOnly}, {"lessthan", t_lt, ReadsOnly}, {"<", t_lt, ReadsOnly},
      {"le", t_le, ReadsOnly}, {"<=", t_le, ReadsOnly}, {"gt", t_gt, ReadsOnly}, {"greaterthan", t_gt, ReadsOnly},
      {">", t_gt, ReadsOnly}, {"ge", t_ge, ReadsOnly}, {">=", t_ge, ReadsOnly}, {"in", t_in, ReadsOnly},
      {"lower", t_lower, ReadsOnly}, {"upper", t_upper, ReadsOnly}, {"sameas", t_sameas, ReadsOnly},
      {"filter", t_filter, ReadsOnly}, {"test", t_test, ReadsOnly},
  };
  return tests;
}

const TestEntry* find_test(std::string_view name) {
  auto found = table().find(name);
  return found == table().end() ? nullptr : found->second;
}

}  // namespace gkebuild::jinja
