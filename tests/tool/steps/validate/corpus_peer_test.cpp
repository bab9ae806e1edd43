// The corpus (tests/tool/steps/validate/corpus, written by generate.py) and every example project
// rendered now: our schema verdict per file must equal kubernetes-validate's in strict
// mode, except for the files listed with a reason in corpus/known_differences.txt; and
// every rendered object of the examples must be accepted by both.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "peer_verdicts.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::validate {
namespace {

using testing::run_command;
using testing::shell_quoted;
using testing::TempDir;

const std::string kCorpus = std::string(GKEBUILD_SOURCE_ROOT) + "/tests/tool/steps/validate/corpus";

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

// kubeconform (built from its source, tests/peers/kubeconform) with -strict on the same files,
// against standalone strict schemas made from kubernetes-validate's: gkebuild's schema verdict per
// file must equal kubeconform's, except for the files in corpus/known_differences_kubeconform.txt.
TEST(Corpus, SchemaVerdictAgreesWithKubeconformStrict) {
  const std::string kubeconform = kubeconform_binary();
  if (kubeconform.empty()) {
    if (std::getenv("CI")) FAIL() << "no kubeconform: scripts/setup.sh builds it (scripts/build-peers.sh)";
    GTEST_SKIP() << "kubeconform is not built (scripts/build-peers.sh)";
  }
  if (!have_kubernetes_validate()) GTEST_SKIP() << "kubernetes-validate (its schemas) is not installed";
  TempDir scratch;
  TempDir schemas;
  const std::vector<std::string> files = prepare_corpus(scratch.path());
  ASSERT_GE(files.size(), 200u);
  auto theirs = kubeconform_verdicts(kubeconform, scratch.path().string(), schemas.path().string(), files);
  TempDir cache;
  auto ours = gkebuild_findings(scratch.path().string(), cache.path().string(), files);
  auto differences = read_reasons(kCorpus + "/known_differences_kubeconform.txt");
  auto counts = compare_schema_verdicts(files, theirs, ours, differences);
  EXPECT_GE(counts.invalid, 100);
  EXPECT_GE(counts.agreed, static_cast<int>(files.size()) - static_cast<int>(differences.size()));
}

TEST(Corpus, SchemaVerdictAgreesWithKubernetesValidateStrict) {
  if (!have_kubernetes_validate())
    GTEST_SKIP() << "kubernetes-validate is not installed (scripts/setup.sh installs it)";
  TempDir scratch;
  const std::vector<std::string> files = prepare_corpus(scratch.path());
  ASSERT_GE(files.size(), 200u);
  const auto rendered_count = std::count_if(files.begin(), files.end(),
                                            [](const std::string& f) { return f.starts_with("rendered/"); });
  EXPECT_GE(rendered_count, 20) << "every example project's rendered objects belong in the corpus";
  std::map<std::string, std::string> theirs = kubernetes_validate_verdicts(scratch.path().string(), files);
  ASSERT_EQ(theirs.size(), files.size());

  TempDir cache;
  auto ours = gkebuild_findings(scratch.path().string(), cache.path().string(), files);
  auto differences = read_reasons(kCorpus + "/known_differences.txt");
  auto [agreed, broken] = compare_schema_verdicts(files, theirs, ours, differences);
  EXPECT_GE(broken, 100);  // the corpus exercises the failure side as much as the valid one
  EXPECT_GE(agreed, static_cast<int>(files.size()) - static_cast<int>(differences.size()));
  // Every object the example projects render is accepted, not only judged alike: valid to
  // kubernetes-validate, and no error of any rule (schema, object-name, the GPU rules) here.
  for (const auto& file : files) {
    if (file.starts_with("rendered/")) {
      EXPECT_EQ(theirs[file], "valid") << file;
    }
  }
  for (const auto& finding : ours) {
    if (finding["severity"] == "error") {
      EXPECT_FALSE(finding["file"].get<std::string>().starts_with("rendered/")) << finding.dump();
    }
  }
}

}  // namespace
}  // namespace gkebuild::validate
