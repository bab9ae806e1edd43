// proxy-url from the kubeconfig against real proxies from Debian (tests/tool/core/kube/test_proxy.h):
// requests reach the test server through tinyproxy (http), microsocks (socks5) and
// stunnel in front of tinyproxy (https), as each proxy's log shows; the proxy replaces
// the environment's proxy settings, NO_PROXY included; and no message shows the
// proxy's password. kubectl, given the same kubeconfigs, goes the same way.
#include <gtest/gtest.h>

#include "tests/common/run.h"
#include "tool/core/kube/client.h"
#include "tool/core/kube/objects.h"
#include "failure_of.h"
#include "scoped_env.h"
#include "test_proxy.h"
#include "test_server.h"

namespace gkebuild::kube {
namespace {

using testing::failure_of;
using testing::KubeTestServer;
using testing::ScopedEnv;
using testing::TempDir;

constexpr const char* kPassword = "s3cret-pw";

// How many lines of `log` contain `text`.
int count(const std::string& log, const std::string& text) {
  int found = 0;
  for (auto at = log.find(text); at != std::string::npos; at = log.find(text, at + 1)) ++found;
  return found;
}

ClusterAccess through(const KubeTestServer& server, const std::string& proxy_url) {
  return server.access("    {}\n", "    proxy-url: " + proxy_url + "\n");
}

// kubectl, a real client, given the same kubeconfig: what it does with proxy-url is the reference.
testing::CommandResult kubectl_through(const KubeTestServer& server, const std::string& proxy_url) {
  const auto kubeconfig = server.kubeconfig("    client-certificate: client.crt\n    client-key: client.key\n",
                                            "    proxy-url: " + proxy_url + "\n");
  return testing::run_command("timeout 30 kubectl --kubeconfig " + testing::shell_quoted(kubeconfig.string()) +
                              " --cache-dir " + testing::shell_quoted(server.file("kube-cache").string()) +
                              " get namespaces -o name");
}

TEST(KubeProxy, HttpProxyCarriesEveryRequestWhateverTheEnvironmentSays) {
  KubeTestServer server;
  TempDir dir;
  const auto proxy = testing::start_tinyproxy(dir, "alice", kPassword);
  // Proxy variables that would send the requests elsewhere or straight to the server:
  // an explicit proxy-url replaces them all (client-go does the same).
  ScopedEnv https_proxy("HTTPS_PROXY", "http://127.0.0.1:9");
  ScopedEnv no_proxy("NO_PROXY", "127.0.0.1");
  ScopedEnv lower_no_proxy("no_proxy", "127.0.0.1");
  Client client(through(server, "http://alice:" + std::string(kPassword) + "@127.0.0.1:" +
                                     std::to_string(proxy->port())));
  list(client, resource_type("v1", "Namespace"), "");
  list(client, resource_type("v1", "ConfigMap"), "default");
  const std::string tunnel = "CONNECT 127.0.0.1:" + std::to_string(server.port()) + " ";
  const int ours = count(proxy->log(), tunnel);
  EXPECT_GE(ours, 1) << proxy->log();
  // kubectl ignores the same environment for the same kubeconfig.
  const auto kubectl = kubectl_through(server, "http://alice:" + std::string(kPassword) + "@127.0.0.1:" +
                                                   std::to_string(proxy->port()));
  EXPECT_EQ(kubectl.out, "namespace/default\nnamespace/kube-system\n") << kubectl.all();
  EXPECT_GT(count(proxy->log(), tunnel), ours) << proxy->log();

  Client refused(through(server, "http://alice:wrong-pw@127.0.0.1:" + std::to_string(proxy->port())));
  const std::string message = failure_of([&] { list(refused, resource_type("v1", "Namespace"), ""); });
  EXPECT_NE(message.find("cannot reach the Kubernetes API server " + server.server() +
                         " through proxy http://127.0.0.1:" + std::to_string(proxy->port()) + ": "),
            std::string::npos) << message;
  EXPECT_EQ(message.find("wrong-pw"), std::string::npos) << message;
  EXPECT_EQ(message.find("alice"), std::string::npos) << message;
}

// Go's socks5 dialer hands the host name to the proxy: libcurl's socks5h does the same.
TEST(KubeProxy, Socks5ProxyGetsTheHostNameAndTheCredentials) {
  KubeTestServer server;
  TempDir dir;
  const auto proxy = testing::start_microsocks(dir, "bob", kPassword);
  ClusterAccess access = through(server, "socks5://bob:" + std::string(kPassword) + "@127.0.0.1:" +
                                             std::to_string(proxy->port()));
  access.cluster.server = "https://localhost:" + std::to_string(server.port());
  Client client(access);
  list(client, resource_type("v1", "Namespace"), "");
  EXPECT_GE(count(proxy->log(), "connected to localhost:" + std::to_string(server.port())), 1) << proxy->log();
  const auto kubectl = kubectl_through(server, "socks5://bob:" + std::string(kPassword) + "@127.0.0.1:" +
                                                   std::to_string(proxy->port()));
  EXPECT_EQ(kubectl.out, "namespace/default\nnamespace/kube-system\n") << kubectl.all();
  EXPECT_GE(count(proxy->log(), "connected to 127.0.0.1:" + std::to_string(server.port())), 1) << proxy->log();

  access.cluster.proxy_url = "socks5://bob:not-the-" + std::string(kPassword) + "@127.0.0.1:" +
                             std::to_string(proxy->port());
  Client refused(access);
  const std::string message = failure_of([&] { list(refused, resource_type("v1", "Namespace"), ""); });
  EXPECT_NE(message.find("through proxy socks5://127.0.0.1:"), std::string::npos) << message;
  EXPECT_EQ(message.find(kPassword), std::string::npos) << message;
}

// As in kubectl, the https proxy's certificate is checked with the cluster's TLS settings:
// here the proxy shows the test server's own certificate, which the cluster's CA signed.
TEST(KubeProxy, HttpsProxyIsVerifiedWithTheClustersCertificateAuthority) {
  KubeTestServer server;
  TempDir dir;
  const auto inner = testing::start_tinyproxy(dir, "carol", kPassword);
  const auto tls = testing::start_stunnel(dir, server.file("server.crt"), server.file("server.key"), inner->port());
  Client client(through(server, "https://carol:" + std::string(kPassword) + "@127.0.0.1:" +
                                     std::to_string(tls->port())));
  list(client, resource_type("v1", "Namespace"), "");
  EXPECT_GE(count(inner->log(), "CONNECT 127.0.0.1:" + std::to_string(server.port()) + " "), 1) << inner->log();
  const int accepted = count(tls->log(), "accepted connection");
  EXPECT_GE(accepted, 1) << tls->log();
  // kubectl accepts the same proxy certificate under the same CA.
  const auto kubectl = kubectl_through(server, "https://carol:" + std::string(kPassword) + "@127.0.0.1:" +
                                                   std::to_string(tls->port()));
  EXPECT_EQ(kubectl.out, "namespace/default\nnamespace/kube-system\n") << kubectl.all();
  EXPECT_GT(count(tls->log(), "accepted connection"), accepted) << tls->log();

  ClusterAccess untrusted = through(server, "https://127.0.0.1:" + std::to_string(tls->port()));
  untrusted.cluster.ca_pem = server.read(server.file("client.crt"));  // any CA but the one that signed the proxy
  Client refused(untrusted);
  EXPECT_NE(failure_of([&] { list(refused, resource_type("v1", "Namespace"), ""); }).find("through proxy https://"),
            std::string::npos);
}

// Go's transport shows an https proxy that asks for one the user's client certificate: so does gkebuild.
TEST(KubeProxy, HttpsProxyThatAsksForAClientCertificateGetsTheUsers) {
  KubeTestServer server;
  TempDir dir;
  const auto inner = testing::start_tinyproxy(dir, "erin", kPassword);
  const auto tls = testing::start_stunnel(dir, server.file("server.crt"), server.file("server.key"), inner->port(),
                                          server.file("ca.crt"));
  const std::string proxy = "https://erin:" + std::string(kPassword) + "@127.0.0.1:" + std::to_string(tls->port());
  const std::string certificate_user = "    client-certificate: client.crt\n    client-key: client.key\n";
  Client client(server.access(certificate_user, "    proxy-url: " + proxy + "\n"));
  list(client, resource_type("v1", "Namespace"), "");
  EXPECT_GE(count(inner->log(), "CONNECT 127.0.0.1:" + std::to_string(server.port()) + " "), 1) << tls->log();
  const auto kubectl = kubectl_through(server, proxy);  // the same user and certificate
  EXPECT_EQ(kubectl.out, "namespace/default\nnamespace/kube-system\n") << kubectl.all();

  Client anonymous(through(server, proxy));
  const std::string message = failure_of([&] { list(anonymous, resource_type("v1", "Namespace"), ""); });
  EXPECT_NE(message.find("through proxy https://127.0.0.1:"), std::string::npos) << message;
  EXPECT_EQ(message.find(kPassword), std::string::npos) << message;
}

TEST(KubeProxy, AProxyThatIsNotThereIsNamedWithoutItsPassword) {
  KubeTestServer server;
  const int port = testing::free_port();
  Client client(through(server, "http://dave:" + std::string(kPassword) + "@127.0.0.1:" + std::to_string(port)));
  const std::string message = failure_of([&] { list(client, resource_type("v1", "Namespace"), ""); });
  EXPECT_NE(message.find("through proxy http://127.0.0.1:" + std::to_string(port) + ": "), std::string::npos)
      << message;
  EXPECT_EQ(message.find(kPassword), std::string::npos) << message;
}

// Issue 30: a proxy-url too malformed for a URL parser, with a password and a control byte:
// libcurl's error quotes it whole, and the message must show neither the password nor the
// raw byte.
TEST(KubeProxy, AMalformedProxyUrlIsNamedWithoutItsPasswordOrControlBytes) {
  KubeTestServer server;
  for (const std::string proxy : {"http://dave:" + std::string(kPassword) + "@[::1\\e]:3128",
                                  "http://dave:" + std::string(kPassword) + "@127.0.0.1:99999\\e"}) {
    Client client(through(server, "\"" + proxy + "\""));
    const std::string message = failure_of([&] { list(client, resource_type("v1", "Namespace"), ""); });
    EXPECT_NE(message, "(no error)");
    EXPECT_EQ(message.find(kPassword), std::string::npos) << message;
    EXPECT_EQ(message.find('\x1b'), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace gkebuild::kube
