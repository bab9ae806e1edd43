// submit's flags as the CLI binds them: each into the part of submit::SubmitOptions its step
// takes, and --logs and --network from their text into their enums, with CLI11's message for
// a name that is not one of them (the binary turns it into exit code 2: conventions_test).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tool/cli/submit_flags.h"

namespace gkebuild::cli {
namespace {

using submit::LocalNetwork;
using submit::LogPolicy;

// `gkebuild submit ARGUMENTS` parsed by the flags submit adds; the options they give.
class SubmitFlagsTest : public ::testing::Test {
 protected:
  submit::SubmitOptions parse(const std::vector<std::string>& arguments) {
    std::vector<std::string> reversed{"exp"};  // CLI11 takes the arguments last first
    reversed.insert(reversed.begin(), arguments.rbegin(), arguments.rend());
    app.parse(reversed);
    return submit_options(flags);
  }
  // The message CLI11 gives for `arguments`, as the binary prints it before "Run with --help".
  std::string refusal(const std::vector<std::string>& arguments) {
    try {
      parse(arguments);
    } catch (const CLI::ParseError& error) {
      EXPECT_NE(error.get_exit_code(), 0);
      return error.what();
    }
    return "accepted";
  }

  CLI::App app;
  SubmitFlags flags;
  void SetUp() override {
    add_submit_flags(app, flags);
    flags.project.file = "gkebuild.yaml";  // what -f gives: no search for a project from the test's folder
  }
};

TEST_F(SubmitFlagsTest, LogsTextBecomesTheLogPolicy) {
  EXPECT_EQ(parse({}).follow.logs, LogPolicy::Failed);
  EXPECT_EQ(parse({"--logs", "all"}).follow.logs, LogPolicy::All);
}

TEST_F(SubmitFlagsTest, LogsFailedIsTakenWhateverTheDefault) {
  flags.options.follow.logs = LogPolicy::All;
  EXPECT_EQ(parse({"--logs", "failed"}).follow.logs, LogPolicy::Failed);
}

TEST_F(SubmitFlagsTest, NetworkTextBecomesTheLocalNetwork) {
  EXPECT_EQ(parse({}).network, LocalNetwork::Private);
  EXPECT_EQ(parse({"--network", "host"}).network, LocalNetwork::Host);
}

TEST_F(SubmitFlagsTest, NetworkPrivateIsTakenWhateverTheDefault) {
  flags.options.network = LocalNetwork::Host;
  EXPECT_EQ(parse({"--network", "private"}).network, LocalNetwork::Private);
}

TEST_F(SubmitFlagsTest, AnUnknownNameIsRefusedWithTheNamesThereAre) {
  EXPECT_EQ(refusal({"--logs", "bogus"}), "--logs: bogus not in {failed,all}");
  EXPECT_EQ(refusal({"--logs", "ALL"}), "--logs: ALL not in {failed,all}");
  EXPECT_EQ(refusal({"--network", "bridge"}), "--network: bridge not in {private,host}");
  EXPECT_EQ(refusal({"--logs", "all", "--logs", "failed"}), "--logs: At Most 1 required but received 2");
}

TEST_F(SubmitFlagsTest, HelpListsTheNamesAndTheDefaultsName) {
  const std::string help = app.help();
  EXPECT_NE(help.find("--logs TEXT:{failed,all}=failed"), std::string::npos) << help;
  EXPECT_NE(help.find("--network TEXT:{private,host}=private"), std::string::npos) << help;
}

// Each flag lands in the part of the options the step that uses it is handed.
TEST_F(SubmitFlagsTest, FlagsAreBoundIntoTheirStepsParts) {
  const auto options = parse({"--accelerator", "nvidia-l4,nvidia-tesla-t4", "--queue", "q", "--parallelism", "3",
                              "--sweep", "n=1,2", "--set", "a.b=1", "--values", "v.yaml", "--image",
                              "gemm=r@sha256:00", "--workloads-build", "wb", "--no-build", "--detach",
                              "--max-in-flight", "7", "--insecure-registry", "h:5000", "--kubeconfig", "k",
                              "--context", "c", "-f", "p/gkebuild.yaml"});
  EXPECT_EQ(options.plan.experiment, "exp");
  EXPECT_EQ(options.plan.overrides.accelerators, (std::vector<std::string>{"nvidia-l4", "nvidia-tesla-t4"}));
  EXPECT_EQ(options.plan.overrides.queue, "q");
  EXPECT_EQ(options.plan.overrides.parallelism, 3);
  ASSERT_EQ(options.plan.overrides.sweeps.size(), 1u);
  EXPECT_EQ(options.plan.overrides.sweeps[0].name, "n");
  EXPECT_EQ(options.plan.overrides.sweeps[0].values, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(options.plan.overrides.sets, (std::vector<render::Assignment>{{"a.b", "1"}}));
  EXPECT_EQ(options.plan.overrides.values_files, std::vector<std::string>{"v.yaml"});
  EXPECT_EQ(options.images.given.at("gemm"), "r@sha256:00");
  EXPECT_EQ(options.images.workloads_build, "wb");
  EXPECT_TRUE(options.images.no_build);
  EXPECT_EQ(options.images.session.insecure_registries, std::vector<std::string>{"h:5000"});
  EXPECT_FALSE(options.follow.follow);
  EXPECT_EQ(options.follow.max_in_flight, 7);
  EXPECT_EQ(options.local_in_flight, 7);  // a local run honours it when given
  EXPECT_EQ(options.kubeconfig.kubeconfig, std::filesystem::path("k"));
  EXPECT_EQ(options.kubeconfig.context, "c");
  EXPECT_EQ(options.project_file, std::filesystem::path("p/gkebuild.yaml"));
}

TEST_F(SubmitFlagsTest, WithoutFlagsTheStepsKeepTheirDefaults) {
  const auto options = parse({});
  EXPECT_TRUE(options.follow.follow);
  EXPECT_EQ(options.follow.max_in_flight, 50);
  EXPECT_EQ(options.local_in_flight, 0);  // not given: a local run decides (one per GPU, or 1)
  EXPECT_FALSE(options.images.no_build);
  EXPECT_TRUE(options.images.given.empty());
  EXPECT_FALSE(options.kubeconfig.kubeconfig.has_value());
}

}  // namespace
}  // namespace gkebuild::cli
