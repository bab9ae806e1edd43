// Starts tests/tool/core/kube/kube_test_server.py on 127.0.0.1 at a free port (HTTPS with a
// fresh test CA) for one test, drives it through /_control/, and stops it. Before it stops,
// the test fails if any request or response broke the API contract (api_contract.py: the
// Kubernetes OpenAPI documents and schemas).
#pragma once

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/http_client.h"
#include "tests/common/temp_dir.h"
#include "tool/core/kube/kubeconfig.h"

extern char** environ;

namespace gkebuild::testing {

class KubeTestServer {
 public:
  // `kubernetes_version`: the release whose schemas the server holds answers to ("1.30.0");
  // empty for the server's default (the newest we target).
  explicit KubeTestServer(const std::string& kubernetes_version = "") {
    const std::string script = GKEBUILD_SOURCE_ROOT "/tests/tool/core/kube/kube_test_server.py";
    const std::string dir_arg = certificates().path().string();
    std::vector<const char*> argv = {"python3", script.c_str(), "--dir", dir_arg.c_str()};
    if (!kubernetes_version.empty()) {
      argv.push_back("--kubernetes-version");
      argv.push_back(kubernetes_version.c_str());
    }
    argv.push_back(nullptr);
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    const int failed = posix_spawnp(&pid_, "python3", &actions, nullptr, const_cast<char**>(argv.data()), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (failed) throw std::runtime_error("cannot start python3");
    std::string line;
    char c;
    while (::read(fds[0], &c, 1) == 1 && c != '\n') line += c;
    ::close(fds[0]);
    if (!line.starts_with("PORT ")) throw std::runtime_error("the Kubernetes test server did not start");
    port_ = std::stoi(line.substr(5));
    // Beside the kubeconfig, so that tests can name them relative to it (the server's
    // own pair serves the https proxy of the proxy-url tests).
    for (const char* name : {"ca.crt", "client.crt", "client.key", "server.crt", "server.key"})
      std::filesystem::copy_file(certificates() / name, dir_ / name);
    control_ = std::make_unique<HttpClient>(HttpClientOptions{.tls = {.ca_pem = ca_pem()}});
  }
  ~KubeTestServer() {
    check_contract();
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  KubeTestServer(const KubeTestServer&) = delete;
  KubeTestServer& operator=(const KubeTestServer&) = delete;

  std::string server() const { return "https://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  const TempDir& dir() const { return dir_; }
  std::filesystem::path file(const std::string& name) const { return dir_ / name; }
  std::string ca_pem() const { return read(file("ca.crt")); }

  nlohmann::json control(const std::string& action, const nlohmann::json& body = nlohmann::json::object()) {
    HttpRequest request;
    request.method = "POST";
    request.url = server() + "/_control/" + action;
    request.headers.push_back("Content-Type: application/json");
    request.body = body.dump();
    auto result = control_->send(request);
    if (result.status != 200) throw std::runtime_error("control " + action + " failed: " + result.body);
    return nlohmann::json::parse(result.body);
  }

  // Writes a kubeconfig with one context "test" (namespace default) whose user
  // is `user_yaml` (indented under `user:`), and returns its path.
  std::filesystem::path kubeconfig(const std::string& user_yaml, const std::string& cluster_extra = "") const {
    const auto path = file("kubeconfig");
    std::ofstream out(path);
    out << "apiVersion: v1\nkind: Config\ncurrent-context: test\n"
        << "clusters:\n- name: test\n  cluster:\n    server: " << server()
        << "\n    certificate-authority: ca.crt\n" << cluster_extra
        << "users:\n- name: tester\n  user:\n" << user_yaml
        << "contexts:\n- name: test\n  context: {cluster: test, user: tester, namespace: default}\n";
    return path;
  }

  // A kubeconfig user whose token comes from tests/tool/core/kube/test_exec_plugin.sh, which prints
  // the content of file("token") and adds a line to file("runs") per run; `more_env`
  // adds env entries (TEST_EXPIRY).
  std::string exec_user(const std::string& api_version, const std::string& more_env = "") const {
    return "    exec:\n      apiVersion: " + api_version +
           "\n      command: " GKEBUILD_SOURCE_ROOT "/tests/tool/core/kube/test_exec_plugin.sh\n"
           "      interactiveMode: Never\n      provideClusterInfo: true\n      env:\n"
           "      - {name: TEST_TOKEN_FILE, value: " + file("token").string() + "}\n"
           "      - {name: TEST_RUNS_FILE, value: " + file("runs").string() + "}\n"
           "      - {name: TEST_API_VERSION, value: " + api_version + "}\n" + more_env;
  }

  kube::ClusterAccess access(const std::string& user_yaml = "    {}\n", const std::string& cluster_extra = "") const {
    kube::KubeconfigOptions options;
    options.kubeconfig = kubeconfig(user_yaml, cluster_extra);
    return kube::load_cluster_access(options);
  }

  // The API contract violations recorded so far; `clear` forgets them (for tests of the check itself).
  std::vector<std::string> contract_violations(bool clear = false) {
    return control("contract", {{"clear", clear}})["violations"].get<std::vector<std::string>>();
  }

  static std::string read(const std::filesystem::path& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

 private:
  void check_contract() {
    try {
      const auto violations = contract_violations();
      for (const auto& violation : violations) ADD_FAILURE() << "API contract: " << violation;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "cannot read the test server's contract violations: " << e.what();
    }
  }

  // One test CA per test program: making certificates costs more than a test.
  static const TempDir& certificates() {
    static const TempDir shared;
    return shared;
  }

  TempDir dir_;
  pid_t pid_ = 0;
  int port_ = 0;
  std::unique_ptr<HttpClient> control_;
};

}  // namespace gkebuild::testing
