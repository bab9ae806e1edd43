// Table-driven checks against outputs recorded from Python Jinja2 3.1.6 with the same
// template, context and options (extensions: loopcontrols).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "tool/core/jinja/environment.h"

namespace gkebuild::jinja::testing {

struct Flags {
  bool trim_blocks = false;
  bool lstrip_blocks = false;
  bool keep_trailing_newline = false;
  bool strict = false;
};

struct Case {
  const char* tmpl;
  const char* context;  // JSON object
  const char* expected;
  Flags flags;
};

inline Options options_for(const Flags& flags) {
  Options options;
  options.trim_blocks = flags.trim_blocks;
  options.lstrip_blocks = flags.lstrip_blocks;
  options.keep_trailing_newline = flags.keep_trailing_newline;
  options.undefined = flags.strict ? UndefinedMode::Strict : UndefinedMode::Lenient;
  return options;
}

inline std::string render_case(const Case& c) {
  Environment env(options_for(c.flags));
  return env.render_string(c.tmpl, nlohmann::ordered_json::parse(c.context));
}

template <size_t N>
void expect_cases(const Case (&cases)[N]) {
  for (const Case& c : cases) {
    try {
      EXPECT_EQ(render_case(c), c.expected) << "template: " << c.tmpl;
    } catch (const std::exception& error) {
      ADD_FAILURE() << "template: " << c.tmpl << "\nthrew: " << error.what();
    }
  }
}

// Renders with in-memory templates, lenient undefined unless asked.
inline std::string render(const std::string& tmpl, const std::string& context = "{}",
                          UndefinedMode mode = UndefinedMode::Lenient) {
  Options options;
  options.undefined = mode;
  Environment env(options);
  return env.render_string(tmpl, nlohmann::ordered_json::parse(context));
}

}  // namespace gkebuild::jinja::testing
