// An example call of every dict and list method of tool/core/jinja/builtins/methods.cpp, on a template-built
// container, for the tests that walk the method tables (effects_test.cpp, split_loop_test.cpp):
// a method added without an example here fails them.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <span>
#include <string>
#include <string_view>

#include "tool/core/jinja/runtime/objects.h"

namespace gkebuild::jinja::testing {

struct MethodExamples {
  std::string_view owner;  // "dict" or "list"
  std::span<const MethodEntry> table;
  std::string literal;  // the container the calls are made on, as the template writes it and prints it
  std::map<std::string_view, std::string> calls;  // method name -> its arguments, in parentheses
};

inline const MethodExamples (&method_examples())[2] {
  static const MethodExamples examples[2] = {
      {"dict", dict_methods(), "{'a': 1, 'b': 2}",
       {{"items", "()"}, {"keys", "()"}, {"values", "()"}, {"get", "('a')"}, {"copy", "()"}, {"clear", "()"},
        {"fromkeys", "(['a'])"}, {"pop", "('a')"}, {"popitem", "()"}, {"setdefault", "('c', 3)"},
        {"update", "({'c': 3})"}}},
      {"list", list_methods(), "[3, 2, 1]",
       {{"count", "(2)"}, {"index", "(2)"}, {"copy", "()"}, {"append", "(4)"}, {"extend", "([4])"},
        {"insert", "(0, 4)"}, {"pop", "(0)"}, {"remove", "(2)"}, {"reverse", "()"}, {"clear", "()"}}},
  };
  return examples;
}

// `x.name(args)`, the example call of a method; empty (and a test failure) when there is none.
inline std::string example_call(const MethodExamples& examples, std::string_view name) {
  const auto call = examples.calls.find(name);
  if (call == examples.calls.end()) {
    ADD_FAILURE() << examples.owner << "." << name << " has no example call in tests/tool/core/jinja/method_examples.h";
    return "";
  }
  return "x." + std::string(name) + call->second;
}

}  // namespace gkebuild::jinja::testing
