// `search:` and `budget:` from the command line (issue 46): a search's trials as Jobs with their
// sampled args, and a submit refused at the budget key (exit 2, nothing printed, built or
// recorded) when its worst case passes the budget.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

// Line 13 holds the budget; line 11 the provisioning.
constexpr const char* kProject = R"(apiVersion: gkebuild/v1
project: searches
registry: registry.test/exp
images:
  trainer:
    from: registry.test/base:1
    entrypoint: ["python", "/app/train.py"]
experiments:
  train:
    image: trainer
    provisioning: on-demand
    timeout: 1h
    budget: BUDGET
    args: ["--lr", "{{ lr }}", "--hidden", "{{ hidden }}", "--opt", "{{ opt }}"]
    accelerators: [nvidia-l4]
    search:
      trials: 20
      seed: 7
      variables:
        lr: {min: 1e-5, max: 1e-1, log: true}
        hidden: {min: 32, max: 512, integer: true}
        opt: {choices: [sgd, adam]}
)";

class SearchBudget : public ::testing::Test {
 protected:
  void write_project(const std::string& budget, const std::string& from = "", const std::string& to = "") {
    std::string text = kProject;
    text.replace(text.find("BUDGET"), 6, budget);
    if (!from.empty()) text.replace(text.find(from), from.size(), to);
    std::ofstream(project.path() / "gkebuild.yaml") << text;
  }
  // No kubeconfig: the dry run sends nothing anywhere.
  CommandResult gkebuild(const std::string& arguments, const std::string& kubeconfig = "/nonexistent/kubeconfig") {
    return run_command("cd " + shell_quoted(project.path().string()) + " && HOME=" + shell_quoted(home.path().string()) +
                       " KUBECONFIG=" + shell_quoted(kubeconfig) + " " + gkebuild_binary() + " " + arguments);
  }
  void expect_refused(const CommandResult& result, const std::vector<std::string>& words) {
    EXPECT_EQ(result.exit_code, 2) << result.err;
    for (const auto& word : words) EXPECT_NE(result.err.find(word), std::string::npos) << word << "\n" << result.err;
    EXPECT_EQ(result.out, "") << "YAML printed for a refused run";
    EXPECT_FALSE(std::filesystem::exists(project / ".gkebuild")) << "something was built or recorded";
  }
  TempDir project;
  TempDir home;
};

std::size_t count_of(const std::string& text, const std::string& word) {
  std::size_t n = 0;
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
  return n;
}

TEST_F(SearchBudget, WithinTheBudgetEachTrialIsAJob) {
  write_project("{gpuHours: 100, usd: 50}");
  const auto result = gkebuild("submit train --dry-run");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(count_of(result.out, "kind: Job\n"), 20U);
  // 20 Jobs x 1 node x 1 h at the catalog's on-demand g2-standard-4 with its L4 ($0.70683 an hour).
  EXPECT_NE(result.err.find("budget: worst case 20 of 100 GPU-hours, $14.14 of $50.00"), std::string::npos) << result.err;
  // The sampled values reach the args, and the same file gives the same Jobs.
  EXPECT_NE(result.out.find("- \"--opt\"\n"), std::string::npos) << result.out;
  const auto again = gkebuild("submit train --dry-run");
  auto args_of = [](const std::string& out) {
    std::string args;
    for (auto at = out.find("gkebuild.io/point: "); at != std::string::npos; at = out.find("gkebuild.io/point: ", at + 1))
      args += out.substr(at, out.find('\n', at) - at) + "\n";
    return args;
  };
  EXPECT_FALSE(args_of(result.out).empty()) << result.out;
  EXPECT_EQ(args_of(result.out), args_of(again.out));
  write_project("{gpuHours: 100}", "seed: 7", "seed: 8");
  EXPECT_NE(args_of(gkebuild("submit train --dry-run").out), args_of(result.out));
}

TEST_F(SearchBudget, PastTheGpuHoursRefusedAtTheKey) {
  write_project("{gpuHours: 10}");
  expect_refused(gkebuild("submit train --dry-run"),
                 {"gkebuild.yaml:13:24", "worst case is 20 GPU-hours", "10 over the budget of 10",
                  "search.trials (20; at most 10 fit)", "timeout (3600s; at most 1800s fits)"});
}

TEST_F(SearchBudget, PastTheDollarsRefusedAtTheKey) {
  write_project("{gpuHours: 100, usd: 5}");
  expect_refused(gkebuild("submit train --dry-run"),
                 {"gkebuild.yaml:13:34", "budget.usd", "$14.14", "$9.14 over", "at most 7 fit"});
}

TEST_F(SearchBudget, DollarsOfUnpricedGpusCannotBeChecked) {
  write_project("{usd: 500}", "on-demand", "flex-start");
  expect_refused(gkebuild("submit train --dry-run"), {"cannot be priced", "nvidia-l4 (flex-start)", "gpuHours only"});
  write_project("{gpuHours: 500}", "on-demand", "flex-start");
  EXPECT_EQ(gkebuild("submit train --dry-run").exit_code, 0);
}

// A real submit refuses before it builds, pushes or records anything (the cluster is never reached).
TEST_F(SearchBudget, SubmitRefusesBeforeAnythingIsBuilt) {
  write_project("{gpuHours: 10}");
  const auto kubeconfig = home.path() / "kubeconfig";
  std::ofstream(kubeconfig) << "apiVersion: v1\nkind: Config\ncurrent-context: c\n"
                               "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:9'}}]\n"
                               "contexts: [{name: c, context: {cluster: c, user: u}}]\n"
                               "users: [{name: u, user: {token: t}}]\n";
  expect_refused(gkebuild("submit train", kubeconfig.string()), {"gkebuild.yaml:13:24", "10 over the budget"});
}

TEST_F(SearchBudget, AVariableNoFieldReadsIsRefused) {
  write_project("{gpuHours: 100}", "\"--opt\", \"{{ opt }}\"", "\"--optimizer\", \"sgd\"");
  expect_refused(gkebuild("submit train --dry-run"), {"search variable 'opt': no field of experiment 'train' reads it"});
}

// --sweep on a search variable fixes it; the search samples the others (none left: one point).
TEST_F(SearchBudget, SweepFlagFixesASearchVariable) {
  write_project("{gpuHours: 100}");
  const auto fixed = gkebuild("submit train --dry-run --sweep opt=adam");
  ASSERT_EQ(fixed.exit_code, 0) << fixed.err;
  EXPECT_EQ(count_of(fixed.out, "kind: Job\n"), 20U);
  // An arg item, quoted or not as the template writes it.
  auto items = [](const std::string& out, const std::string& value) {
    return count_of(out, "- " + value + "\n") + count_of(out, "- \"" + value + "\"\n");
  };
  EXPECT_EQ(items(fixed.out, "adam"), 20U) << fixed.out;
  EXPECT_EQ(items(fixed.out, "sgd"), 0U);
  const auto all = gkebuild("submit train --dry-run --sweep opt=sgd --sweep lr=0.1 --sweep hidden=64");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(count_of(all.out, "kind: Job\n"), 1U);
}

TEST_F(SearchBudget, HalvingNeedsAnObjective) {
  write_project("{gpuHours: 100}", "trials: 20", "algorithm: halving\n      trials: 20");
  expect_refused(gkebuild("submit train --dry-run"), {"gkebuild.yaml:17:18", "give the search an objective"});
}

}  // namespace
}  // namespace gkebuild::testing
