#include "tool/core/jinja/values/operators.h"

#include <cmath>

#include "tool/core/jinja/builtins/filters.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/values/number_format.h"
#include "tool/core/jinja/values/python_format.h"

namespace gkebuild::jinja {

std::string_view operator_symbol(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::FloorDiv: return "//";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Pow: return "** or pow()";
  }
  return "?";
}

namespace {
// Jinja2's Undefined (lenient too) fails every arithmetic and ordering operator with an
// UndefinedError; only then is it a type error.
void fail_if_undefined(const Value& a, const Value& b) {
  for (const Value* v : {&a, &b})
    if (v->is_undefined()) throw EvalError(v->undefined_message(), TemplateErrorKind::Undefined);
}

[[noreturn]] void unsupported(BinaryOp op, const Value& a, const Value& b) {
  fail_if_undefined(a, b);
  if (op == BinaryOp::Add && a.is_str())
    throw EvalError("can only concatenate str (not \"" + std::string(type_name(b)) + "\") to str");
  if (op == BinaryOp::Add && a.kind() != Kind::Tuple && a.is_list_like())
    throw EvalError("can only concatenate list (not \"" + std::string(type_name(b)) + "\") to list");
  throw EvalError("unsupported operand type(s) for " + std::string(operator_symbol(op)) + ": '" +
                  std::string(type_name(a)) + "' and '" + std::string(type_name(b)) + "'");
}

Value repeat(const Value& seq, int64_t times) {
  if (seq.is_str()) {
    std::string out;
    if (times > 0) {
      require_result_size(seq.str().size(), static_cast<uint64_t>(times));
      out.reserve(seq.str().size() * static_cast<size_t>(times));
      for (int64_t i = 0; i < times; ++i) out += seq.str();
    }
    Value result = Value::string(std::move(out));
    return seq.is_markup() ? result.as_markup() : result;
  }
  std::vector<Value> items;
  std::vector<Value> base = to_vector(seq);
  if (times > 0) require_result_size(base.size() * sizeof(Value), static_cast<uint64_t>(times));
  for (int64_t i = 0; i < times; ++i) items.insert(items.end(), base.begin(), base.end());
  return seq.kind() == Kind::Tuple ? Value::tuple(std::move(items)) : Value::list(std::move(items));
}

Value float_op(BinaryOp op, double a, double b) {
  switch (op) {
    case BinaryOp::Add: return Value::floating(a + b);
    case BinaryOp::Sub: return Value::floating(a - b);
    case BinaryOp::Mul: return Value::floating(a * b);
    case BinaryOp::Div:
      if (b == 0) throw EvalError("float division by zero");
      return Value::floating(a / b);
    case BinaryOp::FloorDiv:
      if (b == 0) throw EvalError("float floor division by zero");
      return Value::floating(float_floor_div(a, b));
    case BinaryOp::Mod:
      if (b == 0) throw EvalError("float modulo");
      return Value::floating(float_mod(a, b));
    case BinaryOp::Pow:
      if (a == 0 && b < 0) throw EvalError("0.0 cannot be raised to a negative power");
      if (a < 0 && b != std::floor(b)) throw EvalError("complex results are not supported");
      return Value::floating(std::pow(a, b));
  }
  return Value::none();
}

Value int_op(BinaryOp op, int64_t a, int64_t b) {
  switch (op) {
    case BinaryOp::Add: return Value::integer(checked_add(a, b));
    case BinaryOp::Sub: return Value::integer(checked_sub(a, b));
    case BinaryOp::Mul: return Value::integer(checked_mul(a, b));
    case BinaryOp::Div:
      if (b == 0) throw EvalError("division by zero");
      return Value::floating(static_cast<double>(a) / static_cast<double>(b));
    case BinaryOp::FloorDiv:
      if (b == 0) throw EvalError("integer division or modulo by zero");
      return Value::integer(floor_div(a, b));
    case BinaryOp::Mod:
      if (b == 0) throw EvalError("integer modulo by zero");
      return Value::integer(floor_mod(a, b));
    case BinaryOp::Pow:
      if (b < 0) {
        if (a == 0) throw EvalError("0.0 cannot be raised to a negative power");
        return Value::floating(std::pow(static_cast<double>(a), static_cast<double>(b)));
      }
      return Value::integer(checked_pow(a, b));
  }
  return Value::none();
}

Value concat_sequences(const Value& a, const Value& b) {
  // Doubling a list with `+` in a loop: refused before the copy, with the template's position.
  require_result_size(Sequence(a).size() + Sequence(b).size(), sizeof(Value));
  std::vector<Value> items = to_vector(a);
  std::vector<Value> tail = to_vector(b);
  items.insert(items.end(), tail.begin(), tail.end());
  return a.kind() == Kind::Tuple ? Value::tuple(std::move(items)) : Value::list(std::move(items));
}

bool is_list(const Value& v) {
  return v.kind() == Kind::List || v.kind() == Kind::DocList;
}
}  // namespace

Value binary_op(BinaryOp op, const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_float() || b.is_float()) return float_op(op, a.as_float(), b.as_float());
    return int_op(op, a.as_int(), b.as_int());
  }
  if (op == BinaryOp::Add) {
    if (a.is_str() && b.is_str()) {
      // Markup + str escapes the plain side, as markupsafe does.
      bool markup = a.is_markup() || b.is_markup();
      require_result_size(a.str().size() + b.str().size());
      std::string out;
      out.reserve(a.str().size() + b.str().size());
      out += markup && !a.is_markup() ? html_escape(a.str()) : std::string(a.str());
      out += markup && !b.is_markup() ? html_escape(b.str()) : std::string(b.str());
      return markup ? Value::markup(std::move(out)) : Value::string(std::move(out));
    }
    if ((is_list(a) && is_list(b)) || (a.kind() == Kind::Tuple && b.kind() == Kind::Tuple))
      return concat_sequences(a, b);
  }
  if (op == BinaryOp::Mod && a.is_str()) {
    Value result = Value::string(percent_format(a.str(), b));
    return a.is_markup() ? result.as_markup() : result;
  }
  if (op == BinaryOp::Mul) {
    bool a_seq = a.is_str() || a.is_list_like();
    bool b_seq = b.is_str() || b.is_list_like();
    if (a_seq && (b.is_int() || b.is_bool())) return repeat(a, b.as_int());
    if (b_seq && (a.is_int() || a.is_bool())) return repeat(b, a.as_int());
  }
  unsupported(op, a, b);
}

Value negate(const Value& v) {
  if (v.is_float()) return Value::floating(-v.as_float());
  if (v.is_int() || v.is_bool()) return Value::integer(checked_sub(0, v.as_int()));
  fail_if_undefined(v, v);
  throw EvalError("bad operand type for unary -: '" + std::string(type_name(v)) + "'");
}

Value unary_plus(const Value& v) {
  if (v.is_float()) return v;
  if (v.is_int() || v.is_bool()) return Value::integer(v.as_int());
  fail_if_undefined(v, v);
  throw EvalError("bad operand type for unary +: '" + std::string(type_name(v)) + "'");
}

bool contains(const Value& container, const Value& item) {
  if (container.is_str()) {
    if (!item.is_str())
      throw EvalError("'in <string>' requires string as left operand, not " + std::string(type_name(item)));
    return container.str().find(item.str()) != std::string_view::npos;
  }
  if (container.is_mapping()) {
    Value found;
    return mapping_find(container, item, found);
  }
  // An Undefined iterates as empty (strict mode has already raised before getting here).
  if (container.is_undefined()) return false;
  if (container.is_list_like()) {
    Sequence seq(container);
    for (size_t i = 0; i < seq.size(); ++i)
      if (equals(seq.at(i), item)) return true;
    return false;
  }
  throw EvalError("argument of type '" + std::string(type_name(container)) + "' is not iterable");
}

bool compare_op(CompareOp op, const Value& a, const Value& b) {
  switch (op) {
    case CompareOp::Eq: return equals(a, b);
    case CompareOp::Ne: return !equals(a, b);
    case CompareOp::In: return contains(b, a);
    case CompareOp::NotIn: return !contains(b, a);
    default: break;
  }
  auto fail = [&](const char* symbol) {
    throw EvalError(std::string("'") + symbol + "' not supported between instances of '" +
                    std::string(type_name(a)) + "' and '" + std::string(type_name(b)) + "'");
  };
  const char* symbol = op == CompareOp::Lt ? "<" : op == CompareOp::LtEq ? "<=" : op == CompareOp::Gt ? ">" : ">=";
  bool orderable = (a.is_number() && b.is_number()) || (a.is_str() && b.is_str()) ||
                   (is_list(a) && is_list(b)) || (a.kind() == Kind::Tuple && b.kind() == Kind::Tuple);
  if (!orderable) {
    fail_if_undefined(a, b);
    fail(symbol);
  }
  if ((a.is_float() && std::isnan(a.as_float())) || (b.is_float() && std::isnan(b.as_float()))) return false;
  int c = compare(a, b);
  switch (op) {
    case CompareOp::Lt: return c < 0;
    case CompareOp::LtEq: return c <= 0;
    case CompareOp::Gt: return c > 0;
    default: return c >= 0;
  }
}

}  // namespace gkebuild::jinja
