// The README's first page, followed literally: the command lines between its
// `<!-- walk: begin` and `<!-- walk: end -->` markers are run as written, one after another,
// in a fresh folder, with the gkebuild under test, the real RUN executor and runc. One
// deviation, because this machine has no network: `gkebuild init` also gets `--from` naming
// the Python base built here offline (tests/common/python_base.h) instead of Docker Hub's
// python:3.12-slim. Needs root.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "base/atomic_file.h"
#include "tests/common/python_base.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

namespace fs = std::filesystem;

// The shell lines of the README's walk, comments removed.
std::vector<std::string> walk_lines() {
  const std::string readme = read_file(fs::path(GKEBUILD_SOURCE_ROOT) / "README.md");
  const size_t begin = readme.find("<!-- walk: begin");
  const size_t end = readme.find("<!-- walk: end -->");
  EXPECT_NE(begin, std::string::npos);
  EXPECT_NE(end, std::string::npos);
  if (begin == std::string::npos || end == std::string::npos) return {};
  std::istringstream block(readme.substr(begin, end - begin));
  std::vector<std::string> lines;
  for (std::string line; std::getline(block, line);) {
    if (line.starts_with("<!--") || line.starts_with("```")) continue;
    if (const size_t comment = line.find("  #"); comment != std::string::npos) line.resize(comment);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

TEST(ReadmeWalk, TheFirstPageRunsAsWritten) {
  if (::geteuid() != 0) GTEST_SKIP() << "RUN and runc run rootful containers: this test needs root";
  TempDir dir;
  const std::string base = build_python_base(dir / "base");
  ASSERT_FALSE(base.empty());
  const auto lines = walk_lines();
  ASSERT_GE(lines.size(), 4u);
  fs::path here = dir / "fresh";
  fs::create_directories(here);
  std::string transcript, last;
  for (std::string line : lines) {
    if (line.starts_with("cd ")) {
      here /= line.substr(3);
      ASSERT_TRUE(fs::is_directory(here)) << line;
      continue;
    }
    ASSERT_TRUE(line.starts_with("gkebuild ")) << "the walk runs only gkebuild and cd: " << line;
    if (line.starts_with("gkebuild init")) line += " --from " + base;  // no network here (see above)
    const auto r = run_command("cd " + shell_quoted(here.string()) + " && " + gkebuild_binary() +
                               line.substr(8) + " 2>&1");
    transcript += "$ " + line + "\n" + r.out;
    ASSERT_EQ(r.exit_code, 0) << transcript;
    last = r.out;
  }
  EXPECT_NE(transcript.find("3 of 3 Jobs succeeded"), std::string::npos) << transcript;
  EXPECT_NE(last.find("train_loss"), std::string::npos) << transcript;  // the report
  std::cout << transcript;
}

}  // namespace
}  // namespace gkebuild::testing
