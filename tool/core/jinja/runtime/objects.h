// Runtime objects that are not plain data: macros, loop state, namespaces, imported
// modules, bound methods and native functions.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tool/core/jinja/builtins/effects.h"
#include "tool/core/jinja/runtime/interpreter.h"

namespace gkebuild::jinja {

// What a template can call as `x(...)`: a global function, a macro, a block, cycler.next,
// loop.changed, a bound str/dict/list method. What a call may change is declared when one is
// made, there is no default; Interpreter::call acts on it before it calls.
struct Callable : Object {
  explicit Callable(Effect effect) : effect(effect) {}
  Callable* as_callable() override { return this; }
  const Effect effect;

 private:
  friend class Interpreter;  // Interpreter::call, the only caller
  virtual Value call(Interpreter& interp, CallArgs& args) = 0;
};

// A macro's body may do anything a template can.
struct Macro : Callable {
  Macro() : Callable(Effect::ChangesState) {}
  std::string_view name;
  const MacroSignature* signature = nullptr;
  const Body* body = nullptr;
  // Not owning: a frame holds its macros, so an owning pointer back would be a cycle.
  // The Interpreter keeps every closure frame alive until its render ends.
  std::weak_ptr<Frame> closure;
  const Template* tmpl = nullptr;  // kept alive by the environment's cache for the render
  bool is_caller = false;

  std::string_view type_name() const override { return "Macro"; }
  Value call(Interpreter& interp, CallArgs& args) override { return interp.call_macro(*this, args); }
  void repr(std::string& out) const override { out += "<Macro '" + std::string(name) + "'>"; }
  Value get_attr(std::string_view attr) const override;
};

// Callable in a recursive loop only (`loop(children)`), which renders the loop again.
struct LoopObject : Callable {
  LoopObject() : Callable(Effect::ChangesState) {}
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
  Callable* as_callable() override { return stmt && stmt->recursive ? this : nullptr; }
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

// `obj.method` for str, dict and list values; called later with the arguments. It declares
// its method's effect: Interpreter::call acts on it, and call_method again (a no-op then).
struct BoundMethod : Callable {
  BoundMethod(Value self, const MethodEntry& method) : Callable(method.effect), self(std::move(self)), method(method) {}
  Value self;
  const MethodEntry& method;
  std::string_view type_name() const override { return "builtin_function_or_method"; }
  Value call(Interpreter& interp, CallArgs& args) override;
  void repr(std::string& out) const override;
};

// A global function (globals.cpp), with its entry's effect.
struct NativeFunction : Callable {
  explicit NativeFunction(const GlobalEntry& entry) : Callable(entry.effect), name(entry.name), fn(entry.fn) {}
  std::string_view name;
  NativeFn fn;
  std::string_view type_name() const override { return "function"; }
  Value call(Interpreter& interp, CallArgs& args) override { return fn(interp, args); }
  void repr(std::string& out) const override { out += "<function " + std::string(name) + ">"; }
};

// str/dict/list methods (methods.cpp). The entry of `name` among the methods of the value's
// type (a tuple has count and index); null when it has no method of that name.
const MethodEntry* find_method(const Value& self, std::string_view name);
inline bool has_method(const Value& self, std::string_view name) { return find_method(self, name) != nullptr; }
// Whether `name` is a method of dicts, whose keys then do not answer `d.name`.
bool is_dict_method(std::string_view name);
// Calls a method find_method gave for `self`: every method call comes here, and it acts on the
// method's Effect first.
Value call_method(Interpreter& interp, const Value& self, const MethodEntry& method, CallArgs& args);
// The tables (for tests/tool/core/jinja/effects_test.cpp).
std::span<const MethodEntry> str_methods();
std::span<const MethodEntry> dict_methods();
std::span<const MethodEntry> list_methods();

// `self` in a template: attribute access renders the named block (render_templates.cpp).
Value self_reference(const BlockMap& blocks);

// Globals (globals.cpp): range, dict, namespace, cycler, joiner, required, lipsum.
bool find_global(std::string_view name, Value& out);
std::span<const GlobalEntry> global_entries();  // find_global's table

}  // namespace gkebuild::jinja
