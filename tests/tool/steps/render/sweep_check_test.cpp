// Sweeps that cannot double by mistake: a sweep axis (in gkebuild.yaml or given with
// --sweep) that no field of the experiment reads, and a --set key no template reads, are
// refused with exit 2 before anything is rendered or built.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

// A project whose experiment reads `lr` in its args and values.epochs in its env.
constexpr const char* kProject = R"(apiVersion: gkebuild/v1
project: sweeps
registry: registry.test/exp
cluster: local
images:
  trainer:
    from: registry.test/base:1
    entrypoint: ["python", "/app/train.py"]
experiments:
  train:
    image: trainer
    args: ["--lr", "{{ lr }}"]
    env:
      EPOCHS: "{{ values.epochs | default(2) }}"
    accelerators: [nvidia-l4]
    sweep:
      lr: [0.1, 0.01, 0.001]
EXTRA)";

class SweepCheck : public ::testing::Test {
 protected:
  // kProject with `extra` lines in its sweep and `from` replaced by `to`.
  void write_project(const std::string& extra = "", const std::string& from = "", const std::string& to = "") {
    std::string text = kProject;
    text.replace(text.find("EXTRA"), 5, extra);
    if (!from.empty()) text.replace(text.find(from), from.size(), to);
    project.write("gkebuild.yaml", text);
  }
  CommandResult gkebuild(const std::string& arguments) {
    return run_command("cd " + shell_quoted(project.path().string()) + " && " + gkebuild_binary() + " " + arguments);
  }
  void expect_refused(const CommandResult& result, const std::vector<std::string>& words) {
    EXPECT_EQ(result.exit_code, 2) << result.err;
    for (const auto& word : words) EXPECT_NE(result.err.find(word), std::string::npos) << word << "\n" << result.err;
    EXPECT_EQ(result.out, "");
    EXPECT_FALSE(std::filesystem::exists(project / ".gkebuild")) << "something was built or recorded";
  }
  TempDir project;
};

TEST_F(SweepCheck, TheExperimentsOwnSweepRendersOneJobPerPoint) {
  write_project();
  const auto result = gkebuild("submit train --dry-run --set epochs=5");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::size_t jobs = 0;
  for (auto at = result.out.find("kind: Job\n"); at != std::string::npos; at = result.out.find("kind: Job\n", at + 1))
    ++jobs;
  EXPECT_EQ(jobs, 3u);
}

// `--sweep learning_rate=…` meaning lr: 3 Jobs would have become 6, identical in pairs.
TEST_F(SweepCheck, ASweepNameTheExperimentDoesNotReadIsRefused) {
  write_project();
  expect_refused(gkebuild("submit train --dry-run --sweep learning_rate=1,2"),
                 {"--sweep learning_rate=1,2: error: sweep axis 'learning_rate': no field of experiment 'train' "
                  "reads it", "read lr", "seeds: N"});
  expect_refused(gkebuild("submit train --dry-run --sweep lrr=1,2"), {"(did you mean 'lr'?)"});
  // Replacing the experiment's own axis is what --sweep is for.
  EXPECT_EQ(gkebuild("submit train --dry-run --sweep lr=0.5").exit_code, 0);
}

// An axis in gkebuild.yaml that no field reads (a way to repeat runs that only repeats Jobs).
TEST_F(SweepCheck, AnAxisOfTheProjectFileThatNoFieldReadsIsRefusedAtItsLine) {
  write_project("      repeat: [1, 2, 3]\n");
  expect_refused(gkebuild("render"), {"gkebuild.yaml:18:7: error: sweep axis 'repeat'", "seeds: N"});
  expect_refused(gkebuild("submit train --dry-run"), {"gkebuild.yaml:18:7: error: sweep axis 'repeat'"});
}

// The variables gkebuild sets itself hide an axis of the same name: it is not read either.
TEST_F(SweepCheck, AnAxisNamedLikeAVariableGkebuildSetsIsRefused) {
  write_project();
  expect_refused(gkebuild("submit train --dry-run --sweep accelerator=a,b"), {"set by gkebuild itself"});
}

// A project's own Job template may read the sweep point itself.
TEST_F(SweepCheck, AProjectJobTemplateThatReadsThePointKeepsTheAxis) {
  write_project("      batch: [32, 64]\n");
  expect_refused(gkebuild("render"), {"sweep axis 'batch'"});
  project.write("templates/pod-spec.yaml.j2",
                "restartPolicy: Never\ncontainers:\n  - name: main\n    image: {{ image | quote }}\n"
                "    args: [\"--batch\", {{ point.batch | string | quote }}]\n");
  const auto result = gkebuild("render");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find(R"(args: ["--batch", "64"])"), std::string::npos) << result.out;
}

TEST_F(SweepCheck, ASetKeyNoTemplateReadsIsRefused) {
  write_project();
  expect_refused(gkebuild("submit train --dry-run --set epoch=5"),
                 {"--set epoch=5: error: no template and no field of experiment 'train' reads values.epoch",
                  "(did you mean 'epochs'?)"});
  // A sweep variable given as a value: say how to give it.
  expect_refused(gkebuild("submit train --dry-run --set lr=0.5"), {"give it with --sweep lr=VALUE"});
  // Keys the templates read are kept: a project's own template reading values.team.
  project.write("templates/namespace.yaml.j2",
                "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {{ namespace | quote }}\n"
                "  labels:\n    team: {{ values.team | default('none') | quote }}\n");
  EXPECT_EQ(gkebuild("submit train --dry-run --set team=vision").exit_code, 0);
}

// The image's own Dockerfile (used as written) is no template: --set must not look it up as one.
TEST_F(SweepCheck, ASetKeyWithAPlainDockerfileIsCheckedAgainstTheFieldsOnly) {
  write_project("", "    from: registry.test/base:1\n", "    dockerfile: Dockerfile\n");
  project.write("Dockerfile", "FROM registry.test/base:1\nCOPY train.py /app/\n");
  project.write("train.py", "print('hi')\n");
  const auto result = gkebuild("submit train --dry-run --set epochs=3");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err.find("template 'Dockerfile' not found"), std::string::npos) << result.err;
  expect_refused(gkebuild("submit train --dry-run --set epoch=3"), {"(did you mean 'epochs'?)"});
}

// `hiden:` for `hidden`: validate (a pre-commit hook) refuses what render refuses, at the same line.
TEST_F(SweepCheck, ValidateRefusesAnAxisNoFieldReadsAsRenderDoes) {
  write_project("      hiden: [16, 32]\n");
  const auto result = gkebuild("validate gkebuild.yaml");
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("gkebuild.yaml:18:7"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("sweep axis 'hiden'"), std::string::npos) << result.out;
  write_project();
  EXPECT_EQ(gkebuild("validate gkebuild.yaml").exit_code, 0);
}

// {{ hiden }} in args for the axis `hidden`: the variable is named as the typo, with the axis
// as its correction (not "did you mean 'hiden'" for the axis that is right).
TEST_F(SweepCheck, AVariableMisspeltInArgsGetsTheAxisNameAsItsCorrection) {
  write_project("      hidden: [16, 32]\n", R"("{{ lr }}"])", R"("{{ lr }}", "--hidden", "{{ hiden }}"])");
  expect_refused(gkebuild("render"), {"gkebuild.yaml:18:7: error: sweep axis 'hidden'",
                                      "its args read {{ hiden }}, which no sweep axis gives (did you mean {{ hidden }}?)"});
  EXPECT_EQ(gkebuild("render").err.find("did you mean 'hiden'"), std::string::npos);
}

// On a terminal, validate says what passed; in a pipe or a hook it stays silent, as kubeconform.
TEST_F(SweepCheck, ValidateOnATerminalSaysHowManyFilesAndObjectsWereValid) {
  write_project();
  const auto piped = gkebuild("validate gkebuild.yaml");
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out, "");
  const auto terminal = run_command("cd " + shell_quoted(project.path().string()) + " && script -qec " +
                                    shell_quoted(gkebuild_binary() + " validate gkebuild.yaml") + " /dev/null");
  EXPECT_EQ(terminal.exit_code, 0) << terminal.err;
  EXPECT_NE(terminal.out.find("Summary: 1 resource found in 1 file - Valid: 1, Invalid: 0"), std::string::npos)
      << terminal.out;
}

}  // namespace
}  // namespace gkebuild::testing
