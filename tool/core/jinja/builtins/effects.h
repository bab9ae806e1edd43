// What calling a filter, test, method or global may change, declared in its table entry.
//
// A loop whose iterations run on several threads (split_loop.cpp) stays correct only while no
// iteration changes what another one can see. So every entry of every table a template calls
// into says which it is, with no default: an entry without its Effect does not compile, and
// tests/tool/core/jinja/effects_test.cpp walks the tables and fails for one whose Effect is not one of
// the two below. The interpreter acts on the declaration where the call is dispatched
// (Interpreter::before_call), not the callee: a new filter with state cannot forget it.
#pragma once

#include <cstdint>
#include <string_view>

#include "tool/core/jinja/syntax/ast.h"

namespace gkebuild::jinja {

enum class Effect : uint8_t {
  // No 0: a value-initialized Effect{} declares nothing. effects_test fails for it, and the
  // interpreter treats it as ChangesState.
  ReadsOnly = 1,     // reads its arguments and the render's data; changes nothing
  ChangesState = 2,  // changes what a later call can see (a template-built list, a cycler, the
                     // random generator) or may do anything a template can (a macro, a block)
};

struct FilterEntry {
  constexpr FilterEntry(std::string_view name, FilterFn fn, Effect effect, AppendFilterFn append = nullptr)
      : name(name), fn(fn), append(append), effect(effect) {}
  std::string_view name;
  FilterFn fn;
  AppendFilterFn append;  // the same filter writing into the output (tojson); null for most
  Effect effect;
};

struct TestEntry {
  constexpr TestEntry(std::string_view name, TestFn fn, Effect effect) : name(name), fn(fn), effect(effect) {}
  std::string_view name;
  TestFn fn;
  Effect effect;
};

// A str, dict or list method (methods.cpp), run by name.
struct MethodEntry {
  constexpr MethodEntry(std::string_view name, Effect effect) : name(name), effect(effect) {}
  std::string_view name;
  Effect effect;
};

using NativeFn = Value (*)(Interpreter&, CallArgs&);
struct GlobalEntry {
  constexpr GlobalEntry(std::string_view name, NativeFn fn, Effect effect) : name(name), fn(fn), effect(effect) {}
  std::string_view name;
  NativeFn fn;
  Effect effect;
};

}  // namespace gkebuild::jinja
