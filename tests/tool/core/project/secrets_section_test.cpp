// The secret keys of gkebuild.yaml: an experiment's secretEnv and secretRefs, an image's
// secrets. Only names are written there; every mistake is an error at its line and column.
#include <gtest/gtest.h>

#include "tool/core/project/project.h"
#include "parse_error.h"

namespace gkebuild::project {
namespace {

const std::string kBase =
    "apiVersion: gkebuild/v1\n"         // 1
    "project: demo\n"                   // 2
    "registry: 127.0.0.1:5000/exp\n"    // 3
    "images:\n"                         // 4
    "  gemm:\n"                         // 5
    "    workload: gemm-bench\n"        // 6
    "IMAGE"                             // 7… (then experiments: at 7 without IMAGE)
    "experiments:\n"
    "  bench:\n"
    "    image: gemm\n"
    "    accelerators: [nvidia-l4]\n"
    "EXPERIMENT";                       // 11… (without IMAGE)

std::string project_text(const std::string& image, const std::string& experiment) {
  std::string text = kBase;
  text.replace(text.find("IMAGE"), 5, image);
  text.replace(text.find("EXPERIMENT"), 10, experiment);
  return text;
}

TEST(ProjectSecrets, NamesWithWhereTheyAreWritten) {
  const Project project = parse_project(
      project_text("    secrets:\n      - {id: pip, env: PIP_TOKEN}\n      - {id: netrc, src: secrets/netrc}\n",
                   "    secretEnv: [WANDB_API_KEY, HF_TOKEN]\n    secretRefs: [registry-pull.creds]\n"),
      "gkebuild.yaml");
  const Experiment& bench = project.experiments[0];
  ASSERT_EQ(bench.secret_env.size(), 2u);
  EXPECT_EQ(bench.secret_env[1].name, "HF_TOKEN");
  EXPECT_EQ(bench.secret_env[1].where.line, 14);
  EXPECT_EQ(bench.secret_env[1].where.column, 32);
  EXPECT_EQ(bench.secret_refs[0].name, "registry-pull.creds");
  const auto& secrets = project.images[0].secrets;
  ASSERT_EQ(secrets.size(), 2u);
  EXPECT_EQ(secrets[0].env, "PIP_TOKEN");
  EXPECT_EQ(secrets[1].src, "secrets/netrc");
}

TEST(ProjectSecrets, MistakesAtTheirPosition) {
  expect_parse_error(project_text("", "    secretEnv: [WANDB-KEY]\n"), 11, 17, "'WANDB-KEY' is not an environment variable name");
  expect_parse_error(project_text("", "    secretEnv: [A, A]\n"), 11, 20, "'A' is listed twice");
  expect_parse_error(project_text("", "    secretEnv: WANDB_API_KEY\n"), 11, 16, "expected a list of names");
  expect_parse_error(project_text("", "    env: {HF_TOKEN: x}\n    secretEnv: [HF_TOKEN]\n"), 12, 16,
               "HF_TOKEN is also under env:");
  expect_parse_error(project_text("", "    secretEnv: [GKEBUILD_SEED]\n"), 11, 17, "GKEBUILD_SEED is set by gkebuild");
  expect_parse_error(project_text("", "    secretRefs: [Bad_Name]\n"), 11, 18, "is not a Secret name");
  expect_parse_error(project_text("", "    secretEnvs: [A]\n"), 11, 5, "did you mean 'secretEnv'");
  expect_parse_error(project_text("    secrets: [{id: pip}]\n", ""), 7, 15, "give src (a file in the project folder) or env");
  expect_parse_error(project_text("    secrets: [{id: pip, src: a, env: B}]\n", ""), 7, 15, "one of them");
  expect_parse_error(project_text("    secrets: [{id: pip, src: ../../home/me/.netrc}]\n", ""), 7, 30,
               "leads outside the project folder; name such a file with gkebuild image --secret id=pip,src=FILE");
  expect_parse_error(project_text("    secrets: [{id: 'a b', env: B}]\n", ""), 7, 20, "is not a secret id");
  expect_parse_error(project_text("    secrets: [{id: a, env: B}, {id: a, env: C}]\n", ""), 7, 37, "'a' is listed twice");
}

}  // namespace
}  // namespace gkebuild::project
