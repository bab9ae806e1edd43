// Runtime objects that are not plain data: macros, loop state, namespaces, imported
// modules, bound methods and native functions.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tool/core/jinja/interpreter.h"

namespace gkebuild::jinja {

struct Macro : Object {
  std::string_view name;
  const MacroSignature* signature = nullptr;
  const Body* body = nullptr;
  // Not owning: a frame holds its macros, so an owning pointer back would be a cycle.
  // The Interpreter keeps every closure frame alive until its render ends.
  std::weak_ptr<Frame> closure;
  const Template* tmpl = nullptr;  // kept alive by the environment's cache for the render
  bool is_caller = false;

  std::string_view type_name() const override { return "Macro"; }
  bool callable() const override { return true; }
  Value call(Interpreter& interp, CallArgs& args) override { return interp.call_macro(*this, args); }
  void repr(std::string& out) const override { out += "<Macro '" + std::string(name) + "'>"; }
  Value get_attr(std::string_view attr) const override;
};

struct LoopObject : Object {
  const ForStmt* stmt = nullptr;
  const Sequence* sequence = nullptr;
  const std::vector<Value>* filtered = nullptr;
  size_t index0 = 0;
  size_t size = 0;
  int depth = 1;
  std::vector<Value> last_changed;
  bool changed_called = false;

  Value item(size_t i) const {
    if (filtered) return (*filtered)[i];
    if (sequence) return sequence->at(i);
    return Value::undefined_with("the loop has ended");
  }
  std::string_view type_name() const override { return "LoopContext"; }
  bool callable() const override { return stmt && stmt->recursive; }
  Value call(Interpreter& interp, CallArgs& args) override;
  Value get_attr(std::string_view name) const override;
  void repr(std::string& out) const override;
};

struct Namespace : Object {
  std::vector<std::pair<std::string, Value>> attrs;
  std::string_view type_name() const override { return "Namespace"; }
  Value get_attr(std::string_view name) const override;
  void set(std::string_view name, Value value);
  void repr(std::string& out) const override;
};

struct Module : Object {
  std::string name;
  std::weak_ptr<Frame> frame;  // not owning, like Macro::closure: the importer's frame may be its parent
  std::shared_ptr<const Template> tmpl;
  std::string_view type_name() const override { return "TemplateModule"; }
  Value get_attr(std::string_view attr) const override;
  void repr(std::string& out) const override { out += "<Template '" + name + "'>"; }
};

// `obj.method` for str, dict and list values; called later with the arguments.
struct BoundMethod : Object {
  Value self;
  std::string name;
  std::string_view type_name() const override { return "builtin_function_or_method"; }
  bool callable() const override { return true; }
  Value call(Interpreter& interp, CallArgs& args) override;
  void repr(std::string& out) const override;
};

using NativeFn = Value (*)(Interpreter&, CallArgs&);
struct NativeFunction : Object {
  std::string_view name;
  NativeFn fn = nullptr;
  std::shared_ptr<Object> bound;  // state for cycler/joiner methods
  std::string_view type_name() const override { return "function"; }
  bool callable() const override { return true; }
  Value call(Interpreter& interp, CallArgs& args) override { return fn(interp, args); }
  void repr(std::string& out) const override { out += "<function " + std::string(name) + ">"; }
};

// str/dict/list methods (methods.cpp): whether `name` is a method of the value's type,
// and calling it.
bool has_method(const Value& self, std::string_view name);
// Whether `name` is a method of dicts, whose keys then do not answer `d.name`.
bool is_dict_method(std::string_view name);
Value call_method(Interpreter& interp, const Value& self, std::string_view name, CallArgs& args);

// `self` in a template: attribute access renders the named block (render_templates.cpp).
Value self_reference(const BlockMap& blocks);

// Globals (globals.cpp): range, dict, namespace, cycler, joiner, required.
bool find_global(std::string_view name, Value& out);

}  // namespace gkebuild::jinja
