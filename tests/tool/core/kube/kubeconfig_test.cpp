// kubeconfig as kubectl reads it: merge rules, relative paths, *-data fields and
// the errors a user meets (malformed file, missing context, missing exec plugin).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "tests/common/temp_dir.h"
#include "base/base64.h"
#include "base/source_error.h"
#include "scoped_env.h"
#include "tool/core/kube/exec_plugin.h"
#include "tool/core/kube/kubeconfig.h"

namespace gkebuild::kube {
namespace {

using testing::TempDir;

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// KUBECONFIG for one test, restored afterwards.
struct KubeconfigEnv : testing::ScopedEnv {
  explicit KubeconfigEnv(const std::string& value) : ScopedEnv("KUBECONFIG", value) {}
};

std::string error_of(const KubeconfigOptions& options) {
  try {
    load_cluster_access(options);
  } catch (const SourceError& error) {
    return error.what();
  }
  return "(no error)";
}

constexpr const char* kFirst = R"(apiVersion: v1
kind: Config
clusters:
- name: shared
  cluster: {server: "https://first.example"}
users:
- name: alice
  user: {token: first-token}
contexts:
- name: work
  context: {cluster: shared, user: alice, namespace: team}
)";

constexpr const char* kSecond = R"(apiVersion: v1
kind: Config
current-context: work
clusters:
- name: shared
  cluster: {server: "https://second.example", insecure-skip-tls-verify: true}
users:
- name: alice
  user: {username: alice, password: second}
- name: bob
  user: {token: bob-token}
contexts:
- name: work
  context: {cluster: shared, user: bob}
- name: home
  context: {cluster: shared, user: bob}
)";

TEST(Kubeconfig, FirstFileWinsEachEntryWholeAndCurrentContextComesFromTheFirstThatSetsIt) {
  TempDir dir;
  write(dir / "a.yaml", kFirst);
  write(dir / "b.yaml", kSecond);
  KubeconfigEnv env((dir / "a.yaml").string() + "::" + (dir / "missing.yaml").string() + ":" +
                    (dir / "b.yaml").string());
  const ClusterAccess access = load_cluster_access({});
  EXPECT_EQ(access.context, "work");                       // current-context only in b.yaml
  EXPECT_EQ(access.cluster.server, "https://first.example");  // a.yaml's entry, whole:
  EXPECT_FALSE(access.cluster.insecure_skip_tls_verify);      // nothing merged in from b.yaml
  EXPECT_EQ(access.user.name, "alice");
  EXPECT_EQ(access.user.token, "first-token");
  EXPECT_TRUE(access.user.username.empty());
  EXPECT_EQ(access.namespace_name, "team");

  KubeconfigOptions options;
  options.context = "home";
  options.namespace_name = "override";
  const ClusterAccess home = load_cluster_access(options);
  EXPECT_EQ(home.user.token, "bob-token");
  EXPECT_EQ(home.namespace_name, "override");
}

TEST(Kubeconfig, ExplicitFileIsTheOnlyOneReadAndMustExist) {
  TempDir dir;
  write(dir / "a.yaml", kFirst);
  write(dir / "b.yaml", kSecond);
  KubeconfigEnv env((dir / "a.yaml").string());
  KubeconfigOptions options;
  options.kubeconfig = dir / "b.yaml";
  EXPECT_EQ(load_cluster_access(options).cluster.server, "https://second.example");
  options.kubeconfig = dir / "absent.yaml";
  EXPECT_NE(error_of(options).find("absent.yaml"), std::string::npos);
}

TEST(Kubeconfig, FileReferencesAreRelativeToTheKubeconfigAndDataFieldsAreBase64) {
  TempDir dir;
  write(dir / "conf/certs/ca.pem", "CA PEM\n");
  write(dir / "conf/certs/client.pem", "CLIENT CERT\n");
  write(dir / "conf/certs/client.key", "CLIENT KEY\n");
  write(dir / "conf/token", "file-token\n");
  write(dir / "conf/config", R"(apiVersion: v1
kind: Config
current-context: c
clusters:
- name: c
  cluster: {server: "https://k.example/", certificate-authority: certs/ca.pem, tls-server-name: kube.test}
- name: d
  cluster: {server: "https://k.example", certificate-authority-data: )" + base64_encode("DATA CA") + R"(}
users:
- name: u
  user: {client-certificate: certs/client.pem, client-key: certs/client.key, tokenFile: token}
contexts:
- name: c
  context: {cluster: c, user: u}
- name: d
  context: {cluster: d, user: u}
)");
  KubeconfigOptions options;
  options.kubeconfig = dir / "conf/config";
  const ClusterAccess access = load_cluster_access(options);
  EXPECT_EQ(access.cluster.server, "https://k.example");
  EXPECT_EQ(access.cluster.ca_pem, "CA PEM\n");
  EXPECT_EQ(access.cluster.tls_server_name, "kube.test");
  EXPECT_EQ(access.user.client_certificate_pem, "CLIENT CERT\n");
  EXPECT_EQ(access.user.client_key_pem, "CLIENT KEY\n");
  EXPECT_EQ(access.user.token_file, std::filesystem::absolute(dir / "conf/token"));
  EXPECT_EQ(access.namespace_name, "default");
  options.context = "d";
  EXPECT_EQ(load_cluster_access(options).cluster.ca_pem, "DATA CA");
}

TEST(Kubeconfig, MalformedFileNamesFileLineAndColumn) {
  TempDir dir;
  write(dir / "config", "apiVersion: v1\nclusters:\n- name: c\n  cluster: {server: [unclosed\n");
  KubeconfigOptions options;
  options.kubeconfig = dir / "config";
  const std::string message = error_of(options);
  EXPECT_NE(message.find((dir / "config").string() + ":"), std::string::npos) << message;
  EXPECT_NE(message.find("invalid YAML"), std::string::npos) << message;

  write(dir / "config", "apiVersion: v1\nclusters:\n- name: c\n  cluster:\n    server: https://x\n"
                        "    certificate-authority-data: 'not base64!'\n"
                        "contexts:\n- {name: c, context: {cluster: c}}\ncurrent-context: c\n");
  EXPECT_NE(error_of(options).find(":6:"), std::string::npos) << error_of(options);
}

TEST(Kubeconfig, MissingContextSuggestsTheClosestName) {
  TempDir dir;
  write(dir / "config", kSecond);
  KubeconfigOptions options;
  options.kubeconfig = dir / "config";
  options.context = "hom";
  const std::string message = error_of(options);
  EXPECT_NE(message.find("context 'hom' is not defined"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean 'home'"), std::string::npos) << message;

  write(dir / "config", "apiVersion: v1\nkind: Config\ncontexts:\n- name: c\n  context: {cluster: nowhere}\n");
  options.context = "c";
  const std::string cluster_message = error_of(options);
  EXPECT_NE(cluster_message.find(":5:"), std::string::npos) << cluster_message;
  EXPECT_NE(cluster_message.find("cluster 'nowhere' is not defined"), std::string::npos) << cluster_message;

  options.context.clear();
  EXPECT_NE(error_of(options).find("no current-context"), std::string::npos);
}

TEST(Kubeconfig, ConflictingAuthAndRemovedAuthProviderAreRefused) {
  TempDir dir;
  KubeconfigOptions options;
  options.kubeconfig = dir / "config";
  const std::string head = "clusters:\n- name: c\n  cluster: {server: 'https://x'}\ncurrent-context: c\n"
                           "contexts:\n- name: c\n  context: {cluster: c, user: u}\nusers:\n- name: u\n  user:\n";
  write(dir / "config", head + "    token: t\n    username: u\n");
  EXPECT_NE(error_of(options).find("both a token and a username"), std::string::npos);
  write(dir / "config", head + "    auth-provider: {name: gcp}\n");
  EXPECT_NE(error_of(options).find("gke-gcloud-auth-plugin"), std::string::npos);
  write(dir / "config", head + "    exec: {apiVersion: client.authentication.k8s.io/v1, command: x}\n");
  EXPECT_NE(error_of(options).find("interactiveMode is required"), std::string::npos) << error_of(options);
}

TEST(Kubeconfig, MissingExecPluginShowsTheInstallHint) {
  TempDir dir;
  write(dir / "config", R"(clusters:
- name: c
  cluster: {server: 'https://x'}
current-context: c
contexts:
- name: c
  context: {cluster: c, user: u}
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: gkebuild-test-no-such-plugin
      installHint: Install gke-gcloud-auth-plugin by following the GKE documentation
      provideClusterInfo: true
)");
  KubeconfigOptions options;
  options.kubeconfig = dir / "config";
  const ClusterAccess access = load_cluster_access(options);
  ASSERT_TRUE(access.user.exec);
  EXPECT_EQ(access.user.exec->interactive_mode, "IfAvailable");  // the v1beta1 default
  try {
    run_exec_plugin(*access.user.exec, access.cluster);
    FAIL() << "a missing plugin ran";
  } catch (const SourceError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("'gkebuild-test-no-such-plugin' not found on PATH"), std::string::npos) << message;
    EXPECT_NE(message.find("Install gke-gcloud-auth-plugin by following"), std::string::npos) << message;
    EXPECT_NE(message.find(":12:"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace gkebuild::kube

namespace gkebuild::kube {
namespace {

TEST(Kubeconfig, ExecCommandWithASlashIsRelativeToTheKubeconfigAndABareNameIsLookedUpOnPath) {
  TempDir dir;
  write(dir / "conf/bin/plugin", "#!/bin/sh\n");
  std::filesystem::permissions(dir / "conf/bin/plugin", std::filesystem::perms::owner_all);
  ExecConfig exec;
  exec.base_dir = dir / "conf";
  exec.command = "./bin/plugin";
  EXPECT_EQ(resolve_exec_command(exec), dir / "conf/./bin/plugin");
  exec.command = "bin/missing";
  EXPECT_FALSE(resolve_exec_command(exec));
  exec.command = "sh";  // on PATH, whatever the kubeconfig's directory
  const auto found = resolve_exec_command(exec);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->filename(), "sh");
  exec.command = "plugin";  // a bare name is never taken from the kubeconfig's directory
  EXPECT_FALSE(resolve_exec_command(exec));
}

}  // namespace
}  // namespace gkebuild::kube

namespace gkebuild::kube {
namespace {

// client-go accepts http, https and socks5 proxies; its refusal quotes the URL, ours must not
// (a proxy URL may hold a password).
TEST(Kubeconfig, ProxyUrlIsReadAndAnUnsupportedSchemeIsRefusedWithoutQuotingIt) {
  TempDir dir;
  KubeconfigOptions options;
  options.kubeconfig = dir / "config";
  const auto config = [](const std::string& proxy) {
    return "clusters:\n- name: c\n  cluster:\n    server: https://x\n    proxy-url: " + proxy +
           "\ncurrent-context: c\ncontexts:\n- name: c\n  context: {cluster: c}\n";
  };
  for (const std::string proxy : {"http://proxy.example:3128", "https://p.example", "socks5://u:p@127.0.0.1:1080"}) {
    write(dir / "config", config(proxy));
    EXPECT_EQ(load_cluster_access(options).cluster.proxy_url, proxy);
  }
  write(dir / "config", config("ftp://user:hunter2@proxy.example"));
  const std::string message = error_of(options);
  EXPECT_NE(message.find(":5:"), std::string::npos) << message;
  EXPECT_NE(message.find("proxy-url must be an http://, https:// or socks5:// URL"), std::string::npos) << message;
  EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
}

}  // namespace
}  // namespace gkebuild::kube
