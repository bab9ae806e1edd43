// The in-cluster config against the Kubernetes test server: the service account token
// rotated by the kubelet is used from the next request on, and the gkebuild binary in
// a mount namespace, where the service account directory is mounted where a pod has it,
// with no kubeconfig, talks to the server as a pod would, and as kubectl does there.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "scoped_env.h"
#include "test_server.h"
#include "tests/common/run.h"
#include "tool/core/kube/client.h"
#include "tool/core/kube/in_cluster.h"
#include "tool/core/kube/objects.h"

namespace gkebuild::kube {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::KubeTestServer;
using testing::ScopedEnv;
using testing::TempDir;

// The kubelet writes a new token into a new directory and swaps a symlink to it
// (AtomicWriter): the token file is never rewritten in place.
void kubelet_writes_token(const TempDir& account, const std::string& token) {
  static int generation = 0;
  const std::string data = "..data-" + std::to_string(++generation);
  fs::create_directories(account / data);
  std::ofstream(account / data / "token") << token;
  fs::create_symlink(data, account / "..data.tmp");
  fs::rename(account / "..data.tmp", account / "..data");
  if (!fs::is_symlink(account / "token")) fs::create_symlink("..data/token", account / "token");
}

TEST(InClusterServer, ARotatedTokenIsUsedFromTheNextRequestWithoutA401) {
  KubeTestServer server;
  TempDir account;
  fs::copy_file(server.file("ca.crt"), account / "ca.crt");
  std::ofstream(account / "namespace") << "default\n";
  kubelet_writes_token(account, "bound-token-1");
  server.control("config", {{"tokens", {"bound-token-1"}}});
  ScopedEnv host("KUBERNETES_SERVICE_HOST", "127.0.0.1");
  ScopedEnv port("KUBERNETES_SERVICE_PORT", std::to_string(server.port()));
  Client client(in_cluster_access(account.path()));
  const auto& namespaces = resource_type("v1", "Namespace");
  list(client, namespaces, "");
  list(client, namespaces, "");
  EXPECT_EQ(client.credential_file_reads(), 1);  // read again only when it changes

  kubelet_writes_token(account, "bound-token-2");
  server.control("config", {{"tokens", {"bound-token-2"}}});  // the old one is no longer accepted
  const long before = client.requests_sent();
  list(client, namespaces, "");
  EXPECT_EQ(client.requests_sent() - before, 1);  // no 401 and retry: the new token went first
  EXPECT_EQ(client.credential_file_reads(), 2);
}

TEST(InClusterServer, GkebuildInAPodsMountNamespaceUsesTheServiceAccount) {
  if (::geteuid() != 0) GTEST_SKIP() << "a mount namespace needs root";
  KubeTestServer server;
  TempDir account;
  TempDir home;
  TempDir project;
  fs::copy_file(server.file("ca.crt"), account / "ca.crt");
  std::ofstream(account / "token") << "pod-token\n";
  std::ofstream(account / "namespace") << "team-a\n";
  server.control("config", {{"tokens", {"pod-token"}}});
  // A GKE cluster section, so the project names a kubeconfig context; a pod has no kubeconfig.
  project.write("gkebuild.yaml",
                "apiVersion: gkebuild/v1\nproject: demo\nregistry: 127.0.0.1:5000/exp\n"
                "images:\n  gemm: {workload: gemm-bench}\n"
                "experiments:\n  a: {image: gemm, accelerators: [nvidia-l4]}\n"
                "cluster:\n  gcpProject: my-project\n  location: us-central1\n");
  const std::string in_pod =
      "mount -t tmpfs tmpfs /var/run && mkdir -p " + std::string(kServiceAccountDir) + " && mount --bind \"$1\" " +
      kServiceAccountDir + " && cd \"$2\" && \"$3\" cluster check; echo \"gkebuild exit $?\";"
      " timeout 30 kubectl get configmaps";
  const auto run = testing::run_command(
      "env -u KUBECONFIG HOME=" + testing::shell_quoted(home.path().string()) +
      " KUBERNETES_SERVICE_HOST=127.0.0.1 KUBERNETES_SERVICE_PORT=" + std::to_string(server.port()) +
      " unshare --mount --propagation private sh -c " + testing::shell_quoted(in_pod) + " sh " +
      testing::shell_quoted(account.path().string()) + " " + testing::shell_quoted(project.path().string()) + " " +
      testing::gkebuild_binary());
  // Read as the pod: the server accepts only the service account's token.
  EXPECT_NE(run.out.find("gkebuild exit 0\n"), std::string::npos) << run.all();
  EXPECT_NE(run.out.find("context in-cluster (https://127.0.0.1:" + std::to_string(server.port()) + ")\n"),
            std::string::npos) << run.all();
  EXPECT_NE(run.out.find("ok: nvidia-l4 (experiment a): no node now"), std::string::npos) << run.all();
  // kubectl, in the same pod, reads the same files the same way (the namespace among them).
  EXPECT_EQ(run.exit_code, 0) << run.all();
  EXPECT_NE(run.err.find("No resources found in team-a namespace."), std::string::npos) << run.all();
  EXPECT_FALSE(fs::exists(fs::path(kServiceAccountDir))) << "the mount leaked out of its namespace";
}

}  // namespace
}  // namespace gkebuild::kube
