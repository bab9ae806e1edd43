// `for` loops: filtering, unpacking, the `loop` object, else branches and recursion.
#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/runtime/limits.h"
#include "tool/core/jinja/runtime/objects.h"

namespace gkebuild::jinja {

namespace {
// `x.items()` with no arguments: the call of `for k, v in d.items()`.
const CallExpr* items_call(const Expr& iter) {
  if (iter.kind != ExprKind::Call) return nullptr;
  const auto& call = static_cast<const CallExpr&>(iter);
  const auto& args = call.args;
  if (call.callee->kind != ExprKind::Getattr || static_cast<const GetattrExpr&>(*call.callee).name != "items" ||
      !args.positional.empty() || !args.keywords.empty() || args.star_args || args.star_kwargs)
    return nullptr;
  return &call;
}
}  // namespace

Flow Interpreter::render_for(const ForStmt& stmt) {
  // `for k, v in d.items()` walks the mapping's pairs instead of a list of tuples built for it.
  if (const CallExpr* call = items_call(*stmt.iter)) {
    Value object = eval_method_object(*call);
    if (object.is_mapping()) {
      Sequence sequence = [&] {
        try {
          return Sequence::items_of(object);
        } catch (const EvalError& error) {
          raise_at(current_, stmt.iter->offset, error.what(), error.template_kind());
        }
      }();
      loop_over(stmt, sequence, 1);
      return Flow::Normal;
    }
    Value iterable;
    try {
      iterable = call_method_of(*call, object);
    } catch (const EvalError& error) {
      raise_at(current_, stmt.iter->offset, error.what(), error.template_kind());
    }
    run_loop(stmt, iterable, 1);
    return Flow::Normal;
  }
  Value iterable = eval(*stmt.iter);
  run_loop(stmt, iterable, 1);
  return Flow::Normal;
}

void Interpreter::run_loop(const ForStmt& stmt, const Value& iterable, int depth) {
  if (iterable.is_undefined()) require_defined(iterable);
  Sequence sequence = [&] {
    try {
      return Sequence(iterable);
    } catch (const EvalError& error) {
      raise_at(current_, stmt.iter->offset, error.what(), error.template_kind());
    }
  }();
  loop_over(stmt, sequence, depth);
}

// Puts item `i` of a loop into its fresh scope `scope`: plain names go in without a search (a
// repeated name is found last-first, so the later one wins, as in Python). Inlined into
// render_items, its one caller: it runs for every item.
[[gnu::always_inline]] inline void Interpreter::bind_loop_item(const ForStmt& stmt, const Sequence& sequence,
                                                               const LoopObject& loop, size_t i, Frame& scope) {
  const Target& target = stmt.target;
  const bool two_names = target.kind == Target::Kind::Tuple && target.items.size() == 2 &&
                         target.items[0].kind == Target::Kind::Name && target.items[1].kind == Target::Kind::Name;
  if (!loop.filtered) {
    // A values document's items are read in place: no value is built and then copied.
    const DocSlot* value_slot = nullptr;
    if (const DocSlot* slot = sequence.doc_item(i, &value_slot)) {
      if (value_slot && two_names) {
        scope.vars.emplace_back(target.items[0].name, Value::doc(*slot));
        scope.vars.emplace_back(target.items[1].name, Value::doc(*value_slot));
        return;
      }
      if (!value_slot && target.kind == Target::Kind::Name) {
        scope.vars.emplace_back(target.name, Value::doc(*slot));
        return;
      }
    }
    // `for k, v in d.items()`: the pair is read in place.
    const auto* pair = sequence.pair_at(i);
    if (pair && target.kind == Target::Kind::Tuple && target.items.size() == 2) {
      if (two_names) {
        scope.vars.emplace_back(target.items[0].name, pair->first);
        scope.vars.emplace_back(target.items[1].name, pair->second);
      } else {
        assign(target.items[0], pair->first, scope);
        assign(target.items[1], pair->second, scope);
      }
      return;
    }
    if (target.kind == Target::Kind::Name) {
      scope.vars.emplace_back(target.name, loop.item(i));
      return;
    }
  }
  assign(target, loop.item(i), scope);
}

void Interpreter::loop_over(const ForStmt& stmt, const Sequence& sequence, int depth) {
  if (stmt.may_split && !stmt.filter && !split_ && options_.loop_threads > 1 &&
      sequence.size() >= options_.split_loop_items) {
    if (!render_split(stmt, sequence, depth)) render_body(stmt.otherwise);
    return;
  }
  std::shared_ptr<Frame> inner = loop_frame();
  inner->parent = frame_;
  bool completed_iteration = false;
  {
    StateGuard guard(*this);
    frame_ = inner;
    std::vector<Value> filtered;
    bool use_filter = stmt.filter != nullptr;
    if (use_filter) {
      for (size_t i = 0; i < sequence.size(); ++i) {
        Value item = sequence.at(i);
        inner->vars.clear();
        assign(stmt.target, item, *inner);
        if (test(eval(*stmt.filter))) filtered.push_back(std::move(item));
      }
    }
    // The loop object is shared only where the body can see it.
    LoopObject unseen;
    const auto shared = stmt.uses_loop ? std::make_shared<LoopObject>() : nullptr;
    LoopObject* const loop = shared ? shared.get() : &unseen;
    loop->stmt = &stmt;
    loop->sequence = &sequence;
    loop->filtered = use_filter ? &filtered : nullptr;
    loop->size = use_filter ? filtered.size() : sequence.size();
    loop->depth = depth;
    const Value loop_value = shared ? Value::object(shared) : Value();
    completed_iteration = render_items(stmt, sequence, *loop, loop_value, *inner, 0, loop->size);
    loop->sequence = nullptr;
    loop->filtered = nullptr;
    loop->size = 0;
  }
  return_loop_frame(std::move(inner));
  // The else branch runs in the scope around the loop.
  if (!completed_iteration) render_body(stmt.otherwise);
}

// Items [from, to) of a loop (all of them, or a split loop's block: split_loop.cpp), in
// `scope`, which frame_ is, until a break. Whether some iteration ran its body to the end:
// Jinja2 clears its "else" flag at the end of the body, which break and continue skip, so the
// else branch runs unless one did.
bool Interpreter::render_items(const ForStmt& stmt, const Sequence& sequence, LoopObject& loop,
                               const Value& loop_value, Frame& scope, size_t from, size_t to) {
  bool completed_iteration = false;
  for (size_t i = from; i < to; ++i) {
    loop.index0 = i;
    scope.vars.clear();
    if (stmt.uses_loop) scope.vars.emplace_back("loop", loop_value);
    bind_loop_item(stmt, sequence, loop, i, scope);
    const Flow flow = render_body(stmt.body);
    // Text a loop writes into a capture (a macro's, a set block's) is held until it ends:
    // held to what one operation may build and to the render memory budget.
    if (out_) require_growth_within_limit(out_->size());
    if (flow == Flow::Normal) completed_iteration = true;
    if (flow == Flow::Break) break;
  }
  return completed_iteration;
}

// An inner loop runs once for every item of the outer one: its scope is reused, not allocated
// each time, unless something (a macro defined in the body) still holds it.
std::shared_ptr<Frame> Interpreter::loop_frame() {
  if (spare_frames_.empty()) {
    auto frame = std::make_shared<Frame>();
    frame->vars.reserve(4);  // loop and the targets: one allocation instead of growing
    return frame;
  }
  std::shared_ptr<Frame> frame = std::move(spare_frames_.back());
  spare_frames_.pop_back();
  return frame;
}

void Interpreter::return_loop_frame(std::shared_ptr<Frame> frame) {
  constexpr std::size_t kSpareFrames = 16;
  if (frame.use_count() != 1 || spare_frames_.size() >= kSpareFrames) return;
  frame->vars.clear();
  frame->parent.reset();
  spare_frames_.push_back(std::move(frame));
}

Value Interpreter::call_loop(LoopObject& loop, CallArgs& args) {
  if (args.positional.size() != 1 || !args.keywords.empty())
    throw EvalError("loop() takes exactly one argument");
  std::string buffer;
  {
    StateGuard guard(*this);
    out_ = &buffer;
    // The recursive call runs in the scope the loop itself was started from.
    if (frame_->parent) frame_ = frame_->parent;
    run_loop(*loop.stmt, args.positional[0], loop.depth + 1);
  }
  return Value::string(std::move(buffer));
}

Value LoopObject::call(Interpreter& interp, CallArgs& args) { return interp.call_loop(*this, args); }

namespace {
// loop.cycle(...) only reads the loop's index; loop.changed(...) remembers its arguments for
// the next iteration.
struct LoopMethod : Callable {
  explicit LoopMethod(bool cycle) : Callable(cycle ? Effect::ReadsOnly : Effect::ChangesState), cycle(cycle) {}
  std::shared_ptr<LoopObject> loop;
  const bool cycle;  // otherwise changed()
  std::string_view type_name() const override { return "method"; }
  Value call(Interpreter&, CallArgs& args) override {
    if (cycle) {
      if (args.positional.empty()) throw EvalError("no items for cycling given");
      return args.positional[loop->index0 % args.positional.size()];
    }
    bool changed = !loop->changed_called || loop->last_changed.size() != args.positional.size();
    for (size_t i = 0; !changed && i < args.positional.size(); ++i)
      if (!equals(loop->last_changed[i], args.positional[i])) changed = true;
    loop->changed_called = true;
    loop->last_changed = args.positional;
    return Value::boolean(changed);
  }
};
}  // namespace

Value LoopObject::get_attr(std::string_view name) const {
  auto as_int = [](size_t v) { return Value::integer(static_cast<int64_t>(v)); };
  if (name == "index") return as_int(index0 + 1);
  if (name == "index0") return as_int(index0);
  if (name == "revindex") return as_int(size - index0);
  if (name == "revindex0") return as_int(size - index0 - 1);
  if (name == "first") return Value::boolean(index0 == 0);
  if (name == "last") return Value::boolean(index0 + 1 == size);
  if (name == "length") return as_int(size);
  if (name == "depth") return Value::integer(depth);
  if (name == "depth0") return Value::integer(depth - 1);
  if (name == "previtem") {
    if (index0 == 0) return Value::undefined_with("there is no previous item");
    return item(index0 - 1);
  }
  if (name == "nextitem") {
    if (index0 + 1 >= size) return Value::undefined_with("there is no next item");
    return item(index0 + 1);
  }
  if (name == "cycle" || name == "changed") {
    auto method = std::make_shared<LoopMethod>(name == "cycle");
    method->loop = std::static_pointer_cast<LoopObject>(std::const_pointer_cast<Object>(shared_from_this()));
    return Value::object(std::move(method));
  }
  return Object::get_attr(name);
}

void LoopObject::repr(std::string& out) const {
  out += "<LoopContext " + std::to_string(index0 + 1) + "/" + std::to_string(size) + ">";
}

}  // namespace gkebuild::jinja
