// Templates calling templates: include, import, from-import, extends, block, super and self.
#include <algorithm>

#include "base/source_error.h"
#include "tool/core/jinja/runtime/interpreter.h"
#include "tool/core/jinja/runtime/objects.h"
#include "tool/core/jinja/syntax/parser.h"

namespace gkebuild::jinja {

namespace {
constexpr size_t kMaxTemplateDepth = 64;

// `super()` inside a block, and `self.name()`: render one level of a block chain.
// A block may do anything a template can.
struct BlockRenderer : Callable {
  BlockRenderer() : Callable(Effect::ChangesState) {}
  Interpreter* interp = nullptr;
  const BlockMap* blocks = nullptr;
  std::string name;
  size_t level = 0;
  std::shared_ptr<Frame> scope;  // what a scoped block's body sees; null for the template's top level
  std::string_view type_name() const override { return "BlockReference"; }
  Value call(Interpreter& in, CallArgs&) override {
    return Value::string(in.render_block(*blocks, name, level, scope));
  }
  void repr(std::string& out) const override { out += "<BlockReference '" + name + "'>"; }
};

struct SelfReference : Object {
  const BlockMap* blocks = nullptr;
  std::string_view type_name() const override { return "TemplateReference"; }
  Value get_attr(std::string_view name) const override {
    auto found = blocks->find(name);
    if (found == blocks->end()) return Object::get_attr(name);
    auto renderer = std::make_shared<BlockRenderer>();
    renderer->blocks = blocks;
    renderer->name = std::string(name);
    return Value::object(renderer);
  }
};
}  // namespace

Value self_reference(const BlockMap& blocks) {
  auto self = std::make_shared<SelfReference>();
  self->blocks = &blocks;
  return Value::object(std::move(self));
}

std::shared_ptr<Frame> Interpreter::globals_frame() {
  if (!globals_) globals_ = std::make_shared<Frame>();
  return globals_;
}

// Lists and dicts the template changed in place are emptied: the only way a render makes a
// reference cycle (`x.append(x)`), and nothing outlives the render that could still read them.
Interpreter::~Interpreter() {
  for (const Value& container : changed_in_place_) {
    if (container.kind() == Kind::List) container.mutable_items().clear();
    else container.mutable_pairs().clear();
  }
}

std::string Interpreter::render(const std::shared_ptr<const Template>& tmpl, const Value& context,
                                const OutputSink* sink) {
  if (!context.is_mapping() && !context.is_none()) throw EvalError("the render context must be a mapping");
  auto root = std::make_shared<Frame>();
  root->data = context;
  std::string result;
  if (sink) {
    result.reserve(kStreamPieceBytes + kStreamPieceBytes / 8);
    streamed_ = &result;
    sink_ = sink;
  }
  {
    StateGuard guard(*this);
    out_ = &result;
    render_template(tmpl, root);
  }
  streamed_ = nullptr;
  sink_ = nullptr;
  return result;
}

void Interpreter::flush_streamed() {
  std::string piece;
  piece.reserve(kStreamPieceBytes + kStreamPieceBytes / 8);
  piece.swap(*streamed_);
  (*sink_)(std::move(piece));
}

void Interpreter::render_template(std::shared_ptr<const Template> tmpl, std::shared_ptr<Frame> root) {
  if (active_templates_.size() >= kMaxTemplateDepth) {
    // Show the repeating part of the chain: "a -> b -> a".
    size_t start = 0;
    for (size_t i = active_templates_.size(); i-- > 0;) {
      if (active_templates_[i] == tmpl->name) {
        start = i;
        break;
      }
    }
    std::string chain;
    for (size_t i = start; i < active_templates_.size(); ++i) chain.append(active_templates_[i]).append(" -> ");
    throw EvalError("include cycle: " + chain + tmpl->name + " (templates nested more than " +
                    std::to_string(kMaxTemplateDepth) + " deep)");
  }
  RenderState state;
  state.root = root;
  StateGuard guard(*this);
  std::string* const template_out = out_;
  state_ = &state;
  frame_ = root;
  active_templates_.push_back(tmpl->name);
  keep_alive_.push_back(tmpl);
  std::shared_ptr<const Template> level = tmpl;
  while (level) {
    current_ = level.get();
    state.extends_chain.push_back(current_);
    for (const auto& [name, block] : level->blocks) state.blocks[name].push_back({block, level.get()});
    state.parent = nullptr;
    out_ = template_out;  // an `extends` in the level before sent its top-level output to discard_
    render_body(level->body);
    level = state.parent;
    if (level) keep_alive_.push_back(level);
  }
}

std::shared_ptr<const Template> Interpreter::load(const Value& name, size_t offset, bool ignore_missing) {
  std::vector<Value> candidates;
  if (name.is_list_like()) candidates = to_vector(name);
  else candidates.push_back(name);
  std::string tried;
  for (const Value& candidate : candidates) {
    if (candidate.is_undefined()) fail_undefined(candidate);
    if (!candidate.is_str()) raise_at(current_, offset, "template name must be a string, not " + std::string(type_name(candidate)));
    std::string key(candidate.str());
    if (auto found = store_.find(key)) return found;
    if (!tried.empty()) tried += ", ";
    tried += "'" + key + "'";
  }
  if (ignore_missing) return nullptr;
  std::string message = candidates.size() == 1 ? "template " + tried + " not found"
                                               : "none of the templates given were found: " + tried;
  raise_at(current_, offset, message + " (searched " + store_.describe_search() + ")", TemplateErrorKind::NotFound);
}

void Interpreter::render_include(const IncludeStmt& stmt) {
  auto tmpl = load(eval(*stmt.name), stmt.name->offset, stmt.ignore_missing);
  if (!tmpl) return;
  auto root = std::make_shared<Frame>();
  root->parent = stmt.with_context ? frame_ : globals_frame();
  root->hides_loop = true;
  try {
    render_template(tmpl, root);
  } catch (const EvalError& error) {
    raise_at(current_, stmt.offset, error.what(), error.template_kind());
  }
}

std::shared_ptr<Frame> Interpreter::render_module(std::shared_ptr<const Template> tmpl, bool with_context) {
  auto root = std::make_shared<Frame>();
  root->parent = with_context ? frame_ : globals_frame();
  std::string discard;
  {
    StateGuard guard(*this);
    out_ = &discard;
    render_template(tmpl, root);
  }
  return root;
}

namespace {
Value make_module(const std::shared_ptr<const Template>& tmpl, std::shared_ptr<Frame> frame) {
  auto module = std::make_shared<Module>();
  module->name = tmpl->name;
  module->frame = std::move(frame);
  module->tmpl = tmpl;
  return Value::object(std::move(module));
}
}  // namespace

void Interpreter::render_import(const ImportStmt& stmt) {
  auto tmpl = load(eval(*stmt.name), stmt.name->offset, false);
  std::shared_ptr<Frame> module_frame;
  try {
    module_frame = render_module(tmpl, stmt.with_context);
  } catch (const EvalError& error) {
    raise_at(current_, stmt.offset, error.what(), error.template_kind());
  }
  keep_closure(module_frame);
  frame_->set(stmt.alias, make_module(tmpl, module_frame));
}

void Interpreter::render_from_import(const FromImportStmt& stmt) {
  auto tmpl = load(eval(*stmt.name), stmt.name->offset, false);
  std::shared_ptr<Frame> module_frame;
  try {
    module_frame = render_module(tmpl, stmt.with_context);
  } catch (const EvalError& error) {
    raise_at(current_, stmt.offset, error.what(), error.template_kind());
  }
  for (size_t i = 0; i < stmt.names.size(); ++i) {
    const auto& [name, alias] = stmt.names[i];
    const Value* found = module_frame->find_local(name);
    if (found) {
      frame_->set(alias, *found);
    } else {
      frame_->set(alias, Value::undefined_with("the template '" + tmpl->name + "' (imported on line " +
                                              std::to_string(source_location(*current_, stmt.offset).line) +
                                              ") does not export the requested name '" + name + "'"));
    }
  }
}

void Interpreter::render_extends(const ExtendsStmt& stmt) {
  if (state_->parent) raise_at(current_, stmt.offset, "extended multiple times");
  state_->parent = load(eval(*stmt.name), stmt.name->offset, false);
  const auto& chain = state_->extends_chain;
  if (std::find(chain.begin(), chain.end(), state_->parent.get()) != chain.end()) {
    std::string names;
    for (auto it = std::find(chain.begin(), chain.end(), state_->parent.get()); it != chain.end(); ++it)
      names += (*it)->name + " -> ";
    raise_at(current_, stmt.offset, "extends cycle: " + names + state_->parent->name);
  }
  // Jinja keeps running the child's top level (assignments, imports) but drops its output.
  discard_.clear();
  out_ = &discard_;
}

void Interpreter::render_block_stmt(const BlockStmt& stmt) {
  if (state_->parent) return;
  // As in Jinja2, the statement that renders the block decides whether it is scoped (sees
  // the loop variables around it), not the child template that overrides the block.
  *out_ += render_block(state_->blocks, stmt.name, 0, stmt.scoped ? frame_ : nullptr);
}

std::string Interpreter::render_block(const BlockMap& blocks, std::string_view name, size_t level,
                                      std::shared_ptr<Frame> scope) {
  auto found = blocks.find(name);
  if (found == blocks.end() || level >= found->second.size()) {
    if (found != blocks.end() && level > 0) throw EvalError("there is no parent block called '" + std::string(name) + "'.");
    throw EvalError("no block named '" + std::string(name) + "'");
  }
  const BlockEntry& entry = found->second[level];
  if (entry.block->required && level == 0 && found->second.size() == 1)
    throw EvalError("Required block '" + std::string(name) + "' not found");
  auto inner = std::make_shared<Frame>();
  inner->parent = scope ? scope : (state_ ? state_->root : frame_);
  auto super_ref = std::make_shared<BlockRenderer>();
  super_ref->blocks = &blocks;
  super_ref->name = std::string(name);
  super_ref->level = level + 1;
  super_ref->scope = scope;
  if (level + 1 < found->second.size()) inner->vars.emplace_back("super", Value::object(super_ref));
  else inner->vars.emplace_back("super", Value::undefined_with("there is no parent block called '" + std::string(name) + "'."));
  inner->vars.emplace_back("self", self_reference(blocks));
  StateGuard guard(*this);
  frame_ = inner;
  current_ = entry.tmpl;
  return capture(entry.block->body);
}

}  // namespace gkebuild::jinja
