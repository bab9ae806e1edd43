// The command line end to end with a small schema folder: exit codes (0 clean, 1 at
// --fail-on, 2 when the tool cannot run), stdin, folders, -o json, --strict-kinds.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::validate {
namespace {

using testing::run_command;
using testing::shell_quoted;
using testing::TempDir;

const char* kPodSchema = R"({
  "type": "object", "additionalProperties": false, "required": ["apiVersion", "kind"],
  "properties": {
    "apiVersion": {"type": "string"}, "kind": {"type": "string"},
    "metadata": {"$ref": "_definitions.json#/definitions/ObjectMeta"},
    "spec": {"type": "object", "additionalProperties": false, "required": ["containers"],
      "properties": {"containers": {"type": "array", "items": {"type": "object", "additionalProperties": false,
        "required": ["name"], "properties": {"name": {"type": "string"}, "image": {"type": "string"},
        "resources": {"type": "object"}}}},
        "nodeSelector": {"type": "object"}}}}})";
const char* kDefinitions = R"({"definitions": {"ObjectMeta": {"type": "object", "additionalProperties": false,
  "properties": {"name": {"type": "string"}, "labels": {"type": "object", "additionalProperties": {"type": "string"}},
  "annotations": {"type": "object"}}}}})";

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.write("schemas/pod-v1.json", kPodSchema);
    dir_.write("schemas/_definitions.json", kDefinitions);
  }
  testing::CommandResult validate(const std::string& args, const std::string& stdin_text = "") {
    std::string env = "XDG_CACHE_HOME=" + shell_quoted(cache_.path().string()) + " GITHUB_ACTIONS= ";
    std::string input =
        stdin_text.empty() ? " </dev/null" : " <" + shell_quoted(dir_.write("stdin.txt", stdin_text).string());
    return run_command(env + testing::gkebuild_binary() + " validate --schema-location " +
                       shell_quoted((dir_.path() / "schemas").string()) + " " + args + input + " 2>&1");
  }
  TempDir dir_;
  static TempDir cache_;
};
TempDir Cli::cache_;

const std::string kGoodPod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n  - name: c\n";

TEST_F(Cli, CleanFileExitsZeroAndPrintsNothing) {
  auto r = validate(shell_quoted(dir_.write("good.yaml", kGoodPod).string()));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "");
}

TEST_F(Cli, UnknownFieldExitsOneWithPosition) {
  auto file = dir_.write("bad.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  lables: {}\nspec:\n  containers: []\n");
  auto r = validate(shell_quoted(file.string()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(
      r.out.find(file.string() + ":5:3: error: unknown field \"lables\" in metadata (did you mean 'labels'?) [schema]"),
      std::string::npos)
      << r.out;
}

// gkebuild.yaml is no Kubernetes object (skipped), but its env: values reach Jobs: a
// credential-like name with a literal value warns at its line; secretEnv is the way out.
TEST_F(Cli, AProjectFileWithALiteralCredentialWarnsAtItsLine) {
  auto file = dir_.write("gkebuild.yaml",
                         "apiVersion: gkebuild/v1\nproject: p\nregistry: 127.0.0.1:5000/p\nimages:\n  i:\n    entrypoint: [/x]\n"
                         "    env: {PIP_INDEX_TOKEN: abc123}\nexperiments:\n  train:\n    image: i\n"
                         "    accelerators: [nvidia-l4]\n    env:\n      EPOCHS: '3'\n      WANDB_API_KEY: 0123abcd\n"
                         "    secretEnv: [HF_TOKEN]\n");
  EXPECT_EQ(validate(shell_quoted(file.string())).exit_code, 0);  // warnings pass at the default --fail-on error
  auto r = validate("--fail-on warning " + shell_quoted(file.string()));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find(file.string() + ":14:22: warning: environment variable WANDB_API_KEY looks like a credential"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(file.string() + ":7:28: warning: environment variable PIP_INDEX_TOKEN"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("EPOCHS"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("HF_TOKEN"), std::string::npos) << r.out;
}

TEST_F(Cli, ControlCharactersInFieldNamesAreEchoedEscaped) {
  auto file = dir_.write("esc.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  \"lab\\e[2Jels\": {}\n"
                                     "spec:\n  containers: []\n");
  auto r = validate(shell_quoted(file.string()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.all().find("unknown field \"lab\\x1b[2Jels\" in metadata"), std::string::npos) << r.all();
  EXPECT_EQ(r.all().find('\x1b'), std::string::npos) << r.all();
}

// Without HOME or XDG_CACHE_HOME the cache is a per-user 0700 folder under TMPDIR; one that
// another user could have prepared (here: group- and world-writable) is refused.
TEST_F(Cli, WithoutHomeTheCacheIsAPrivateTemporaryFolder) {
  TempDir tmp;
  const auto cache = tmp.path() / ("gkebuild-cache-" + std::to_string(::geteuid()));
  const std::string command = "env -u HOME -u XDG_CACHE_HOME TMPDIR=" + shell_quoted(tmp.path().string()) + " " +
                              testing::gkebuild_binary() + " validate --schema-location " +
                              shell_quoted((dir_.path() / "schemas").string()) + " " +
                              shell_quoted(dir_.write("good.yaml", kGoodPod).string()) + " 2>&1";
  auto r = run_command(command);
  EXPECT_EQ(r.exit_code, 0) << r.all();
  ASSERT_TRUE(std::filesystem::is_directory(cache));
  EXPECT_EQ(std::filesystem::status(cache).permissions(), std::filesystem::perms::owner_all);

  std::filesystem::permissions(cache, std::filesystem::perms::all);
  r = run_command(command);
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.all().find("the cache folder " + cache.string() + " is not a folder owned by this user"),
            std::string::npos) << r.all();
}

TEST_F(Cli, StdinAndTypeErrors) {
  auto r = validate("-", "# rendered\napiVersion: v1\nkind: Pod\nmetadata:\n  name: 7\nspec:\n  containers:\n  - image: x\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("<stdin>:5:9: error: metadata.name: expected string, got integer 7 [schema]"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("<stdin>:8:5: error: spec.containers[0]: missing required field \"name\" [schema]"),
            std::string::npos)
      << r.out;
}

TEST_F(Cli, FailOnWarningAndJsonOutput) {
  std::string gpu = kGoodPod + "    resources:\n      limits:\n        nvidia.com/gpu: 1\n";
  auto file = dir_.write("gpu.yaml", gpu);
  EXPECT_EQ(validate(shell_quoted(file.string())).exit_code, 0);
  EXPECT_EQ(validate("--fail-on warning " + shell_quoted(file.string())).exit_code, 0);
  auto r = validate("--fail-on info -o json " + shell_quoted(file.string()));
  EXPECT_EQ(r.exit_code, 1);
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["rule"], "gpu-no-accelerator-selector");
  EXPECT_EQ(j[0]["severity"], "info");
  EXPECT_EQ(j[0]["line"], 10);
  EXPECT_EQ(validate("--fail-on info --disable gpu-no-accelerator-selector " + shell_quoted(file.string())).exit_code, 0);
  std::string zero = kGoodPod + "    resources:\n      limits:\n        nvidia.com/gpu: 0\n";
  EXPECT_EQ(validate("--fail-on warning " + shell_quoted(dir_.write("zero.yaml", zero).string())).exit_code, 1);
}

TEST_F(Cli, FoldersAreWalkedAndUnknownKindsSkippedOrErrors) {
  dir_.write("tree/a/pod.yml", kGoodPod);
  dir_.write("tree/b/crd.yaml", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: x\n");
  dir_.write("tree/b/notes.txt", "not yaml: [");
  auto tree = shell_quoted((dir_.path() / "tree").string());
  auto r = validate(tree);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("crd.yaml:2:7: info: no schema for PyTorchJob"), std::string::npos) << r.out;
  EXPECT_EQ(validate("--strict-kinds " + tree).exit_code, 1);
}

TEST_F(Cli, CustomResourceGroupsAreSkippedBuiltInGroupsAreNot) {
  // Gateway API, VolumeSnapshot and metrics.k8s.io end in .k8s.io but are not served by
  // Kubernetes itself: unknown custom resources, as kubeconform and kubernetes-validate see them.
  auto crs = dir_.write("crs.yaml",
                        "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\n---\n"
                        "apiVersion: snapshot.storage.k8s.io/v1\nkind: VolumeSnapshot\nmetadata:\n  name: s\n---\n"
                        "apiVersion: metrics.k8s.io/v1beta1\nkind: NodeMetrics\nmetadata:\n  name: n\n");
  auto r = validate("--summary " + shell_quoted(crs.string()));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("Summary: 3 resources found in 1 file - Valid: 0, Invalid: 0, Errors: 0, Skipped: 3"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(validate("--strict-kinds " + shell_quoted(crs.string())).exit_code, 1);
  // A kind missing from a built-in group is a typo: an error unless --ignore-missing-schemas.
  auto typo = dir_.write("typo.yaml", "apiVersion: networking.k8s.io/v1\nkind: Ingres\nmetadata:\n  name: i\n");
  auto t = validate(shell_quoted(typo.string()));
  EXPECT_EQ(t.exit_code, 1);
  EXPECT_NE(t.out.find("misspelt kind or apiVersion?"), std::string::npos) << t.out;
  EXPECT_EQ(validate("--ignore-missing-schemas " + shell_quoted(typo.string())).exit_code, 0);
}

TEST_F(Cli, CustomResourceSchemaLocations) {
  const char* widget_schema = R"({"type": "object", "required": ["spec"], "properties": {
    "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
    "spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}})";
  auto schema = dir_.write("crds/example.com/widget_v1.json", widget_schema);
  auto bad = shell_quoted(
      dir_.write("w.yaml", "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: big\n")
          .string());
  auto crds = dir_.path() / "crds";
  // The CRDs-catalog layout in a folder, as a kubeconform template, and one .json file.
  for (const std::string& location : {crds.string(), crds.string() + "/{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json",
                                      schema.string()}) {
    auto r = validate("--schema-location " + shell_quoted(location) + " " + bad);
    EXPECT_EQ(r.exit_code, 1) << location << "\n" << r.out;
    EXPECT_NE(r.out.find("w.yaml:6:9: error: spec.size: expected integer"), std::string::npos) << location << "\n"
                                                                                                << r.out;
  }
  EXPECT_EQ(validate("--schema-location '" + crds.string() + "/{{ .Foo }}.json' " + bad).exit_code, 2);
}

TEST_F(Cli, KindOrApiVersionMissingFailsNeitherIsSkipped) {
  // kubeconform's fixtures: missing_kind_value.yaml, missing_apiversion.yaml, missing_kind.yaml.
  auto r = validate(shell_quoted(dir_.write("k.yaml", "kind:\n").string()));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("kind is empty"), std::string::npos) << r.out;
  EXPECT_EQ(validate(shell_quoted(dir_.write("a.yaml", "kind: Pod\nmetadata:\n  name: a\n").string())).exit_code, 1);
  auto neither = validate(shell_quoted(dir_.write("n.yaml", "key: value\n").string()));
  EXPECT_EQ(neither.exit_code, 0) << neither.out;
  EXPECT_NE(neither.out.find("info: not a Kubernetes object"), std::string::npos) << neither.out;
}

TEST_F(Cli, SkipSummaryAndTap) {
  auto pod = shell_quoted(dir_.write("pod.yaml", kGoodPod).string());
  EXPECT_EQ(validate("--summary " + pod).out,
            "Summary: 1 resource found in 1 file - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0\n");
  EXPECT_EQ(validate("--summary --skip Pod " + pod).out,
            "Summary: 1 resource found in 1 file - Valid: 0, Invalid: 0, Errors: 0, Skipped: 1\n");
  EXPECT_EQ(validate("--summary --skip Deployment,v1/Pod " + pod).out,
            "Summary: 1 resource found in 1 file - Valid: 0, Invalid: 0, Errors: 0, Skipped: 1\n");
  EXPECT_EQ(validate("--summary --skip v2/Pod " + pod).out,
            "Summary: 1 resource found in 1 file - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0\n");
  EXPECT_EQ(validate("--summary -", kGoodPod).out,
            "Summary: 1 resource found parsing stdin - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0\n");
  auto broken = shell_quoted(dir_.write("broken.yaml", kGoodPod + "  - name: 7\n").string());
  auto tap = validate("-o tap --summary " + pod + " " + broken);
  EXPECT_EQ(tap.exit_code, 1);
  EXPECT_TRUE(tap.out.starts_with("TAP version 13\nok 1 - " + (dir_.path() / "pod.yaml").string() + "\n")) << tap.out;
  EXPECT_NE(tap.out.find("\nnot ok 2 - " + (dir_.path() / "broken.yaml").string() + ": "), std::string::npos) << tap.out;
  EXPECT_NE(tap.out.find("\n1..2\n# Summary: 2 resources found in 2 files - Valid: 1, Invalid: 1"), std::string::npos)
      << tap.out;
  EXPECT_EQ(validate("--strict --allow-unknown-fields " + pod).exit_code, 2);
}

TEST_F(Cli, GithubFormatChosenUnderActions) {
  auto file = dir_.write("dup.yaml", kGoodPod + "kind: Pod\n");
  auto r = run_command("GITHUB_ACTIONS=true XDG_CACHE_HOME=" + shell_quoted(cache_.path().string()) + " " +
                       testing::gkebuild_binary() + " validate --schema-location " +
                       shell_quoted((dir_.path() / "schemas").string()) + " " + shell_quoted(file.string()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("::error file=" + file.string() + ",line=8,col=1,title=gkebuild duplicate-key::"),
            std::string::npos)
      << r.out;
}

TEST_F(Cli, ToolErrorsExitTwo) {
  EXPECT_EQ(validate(shell_quoted((dir_.path() / "missing.yaml").string())).exit_code, 2);
  EXPECT_EQ(validate("--disable no-such-rule -").exit_code, 2);
  EXPECT_EQ(validate("--kubernetes-version banana -").exit_code, 2);
  EXPECT_EQ(validate("-o xml -").exit_code, 2);
  EXPECT_EQ(validate("--strict-kinds --ignore-missing-schemas -").exit_code, 2);
}

// A misspelt rule id gets the rule it was meant to be (issue 45).
TEST_F(Cli, AMisspeltDisabledRuleGetsADidYouMean) {
  auto r = validate("--disable gpu-zeor -");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.all().find("--disable: unknown rule 'gpu-zeor' (did you mean 'gpu-zero'?)"), std::string::npos) << r.all();
}

TEST_F(Cli, BinaryFileIsAFindingNotACrash) {
  std::string binary("\x7f" "ELF\x02\x01\x01\0\0\0", 10);
  auto r = validate(shell_quoted(dir_.write("tool.yaml", binary).string()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find(":1:8: error: binary data"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gkebuild::validate
