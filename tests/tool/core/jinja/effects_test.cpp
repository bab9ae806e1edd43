// Every filter, test, method and global declares in its table entry what calling it may change
// (tool/core/jinja/builtins/effects.h), and the engine acts on that declaration. These walk every table.
#include <gtest/gtest.h>

#include <span>
#include <string>

#include "jinja_cases.h"
#include "method_examples.h"
#include "tool/core/jinja/builtins/effects.h"
#include "tool/core/jinja/builtins/filters.h"
#include "tool/core/jinja/runtime/objects.h"
#include "tool/core/jinja/builtins/tests.h"

namespace gkebuild::jinja {
namespace {

using testing::render;

// One of the two declarations; Effect{} (what an entry would hold had it been made without
// one, a value-initialized field) is neither.
bool declared(Effect effect) { return effect == Effect::ReadsOnly || effect == Effect::ChangesState; }

TEST(Effects, TheCheckRefusesAnEntryWithoutADeclaration) {
  EXPECT_FALSE(declared(Effect{}));
  EXPECT_FALSE(declared(static_cast<Effect>(3)));
}

// Each table's entries declare their effect, and a lookup by name finds that very entry: a
// second entry of the same name would never be the one called, whatever it declares.
TEST(Effects, EveryFilterTestMethodAndGlobalDeclaresItsEffect) {
  for (const FilterEntry& filter : filter_entries()) {
    EXPECT_TRUE(declared(filter.effect)) << "filter " << filter.name;
    EXPECT_EQ(find_filter(filter.name), &filter) << "filter " << filter.name;
  }
  for (const TestEntry& test : test_entries()) {
    EXPECT_TRUE(declared(test.effect)) << "test " << test.name;
    EXPECT_EQ(find_test(test.name), &test) << "test " << test.name;
  }
  const std::pair<const char*, Value> owners[] = {
      {"str", Value::borrowed("text")}, {"dict", Value::dict({})}, {"list", Value::list({})}};
  const std::span<const MethodEntry> tables[] = {str_methods(), dict_methods(), list_methods()};
  for (size_t i = 0; i < std::size(tables); ++i) {
    for (const MethodEntry& method : tables[i]) {
      EXPECT_TRUE(declared(method.effect)) << owners[i].first << "." << method.name;
      EXPECT_EQ(find_method(owners[i].second, method.name), &method) << owners[i].first << "." << method.name;
    }
  }
  for (const GlobalEntry& global : global_entries()) {
    EXPECT_TRUE(declared(global.effect)) << "global " << global.name;
    Value found;
    ASSERT_TRUE(find_global(global.name, found)) << "global " << global.name;
    ASSERT_NE(found.object_ptr()->as_callable(), nullptr) << "global " << global.name;
    EXPECT_EQ(found.object_ptr()->as_callable()->effect, global.effect) << "global " << global.name;
  }
}

// What is known to change state says so (the split loop's correctness rests on these).
TEST(Effects, WhatChangesStateIsDeclaredSo) {
  EXPECT_EQ(find_filter("random")->effect, Effect::ChangesState);
  for (const GlobalEntry& global : global_entries())
    EXPECT_EQ(global.effect, global.name == "lipsum" ? Effect::ChangesState : Effect::ReadsOnly) << global.name;
  for (const MethodEntry& method : str_methods()) EXPECT_EQ(method.effect, Effect::ReadsOnly) << "str." << method.name;
  for (const TestEntry& test : test_entries()) EXPECT_EQ(test.effect, Effect::ReadsOnly) << "test " << test.name;
}

// A dict or list method declared ReadsOnly leaves a template-built container as it was; one
// declared ChangesState changes it, or refuses (fromkeys and popitem are not supported).
TEST(Effects, ADictOrListMethodChangesItsContainerExactlyWhenDeclaredSo) {
  for (const testing::MethodExamples& examples : testing::method_examples()) {
    for (const MethodEntry& method : examples.table) {
      const std::string call = testing::example_call(examples, method.name);
      if (call.empty()) continue;
      const std::string tmpl = "{% set x = " + examples.literal + " %}{% set r = " + call + " %}{{ x }}";
      std::string after;
      try {
        after = render(tmpl);
      } catch (const std::exception& error) {
        after = error.what();
        EXPECT_NE(after.find("is not supported"), std::string::npos) << tmpl << ": " << after;
      }
      if (method.effect == Effect::ReadsOnly) EXPECT_EQ(after, examples.literal) << tmpl;
      else EXPECT_NE(after, examples.literal) << tmpl;
    }
  }
}

}  // namespace
}  // namespace gkebuild::jinja
