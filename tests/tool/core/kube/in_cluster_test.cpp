// The in-cluster config read from a service account directory as the kubelet mounts
// it, the deferred loading that picks it (no kubeconfig, inside a pod), and when a
// cached credential is renewed.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>

#include "base/source_error.h"
#include "scoped_env.h"
#include "tests/common/temp_dir.h"
#include "tool/core/kube/credentials.h"
#include "tool/core/kube/in_cluster.h"

namespace gkebuild::kube {
namespace {

namespace fs = std::filesystem;
using testing::ScopedEnv;
using testing::TempDir;

// A pod's environment: the service's address, no kubeconfig, no POD_NAMESPACE.
struct PodEnvironment {
  explicit PodEnvironment(const fs::path& home, const std::string& host = "10.96.0.1")
      : host_("KUBERNETES_SERVICE_HOST", host), port_("KUBERNETES_SERVICE_PORT", "443"),
        kubeconfig_("KUBECONFIG", std::nullopt), home_("HOME", home.string()),
        pod_namespace_("POD_NAMESPACE", std::nullopt) {}
  ScopedEnv host_, port_, kubeconfig_, home_, pod_namespace_;
};

void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const SourceError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(InCluster, ServerTokenFileCaAndNamespaceComeFromThePod) {
  TempDir home;
  TempDir account;
  write(account / "token", "header.payload.signature\n");
  write(account / "ca.crt", "CA PEM\n");
  write(account / "namespace", "team-a\n");
  PodEnvironment pod(home.path());
  const ClusterAccess access = in_cluster_access(account.path());
  EXPECT_EQ(access.context, "in-cluster");
  EXPECT_EQ(access.cluster.server, "https://10.96.0.1:443");
  EXPECT_EQ(access.cluster.ca_pem, "CA PEM\n");
  EXPECT_EQ(access.user.token_file, account / "token");  // read per request, never copied
  EXPECT_TRUE(access.user.token.empty());
  EXPECT_EQ(access.namespace_name, "team-a");

  {
    ScopedEnv downward("POD_NAMESPACE", "from-downward-api");  // kubectl reads it first
    EXPECT_EQ(in_cluster_access(account.path()).namespace_name, "from-downward-api");
  }
  fs::remove(account / "namespace");
  EXPECT_EQ(in_cluster_access(account.path()).namespace_name, "default");

  PodEnvironment ipv6(home.path(), "fd00:10:96::1");
  EXPECT_EQ(in_cluster_access(account.path()).cluster.server, "https://[fd00:10:96::1]:443");
}

TEST(InCluster, AMissingTokenOrCaIsNamedWithItsLikelyCause) {
  TempDir home;
  TempDir account;
  PodEnvironment pod(home.path());
  write(account / "ca.crt", "CA PEM\n");
  std::string message = error_of([&] { in_cluster_access(account.path()); });
  EXPECT_NE(message.find((account / "token").string() + ": error: in-cluster config"), std::string::npos) << message;
  EXPECT_NE(message.find("service account token is missing (is automountServiceAccountToken false"),
            std::string::npos) << message;
  write(account / "token", "\n");
  EXPECT_NE(error_of([&] { in_cluster_access(account.path()); }).find("service account token is empty"), std::string::npos);
  write(account / "token", "t");
  fs::remove(account / "ca.crt");
  message = error_of([&] { in_cluster_access(account.path()); });
  EXPECT_NE(message.find((account / "ca.crt").string()), std::string::npos) << message;
  EXPECT_NE(message.find("CA certificate is missing"), std::string::npos) << message;
}

// kubectl's deferred loading: with no kubeconfig file at all, a pod uses its service
// account, from the real directory (absent on this machine, present in a pod).
TEST(InCluster, WithoutAKubeconfigInAPodTheServiceAccountIsUsed) {
  TempDir home;
  PodEnvironment pod(home.path());
  if (fs::exists(fs::path(kServiceAccountDir) / "token")) {
    EXPECT_EQ(load_cluster_access({}).cluster.server, "https://10.96.0.1:443");
  } else {
    const std::string message = error_of([] { load_cluster_access({}); });
    EXPECT_NE(message.find(std::string(kServiceAccountDir) + "/"), std::string::npos) << message;
    EXPECT_NE(message.find("is missing"), std::string::npos) << message;
  }
  // An explicit context names a kubeconfig entry: no in-cluster fallback for it.
  KubeconfigOptions with_context;
  with_context.context = "work";
  EXPECT_NE(error_of([&] { load_cluster_access(with_context); }).find("no kubeconfig file found"), std::string::npos);

  // Outside a pod, the message is about the kubeconfig.
  ScopedEnv no_host("KUBERNETES_SERVICE_HOST", std::nullopt);
  EXPECT_NE(error_of([] { load_cluster_access({}); }).find("no kubeconfig file found"), std::string::npos);
}

// Issue 30: a tokenFile that is a FIFO made every request wait forever, and /dev/zero was read
// up to a megabyte. Only regular files (or the kubelet's symlinks to them) are read.
std::string token_error(const fs::path& token_file) {
  UserConfig user;
  user.token_file = token_file;
  CredentialSource source(ClusterConfig{}, user);
  // The guard: a read that waits is a failure here, not a hung test.
  auto reading = std::async(std::launch::async, [&] { return error_of([&] { source.current(); }); });
  if (reading.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    ADD_FAILURE() << token_file << " was read without end";
    std::abort();  // the thread cannot be stopped; the test cannot go on
  }
  return reading.get();
}

TEST(TokenFile, OnlyARegularFileOrASymlinkToOneIsRead) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  EXPECT_NE(token_error(dir / "fifo").find("not a regular file"), std::string::npos) << token_error(dir / "fifo");
  EXPECT_NE(token_error("/dev/zero").find("not a regular file"), std::string::npos);
  EXPECT_NE(token_error(dir.path()).find("not a regular file"), std::string::npos);
  write(dir / "big", std::string(100000, 'x'));
  EXPECT_NE(token_error(dir / "big").find("at most 65536"), std::string::npos) << token_error(dir / "big");
  // The kubelet's layout: token -> ..data/token, ..data -> a timestamped folder.
  fs::create_directories(dir / "..2026_11_28" );
  write(dir / "..2026_11_28" / "token", "rotated-token\n");
  fs::create_symlink("..2026_11_28", dir / "..data");
  fs::create_symlink("..data/token", dir / "token");
  UserConfig user;
  user.token_file = dir / "token";
  CredentialSource source(ClusterConfig{}, user);
  EXPECT_EQ(source.current().auth.bearer_token, "rotated-token");
}

TEST(CredentialRenewal, TenSecondsBeforeExpiryButNeverInTheFirstHalfOfALifetime) {
  const SystemClock::time_point t0{std::chrono::seconds(1'800'000'000)};
  using std::chrono::minutes;
  using std::chrono::seconds;
  EXPECT_EQ(renewal_time(t0, t0 + minutes(60)), t0 + minutes(60) - seconds(10));  // gke-gcloud-auth-plugin: 1 h
  EXPECT_EQ(renewal_time(t0, t0 + seconds(8)), t0 + seconds(4));
  EXPECT_EQ(renewal_time(t0, t0 - seconds(5)), t0 - seconds(5));  // expired on arrival: renewed each time
}

}  // namespace
}  // namespace gkebuild::kube
