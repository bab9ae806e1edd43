// The project tests' check of a bad file (parsing `text` fails at line:column with `words`), and the
// head of a project file whose experiments a test writes from line 7 on.
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

namespace experiments_file {

inline const std::string kHead =
    "apiVersion: gkebuild/v1\n"        // 1
    "project: demo\n"                  // 2
    "registry: 127.0.0.1:5000/exp\n"   // 3
    "images:\n"                        // 4
    "  gemm: {workload: gemm-bench}\n" // 5
    "experiments:\n";                  // 6

inline Project parse(const std::string& rest) { return parse_project(kHead + rest, "gkebuild.yaml"); }

inline void expect_error(const std::string& rest, int line, int column, const std::string& words) {
  expect_parse_error(kHead + rest, line, column, words);
}

}  // namespace experiments_file

}  // namespace gkebuild::project
