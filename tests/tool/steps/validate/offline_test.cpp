// `gkebuild validate` out of the box (issue 32): the Kubernetes schemas of the versions GKE
// offers are built in, so it works with no Python, no network and an empty HOME;
// --kubernetes-version picks among them; --schema-location and an installed kubernetes-validate
// (for other versions) still work, and a missing package is not remembered. Also the project
// file among manifests, and kubeconform's -reject, -ignore-filename-pattern, -n,
// -exit-on-error and -verbose.
#include <gtest/gtest.h>

#include <string>

#include "base/atomic_file.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::validate {
namespace {

using testing::run_command;
using testing::shell_quoted;
using testing::TempDir;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const std::string kJob =
    "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train\nspec:\n  template:\n    spec:\n"
    "      restartPolicy: Never\n      containers:\n      - name: main\n        image: busybox\n";
const std::string kTypoJob = kJob + "        resource:\n          limits:\n            cpu: 1\n";
const std::string kDeviceClass = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu\nspec: {}\n";

class ValidateOffline : public ::testing::Test {
 protected:
  // No Python and no network tool on PATH, HOME an empty folder, nothing cached.
  testing::CommandResult offline(const std::string& arguments) {
    return run_command("cd " + shell_quoted(dir.path().string()) + " && env -i HOME=" +
                       shell_quoted((dir.path() / "home").string()) + " PATH=/nonexistent " +
                       testing::gkebuild_binary() + " validate " + arguments);
  }
  // The same HOME, with the machine's PATH (python3 and kubernetes-validate, from setup.sh).
  testing::CommandResult with_python(const std::string& arguments) {
    return run_command("cd " + shell_quoted(dir.path().string()) + " && env -u XDG_CACHE_HOME HOME=" +
                       shell_quoted((dir.path() / "home").string()) + " GITHUB_ACTIONS= " +
                       testing::gkebuild_binary() + " validate " + arguments);
  }
  void SetUp() override { std::filesystem::create_directories(dir.path() / "home"); }
  TempDir dir;
};

TEST_F(ValidateOffline, WorksWithoutPythonNetworkOrHome) {
  dir.write("job.yaml", kJob);
  dir.write("typo.yaml", kTypoJob);
  const auto good = offline("job.yaml");
  EXPECT_EQ(good.exit_code, 0) << good.all();
  const auto bad = offline("typo.yaml");
  EXPECT_EQ(bad.exit_code, 1) << bad.all();
  EXPECT_TRUE(contains(bad.out, "typo.yaml:12:9: error: unknown field \"resource\" in spec.template.spec.containers[0] "
                                "(did you mean 'resources'?) [schema]"))
      << bad.all();
  // The second run reads the bundled schema from the cache, with the same verdict.
  EXPECT_EQ(offline("typo.yaml").out, bad.out);
  const auto lenient = offline("--allow-unknown-fields typo.yaml");
  EXPECT_EQ(lenient.exit_code, 0) << lenient.all();
}

// Packing drops the schemas' descriptions, never a field named description (a PriorityClass
// has one): the first packing did, and refused every described PriorityClass.
TEST_F(ValidateOffline, FieldsNamedDescriptionSurviveThePacking) {
  dir.write("pc.yaml", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: high\n"
                       "value: 1000\ndescription: training\n");
  const auto result = offline("pc.yaml");
  EXPECT_EQ(result.exit_code, 0) << result.all();
}

TEST_F(ValidateOffline, KubernetesVersionPicksAnEmbeddedVersion) {
  dir.write("dc.yaml", kDeviceClass);  // resource.k8s.io/v1 is served from Kubernetes 1.34
  const auto older = offline("-k 1.33 dc.yaml");
  EXPECT_EQ(older.exit_code, 1) << older.all();
  EXPECT_TRUE(contains(older.out, "[unknown-kind]")) << older.all();
  for (const char* version : {"1.34", "1.35", "v1.36.2", "1.37"}) {
    const auto served = offline(std::string("-k ") + version + " dc.yaml");
    EXPECT_EQ(served.exit_code, 0) << version << ": " << served.all();
  }
  EXPECT_EQ(offline("dc.yaml -o json").exit_code, 0);  // the default: the newest built in
}

TEST_F(ValidateOffline, OtherVersionsComeFromKubernetesValidateAndAMissingPackageIsNotRemembered) {
  dir.write("job.yaml", kJob);
  const auto without = offline("-k 1.30 job.yaml");
  EXPECT_EQ(without.exit_code, 2) << without.all();
  EXPECT_TRUE(contains(without.err, "gkebuild carries 1.33, 1.34, 1.35, 1.36 and 1.37")) << without.err;
  // Python is there now: the package answers at once, not an hour later.
  const auto with = with_python("-k 1.30 job.yaml");
  EXPECT_EQ(with.exit_code, 0) << with.all();
}

TEST_F(ValidateOffline, SchemaLocationStillComesFirst) {
  dir.write("schemas/widget_v1.json",  // the layout openapi2jsonschema.py writes
            R"({"type": "object", "required": ["size"], "properties": {"size": {"type": "integer"}}})");
  dir.write("widget.yaml", "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nsize: big\n");
  const auto result = offline("--schema-location schemas widget.yaml");
  EXPECT_EQ(result.exit_code, 1) << result.all();
  EXPECT_TRUE(contains(result.out, "widget.yaml:5:7: error:")) << result.all();
}

TEST_F(ValidateOffline, ProjectFileIsCheckedAsOne) {
  const std::string project = read_file(std::string(GKEBUILD_SOURCE_ROOT) + "/examples/gemm-compare/gkebuild.yaml");
  dir.write("gkebuild.yaml", project);
  const auto good = offline("gkebuild.yaml");
  EXPECT_EQ(good.exit_code, 0) << good.all();
  EXPECT_FALSE(contains(good.all(), "kind")) << good.all();
  std::string typo = project;
  const auto at = typo.find("    spot: true");
  ASSERT_NE(at, std::string::npos);
  typo.replace(at, 14, "    spto: true");
  dir.write("gkebuild.yaml", typo);
  const auto bad = offline("gkebuild.yaml");
  EXPECT_EQ(bad.exit_code, 1) << bad.all();
  EXPECT_TRUE(contains(bad.out, "gkebuild.yaml:")) << bad.out;
  EXPECT_TRUE(contains(bad.out, "spto")) << bad.out;
  EXPECT_TRUE(contains(bad.out, "did you mean 'spot'?")) << bad.out;
  EXPECT_TRUE(contains(bad.out, "[project-file]")) << bad.out;
  EXPECT_EQ(offline("--disable project-file gkebuild.yaml").exit_code, 0);
}

TEST_F(ValidateOffline, KubeconformFlagsHaveEquivalents) {
  dir.write("m/a.yaml", kJob);
  dir.write("m/b.yaml", kTypoJob);
  dir.write("m/c.yaml", kJob);
  dir.write("m/skip/d.yaml", kTypoJob);
  // -reject
  const auto rejected = offline("--reject Job m/a.yaml");
  EXPECT_EQ(rejected.exit_code, 1);
  EXPECT_TRUE(contains(rejected.out, "m/a.yaml:2:1: error: batch/v1/Job is rejected here (--reject)"))
      << rejected.all();
  // -ignore-filename-pattern
  const auto all = offline("m");
  EXPECT_TRUE(contains(all.out, "m/skip/d.yaml")) << all.out;
  const auto ignored = offline("--ignore-filename-pattern '/skip/' m");
  EXPECT_FALSE(contains(ignored.out, "m/skip/d.yaml")) << ignored.out;
  EXPECT_TRUE(contains(ignored.out, "m/b.yaml")) << ignored.out;
  EXPECT_EQ(offline("--ignore-filename-pattern '(' m").exit_code, 2);
  // -n: the same report from four workers
  EXPECT_EQ(offline("-n 4 m -o json").out, offline("m -o json").out);
  // -exit-on-error: nothing after the first file with an error
  const auto stopped = offline("--exit-on-error --summary m");
  EXPECT_EQ(stopped.exit_code, 1);
  EXPECT_TRUE(contains(stopped.out, "m/b.yaml")) << stopped.out;
  EXPECT_FALSE(contains(stopped.out, "m/skip/d.yaml")) << stopped.out;
  EXPECT_TRUE(contains(stopped.out, "Summary: 2 resources found in 2 files")) << stopped.out;
  // -verbose: the valid objects too, on stderr
  const auto verbose = offline("-v m/a.yaml m/b.yaml");
  EXPECT_TRUE(contains(verbose.err, "m/a.yaml:1: Job train is valid")) << verbose.err;
  EXPECT_FALSE(contains(verbose.err, "m/b.yaml")) << verbose.err;
}

}  // namespace
}  // namespace gkebuild::validate
