// Expression evaluation: names, attribute/item lookup, calls, filters, tests, operators.
#include <optional>

#include "base/source_error.h"
#include "tool/core/jinja/builtins/filters.h"
#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/runtime/objects.h"
#include "tool/core/jinja/values/operators.h"
#include "tool/core/jinja/syntax/parser.h"
#include "tool/core/jinja/values/unicode.h"

namespace gkebuild::jinja {

namespace {

// Two integers, the common case of a loop's arithmetic (`row * 1000 + i`, `n % 15`): +, -, * and
// % by a positive divisor of a non-negative number, worked out here; nullopt where binary_op has
// more to do (an overflow it refuses, Python's floor semantics for negative operands, / and **).
std::optional<int64_t> int_arithmetic(BinaryOp op, int64_t a, int64_t b) {
  int64_t result = 0;
  switch (op) {
    case BinaryOp::Add: return __builtin_add_overflow(a, b, &result) ? std::nullopt : std::optional(result);
    case BinaryOp::Sub: return __builtin_sub_overflow(a, b, &result) ? std::nullopt : std::optional(result);
    case BinaryOp::Mul: return __builtin_mul_overflow(a, b, &result) ? std::nullopt : std::optional(result);
    case BinaryOp::Mod: return a >= 0 && b > 0 ? std::optional(a % b) : std::nullopt;
    default: return std::nullopt;
  }
}

// Two integers compared as compare_op would (`n % 15 == 0`); nullopt for `in` and `not in`.
std::optional<bool> int_comparison(CompareOp op, int64_t a, int64_t b) {
  switch (op) {
    case CompareOp::Eq: return a == b;
    case CompareOp::Ne: return a != b;
    case CompareOp::Lt: return a < b;
    case CompareOp::LtEq: return a <= b;
    case CompareOp::Gt: return a > b;
    case CompareOp::GtEq: return a >= b;
    default: return std::nullopt;
  }
}

}  // namespace

namespace {
// `record.field` on a values document's mapping. A loop over a list of records asks each
// record for the same field, and the records share their keys: the index where the field
// was found last time, or that it was missing (`job.retries | default(0)`), answers without a
// search.
constexpr uint64_t kMissingField = 0xFFFF;

const DocSlot* document_field(const GetattrExpr& e, const DocSlot& mapping) {
  const DocSlot* keys = mapping.keys();
  const uint64_t hint = e.field_hint.load(std::memory_order_relaxed);
  if (hint && keys && reinterpret_cast<const DocSlot*>(hint >> 16) == keys)
    return (hint & 0xFFFF) == kMissingField ? nullptr : &mapping.value(hint & 0xFFFF);
  const DocSlot* found = doc_find(mapping, e.name);
  const auto index = found ? static_cast<uint64_t>(found - &mapping.value(0)) : kMissingField;
  const auto packed = reinterpret_cast<uint64_t>(keys) << 16;
  if (keys && (index < kMissingField || !found) && (packed >> 16) == reinterpret_cast<uint64_t>(keys))
    e.field_hint.store(packed | index, std::memory_order_relaxed);
  return found;
}
}  // namespace

void Frame::set(std::string_view name, Value value) {
  for (auto& entry : vars) {
    if (entry.first == name) {
      entry.second = std::move(value);
      return;
    }
  }
  vars.emplace_back(name, std::move(value));
}

void Interpreter::require_defined(const Value& value) const {
  if (value.is_undefined() && strict() && !value.is_lenient_undefined())
    throw EvalError(value.undefined_message(), TemplateErrorKind::Undefined);
}

void Interpreter::fail_undefined(const Value& value) const {
  throw EvalError(value.undefined_message(), TemplateErrorKind::Undefined);
}

void Interpreter::raise_at(const Template* tmpl, size_t offset, const std::string& message, TemplateErrorKind kind) const {
  if (!tmpl) throw EvalError(message, kind);
  throw TemplateError(kind, source_location(*tmpl, offset), message, tmpl->source);
}

Value Interpreter::evaluate(const Expr& expr) {
  try {
    return eval_node(expr);
  } catch (const EvalError& error) {
    raise_at(current_, expr.offset, error.what(), error.template_kind());
  }
}

Value Interpreter::lookup(std::string_view name) const {
  bool loop_hidden = false;
  for (const Frame* f = frame_.get(); f; f = f->parent.get()) {
    if (!(loop_hidden && name == "loop"))
      if (const Value* v = f->find_local(name)) return *v;
    loop_hidden = loop_hidden || f->hides_loop;
    Value found;
    if (f->data.is_mapping() && mapping_find(f->data, name, found)) return found;
  }
  Value global;
  if (find_global(name, global)) return global;
  if (name == "self" && state_) return self_reference(state_->blocks);
  return Value::undefined(name);
}

const DocSlot* Interpreter::local_record_field(const GetattrExpr& e) const {
  if (e.dict_method) return nullptr;
  const Value* local = local_value(*e.object);
  if (!local || local->kind() != Kind::DocDict || local->doc_slot().type != DocSlot::Dict) return nullptr;
  return document_field(e, local->doc_slot());
}

Value Interpreter::getattr(const Value& object, std::string_view name) {
  switch (object.kind()) {
    case Kind::Undefined: fail_undefined(object);
    case Kind::Dict:
    case Kind::DocDict: {
      if (has_method(object, name)) break;
      Value found;
      if (mapping_find(object, name, found)) return found;
      break;
    }
    case Kind::Object: return object.object_ptr()->get_attr(name);
    case Kind::Tuple:
      // groupby() yields (grouper, list) pairs that also answer to these names.
      if (object.is_group_tuple() && (name == "grouper" || name == "list"))
        return object.items()[name == "grouper" ? 0 : 1];
      break;
    default: break;
  }
  if (const MethodEntry* method = find_method(object, name)) return Value::object(std::make_shared<BoundMethod>(object, *method));
  return Value::undefined_with("'" + object_type_repr(object) + "' has no attribute '" + std::string(name) + "'");
}

namespace {
bool index_in_range(int64_t& index, size_t size) {
  if (index < 0) index += static_cast<int64_t>(size);
  return index >= 0 && static_cast<size_t>(index) < size;
}
}  // namespace

Value Interpreter::getitem(const Value& object, const Value& key) {
  switch (object.kind()) {
    case Kind::Undefined: fail_undefined(object);
    case Kind::Dict:
    case Kind::DocDict: {
      Value found;
      if (mapping_find(object, key, found)) return found;
      break;
    }
    case Kind::List:
    case Kind::Tuple:
    case Kind::DocList:
      if (key.is_int() || key.is_bool()) {
        int64_t index = key.as_int();
        Sequence seq(object);
        if (index_in_range(index, seq.size())) return seq.at(static_cast<size_t>(index));
      }
      break;
    case Kind::Str:
      if (key.is_int() || key.is_bool()) {
        int64_t index = key.as_int();
        auto chars = split_code_points(object.str());
        if (index_in_range(index, chars.size())) return Value::string(std::string(chars[static_cast<size_t>(index)]));
      }
      break;
    case Kind::Object:
      if (key.is_str()) return object.object_ptr()->get_attr(key.str());
      break;
    default: break;
  }
  // Jinja2's getitem falls back to getattr for a string key (groupby's .grouper/.list).
  if (key.is_str()) return getattr(object, key.str());
  return Value::undefined_with("'" + object_type_repr(object) + "' has no element " + repr(key));
}

Value Interpreter::call(const Value& callee, CallArgs& args) {
  if (callee.is_undefined()) fail_undefined(callee);
  if (Callable* callable = callee.is_object() ? callee.object_ptr()->as_callable() : nullptr) {
    before_call(callable->effect);
    return callable->call(*this, args);
  }
  throw EvalError("'" + std::string(type_name(callee)) + "' object is not callable");
}

void Interpreter::eval_given_args(const Arguments& args, CallArgs& out) {
  out.positional.reserve(args.positional.size());
  for (const auto& arg : args.positional) out.positional.push_back(eval(*arg));
  if (args.star_args) {
    Value extra = eval(*args.star_args);
    Sequence seq = iterate(extra);
    for (size_t i = 0; i < seq.size(); ++i) out.positional.push_back(seq.at(i));
    out.keep_alive.push_back(extra);
  }
  for (const auto& [name, expr] : args.keywords) out.keywords.emplace_back(name, eval(*expr));
  if (args.star_kwargs) {
    Value extra = eval(*args.star_kwargs);
    if (!extra.is_mapping()) throw EvalError("argument after ** must be a mapping, not " + std::string(type_name(extra)));
    out.keep_alive.push_back(extra);
    mapping_for_each(extra, [&](const Value& k, const Value& v) {
      if (!k.is_str()) throw EvalError("keywords must be strings");
      out.keywords.emplace_back(k.str(), v);
    });
  }
}

Value Interpreter::apply_filter(const FilterExpr& filter, const Value& input) {
  CallArgs args;
  eval_args(filter.args, args);
  return call_filter(*filter.entry, input, args);
}

Value Interpreter::eval_slice(const Value& object, const SliceExpr& slice) {
  auto bound = [&](const ExprPtr& e, bool& present) -> int64_t {
    present = false;
    if (!e) return 0;
    Value v = eval(*e);
    if (v.is_none()) return 0;
    if (!v.is_int() && !v.is_bool())
      throw EvalError("slice indices must be integers or None or have an __index__ method");
    present = true;
    return v.as_int();
  };
  bool has_start, has_stop, has_step;
  int64_t start = bound(slice.start, has_start);
  int64_t stop = bound(slice.stop, has_stop);
  int64_t step = bound(slice.step, has_step);
  if (!has_step) step = 1;
  if (step == 0) throw EvalError("slice step cannot be zero");
  if (object.is_undefined()) fail_undefined(object);
  std::vector<std::string_view> chars;
  std::optional<Sequence> items;  // read in place: `xs[:3]` of a long list takes three items, not a copy of all
  size_t size;
  if (object.is_str()) {
    chars = split_code_points(object.str());
    size = chars.size();
  } else if (object.is_list_like()) {
    items.emplace(object);
    size = items->size();
  } else {
    throw EvalError("'" + std::string(type_name(object)) + "' object is not subscriptable");
  }
  int64_t n = static_cast<int64_t>(size);
  auto clamp = [&](int64_t v, bool present, int64_t fallback) {
    if (!present) return fallback;
    if (v < 0) v += n;
    if (step > 0) return v < 0 ? 0 : (v > n ? n : v);
    return v < -1 ? -1 : (v > n - 1 ? n - 1 : v);
  };
  int64_t lo = clamp(start, has_start, step > 0 ? 0 : n - 1);
  int64_t hi = clamp(stop, has_stop, step > 0 ? n : -1);
  std::string text;
  std::vector<Value> out;
  for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) {
    if (object.is_str()) text += chars[static_cast<size_t>(i)];
    else out.push_back(items->at(static_cast<size_t>(i)));
  }
  if (object.is_str()) return Value::string(std::move(text));
  return object.kind() == Kind::Tuple ? Value::tuple(std::move(out)) : Value::list(std::move(out));
}

Value Interpreter::eval_compare(const CompareExpr& expr) {
  Value left = eval(*expr.first);
  for (const auto& [op, operand] : expr.rest) {
    Value right = eval(*operand);
    if (const auto result = left.is_int() && right.is_int() ? int_comparison(op, left.as_int(), right.as_int())
                                                            : std::nullopt) {
      if (!*result) return Value::boolean(false);
      left = std::move(right);
      continue;
    }
    require_defined(left);
    require_defined(right);
    if (!compare_op(op, left, right)) return Value::boolean(false);
    left = std::move(right);
  }
  return Value::boolean(true);
}

Value Interpreter::eval_call(const CallExpr& expr) {
  if (expr.callee->kind == ExprKind::Getattr) return eval_method_call(expr);
  Value callee = eval(*expr.callee);
  CallArgs args;
  eval_args(expr.args, args);
  return call(callee, args);
}

// `x.name(...)`: a str, list or dict method is called directly, without the bound-method
// object that evaluating `x.name` alone makes (`for k, v in d.items()` in every loop).
Value Interpreter::eval_method_call(const CallExpr& expr) { return call_method_of(expr, eval_method_object(expr)); }

Value Interpreter::eval_method_object(const CallExpr& expr) {
  const auto& attribute = static_cast<const GetattrExpr&>(*expr.callee);
  Value object = eval(*attribute.object);
  if (object.is_undefined())
    raise_at(current_, attribute.object->offset, object.undefined_message(), TemplateErrorKind::Undefined);
  return object;
}

Value Interpreter::call_method_of(const CallExpr& expr, const Value& object) {
  const auto& attribute = static_cast<const GetattrExpr&>(*expr.callee);
  CallArgs args;
  if (const MethodEntry* method = object.is_object() ? nullptr : find_method(object, attribute.name)) {
    eval_args(expr.args, args);
    return call_method(*this, object, *method, args);
  }
  Value callee;
  try {
    callee = getattr(object, attribute.name);
  } catch (const EvalError& error) {
    raise_at(current_, attribute.offset, error.what(), error.template_kind());
  }
  eval_args(expr.args, args);
  return call(callee, args);
}

Value Interpreter::eval_node(const Expr& expr) {
  switch (expr.kind) {
    case ExprKind::Const: return static_cast<const ConstExpr&>(expr).value;
    case ExprKind::Name: return lookup(static_cast<const NameExpr&>(expr).name);
    case ExprKind::Getattr: {
      const auto& e = static_cast<const GetattrExpr&>(expr);
      // `job.name` where `job` is a loop variable or a local: read it where it is, no copy.
      const Value* local = local_value(*e.object);
      Value evaluated;
      if (!local) evaluated = eval(*e.object);
      const Value& object = local ? *local : evaluated;
      if (object.is_undefined()) raise_at(current_, e.object->offset, object.undefined_message(), TemplateErrorKind::Undefined);
      // A record's field (`job.name`): the parser already knows that no method has this name.
      if ((object.kind() == Kind::Dict || object.kind() == Kind::DocDict) && !e.dict_method) {
        if (object.kind() == Kind::DocDict && object.doc_slot().type == DocSlot::Dict) {
          if (const DocSlot* field = document_field(e, object.doc_slot())) return Value::doc(*field);
          return Value::missing_dict_attribute(e.name);
        }
        Value found;
        if (mapping_find(object, e.name, found)) return found;
        return Value::missing_dict_attribute(e.name);  // what getattr would say, made lazily
      }
      return getattr(object, e.name);
    }
    case ExprKind::Getitem: {
      const auto& e = static_cast<const GetitemExpr&>(expr);
      Value object = eval(*e.object);
      if (object.is_undefined()) raise_at(current_, e.object->offset, object.undefined_message(), TemplateErrorKind::Undefined);
      if (e.index->kind == ExprKind::Slice) return eval_slice(object, static_cast<const SliceExpr&>(*e.index));
      return getitem(object, eval(*e.index));
    }
    case ExprKind::Slice: throw EvalError("slice outside of a subscript");
    case ExprKind::Call: return eval_call(static_cast<const CallExpr&>(expr));
    case ExprKind::Filter: {
      const auto& e = static_cast<const FilterExpr&>(expr);
      Value input = e.operand ? eval(*e.operand) : (block_input_ ? *block_input_ : Value());
      return apply_filter(e, input);
    }
    case ExprKind::Test: {
      const auto& e = static_cast<const TestExpr&>(expr);
      Value input = eval(*e.operand);
      CallArgs args;
      eval_args(e.args, args);
      return Value::boolean(call_test(*e.entry, input, args));
    }
    case ExprKind::Neg: {
      Value v = eval(*static_cast<const UnaryExpr&>(expr).operand);
      if (v.is_undefined()) fail_undefined(v);
      return negate(v);
    }
    case ExprKind::Pos: {
      Value v = eval(*static_cast<const UnaryExpr&>(expr).operand);
      if (v.is_undefined()) fail_undefined(v);
      return unary_plus(v);
    }
    case ExprKind::Not: return Value::boolean(!test(eval(*static_cast<const UnaryExpr&>(expr).operand)));
    case ExprKind::Binary: {
      const auto& e = static_cast<const BinaryExpr&>(expr);
      Value left = eval(*e.left);
      Value right = eval(*e.right);
      if (left.is_int() && right.is_int())
        if (const auto result = int_arithmetic(e.op, left.as_int(), right.as_int())) return Value::integer(*result);
      if (left.is_undefined()) fail_undefined(left);
      if (right.is_undefined()) fail_undefined(right);
      return binary_op(e.op, left, right);
    }
    case ExprKind::And: {
      const auto& e = static_cast<const BinaryExpr&>(expr);
      Value left = eval(*e.left);
      return test(left) ? eval(*e.right) : left;
    }
    case ExprKind::Or: {
      const auto& e = static_cast<const BinaryExpr&>(expr);
      Value left = eval(*e.left);
      return test(left) ? left : eval(*e.right);
    }
    case ExprKind::Concat: {
      std::string out;
      for (const auto& item : static_cast<const ConcatExpr&>(expr).items) {
        const Value value = eval(*item);
        // `s ~ s ~ s` of a 200 MB s: refused before the copy that would pass the limit.
        if (value.is_str()) require_result_size(out.size() + value.str().size());
        append(out, value);
        require_growth_within_limit(out.size());
      }
      return Value::string(std::move(out));
    }
    case ExprKind::Compare: return eval_compare(static_cast<const CompareExpr&>(expr));
    case ExprKind::Cond: {
      const auto& e = static_cast<const CondExpr&>(expr);
      if (test(eval(*e.test))) return eval(*e.then);
      if (e.otherwise) return eval(*e.otherwise);
      return Value::lenient_undefined("the inline if-expression on line " +
                                   std::to_string(source_location(*current_, e.offset).line) +
                                   " evaluated to false and no else section was defined.");
    }
    case ExprKind::List:
    case ExprKind::Tuple: {
      const auto& e = static_cast<const ListExpr&>(expr);
      std::vector<Value> items;
      items.reserve(e.items.size());
      for (const auto& item : e.items) items.push_back(eval(*item));
      return expr.kind == ExprKind::List ? Value::list(std::move(items)) : Value::tuple(std::move(items));
    }
    case ExprKind::Dict: {
      std::vector<std::pair<Value, Value>> pairs;
      for (const auto& [k, v] : static_cast<const DictExpr&>(expr).items) {
        Value key = eval(*k);
        Value value = eval(*v);
        bool replaced = false;
        for (auto& pair : pairs) {
          if (equals(pair.first, key)) {
            pair.second = value;
            replaced = true;
          }
        }
        if (!replaced) pairs.emplace_back(std::move(key), std::move(value));
      }
      return Value::dict(std::move(pairs));
    }
  }
  return Value();
}

}  // namespace gkebuild::jinja
