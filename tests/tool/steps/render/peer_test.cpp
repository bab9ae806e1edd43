// Second opinions from real peers: every manifest rendered from examples/ passes
// kubernetes-validate in strict mode, and toyaml output reads back through PyYAML as
// the values that went in.
#include <gtest/gtest.h>

#include "base/atomic_file.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

const std::string kExamples = std::string(GKEBUILD_SOURCE_ROOT) + "/examples";
// podFailurePolicy is GA from 1.31; the newest GKE channels run 1.33.
const std::string kKubernetesVersion = "1.33.0";

class RenderPeers : public ::testing::TestWithParam<std::string> {
 protected:
  TempDir scratch;
};

TEST_P(RenderPeers, ManifestsPassKubernetesValidateStrict) {
  const auto out = scratch / "out";
  auto rendered = run_gkebuild("render -f " + kExamples + "/" + GetParam() + "/gkebuild.yaml -o " + out.string() +
                               " pod/" + (GetParam() == "mnist" ? "train" : "gemm") + " experiment/" +
                               (GetParam() == "mnist" ? "train" : "gemm"));
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  int manifests = 0;
  std::string files;
  for (const auto& entry : std::filesystem::directory_iterator(out))
    if (entry.path().extension() == ".yaml") {
      files += " '" + entry.path().string() + "'";
      ++manifests;
    }
  ASSERT_GT(manifests, 4);
  const auto result = run_command("kubernetes-validate --strict --quiet -k " + kKubernetesVersion + files);
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
}

INSTANTIATE_TEST_SUITE_P(Examples, RenderPeers, ::testing::Values("gemm-compare", "mnist"));

TEST(RenderPeersUbuntu, UbuntuDriverInstallerPassesKubernetesValidate) {
  TempDir scratch;
  const auto project = scratch / "gkebuild.yaml";
  write_file_atomically(
      project,
      "apiVersion: gkebuild/v1\nproject: u\nregistry: r.example/x\ncluster: {driverInstaller: ubuntu}\n"
      "images: {i: {workload: gpu-info}}\nexperiments: {e: {image: i, accelerators: [nvidia-h100-80gb], gpus: 8}}\n");
  const auto out = scratch / "out";
  auto rendered = run_gkebuild("render -f " + project.string() + " -o " + out.string());
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  const auto result =
      run_command("kubernetes-validate --strict --quiet -k " + kKubernetesVersion + " " + out.string() +
                  "/daemonset-nvidia-driver-installer.yaml " + out.string() + "/job-e-nvidia-h100-80gb-0.yaml");
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
}

// Strings a YAML 1.1 or 1.2 reader would take for something else, and a few that need
// care in any YAML writer.
const char* kTrickyValues = R"({
  "words": ["yes", "no", "on", "off", "y", "n", "true", "False", "null", "~", "NULL", ""],
  "numbers": ["1", "0x1f", "0o17", "017", "1e3", "1_000", ".5", "-.inf", ".NaN", "12:30:00", "1.0"],
  "symbols": ["- a", "a: b", "#c", "&x", "*y", "!t", "%p", "@a", "`b", "|", ">", "'q'", "\"d\"", " lead", "trail ",
              "a\nb", "tab\there", "{x}", "[y]", "?"],
  "nested": {"list": [1, 2.5, true, null, {"k": "yes"}], "empty": {}, "none": []}
})";

const char* kCompare = R"(import json, sys, yaml
got = yaml.safe_load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))["values"]
if got != want:
    print("PyYAML read:", json.dumps(got))
    print("expected:   ", json.dumps(want))
    sys.exit(1)
)";

TEST(RenderPeersYaml, ToyamlRoundTripsThroughPyYaml) {
  TempDir scratch;
  write_file_atomically(scratch / "values.json", std::string("{\"values\": ") + kTrickyValues + "}");
  write_file_atomically(scratch / "t.j2", "{{ values | toyaml }}");
  write_file_atomically(scratch / "compare.py", kCompare);
  const auto rendered = run_gkebuild("render --template '" + (scratch / "t.j2").string() + "' --values '" +
                                     (scratch / "values.json").string() + "'");
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  write_file_atomically(scratch / "out.yaml", rendered.out);
  const auto check = run_command("python3 '" + (scratch / "compare.py").string() + "' '" +
                                 (scratch / "out.yaml").string() + "' '" + (scratch / "values.json").string() + "'");
  EXPECT_EQ(check.exit_code, 0) << rendered.out << "\n" << check.out << check.err;
}

}  // namespace
}  // namespace gkebuild::testing
