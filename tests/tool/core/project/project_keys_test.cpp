// The keys of the project file are one table each (tool/core/project/project_keys.h): the parser
// accepts every key of them and no other, and a misspelt key is refused at its line:col with the
// key meant and what that key is. (docs/project-file.md is compared with them by scripts/check_docs.py.)
#include <gtest/gtest.h>

#include <string>

#include "tool/core/project/project_keys.h"
#include "tool/core/project/project.h"

namespace gkebuild::project {
namespace {

const std::string kProject =
    "apiVersion: gkebuild/v1\n"              // 1
    "project: keys\n"                        // 2
    "registry: registry.example/keys\n"      // 3
    "images:\n"                              // 4
    "  app: {workload: saxpy}\n"             // 5
    "experiments:\n"                         // 6
    "  train:\n"                             // 7
    "    image: app\n"                       // 8
    "    accelerators: [nvidia-tesla-t4]\n";  // 9

// The message of the error parsing `text`, or "" when it parses.
std::string error_of(const std::string& text, SourceLocation* where = nullptr) {
  try {
    parse_project(text, "gkebuild.yaml");
  } catch (const SourceError& e) {
    if (where) *where = e.where();
    return e.message();
  }
  return "";
}

// kProject with `line` added as line 10 (in experiment 'train').
std::string error_with(const std::string& line, SourceLocation* where = nullptr) {
  return error_of(kProject + line, where);
}

// kProject with `lines` added under images: from line 6 on.
std::string with_image(const std::string& lines) {
  std::string text = kProject;
  return text.insert(text.find("experiments:"), lines);
}

// Whether parsing fails for `text` as an unknown key.
bool refused_as_unknown(const std::string& text) {
  try {
    parse_project(text, "gkebuild.yaml");
  } catch (const SourceError& e) {
    return e.message().find("unknown key") != std::string::npos;
  }
  return false;
}

// A value of the wrong type for most keys: refused for its value, never as an unknown key.
TEST(ProjectKeys, TheParserAcceptsEveryKeyOfEachTable) {
  for (const auto& key : kExperimentKeys)
    if (key.name != "image" && key.name != "accelerators")  // given already
      EXPECT_FALSE(refused_as_unknown(kProject + "    " + std::string(key.name) + ": ~\n")) << key.name;
  for (const auto& key : kImageKeys)
    if (key.name != "workload")  // a workload or a dockerfile is needed; any other key may be ~
      EXPECT_FALSE(refused_as_unknown(with_image("  other:\n    " + std::string(key.name) + ": ~\n"))) << key.name;
  const std::string head = "apiVersion: gkebuild/v1\nproject: demo\nregistry: r.example/x\n";
  for (const auto& key : kTopLevelKeys)
    EXPECT_FALSE(refused_as_unknown(head + std::string(key.name) + ": ~\n")) << key.name;
}

TEST(ProjectKeys, NoTableHasAKeyTwiceAndEachKeySaysWhatItIs) {
  for (const ProjectKeys keys : {ProjectKeys(kTopLevelKeys), ProjectKeys(kImageKeys), ProjectKeys(kExperimentKeys)}) {
    const auto names = key_names(keys);
    for (std::size_t i = 0; i < names.size(); ++i) {
      EXPECT_EQ(find_key(keys, names[i]), &keys[i]) << names[i] << " is in the table twice";
      EXPECT_FALSE(keys[i].type.empty() || keys[i].meaning.empty()) << names[i];
    }
    EXPECT_EQ(find_key(keys, "spto"), nullptr);
  }
}

TEST(ProjectKeys, AMisspeltExperimentKeyIsRefusedWhereItIsWithTheKeyMeantAndWhatItIs) {
  SourceLocation where;
  EXPECT_EQ(error_with("    spto: true\n", &where),
            "unknown key 'spto' in experiment 'train' (did you mean 'spot'?): spot is a boolean, Spot VMs "
            "(provisioning: spot)");
  EXPECT_EQ(where.line, 10);
  EXPECT_EQ(where.column, 5);
  EXPECT_EQ(error_with("    ttlAfterFinish: 1h\n"),
            "unknown key 'ttlAfterFinish' in experiment 'train' (did you mean 'ttlAfterFinished'?): ttlAfterFinished "
            "is a duration, the Job's ttlSecondsAfterFinished");
}

TEST(ProjectKeys, AKeyNothingResemblesGetsNoSuggestion) {
  EXPECT_EQ(error_with("    colour: blue\n"), "unknown key 'colour' in experiment 'train'");
  // A key no table could hold is refused as such first, in printable text.
  EXPECT_EQ(error_with("    \"sp\\e[2Jot\": true\n"), "experiment 'train': key 'sp\\x1b[2Jot' holds a control character or invalid UTF-8");
}

TEST(ProjectKeys, MisspeltImageAndTopLevelKeysSayWhatTheKeyMeantIs) {
  SourceLocation where;
  EXPECT_EQ(error_of(with_image("  other: {dockerfle: Dockerfile}\n"), &where),
            "unknown key 'dockerfle' in image 'other' (did you mean 'dockerfile'?): dockerfile is a file, your "
            "Dockerfile (a .j2 one is a template)");
  EXPECT_EQ(where.line, 6);
  EXPECT_EQ(where.column, 11);
  EXPECT_EQ(error_of(kProject + "registy: r.example/x\n", &where),
            "unknown key 'registy' in the project file (did you mean 'registry'?): registry is a registry and "
            "repository, where images are pushed");
  EXPECT_EQ(where.line, 10);
  EXPECT_EQ(where.column, 1);
}

}  // namespace
}  // namespace gkebuild::project
