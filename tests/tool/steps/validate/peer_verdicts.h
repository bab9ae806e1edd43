// What the corpus peer tests share: the reason files that list expected differences,
// kubernetes-validate's verdict per file, and gkebuild's findings as JSON, both run in
// one folder so that they name the files alike.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/common/run.h"

namespace gkebuild::validate {

// "<path>: <text>" lines, '#' comments skipped: path -> text.
inline std::map<std::string, std::string> read_reasons(const std::string& file) {
  std::map<std::string, std::string> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    auto colon = line.find(": ");
    if (colon != std::string::npos) out[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return out;
}

inline std::string joined(const std::vector<std::string>& files) {
  std::string out;
  for (const auto& f : files) out += " " + testing::shell_quoted(f);
  return out;
}

inline bool have_kubernetes_validate() {
  return testing::run_command("python3 -c 'import kubernetes_validate' 2>/dev/null").exit_code == 0;
}

// kubernetes-validate --strict's verdict ("valid", "invalid", "skipped") per file, run in `dir`.
inline std::map<std::string, std::string> kubernetes_validate_verdicts(const std::string& dir,
                                                                        const std::vector<std::string>& files) {
  const std::string script = std::string(GKEBUILD_SOURCE_ROOT) + "/tests/tool/steps/validate/corpus/kubernetes_validate_verdicts.py";
  auto peer = testing::run_command("cd " + testing::shell_quoted(dir) + " && python3 " + testing::shell_quoted(script) +
                                   " 1.37" + joined(files));
  EXPECT_EQ(peer.exit_code, 0) << peer.all();
  std::map<std::string, std::string> verdicts;
  std::istringstream lines(peer.out);
  for (std::string file, verdict; lines >> file >> verdict;) verdicts[file] = verdict;
  return verdicts;
}

// Where scripts/build-peers.sh puts kubeconform (built from tests/peers/kubeconform), or "".
inline std::string kubeconform_binary() {
  const char* peers = std::getenv("GKEBUILD_PEERS");
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string dir = peers ? peers : std::string(cache ? cache : std::string(home ? home : "") + "/.cache") +
                                              "/gkebuild/peers";
  return std::filesystem::exists(dir + "/kubeconform") ? dir + "/kubeconform" : "";
}

// kubeconform -strict's verdict ("valid", "invalid", "skipped") per file, run in `dir`, against the
// standalone strict schemas corpus/standalone_schemas.py makes from kubernetes-validate's 1.37 in
// `schemas`. A resource without a schema is skipped, as kubernetes-validate skips it.
inline std::map<std::string, std::string> kubeconform_verdicts(const std::string& kubeconform, const std::string& dir,
                                                                const std::string& schemas,
                                                                const std::vector<std::string>& files) {
  const std::string script = std::string(GKEBUILD_SOURCE_ROOT) + "/tests/tool/steps/validate/corpus/standalone_schemas.py";
  auto made = testing::run_command("python3 " + testing::shell_quoted(script) + " 1.37 " + testing::shell_quoted(schemas));
  EXPECT_EQ(made.exit_code, 0) << made.all();
  auto peer = testing::run_command("cd " + testing::shell_quoted(dir) + " && " + testing::shell_quoted(kubeconform) +
                                   " -strict -ignore-missing-schemas -output json -schema-location " +
                                   testing::shell_quoted(schemas + "/{{.ResourceKind}}{{.KindSuffix}}.json") +
                                   joined(files));
  const auto report = nlohmann::json::parse(peer.out, nullptr, false);
  EXPECT_TRUE(report.is_object()) << peer.all();
  std::map<std::string, std::string> verdicts;
  for (const auto& file : files) verdicts[file] = "valid";  // kubeconform lists valid resources only with -verbose
  for (const auto& resource : report.value("resources", nlohmann::json::array())) {
    const std::string file = resource.value("filename", "");
    const std::string status = resource.value("status", "");
    if (status == "statusInvalid" || status == "statusError") verdicts[file] = "invalid";
    else if (status == "statusSkipped" && verdicts[file] == "valid") verdicts[file] = "skipped";
  }
  return verdicts;
}

// gkebuild validate -k 1.37 -o json over `files`, run in `dir`, with a private cache.
inline nlohmann::json gkebuild_findings(const std::string& dir, const std::string& cache,
                                        const std::vector<std::string>& files) {
  auto ours = testing::run_command("cd " + testing::shell_quoted(dir) + " && GITHUB_ACTIONS= XDG_CACHE_HOME=" +
                                   testing::shell_quoted(cache) + " " + testing::gkebuild_binary() +
                                   " validate -k 1.37 -o json --fail-on never" + joined(files));
  EXPECT_EQ(ours.exit_code, 0) << ours.all();
  return nlohmann::json::parse(ours.out, nullptr, false);
}

// The rules that decide a schema verdict, as kubernetes-validate's is decided.
inline bool is_schema_verdict_rule(const std::string& rule) {
  return rule == "schema" || rule == "yaml-syntax" || rule == "yaml-limits" || rule == "manifest";
}

struct VerdictCounts {
  int agreed = 0;
  int invalid = 0;  // files kubernetes-validate rejects
};

// Expects gkebuild's schema verdict per file to equal kubernetes-validate's, except for the
// files in `differences`, which must still differ (so that the list stays true).
inline VerdictCounts compare_schema_verdicts(const std::vector<std::string>& files,
                                             std::map<std::string, std::string> theirs, const nlohmann::json& ours,
                                             const std::map<std::string, std::string>& differences) {
  std::set<std::string> invalid;
  for (const auto& f : ours)
    if (f["severity"] == "error" && is_schema_verdict_rule(f["rule"])) invalid.insert(f["file"]);
  VerdictCounts counts;
  for (const auto& file : files) {
    bool they_reject = theirs[file] == "invalid";
    bool we_reject = invalid.count(file) > 0;
    counts.invalid += they_reject;
    if (they_reject == we_reject) {
      ++counts.agreed;
      EXPECT_FALSE(differences.count(file)) << file << " agrees now; remove it from its known_differences.txt";
    } else {
      EXPECT_TRUE(differences.count(file)) << file << ": the peer says " << theirs[file] << ", gkebuild "
                                           << (we_reject ? "invalid" : "valid");
    }
  }
  return counts;
}

}  // namespace gkebuild::validate
