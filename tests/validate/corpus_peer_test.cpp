// The corpus (tests/validate/corpus, written by generate.py) and every example project
// rendered now: our schema verdict per file must equal kubernetes-validate's in strict
// mode, except for the files listed with a reason in corpus/known_differences.txt.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/run.h"
#include "common/temp_dir.h"

namespace gkebuild::validate {
namespace {

using testing::run_command;
using testing::shell_quoted;
using testing::TempDir;

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

// The corpus files as they are, plus every example project rendered now (one file per
// object), under one scratch folder so both tools see the same relative names.
std::vector<std::string> prepare_corpus(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  fs::create_directory_symlink(kCorpus + "/files", root / "files");
  fs::create_directory_symlink(kCorpus + "/syntax", root / "syntax");
  for (const auto& entry : fs::directory_iterator(std::string(GKEBUILD_SOURCE_ROOT) + "/examples")) {
    if (!fs::exists(entry.path() / "gkebuild.yaml")) continue;
    auto out = root / "rendered" / entry.path().filename();
    auto rendered = run_command(testing::gkebuild_binary() + " render -f " +
                                shell_quoted((entry.path() / "gkebuild.yaml").string()) + " --run-id corpus -o " +
                                shell_quoted(out.string()) + " 2>&1");
    EXPECT_EQ(rendered.exit_code, 0) << entry.path() << ": " << rendered.out;
  }
  auto listed =
      run_command("cd " + shell_quoted(root.string()) + " && ls files/*.yaml syntax/*.yaml rendered/*/*.yaml");
  std::istringstream list(listed.out);
  std::vector<std::string> files;
  for (std::string f; std::getline(list, f);) files.push_back(f);
  return files;
}

std::string joined(const std::vector<std::string>& files) {
  std::string out;
  for (const auto& f : files) out += " " + shell_quoted(f);
  return out;
}

TEST(Corpus, SchemaVerdictAgreesWithKubernetesValidateStrict) {
  if (run_command("python3 -c 'import kubernetes_validate' 2>/dev/null").exit_code != 0)
    GTEST_SKIP() << "kubernetes-validate is not installed (scripts/setup.sh installs it)";
  TempDir scratch;
  const std::vector<std::string> files = prepare_corpus(scratch.path());
  ASSERT_GE(files.size(), 200u);
  const auto rendered_count = std::count_if(files.begin(), files.end(),
                                            [](const std::string& f) { return f.starts_with("rendered/"); });
  EXPECT_GE(rendered_count, 20) << "every example project's rendered objects belong in the corpus";
  std::string cd = "cd " + shell_quoted(scratch.path().string()) + " && ";

  auto peer = run_command(cd + "python3 " + shell_quoted(kCorpus + "/kubernetes_validate_verdicts.py") + " 1.37" +
                          joined(files));
  ASSERT_EQ(peer.exit_code, 0) << peer.out;
  std::map<std::string, std::string> theirs;
  std::istringstream lines(peer.out);
  for (std::string file, verdict; lines >> file >> verdict;) theirs[file] = verdict;
  ASSERT_EQ(theirs.size(), files.size());

  TempDir cache;
  auto ours_out = run_command(cd + "XDG_CACHE_HOME=" + shell_quoted(cache.path().string()) + " " +
                              testing::gkebuild_binary() + " validate -k 1.37 -o json --fail-on never" + joined(files));
  ASSERT_EQ(ours_out.exit_code, 0) << ours_out.out;
  std::set<std::string> invalid;
  for (const auto& f : nlohmann::json::parse(ours_out.out)) {
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
