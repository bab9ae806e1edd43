// The experiment keys are one table (tool/core/project/experiment_keys.h): the parser accepts
// every key of it and no other, and a misspelt key is refused at its line:col with the key
// meant and what that key is. (docs/project-file.md is compared with it by scripts/check_docs.py.)
#include <gtest/gtest.h>

#include <string>

#include "tool/core/project/experiment_keys.h"
#include "tool/core/project/project.h"

namespace gkebuild::project {
namespace {

const std::string kProject =
    "apiVersion: gkebuild/v1\n"         // 1
    "project: demo\n"                   // 2
    "registry: 127.0.0.1:5000/exp\n"    // 3
    "images:\n"                         // 4
    "  gemm:\n"                         // 5
    "    workload: gemm-bench\n"        // 6
    "experiments:\n"                    // 7
    "  bench:\n"                        // 8
    "    image: gemm\n"                 // 9
    "    accelerators: [nvidia-l4]\n";  // 10

// The message of the error parsing kProject with `line` added as line 11, or "" when it parses.
std::string error_with(const std::string& line, SourceLocation* where = nullptr) {
  try {
    parse_project(kProject + line, "gkebuild.yaml");
  } catch (const SourceError& e) {
    if (where) *where = e.where();
    return e.message();
  }
  return "";
}

TEST(ExperimentKeys, TheParserAcceptsEveryKeyOfTheTable) {
  for (const auto& key : kExperimentKeys) {
    if (key.name == "image" || key.name == "accelerators") continue;  // given already
    // A value of the wrong type for most keys: refused for its value, never as an unknown key.
    const std::string message = error_with("    " + std::string(key.name) + ": ~\n");
    EXPECT_EQ(message.find("unknown key"), std::string::npos) << key.name << ": " << message;
  }
}

TEST(ExperimentKeys, TheTableHasNoKeyTwiceAndEachSaysWhatItIs) {
  const auto names = experiment_key_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(find_experiment_key(names[i]), &kExperimentKeys[i]) << names[i] << " is in the table twice";
    EXPECT_FALSE(kExperimentKeys[i].type.empty()) << names[i];
    EXPECT_FALSE(kExperimentKeys[i].meaning.empty()) << names[i];
  }
  EXPECT_EQ(find_experiment_key("spto"), nullptr);
}

TEST(ExperimentKeys, AMisspeltKeyIsRefusedWhereItIsWithTheKeyMeantAndWhatItIs) {
  SourceLocation where;
  EXPECT_EQ(error_with("    spto: true\n", &where),
            "unknown key 'spto' in experiment 'bench' (did you mean 'spot'?): spot is a boolean, Spot VMs "
            "(provisioning: spot)");
  EXPECT_EQ(where.line, 11);
  EXPECT_EQ(where.column, 5);
  EXPECT_EQ(error_with("    ttlAfterFinish: 1h\n"),
            "unknown key 'ttlAfterFinish' in experiment 'bench' (did you mean 'ttlAfterFinished'?): ttlAfterFinished "
            "is a duration, the Job's ttlSecondsAfterFinished");
}

TEST(ExperimentKeys, AKeyNothingResemblesGetsNoSuggestion) {
  EXPECT_EQ(error_with("    colour: blue\n"), "unknown key 'colour' in experiment 'bench'");
  // A key no table could hold is refused as such first, in printable text.
  EXPECT_EQ(error_with("    \"sp\\e[2Jot\": true\n"), "experiment 'bench': key 'sp\\x1b[2Jot' holds a control character or invalid UTF-8");
}

}  // namespace
}  // namespace gkebuild::project
