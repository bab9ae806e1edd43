// The project tests' check of a bad file: parsing `text` fails at line:column with `words`.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "tool/core/project/project.h"

namespace gkebuild::project {

inline void expect_parse_error(const std::string& text, int line, int column, const std::string& words) {
  try {
    parse_project(text, "gkebuild.yaml");
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const SourceError& e) {
    EXPECT_EQ(e.where().line, line) << e.what();
    EXPECT_EQ(e.where().column, column) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

}  // namespace gkebuild::project
