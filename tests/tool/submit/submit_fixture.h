// Runs `gkebuild submit` and the follow-up commands in a copy of an example project
// against the Kubernetes test server, whose Jobs run on their own (config "auto") and
// print result lines, and reads back what the server and the run record hold.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/tool/core/kube/test_server.h"
#include "tool/core/kube/client.h"
#include "tests/common/run.h"

namespace gkebuild::testing {

inline constexpr const char* kPinned =
    "registry.test/gemm@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

// A result line as the workloads print it, naming the pod's Job and args; and a human line.
inline nlohmann::json auto_run(double step = 0.05, nlohmann::json fail = nlohmann::json::object()) {
  return {{"step", step},
          {"fail", fail},
          {"lines", {"starting $JOB with $ARGS",
                     R"({"schema":"gkebuild.workload.v1","workload":"test","metric":"throughput","value":1.5,)"
                     R"("unit":"TFLOP/s","extra":{"index":$INDEX,"args":$ARGS}})",
                     "done"}}};
}

class SubmitFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    server.control("config", {{"auto", auto_run()}});
    kubeconfig = server.kubeconfig("    client-certificate: client.crt\n    client-key: client.key\n");
  }

  // Copies examples/NAME/gkebuild.yaml into the scratch project folder.
  void use_example(const std::string& name) {
    std::filesystem::copy_file(std::filesystem::path(GKEBUILD_SOURCE_ROOT) / "examples" / name / "gkebuild.yaml",
                               project.path() / "gkebuild.yaml",
                               std::filesystem::copy_options::overwrite_existing);
  }

  struct Outcome {
    int exit_code;
    std::string out;
    std::string err;
  };

  Outcome gkebuild(const std::string& arguments, const std::string& kube = "") {
    const auto out = project.path() / "stdout.txt";
    const auto err = project.path() / "stderr.txt";
    // Output first, so that `arguments` may go on with more shell (a background run, a signal).
    const std::string command =
        "cd " + shell_quoted(project.path().string()) +
        " && exec > stdout.txt 2> stderr.txt && KUBECONFIG=" + shell_quoted(kube.empty() ? kubeconfig.string() : kube) +
        " " + gkebuild_binary() + " " + arguments;
    const int code = run_command(command).exit_code;
    return {code, KubeTestServer::read(out), KubeTestServer::read(err)};
  }

  nlohmann::json server_list(const std::string& path) {
    kube::ClusterAccess access = server.access("    client-certificate: client.crt\n    client-key: client.key\n");
    kube::Client client(access);
    return client.send_json({"GET", path}, "list");
  }

  std::vector<std::string> job_names(const std::string& ns) {
    std::vector<std::string> names;
    const auto listed = server_list("/apis/batch/v1/namespaces/" + ns + "/jobs");
    for (const auto& item : listed["items"])
      names.push_back(item["metadata"]["name"]);
    return names;
  }

  std::filesystem::path only_run() {
    std::vector<std::filesystem::path> runs;
    for (const auto& entry : std::filesystem::directory_iterator(project.path() / ".gkebuild" / "runs"))
      runs.push_back(entry.path());
    EXPECT_EQ(runs.size(), 1u);
    return runs.empty() ? std::filesystem::path() : runs.front();
  }

  static nlohmann::json run_json(const std::filesystem::path& run) {
    return nlohmann::json::parse(KubeTestServer::read(run / "run.json"));
  }

  static std::vector<nlohmann::json> results(const std::filesystem::path& run) {
    std::vector<nlohmann::json> lines;
    std::istringstream in(KubeTestServer::read(run / "results.jsonl"));
    for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
    return lines;
  }

  static std::vector<std::string> lines_of(const std::filesystem::path& file) {
    std::vector<std::string> lines;
    std::istringstream in(KubeTestServer::read(file));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }

  KubeTestServer server;
  TempDir project;
  std::filesystem::path kubeconfig;
};

}  // namespace gkebuild::testing
