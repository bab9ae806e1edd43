// Evaluates a parsed template against a context: scopes, expressions, statements,
// include/import/extends. One Interpreter renders one top-level template.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tool/core/jinja/syntax/ast.h"
#include "tool/core/jinja/values/calls.h"
#include "tool/core/jinja/builtins/effects.h"
#include "tool/core/jinja/environment.h"
#include "tool/core/jinja/values/value.h"

namespace gkebuild::jinja {

class TemplateStore;

// A variable scope. Template top levels, loops, macros, with-blocks and includes each get
// one; lookups walk outwards to the context data and then the globals.
struct Frame {
  std::shared_ptr<Frame> parent;
  std::vector<std::pair<std::string_view, Value>> vars;
  Value data;                  // the render context (a mapping), on the outermost frame only
  bool hides_loop = false;     // an include's root: Jinja2 passes the includer's variables but not its loop

  const Value* find_local(std::string_view name) const {
    for (auto it = vars.rbegin(); it != vars.rend(); ++it)
      if (it->first.size() == name.size() && same_text(it->first.data(), name)) return &it->second;
    return nullptr;
  }
  void set(std::string_view name, Value value);
};

enum class Flow : uint8_t { Normal, Break, Continue };

// A streamed render hands its output on in pieces of about this size.
inline constexpr size_t kStreamPieceBytes = size_t{64} << 10;

// Blocks of an inheritance chain by name, most derived first.
struct BlockEntry {
  const BlockStmt* block;
  const Template* tmpl;
};
using BlockMap = std::map<std::string, std::vector<BlockEntry>, std::less<>>;

class Interpreter {
 public:
  Interpreter(TemplateStore& store, const Options& options) : store_(store), options_(options) {}
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // A template-built list or dict that a method is about to change in place; emptied when the
  // render ends (see ~Interpreter).
  void note_changed_in_place(const Value& container) { changed_in_place_.push_back(container); }

  // The hook of declared effects (effects.h), at the points where calls are dispatched:
  // call_filter, append_filter and call_test below, call (callable objects: globals, macros,
  // cycler.next …) and call_method (methods.cpp). Anything but ReadsOnly counts as a change.
  // Outside a split loop (nearly every call) only split_ is read.
  void before_call(Effect effect) {
    if (split_ && effect != Effect::ReadsOnly) stop_split();
  }
  Value call_filter(const FilterEntry& filter, const Value& input, CallArgs& args) {
    before_call(filter.effect);
    return filter.fn(*this, input, args);
  }
  // `{{ x | tojson }}`: the filter's append form writes into `out`.
  void append_filter(const FilterEntry& filter, const Value& input, CallArgs& args, std::string& out) {
    before_call(filter.effect);
    filter.append(*this, input, args, out);
  }
  bool call_test(const TestEntry& test, const Value& input, CallArgs& args) {
    before_call(test.effect);
    return test.fn(*this, input, args);
  }

  // `context` must be a mapping or None. With a sink, the output goes there in pieces as it
  // grows, and what is left at the end is returned.
  std::string render(const std::shared_ptr<const Template>& tmpl, const Value& context,
                     const OutputSink* sink = nullptr);

  const Options& options() const { return options_; }
  bool strict() const { return options_.undefined == UndefinedMode::Strict; }

  // Expressions (evaluate.cpp).
  // Leaves inline, as eval_node gives them: a constant, or a name an enclosing scope holds (a
  // loop variable, a `set` one: what lookup would find first); every other node through
  // evaluate(). A loop body evaluates these far more often than anything else, and the call into
  // eval_node's large frame cost more than reading them.
  Value eval(const Expr& expr) {
    if (expr.kind == ExprKind::Const) return static_cast<const ConstExpr&>(expr).value;
    if (expr.kind == ExprKind::Name)
      if (const Value* local = local_value(static_cast<const NameExpr&>(expr).name)) return *local;
    return evaluate(expr);
  }
  Value evaluate(const Expr& expr);  // eval_node, with an EvalError placed at `expr`
  Value lookup(std::string_view name) const;
  // What lookup would find when it is a variable of an enclosing scope (not the context or a
  // global), where it is; null otherwise. Valid until a scope changes. Inline: every print of a
  // loop variable asks.
  const Value* local_value(std::string_view name) const {
    bool loop_hidden = false;
    for (const Frame* f = frame_.get(); f; f = f->parent.get()) {
      if (!(loop_hidden && name == "loop"))
        if (const Value* v = f->find_local(name)) return v;
      loop_hidden = loop_hidden || f->hides_loop;
      if (f->data.is_mapping()) return nullptr;  // the context may have it: lookup decides
    }
    return nullptr;
  }
  // local_value of `expr` when it is a plain name; null otherwise.
  const Value* local_value(const Expr& expr) const {
    return expr.kind == ExprKind::Name ? local_value(static_cast<const NameExpr&>(expr).name) : nullptr;
  }
  // `record.field` where `record` is a local holding a values document's mapping that has the
  // field: the field's slot, read in place; null in every other case.
  const DocSlot* local_record_field(const GetattrExpr& e) const;
  Value getattr(const Value& object, std::string_view name);
  Value getitem(const Value& object, const Value& key);
  // Calls a callable object (objects.h's Callable), acting on its declared Effect first.
  Value call(const Value& callee, CallArgs& args);
  // Inline: most filter calls (`x | tojson`) have no arguments, and the call cost more than that.
  void eval_args(const Arguments& args, CallArgs& out) {
    if (!args.empty()) eval_given_args(args, out);
  }
  Value apply_filter(const FilterExpr& filter, const Value& input);

  // Undefined handling shared by filters and tests.
  void require_defined(const Value& value) const;   // Strict mode raises for Undefined
  [[noreturn]] void fail_undefined(const Value& value) const;
  bool test(const Value& value) const { if (value.is_undefined()) require_defined(value); return truthy(value); }
  std::string str(const Value& value) const { require_defined(value); return to_str(value); }
  void append(std::string& out, const Value& value) const { require_defined(value); append_str(out, value); }
  Sequence iterate(const Value& value) const { require_defined(value); return Sequence(value); }

  // Statements (render_statements.cpp).
  Flow render_body(const Body& body);
  std::string capture(const Body& body, Flow* flow = nullptr);  // flow: how the body ended
  Value call_macro(const struct Macro& macro, CallArgs& args);
  Value call_loop(struct LoopObject& loop, CallArgs& args);
  // `scope`: the frame a scoped block's body sees (super() passes it on); null: the top level.
  std::string render_block(const BlockMap& blocks, std::string_view name, size_t level,
                           std::shared_ptr<Frame> scope);

 private:
  // Called before anything that changes what a later iteration of a loop could see. While a
  // loop's iterations are rendered on several threads (split_loop.cpp) this ends that, before
  // the change is made. Calls do the same in before_call, from their entry's declared Effect;
  // this is for the one statement that changes shared state itself, `{% set ns.attr = ... %}`
  // (assign).
  void before_side_effect() {
    if (split_) stop_split();
  }
  Flow render_stmt(const Stmt& stmt);
  void render_print(const PrintStmt& stmt);
  void print_filtered(const FilterExpr& filter);
  Flow render_if(const IfStmt& stmt);
  Flow render_for(const ForStmt& stmt);
  void run_loop(const ForStmt& stmt, const Value& iterable, int depth);
  void loop_over(const ForStmt& stmt, const Sequence& sequence, int depth);
  void bind_loop_item(const ForStmt& stmt, const Sequence& sequence, const struct LoopObject& loop, size_t i,
                      Frame& scope);
  bool render_items(const ForStmt& stmt, const Sequence& sequence, struct LoopObject& loop, const Value& loop_value,
                    Frame& scope, size_t from, size_t to);
  // Split loops (split_loop.cpp).
  bool render_split(const ForStmt& stmt, const Sequence& sequence, int depth);
  void help_split(struct SplitLoop& split);
  void render_split_block(struct SplitLoop& split, struct SplitThread& mine, size_t block, struct SplitBlock& result);
  void stop_split();
  void write_out(std::string& text);
  std::shared_ptr<Frame> loop_frame();
  void return_loop_frame(std::shared_ptr<Frame> frame);
  void assign(const Target& target, const Value& value, Frame& into);
  void render_set(const SetStmt& stmt);
  Flow render_set_block(const SetBlockStmt& stmt);
  void render_macro(const MacroStmt& stmt);
  void keep_closure(const std::shared_ptr<Frame>& closure);
  void render_call_block(const CallBlockStmt& stmt);
  Flow render_filter_block(const FilterBlockStmt& stmt);
  void render_include(const IncludeStmt& stmt);
  void render_import(const ImportStmt& stmt);
  void render_from_import(const FromImportStmt& stmt);
  void render_extends(const ExtendsStmt& stmt);
  void render_block_stmt(const BlockStmt& stmt);
  Flow render_with(const WithStmt& stmt);
  void render_template(std::shared_ptr<const Template> tmpl, std::shared_ptr<Frame> root);
  std::shared_ptr<Frame> render_module(std::shared_ptr<const Template> tmpl, bool with_context);
  std::shared_ptr<const Template> load(const Value& name, size_t offset, bool ignore_missing);
  std::shared_ptr<Frame> globals_frame();

  Value eval_node(const Expr& expr);
  void eval_given_args(const Arguments& args, CallArgs& out);
  Value eval_compare(const CompareExpr& expr);
  Value eval_call(const CallExpr& expr);
  Value eval_method_call(const CallExpr& expr);
  Value eval_method_object(const CallExpr& expr);  // the `x` of `x.name(...)`, defined
  Value call_method_of(const CallExpr& expr, const Value& object);
  Value eval_slice(const Value& object, const SliceExpr& slice);
  [[noreturn]] void raise_at(const Template* tmpl, size_t offset, const std::string& message,
                            TemplateErrorKind kind = TemplateErrorKind::Runtime) const;

  TemplateStore& store_;
  const Options& options_;
  std::string* out_ = nullptr;           // where rendered text goes
  std::string* streamed_ = nullptr;      // the top-level output, while it goes to sink_ in pieces
  const OutputSink* sink_ = nullptr;
  void flush_streamed();
  std::shared_ptr<Frame> frame_;         // the innermost scope
  const Template* current_ = nullptr;    // the template whose code runs, for error positions
  const Value* block_input_ = nullptr;  // input of the innermost filter block
  // Per template render (render_template): its inheritance chain and state.
  struct RenderState {
    BlockMap blocks;
    std::shared_ptr<const Template> parent;
    std::shared_ptr<Frame> root;
    std::vector<const Template*> extends_chain;  // the templates rendered so far, for cycle errors
  };
  RenderState* state_ = nullptr;
  // The include/import stack, for cycle errors: names of templates keep_alive_ holds.
  std::vector<std::string_view> active_templates_;
  std::vector<std::shared_ptr<const Template>> keep_alive_;
  std::vector<Value> changed_in_place_;
  std::shared_ptr<Frame> globals_;
  std::vector<std::shared_ptr<Frame>> closure_frames_;  // owners of the frames macros close over
  std::vector<std::shared_ptr<Frame>> spare_frames_;    // finished loops' scopes, for the next loop
  std::string discard_;
  struct SplitLoop* split_ = nullptr;  // the split loop this thread renders blocks of
  bool split_in_order_ = false;        // the block it renders goes straight to the output

  // Saves where rendering stands (output, scope, template, filter-block input, template
  // chain, include stack) and puts it back when it goes out of scope, so that a body which
  // throws leaves the interpreter as it found it. Every change of that state is made
  // under one of these.
  class StateGuard {
   public:
    explicit StateGuard(Interpreter& interp)
        : interp_(interp), out_(interp.out_), frame_(interp.frame_), current_(interp.current_),
          block_input_(interp.block_input_), state_(interp.state_), depth_(interp.active_templates_.size()) {}
    ~StateGuard() {
      interp_.out_ = out_;
      interp_.frame_ = std::move(frame_);
      interp_.current_ = current_;
      interp_.block_input_ = block_input_;
      interp_.state_ = state_;
      interp_.active_templates_.resize(depth_);
    }
    StateGuard(const StateGuard&) = delete;
    StateGuard& operator=(const StateGuard&) = delete;

   private:
    Interpreter& interp_;
    std::string* out_;
    std::shared_ptr<Frame> frame_;
    const Template* current_;
    const Value* block_input_;
    RenderState* state_;
    size_t depth_;
  };
};

// Template lookup by name; shared by the Environment and the Interpreter.
class TemplateStore {
 public:
  virtual ~TemplateStore() = default;
  // The parsed template, or null when no template has that name.
  virtual std::shared_ptr<const Template> find(const std::string& name) = 0;
  virtual std::string describe_search() const = 0;
};

}  // namespace gkebuild::jinja
