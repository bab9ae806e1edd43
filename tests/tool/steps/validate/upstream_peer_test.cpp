// The manifests others wrote (tests/tool/steps/validate/upstream, sources in its SOURCES file):
// - the schema verdict per file agrees with kubernetes-validate --strict, except for the
//   files in upstream/known_differences.txt;
// - every error and warning is one upstream/expected_findings.txt lists with its reason,
//   and the GPU rules report none (their false-positive count on the corpus is 0);
// - kubeconform's own acceptance expectations (upstream/kubeconform/acceptance.bats) hold
//   with the equivalent gkebuild flags;
// - -o sarif and -o junit are valid against the SARIF 2.1.0 schema and a JUnit XSD;
// - a custom resource's schema is found over HTTP in the CRDs-catalog layout;
// - kubectl keeps the last of two duplicated keys, as the duplicate-key message says.
#include <signal.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <filesystem>
#include <fstream>
#include <iterator>
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

const std::string kValidateTests = std::string(GKEBUILD_SOURCE_ROOT) + "/tests/tool/steps/validate";
const std::string kUpstream = kValidateTests + "/upstream";

// Every manifest of the upstream corpus, relative to kUpstream, sorted. The JSON schema
// kubeconform's acceptance test uses as a schema location is data, not a manifest.
std::vector<std::string> upstream_manifests() {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(kUpstream)) {
    auto ext = entry.path().extension();
    if (!entry.is_regular_file() || (ext != ".yaml" && ext != ".yml" && ext != ".json")) continue;
    auto relative = fs::relative(entry.path(), kUpstream).string();
    if (relative != "kubeconform/fixtures/grafanaalertrulegroup_v1beta1.json") files.push_back(relative);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool is_gpu_rule(const std::string& rule) { return rule.starts_with("gpu-") || rule.starts_with("job-gpu-"); }

class Upstream : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_kubernetes_validate()) GTEST_SKIP() << "kubernetes-validate is not installed (scripts/setup.sh)";
    files_ = upstream_manifests();
    ASSERT_GE(files_.size(), 300u);
    findings_ = gkebuild_findings(kUpstream, cache_.path().string(), files_);
    ASSERT_TRUE(findings_.is_array());
  }
  TempDir cache_;
  std::vector<std::string> files_;
  nlohmann::json findings_;
};

TEST_F(Upstream, SchemaVerdictAgreesWithKubernetesValidateStrict) {
  auto theirs = kubernetes_validate_verdicts(kUpstream, files_);
  ASSERT_EQ(theirs.size(), files_.size());
  auto counts = compare_schema_verdicts(files_, theirs, findings_, read_reasons(kUpstream + "/known_differences.txt"));
  EXPECT_GE(counts.invalid, 20);
  EXPECT_GE(counts.agreed, static_cast<int>(files_.size()) - 5);
}

TEST_F(Upstream, ErrorsAndWarningsAreTheExpectedOnes) {
  std::map<std::string, std::set<std::string>> expected;
  for (const auto& [file, line] : read_reasons(kUpstream + "/expected_findings.txt")) {
    std::istringstream rules(line.substr(0, line.find("  #")));
    for (std::string rule; std::getline(rules, rule, ',');) expected[file].insert(rule);
  }
  std::map<std::string, std::set<std::string>> found;
  int gpu_false_positives = 0, gpu_info = 0;
  for (const auto& f : findings_) {
    bool gpu = is_gpu_rule(f["rule"]);
    if (f["severity"] == "info") {
      gpu_info += gpu;
      continue;
    }
    found[f["file"]].insert(f["rule"]);
    gpu_false_positives += gpu;
  }
  for (const auto& [file, rules] : found)
    EXPECT_EQ(rules, expected[file]) << file << ": add it to expected_findings.txt with a reason, or fix the rule";
  for (const auto& [file, rules] : expected)
    EXPECT_TRUE(found.count(file)) << file << " has no error or warning now; remove it from expected_findings.txt";
  EXPECT_EQ(gpu_false_positives, 0) << "a GPU rule warns or fails on an upstream file";
  // The info hints are still given: the rules did not simply go quiet.
  EXPECT_GE(gpu_info, 50);
}

// kubeconform's acceptance tests (acceptance.bats at the commit in upstream/SOURCES) that
// run offline, with the equivalent gkebuild flags. Where gkebuild decides differently by
// design, `note` says so and `exit_code` is gkebuild's. Not carried over: remote schema
// locations and the cache (network), -reject, -ignore-filename-pattern, HTTPS_PROXY,
// -h / unknown flags, valid_large.yaml (not kept: 100,000 objects), -kubernetes-version
// 1.25 (kubeconform wants x.y.z; gkebuild takes 1.25), `-schema-location foo` (kubeconform
// has no default location once one is given; gkebuild falls back to the bundled schemas),
// and an empty stdin (kubeconform fails; gkebuild finds 0 resources).
struct Expectation {
  const char* bats_test;
  std::string arguments;  // gkebuild validate arguments, in upstream/kubeconform
  std::string stdin_file;
  int exit_code;
  std::string output;  // a part of what gkebuild prints; "" checks nothing
  const char* note = "";
};

const std::string kValid1 = "Summary: 1 resource found in 1 file - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0\n";
const std::string kSkipped1 = "Summary: 1 resource found in 1 file - Valid: 0, Invalid: 0, Errors: 0, Skipped: 1\n";
const std::string kNone = "Summary: 0 resource found in 1 file - Valid: 0, Invalid: 0, Errors: 0, Skipped: 0\n";

const Expectation kKubeconformAcceptance[] = {
    {"Pass when parsing a valid Kubernetes config YAML file", "--summary fixtures/valid.yaml", "", 0, kValid1},
    {"Pass when parsing a folder containing valid YAML files", "--summary fixtures/folder", "", 0,
     "Summary: 7 resources found in 2 files - Valid: 7, Invalid: 0, Errors: 0, Skipped: 0\n"},
    {"Pass when parsing a valid Kubernetes config file with int_to_string vars", "fixtures/int_or_string.yaml", "", 0, ""},
    {"Pass when parsing a valid Kubernetes config JSON file", "--summary fixtures/valid.json", "", 0, kValid1},
    {"Pass when parsing a valid Kubernetes config YAML file with generate name", "fixtures/generate_name.yaml", "", 0, ""},
    {"Pass when parsing a Kubernetes file with string and integer quantities", "fixtures/quantity.yaml", "", 0, ""},
    {"Pass when parsing a valid Kubernetes config file with null strings", "--summary fixtures/null_string.yaml", "", 0,
     kValid1},
    {"Pass when parsing a multi-document config file", "--summary fixtures/multi_valid.yaml", "", 0,
     "Summary: 6 resources found in 1 file - Valid: 6, Invalid: 0, Errors: 0, Skipped: 0\n"},
    {"Fail when parsing a multi-document config file with one invalid resource", "fixtures/multi_invalid.yaml", "", 1, ""},
    {"Fail when parsing an invalid Kubernetes config file", "fixtures/invalid.yaml", "", 1, ""},
    {"Pass when parsing a blank config file", "--summary fixtures/blank.yaml", "", 0, kNone},
    {"Pass when parsing a blank config file with a comment", "--summary fixtures/comment.yaml", "", 0, kNone},
    {"Fail when parsing a config that is missing a Kind", "fixtures/missing_kind.yaml", "", 0,
     "info: not a Kubernetes object (no apiVersion or kind); skipped",
     "differs by design: a document with neither apiVersion nor kind is skipped with info"},
    {"Fail when parsing a config that is missing an apiVersion", "fixtures/missing_apiversion.yaml", "", 1,
     "error: object has no apiVersion"},
    {"Fail when parsing a config that is missing a Kind value", "fixtures/missing_kind_value.yaml", "", 1,
     "error: kind is empty"},
    {"Fail when parsing a config with CRD", "--strict-kinds fixtures/test_crd.yaml", "", 1, "",
     "kubeconform's default for a kind without a schema is gkebuild's --strict-kinds"},
    {"Pass when parsing a config with Custom Resource and ignoring missing schemas", "fixtures/test_crd.yaml", "", 0, "",
     "gkebuild skips custom resources with info by default"},
    {"Pass when parsing a config with Custom Resource and ignoring missing schemas",
     "--ignore-missing-schemas fixtures/test_crd.yaml", "", 0, ""},
    {"Pass when parsing a config with additional properties", "--allow-unknown-fields --summary fixtures/extra_property.yaml",
     "", 0, kValid1, "kubeconform is lax by default, gkebuild strict: its lax mode is --allow-unknown-fields"},
    {"Fail when parsing a config with additional properties and strict set", "--strict fixtures/extra_property.yaml", "", 1,
     "unknown field \"replicas\""},
    {"Fail when parsing a config with duplicate properties and strict set", "--strict fixtures/duplicate_property.yaml", "",
     1, "duplicate key \"containers\""},
    {"Pass when parsing a config with duplicate properties and strict NOT set",
     "--allow-unknown-fields --disable duplicate-key fixtures/duplicate_property.yaml", "", 0, "",
     "duplicate keys stay errors under --allow-unknown-fields; --disable duplicate-key lets them pass"},
    {"Fail early when passing a non valid -schema-location template", "--schema-location 'foo {{ .Foo }}' fixtures/valid.yaml",
     "", 2, "unknown template variable {{ .Foo }}", "a usage error is exit 2 in gkebuild"},
    {"Pass when parsing a valid Kubernetes config YAML file on stdin", "--summary", "fixtures/valid.yaml", 0,
     "Summary: 1 resource found parsing stdin - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0\n"},
    {"Pass when parsing a valid Kubernetes config YAML file explicitly on stdin", "--summary -", "fixtures/valid.yaml", 0,
     "Summary: 1 resource found parsing stdin - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0\n"},
    {"Fail when parsing an invalid Kubernetes config file on stdin", "-", "fixtures/invalid.yaml", 1, ""},
    {"Skip when parsing a resource from a kind to skip", "--summary --skip ReplicationController fixtures/valid.yaml", "", 0,
     kSkipped1},
    {"Skip when parsing a resource with a GVK to skip", "--summary --skip v1/ReplicationController fixtures/valid.yaml", "",
     0, kSkipped1},
    {"Do not skip when parsing a resource with a GVK to skip, where the Kind matches but not the version",
     "--summary --skip v2/ReplicationController fixtures/valid.yaml", "", 0, kValid1},
    {"Produces correct TAP output", "-o tap fixtures/valid.yaml", "", 0, "TAP version 13\nok 1 - fixtures/valid.yaml\n1..1\n",
     "one test point per file, without kubeconform's (v1/ReplicationController//bob)"},
    {"Pass when parsing a file containing a List", "--summary fixtures/list_valid.yaml", "", 0,
     "Summary: 6 resources found in 1 file - Valid: 6, Invalid: 0, Errors: 0, Skipped: 0\n"},
    {"Pass when parsing a List resource from stdin", "--summary", "fixtures/list_valid.yaml", 0,
     "Summary: 6 resources found parsing stdin - Valid: 6, Invalid: 0, Errors: 0, Skipped: 0\n"},
    {"Fail when parsing a List that contains an invalid resource", "--summary fixtures/list_invalid.yaml", "", 1,
     "Summary: 2 resources found in 1 file - Valid: 1, Invalid: 1, Errors: 0, Skipped: 0\n"},
    {"Fail when parsing a List that contains an invalid resource from stdin", "--summary -", "fixtures/list_invalid.yaml", 1,
     "Summary: 2 resources found parsing stdin - Valid: 1, Invalid: 1, Errors: 0, Skipped: 0\n"},
    {"Pass on valid, empty list", "--summary fixtures/list_empty_valid.yaml", "", 0, kNone},
    {"Pass on multi-yaml containing one resource, one list", "--summary fixtures/multi_with_list.yaml", "", 0,
     "Summary: 2 resources found in 1 file - Valid: 2, Invalid: 0, Errors: 0, Skipped: 0\n"},
    {"passes when validating duration not in ISO8601",
     "--schema-location ./fixtures/grafanaalertrulegroup_v1beta1.json ./fixtures/grafana-alert-rule-group-sample.yaml", "",
     0, ""},
};

TEST(Kubeconform, AcceptanceExpectationsHoldWithTheEquivalentFlags) {
  if (!have_kubernetes_validate()) GTEST_SKIP() << "kubernetes-validate is not installed (scripts/setup.sh)";
  TempDir cache;
  for (const auto& e : kKubeconformAcceptance) {
    std::string input = e.stdin_file.empty() ? " </dev/null" : " <" + e.stdin_file;
    auto r = run_command("cd " + shell_quoted(kUpstream + "/kubeconform") + " && GITHUB_ACTIONS= XDG_CACHE_HOME=" +
                         shell_quoted(cache.path().string()) + " " + testing::gkebuild_binary() + " validate " +
                         e.arguments + input + " 2>&1");
    EXPECT_EQ(r.exit_code, e.exit_code) << e.bats_test << " (" << e.note << ")\n" << r.out;
    EXPECT_NE(r.out.find(e.output), std::string::npos) << e.bats_test << ": expected\n" << e.output << "in\n" << r.out;
  }
  // The single .json location is applied, not silently passed over: a wrong field fails.
  TempDir dir;
  auto bad = dir.write("alert.yaml", "apiVersion: grafana.integreatly.org/v1beta1\nkind: GrafanaAlertRuleGroup\n"
                                     "metadata:\n  name: a\nspec:\n  interval: 5\n");
  auto r = run_command("cd " + shell_quoted(kUpstream + "/kubeconform") + " && " + testing::gkebuild_binary() +
                       " validate --schema-location fixtures/grafanaalertrulegroup_v1beta1.json " +
                       shell_quoted(bad.string()) + " 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("spec.interval"), std::string::npos) << r.out;
}

// Python's http.server serving a folder on a free loopback port, for the life of the object.
class FolderServer {
 public:
  explicit FolderServer(const std::filesystem::path& root) {
    const std::string script =
        "import functools, http.server, os, sys\n"
        "handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])\n"
        "handler.func.log_message = lambda *a: None\n"
        "server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)\n"
        "print(server.server_port, os.getpid(), flush=True)\n"
        "server.serve_forever()\n";
    output_ = ::popen(("exec python3 -c " + shell_quoted(script) + " " + shell_quoted(root.string())).c_str(), "r");
    char line[64] = {};
    if (!output_ || !std::fgets(line, sizeof line, output_) || std::sscanf(line, "%d %d", &port_, &pid_) != 2)
      throw std::runtime_error("the folder server did not start");
  }
  ~FolderServer() {
    ::kill(pid_, SIGTERM);
    ::pclose(output_);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  FILE* output_ = nullptr;
  int port_ = 0, pid_ = 0;
};

TEST(SchemaLocation, CrdsCatalogUrlTemplate) {
  // kubeconform's README: -schema-location 'https://raw.githubusercontent.com/datreeio/CRDs-catalog/main/
  // {{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json'; here the same layout on loopback.
  TempDir catalog, cache;
  const std::string fixtures = kUpstream + "/kubeconform/fixtures/";
  std::filesystem::create_directories(catalog / "grafana.integreatly.org");
  std::filesystem::copy_file(fixtures + "grafanaalertrulegroup_v1beta1.json",
                             catalog / "grafana.integreatly.org/grafanaalertrulegroup_v1beta1.json");
  FolderServer server(catalog.path());
  auto validate = [&](const std::string& file) {
    return run_command("XDG_CACHE_HOME=" + shell_quoted(cache.path().string()) + " " + testing::gkebuild_binary() +
                       " validate --schema-location " +
                       shell_quoted(server.url() + "/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json") + " " +
                       shell_quoted(file) + " 2>&1");
  };
  auto good = validate(fixtures + "grafana-alert-rule-group-sample.yaml");
  EXPECT_EQ(good.exit_code, 0) << good.out;
  EXPECT_EQ(good.out.find("unknown-kind"), std::string::npos) << good.out;
  TempDir dir;
  auto bad = validate(dir.write("alert.yaml", "apiVersion: grafana.integreatly.org/v1beta1\nkind: GrafanaAlertRuleGroup\n"
                                              "metadata:\n  name: a\nspec:\n  interval: 5\n")
                          .string());
  EXPECT_EQ(bad.exit_code, 1) << bad.out;
  EXPECT_NE(bad.out.find("alert.yaml:6:13: error: spec.interval"), std::string::npos) << bad.out;
  // A 404 is "not here": the custom resource is skipped with info, as without the location.
  auto missing = validate(fixtures + "test_crd.yaml");
  EXPECT_EQ(missing.exit_code, 0) << missing.out;
  EXPECT_NE(missing.out.find("info: no schema for TrainingJob"), std::string::npos) << missing.out;
}

// gkebuild's report over the whole upstream corpus (errors, warnings, info, every rule).
std::string report(const std::string& format, const std::filesystem::path& cache) {
  auto r = run_command("cd " + shell_quoted(kUpstream) + " && XDG_CACHE_HOME=" + shell_quoted(cache.string()) + " " +
                       testing::gkebuild_binary() + " validate -k 1.37 --fail-on never -o " + format +
                       " container-engine-accelerators kubeconform/fixtures kubernetes-engine-samples");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST(Reports, SarifIsValidAgainstTheSarif210Schema) {
  if (run_command("python3 -c 'import jsonschema' 2>/dev/null").exit_code != 0)
    GTEST_SKIP() << "python jsonschema is not installed (scripts/setup.sh)";
  TempDir dir;
  auto sarif = dir.write("report.sarif", report("sarif", dir.path() / "cache"));
  // Draft 4, as the schema's own "$schema" says; prints one line per violation.
  const std::string check =
      "python3 -c 'import json, sys, jsonschema\n"
      "schema = json.load(open(sys.argv[1])); doc = json.load(open(sys.argv[2]))\n"
      "errors = list(jsonschema.Draft4Validator(schema).iter_errors(doc))\n"
      "[print(list(e.absolute_path), e.message[:200]) for e in errors[:10]]\n"
      "sys.exit(1 if errors else 0)' " +
      shell_quoted(kValidateTests + "/schemas/sarif-schema-2.1.0.json") + " ";
  auto ok = run_command(check + shell_quoted(sarif.string()));
  EXPECT_EQ(ok.exit_code, 0) << ok.all();
  EXPECT_GE(nlohmann::json::parse(read_text(dir / "report.sarif"))["runs"][0]["results"].size(), 100u);
  // The check can fail: a level SARIF does not define is caught.
  std::string broken = read_text(dir / "report.sarif");
  broken.replace(broken.find("\"level\": \"error\""), 16, "\"level\": \"fatal\"");
  EXPECT_EQ(run_command(check + shell_quoted(dir.write("broken.sarif", broken).string())).exit_code, 1);
}

TEST(Reports, JunitIsValidAgainstTheJunitXsd) {
  if (run_command("command -v xmllint >/dev/null").exit_code != 0)
    GTEST_SKIP() << "xmllint is not installed (scripts/setup.sh: libxml2-utils)";
  TempDir dir;
  auto xml = dir.write("report.xml", report("junit", dir.path() / "cache"));
  const std::string check = "xmllint --noout --schema " + shell_quoted(kValidateTests + "/schemas/junit.xsd") + " ";
  auto ok = run_command(check + shell_quoted(xml.string()) + " 2>&1");
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
  EXPECT_NE(read_text(dir / "report.xml").find("<failure "), std::string::npos);
  // The check can fail: a test case without its name is caught.
  std::string broken = read_text(dir / "report.xml");
  broken.replace(broken.find(" name=\"container-engine"), 6, " nome=");
  EXPECT_NE(run_command(check + shell_quoted(dir.write("broken.xml", broken).string()) + " 2>&1").exit_code, 0);
}

TEST(DuplicateKey, KubectlKeepsTheLastValueAsTheMessageSays) {
  if (run_command("command -v kubectl >/dev/null").exit_code != 0) GTEST_SKIP() << "kubectl is not installed";
  TempDir dir;
  auto pod = dir.write("dup.yaml",
                       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: dup\nspec:\n  containers:\n  - name: c\n"
                       "    image: busybox\n    resources:\n      requests: {cpu: 150m}\n"
                       "    resources:\n      limits: {nvidia.com/gpu: 8}\n");
  // `label --local` decodes the file as kubectl apply does, with no cluster to ask.
  auto r = run_command("timeout 60 kubectl label --local -o json -f " + shell_quoted(pod.string()) + " x=y 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto resources = nlohmann::json::parse(r.out)["spec"]["containers"][0]["resources"];
  EXPECT_EQ(resources, (nlohmann::json{{"limits", {{"nvidia.com/gpu", 8}}}}));
  auto ours = testing::run_gkebuild("validate --disable schema " + shell_quoted(pod.string()));
  EXPECT_NE(ours.out.find("dup.yaml:11:5: error: duplicate key \"resources\" (first defined on line 9); kubectl uses "
                          "this later value and drops the one on line 9"),
            std::string::npos)
      << ours.out;
}

}  // namespace
}  // namespace gkebuild::validate
