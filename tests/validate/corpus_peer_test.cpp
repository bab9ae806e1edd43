// The corpus (tests/validate/corpus, written by generate.py): our schema verdict per
// file must equal kubernetes-validate's in strict mode, except for the files listed
// with a reason in corpus/known_differences.txt.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "run_command.h"

namespace gkebuild::validate {
namespace {

using testing::quoted;
using testing::run_command;
using testing::ScratchDir;

const std::string kCorpus = std::string(GKEBUILD_SOURCE_ROOT) + "/tests/validate/corpus";

std::map<std::string, std::string> known_differences() {
  std::map<std::string, std::string> out;
  std::ifstream in(kCorpus + "/known_differences.txt");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    auto colon = line.find(": ");
    if (colon != std::string::npos) out[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return out;
}

TEST(Corpus, SchemaVerdictAgreesWithKubernetesValidateStrict) {
  if (run_command("python3 -c 'import kubernetes_validate' 2>/dev/null").exit_code != 0)
    GTEST_SKIP() << "kubernetes-validate is not installed (scripts/setup.sh installs it)";
  std::string cd = "cd " + quoted(kCorpus) + " && ";
  auto files_out = run_command(cd + "ls files/*.yaml syntax/*.yaml");
  std::istringstream list(files_out.output);
  std::vector<std::string> files;
  for (std::string f; std::getline(list, f);) files.push_back(f);
  ASSERT_GE(files.size(), 200u);

  auto peer = run_command(cd + "python3 kubernetes_validate_verdicts.py 1.37 files/*.yaml syntax/*.yaml");
  ASSERT_EQ(peer.exit_code, 0) << peer.output;
  std::map<std::string, std::string> theirs;
  std::istringstream lines(peer.output);
  for (std::string file, verdict; lines >> file >> verdict;) theirs[file] = verdict;
  ASSERT_EQ(theirs.size(), files.size());

  ScratchDir cache;
  auto ours_out = run_command(cd + "XDG_CACHE_HOME=" + quoted(cache.path().string()) + " " + quoted(GKEBUILD_BINARY) +
                              " validate -k 1.37 -o json --fail-on never files syntax");
  ASSERT_EQ(ours_out.exit_code, 0) << ours_out.output;
  std::set<std::string> invalid;
  for (const auto& f : nlohmann::json::parse(ours_out.output)) {
    static const std::set<std::string> kSchemaRules = {"schema", "yaml-syntax", "yaml-limits", "manifest"};
    if (f["severity"] == "error" && kSchemaRules.count(f["rule"])) invalid.insert(f["file"]);
  }
  auto differences = known_differences();
  int agreed = 0, broken = 0;
  for (const auto& file : files) {
    bool they_reject = theirs[file] == "invalid";
    bool we_reject = invalid.count(file) > 0;
    broken += they_reject;
    if (they_reject == we_reject) {
      ++agreed;
      EXPECT_FALSE(differences.count(file)) << file << " agrees now; remove it from known_differences.txt";
    } else {
      EXPECT_TRUE(differences.count(file)) << file << ": kubernetes-validate says " << theirs[file]
                                           << ", gkebuild " << (we_reject ? "invalid" : "valid");
    }
  }
  EXPECT_GE(broken, 100);  // the corpus exercises the failure side as much as the valid one
  EXPECT_GE(agreed, static_cast<int>(files.size()) - static_cast<int>(differences.size()));
}

}  // namespace
}  // namespace gkebuild::validate
