// Statement execution: output, control flow, assignment, macros and call blocks.
#include "base/source_error.h"
#include "tool/core/jinja/builtins/filters.h"
#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/values/number_format.h"
#include "tool/core/jinja/runtime/objects.h"
#include "tool/core/jinja/syntax/parser.h"

namespace gkebuild::jinja {

namespace {
// The text of the enclosing output while a nested capture runs: counted against the render
// memory budget, so that captures nested in loops cannot pile up uncounted.
class HeldOutput {
 public:
  explicit HeldOutput(const std::string* out) : bytes_(out && out->size() >= (size_t{1} << 16) ? out->size() : 0) {
    if (bytes_) RenderMemory::charge(bytes_);
  }
  ~HeldOutput() { RenderMemory::release(bytes_); }
  HeldOutput(const HeldOutput&) = delete;
  HeldOutput& operator=(const HeldOutput&) = delete;

 private:
  uint64_t bytes_;
};
}  // namespace

std::string Interpreter::capture(const Body& body, Flow* flow) {
  std::string buffer;
  {
    HeldOutput held(out_);
    StateGuard guard(*this);
    out_ = &buffer;
    Flow ended = render_body(body);
    if (flow) *flow = ended;
  }
  return buffer;
}

Flow Interpreter::render_body(const Body& body) {
  for (const auto& stmt : body) {
    Flow flow = render_stmt(*stmt);
    if (out_ == streamed_ && streamed_ && streamed_->size() >= kStreamPieceBytes) flush_streamed();
    if (flow != Flow::Normal) return flow;
  }
  return Flow::Normal;
}

// Inlined into render_body, its one caller: the dispatch of every statement.
[[gnu::always_inline]] inline Flow Interpreter::render_stmt(const Stmt& stmt) {
  switch (stmt.kind) {
    case StmtKind::Text: *out_ += static_cast<const TextStmt&>(stmt).text; return Flow::Normal;
    case StmtKind::Print: render_print(static_cast<const PrintStmt&>(stmt)); return Flow::Normal;
    case StmtKind::If: return render_if(static_cast<const IfStmt&>(stmt));
    case StmtKind::For: return render_for(static_cast<const ForStmt&>(stmt));
    case StmtKind::Set: render_set(static_cast<const SetStmt&>(stmt)); return Flow::Normal;
    case StmtKind::SetBlock: return render_set_block(static_cast<const SetBlockStmt&>(stmt));
    case StmtKind::Macro: render_macro(static_cast<const MacroStmt&>(stmt)); return Flow::Normal;
    case StmtKind::CallBlock: render_call_block(static_cast<const CallBlockStmt&>(stmt)); return Flow::Normal;
    case StmtKind::FilterBlock: return render_filter_block(static_cast<const FilterBlockStmt&>(stmt));
    case StmtKind::Include: render_include(static_cast<const IncludeStmt&>(stmt)); return Flow::Normal;
    case StmtKind::Import: render_import(static_cast<const ImportStmt&>(stmt)); return Flow::Normal;
    case StmtKind::FromImport: render_from_import(static_cast<const FromImportStmt&>(stmt)); return Flow::Normal;
    case StmtKind::Extends: render_extends(static_cast<const ExtendsStmt&>(stmt)); return Flow::Normal;
    case StmtKind::Block: render_block_stmt(static_cast<const BlockStmt&>(stmt)); return Flow::Normal;
    case StmtKind::With: return render_with(static_cast<const WithStmt&>(stmt));
    case StmtKind::Break: return Flow::Break;
    case StmtKind::Continue: return Flow::Continue;
  }
  return Flow::Normal;
}

void Interpreter::render_print(const PrintStmt& stmt) {
  if (stmt.expr->kind == ExprKind::Getattr) {
    // `{{ job.name }}` over a values document: a string or integer field goes straight out.
    if (const DocSlot* field = local_record_field(static_cast<const GetattrExpr&>(*stmt.expr))) {
      if (field->type == DocSlot::Str) return void(out_->append(field->s, field->size));
      if (field->type == DocSlot::Int) return append_int(*out_, field->i);
    }
  } else if (const Value* local = local_value(*stmt.expr); local && (local->is_str() || local->is_int())) {
    // `{{ key }}`: a string or integer in a loop variable goes straight out
    if (local->is_int()) return append_int(*out_, local->as_int());
    return void(*out_ += local->str());
  }
  if (stmt.expr->kind == ExprKind::Filter) {
    const auto& filter = static_cast<const FilterExpr&>(*stmt.expr);
    if (filter.entry->append && filter.operand) return print_filtered(filter);
  }
  Value value = eval(*stmt.expr);
  if (value.is_str()) {
    *out_ += value.str();
    return;
  }
  if (value.is_undefined() && strict() && !value.is_lenient_undefined())
    raise_at(current_, stmt.expr->offset, value.undefined_message(), TemplateErrorKind::Undefined);
  append_str(*out_, value);
}

// `{{ x | tojson }}`: the filter writes into the output itself; errors are placed as eval
// places them.
void Interpreter::print_filtered(const FilterExpr& filter) {
  // `{{ value | tojson }}` with a loop variable: read where it is, no copy.
  const Value* local = local_value(*filter.operand);
  Value evaluated;
  if (!local) evaluated = eval(*filter.operand);
  const Value& input = local ? *local : evaluated;
  try {
    CallArgs args;
    eval_args(filter.args, args);
    append_filter(*filter.entry, input, args, *out_);
  } catch (const EvalError& error) {
    raise_at(current_, filter.offset, error.what(), error.template_kind());
  }
}

Flow Interpreter::render_if(const IfStmt& stmt) {
  for (const auto& [test_expr, body] : stmt.branches) {
    Value condition = eval(*test_expr);
    bool taken;
    try {
      taken = test(condition);
    } catch (const EvalError& error) {
      raise_at(current_, test_expr->offset, error.what(), error.template_kind());
    }
    if (taken) return render_body(body);
  }
  return render_body(stmt.otherwise);
}

void Interpreter::assign(const Target& target, const Value& value, Frame& into) {
  switch (target.kind) {
    case Target::Kind::Name: into.set(target.name, value); return;
    case Target::Kind::NamespaceAttr: {
      Value ns = lookup(target.name);
      auto* space = ns.as<Namespace>();
      if (!space) raise_at(current_, target.offset, "cannot assign attribute on non-namespace object");
      // A statement, not a call: no entry declares it. The parser already keeps such a loop
      // on one thread (iterations_may_split); this holds should that check ever miss one.
      before_side_effect();
      space->set(target.attr, value);
      return;
    }
    case Target::Kind::Tuple: {
      if (value.is_undefined()) require_defined(value);
      Sequence seq = [&] {
        try {
          return Sequence(value);
        } catch (const EvalError&) {
          raise_at(current_, target.offset,
                   "cannot unpack non-iterable " + std::string(type_name(value)) + " object");
        }
      }();
      if (seq.size() != target.items.size()) {
        std::string message = seq.size() > target.items.size()
                                  ? "too many values to unpack (expected " + std::to_string(target.items.size()) + ")"
                                  : "not enough values to unpack (expected " + std::to_string(target.items.size()) +
                                        ", got " + std::to_string(seq.size()) + ")";
        raise_at(current_, target.offset, message);
      }
      for (size_t i = 0; i < seq.size(); ++i) assign(target.items[i], seq.at(i), into);
      return;
    }
  }
}

void Interpreter::render_set(const SetStmt& stmt) { assign(stmt.target, eval(*stmt.value), *frame_); }

// A break or continue inside the body leaves the enclosing loop before the captured
// text is used, as in Jinja2's generated code.
Flow Interpreter::render_set_block(const SetBlockStmt& stmt) {
  Flow flow = Flow::Normal;
  Value value = Value::string(capture(stmt.body, &flow));
  if (flow != Flow::Normal) return flow;
  if (stmt.filter) {
    StateGuard guard(*this);
    block_input_ = &value;
    Value filtered = eval(*stmt.filter);
    value = filtered;
  }
  assign(stmt.target, value, *frame_);
  return Flow::Normal;
}

Flow Interpreter::render_filter_block(const FilterBlockStmt& stmt) {
  Flow flow = Flow::Normal;
  Value value = Value::string(capture(stmt.body, &flow));
  if (flow != Flow::Normal) return flow;
  Value filtered;
  {
    StateGuard guard(*this);
    block_input_ = &value;
    filtered = eval(*stmt.filter);
  }
  append(*out_, filtered);
  return Flow::Normal;
}

Flow Interpreter::render_with(const WithStmt& stmt) {
  auto inner = std::make_shared<Frame>();
  inner->parent = frame_;
  for (size_t i = 0; i < stmt.targets.size(); ++i) assign(stmt.targets[i], eval(*stmt.values[i]), *inner);
  StateGuard guard(*this);
  frame_ = inner;
  return render_body(stmt.body);
}

namespace {
std::shared_ptr<Macro> make_macro(std::string_view name, const MacroSignature& signature, const Body& body,
                                  std::shared_ptr<Frame> closure, const Template* tmpl) {
  auto macro = std::make_shared<Macro>();
  macro->name = name;
  macro->signature = &signature;
  macro->body = &body;
  macro->closure = std::move(closure);
  macro->tmpl = tmpl;
  return macro;
}
}  // namespace

void Interpreter::keep_closure(const std::shared_ptr<Frame>& closure) {
  if (closure_frames_.empty() || closure_frames_.back() != closure) closure_frames_.push_back(closure);
}

void Interpreter::render_macro(const MacroStmt& stmt) {
  keep_closure(frame_);
  frame_->set(stmt.name, Value::object(make_macro(stmt.name, stmt.signature, stmt.body, frame_, current_)));
}

void Interpreter::render_call_block(const CallBlockStmt& stmt) {
  keep_closure(frame_);
  auto caller = make_macro("caller", stmt.signature, stmt.body, frame_, current_);
  caller->is_caller = true;
  const auto& call_expr = static_cast<const CallExpr&>(*stmt.call);
  Value callee = eval(*call_expr.callee);
  CallArgs args;
  eval_args(call_expr.args, args);
  args.keywords.emplace_back("caller", Value::object(caller));
  Value result;
  try {
    result = call(callee, args);
  } catch (const EvalError& error) {
    raise_at(current_, stmt.call->offset, error.what(), error.template_kind());
  }
  append(*out_, result);
}

namespace {

// Python Jinja2 hits its recursion limit at about 240 nested macro calls; stopping at
// the same depth turns runaway recursion into an error instead of a C++ stack overflow.
constexpr int kMaxMacroDepth = 250;
thread_local int macro_depth = 0;

struct MacroDepthGuard {
  MacroDepthGuard() {
    if (macro_depth >= kMaxMacroDepth)
      throw EvalError("maximum recursion depth exceeded (" + std::to_string(kMaxMacroDepth) + " nested macro calls)");
    ++macro_depth;
  }
  ~MacroDepthGuard() { --macro_depth; }
  MacroDepthGuard(const MacroDepthGuard&) = delete;
  MacroDepthGuard& operator=(const MacroDepthGuard&) = delete;
};

}  // namespace

Value Interpreter::call_macro(const Macro& macro, CallArgs& args) {
  MacroDepthGuard depth_guard;
  const MacroSignature& sig = *macro.signature;
  auto inner = std::make_shared<Frame>();
  inner->parent = macro.closure.lock();
  const size_t nparams = sig.params.size();
  std::vector<const Value*> bound(nparams, nullptr);
  std::vector<Value> varargs;
  for (size_t i = 0; i < args.positional.size(); ++i) {
    if (i < nparams) bound[i] = &args.positional[i];
    else if (sig.uses_varargs) varargs.push_back(args.positional[i]);
    else
      throw EvalError("macro '" + std::string(macro.name) + "' takes not more than " + std::to_string(nparams) +
                      " argument(s)");
  }
  std::vector<std::pair<Value, Value>> kwargs;
  Value caller;
  for (auto& [key, value] : args.keywords) {
    size_t index = 0;
    while (index < nparams && sig.params[index] != key) ++index;
    if (index < nparams) {
      if (bound[index])
        throw EvalError("macro '" + std::string(macro.name) + "' got multiple values for argument '" +
                        std::string(key) + "'");
      bound[index] = &value;
    } else if (key == "caller" && !macro.is_caller) {
      if (!sig.uses_caller)
        throw EvalError("macro '" + std::string(macro.name) + "' takes no keyword argument 'caller'");
      caller = value;
    } else if (sig.uses_kwargs) {
      kwargs.emplace_back(Value::string(std::string(key)), value);
    } else {
      throw EvalError("macro '" + std::string(macro.name) + "' takes no keyword argument '" + std::string(key) + "'");
    }
  }
  StateGuard guard(*this);
  frame_ = inner;
  current_ = macro.tmpl;
  size_t first_default = nparams - sig.defaults.size();
  for (size_t i = 0; i < nparams; ++i) {
    if (bound[i]) inner->set(sig.params[i], *bound[i]);
    else if (i >= first_default) inner->set(sig.params[i], eval(*sig.defaults[i - first_default]));
    else inner->set(sig.params[i], Value::undefined_with("parameter '" + sig.params[i] + "' was not provided"));
  }
  if (sig.uses_varargs) inner->set("varargs", Value::tuple(std::move(varargs)));
  if (sig.uses_kwargs) inner->set("kwargs", Value::dict(std::move(kwargs)));
  if (sig.uses_caller && !macro.is_caller) {
    inner->set("caller", caller.is_undefined() ? Value::undefined("caller") : caller);
  }
  return Value::string(capture(*macro.body));
}

}  // namespace gkebuild::jinja
