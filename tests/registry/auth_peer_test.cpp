// Authentication against a real docker-registry: TLS verified with a CA made
// by openssl, htpasswd basic auth over TLS, Docker token auth with a test token
// issuer, credential helpers, and redirects that must not carry credentials.
// Every command's whole output is searched for the secrets.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "base/atomic_file.h"
#include "base/base64.h"
#include "images/oci/layout.h"
#include "registry/remote/pull.h"
#include "registry/remote/push.h"
#include "registry/transport/errors.h"
#include "tests/registry/harness.h"

namespace gkebuild::testing {
namespace {

constexpr const char* kUser = "alice";
constexpr const char* kPassword = "pw-7c1f9e2d-never-shown";

class AuthPeerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    pki_dir = new TempDir;
    pki = new Pki(make_pki(pki_dir->path()));
  }
  static void TearDownTestSuite() {
    delete pki;
    delete pki_dir;
  }
  void SetUp() override {
    fs::create_directories(docker_dir());
    setenv("DOCKER_CONFIG", docker_dir().c_str(), 1);
    unsetenv("REGISTRY_AUTH_FILE");
    make_test_image(layout(), "v1", {2000, 30000}, 11);
  }
  fs::path docker_dir() const { return dir.path() / "docker"; }
  fs::path layout() const { return dir.path() / "layout"; }
  void login(const std::string& host, const std::string& password) {
    write_docker_config(docker_dir(), basic_auths_json(host, kUser, password));
  }
  CommandResult push(const std::string& args) {
    auto r = run_gkebuild("push -v " + args);
    expect_no_secrets(r.all());
    return r;
  }
  static void expect_no_secrets(const std::string& output) {
    EXPECT_EQ(output.find(kPassword), std::string::npos) << output;
    EXPECT_EQ(output.find(base64_encode(std::string(kUser) + ":" + kPassword)), std::string::npos);
    EXPECT_EQ(output.find("Authorization"), std::string::npos) << output;
    EXPECT_EQ(output.find("eyJ"), std::string::npos) << output;  // a JWT
  }
  std::string ca() const { return " --ca-file " + pki->ca_cert.string() + " "; }
  std::string source() const { return "oci:" + layout().string() + ":v1 "; }

  static TempDir* pki_dir;
  static Pki* pki;
  TempDir dir;
};

TempDir* AuthPeerTest::pki_dir = nullptr;
Pki* AuthPeerTest::pki = nullptr;

TEST_F(AuthPeerTest, TlsIsVerifiedWithTheGivenCa) {
  Registry registry(dir.path() / "reg", {.tls = true}, pki);
  auto ok = push(ca() + source() + registry.host() + "/team/app:v1");
  ASSERT_EQ(ok.exit_code, 0) << ok.all();
  EXPECT_NE(ok.err.find("https://" + registry.host()), std::string::npos);
  auto wrong = push("--ca-file " + pki->other_ca_cert.string() + " " + source() + registry.host() + "/team/app:v2");
  EXPECT_EQ(wrong.exit_code, 1) << wrong.all();
  EXPECT_NE(wrong.err.find("https://" + registry.host()), std::string::npos) << wrong.err;
  EXPECT_NE(wrong.err.find("certificate"), std::string::npos) << wrong.err;
}

TEST_F(AuthPeerTest, BasicAuthOverTls) {
  auto htpasswd = make_htpasswd(dir.path(), kUser, kPassword);
  Registry registry(dir.path() / "reg", {.tls = true, .htpasswd = htpasswd}, pki);
  auto anonymous = push(ca() + source() + registry.host() + "/team/app:v1");
  EXPECT_EQ(anonymous.exit_code, 1);
  EXPECT_NE(anonymous.err.find(registry.host() + " requires a login and no credentials were found"),
            std::string::npos) << anonymous.err;

  login(registry.host(), "wrong-password");
  auto refused = push(ca() + source() + registry.host() + "/team/app:v1");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("login to " + registry.host() + " failed"), std::string::npos) << refused.err;

  login(registry.host(), kPassword);
  auto ok = push(ca() + source() + registry.host() + "/team/app:v1");
  ASSERT_EQ(ok.exit_code, 0) << ok.all();
  auto inspect = run_command("skopeo inspect --cert-dir /nonexistent --tls-verify=false --creds " +
                             std::string(kUser) + ":" + kPassword + " docker://" + registry.host() + "/team/app:v1");
  EXPECT_EQ(inspect.exit_code, 0) << inspect.err;
}

TEST_F(AuthPeerTest, CredentialHelperSuppliesTheLogin) {
  auto htpasswd = make_htpasswd(dir.path(), kUser, kPassword);
  Registry registry(dir.path() / "reg", {.tls = true, .htpasswd = htpasswd}, pki);
  auto bin = dir.path() / "bin";
  fs::create_directories(bin);
  write_file_atomically(bin / "docker-credential-gkebuildtest",
                            "#!/bin/sh\nread server\nprintf '{\"ServerURL\":\"%s\",\"Username\":\"" +
                                std::string(kUser) + "\",\"Secret\":\"" + kPassword + "\"}' \"$server\"\n");
  fs::permissions(bin / "docker-credential-gkebuildtest", fs::perms::owner_all);
  write_docker_config(docker_dir(), R"({"credHelpers":{")" + registry.host() + R"(":"gkebuildtest"}})");
  auto ok = push(ca() + source() + registry.host() + "/team/app:v1");
  EXPECT_NE(ok.exit_code, 0);  // not on PATH yet
  EXPECT_NE(ok.err.find("docker-credential-gkebuildtest is not installed"), std::string::npos) << ok.err;
  auto with_path = run_command("PATH='" + bin.string() + "':$PATH " + gkebuild_binary() + " push -v" + ca() + source() +
                               registry.host() + "/team/app:v1");
  expect_no_secrets(with_path.all());
  EXPECT_EQ(with_path.exit_code, 0) << with_path.all();
}

// The real docker-credential-gcloud (Artifact Registry's helper) with a gcloud that has no
// account: the push fails with the helper's own words, not only its exit status.
TEST_F(AuthPeerTest, GcloudCredentialHelperWithoutAnAccountSaysSo) {
  auto htpasswd = make_htpasswd(dir.path(), kUser, kPassword);
  Registry registry(dir.path() / "reg", {.tls = true, .htpasswd = htpasswd}, pki);
  write_docker_config(docker_dir(), R"({"credHelpers":{")" + registry.host() + R"(":"gcloud"}})");
  auto r = run_command("CLOUDSDK_CONFIG='" + (dir.path() / "gcloud").string() + "' " + gkebuild_binary() + " push" +
                       ca() + source() + registry.host() + "/team/app:v1");
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("credential helper docker-credential-gcloud failed for " + registry.host() +
                       " (exit status 1): gcloud may have no active account here: run `gcloud auth login`"),
            std::string::npos)
      << r.err;
  // What the helper printed is not repeated (a failing helper may have printed part of a secret).
  EXPECT_EQ(r.err.find("You do not currently have an active account selected"), std::string::npos) << r.err;
}

TEST_F(AuthPeerTest, MissingCredentialHelperIsAUsageError) {
  auto htpasswd = make_htpasswd(dir.path(), kUser, kPassword);
  Registry registry(dir.path() / "reg", {.tls = true, .htpasswd = htpasswd}, pki);
  write_docker_config(docker_dir(), R"({"credsStore":"gkebuild-absent"})");
  auto r = push(ca() + source() + registry.host() + "/team/app:v1");
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("docker-credential-gkebuild-absent"), std::string::npos) << r.err;
}

class TokenAuthTest : public AuthPeerTest {
 protected:
  void start(int ttl, int advertised_ttl = 0) {
    token = start_helper({"token", "--key", pki->token_key.string(), "--cert", pki->token_cert.string(),
                          "--issuer", "gkebuild-test-issuer", "--user", kUser, "--password", kPassword,
                          "--ttl", std::to_string(ttl), "--advertised-ttl", std::to_string(advertised_ttl), "--log", (dir.path() / "token.log").string()},
                         dir.path() / "token.out");
    registry = std::make_unique<Registry>(
        dir.path() / "reg", RegistryConfig{.token_realm = "http://127.0.0.1:" + std::to_string(token.port) + "/token",
                                           .token_cert = pki->token_cert});
  }
  std::vector<nlohmann::json> token_requests() {
    std::vector<nlohmann::json> out;
    std::istringstream in(read_file(dir.path() / "token.log"));
    for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
    return out;
  }
  HelperServer token;
  std::unique_ptr<Registry> registry;
};

TEST_F(TokenAuthTest, PushesWithTheNarrowestScopes) {
  start(300);
  login(registry->host(), kPassword);
  auto first = push(source() + registry->host() + "/team/app:v1");
  ASSERT_EQ(first.exit_code, 0) << first.all();
  auto requests = token_requests();
  ASSERT_EQ(requests.size(), 1u);  // one token, cached for every request of the push
  EXPECT_EQ(requests[0]["scopes"], nlohmann::json::array({"repository:team/app:pull,push"}));
  EXPECT_TRUE(requests[0]["authorized"]);

  // A push to another repository asks pull on the mount source too.
  auto second = push("-o json " + source() + registry->host() + "/team/other:v1");
  ASSERT_EQ(second.exit_code, 0) << second.all();
  ASSERT_EQ(token_requests().size(), 2u);
  EXPECT_EQ(token_requests().back()["scopes"],
            nlohmann::json::array({"repository:team/other:pull,push", "repository:team/app:pull"}));
  EXPECT_EQ(nlohmann::json::parse(second.out)[0]["blobs"][0]["outcome"], "mounted");
}

TEST_F(TokenAuthTest, RefusedLogin) {
  start(300);
  login(registry->host(), "wrong-password");
  auto r = push(source() + registry->host() + "/team/app:v1");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("login to " + registry->host() + " failed (HTTP 401)"), std::string::npos) << r.err;
}

// A push through a slow proxy outlives its first token (2 s): the client
// renews it in time.
TEST_F(TokenAuthTest, RenewsTokensBeforeTheyExpire) {
  start(2);
  auto proxy = start_helper({"proxy", "--target", registry->host(), "--throttle", "1500000"},
                            dir.path() / "proxy.log");
  login("127.0.0.1:" + std::to_string(proxy.port), kPassword);
  make_test_image(layout(), "big", {4 << 20, 300}, 12);
  auto r = push("oci:" + layout().string() + ":big 127.0.0.1:" + std::to_string(proxy.port) + "/team/app:v1");
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_GE(token_requests().size(), 2u);
}

// The registry refuses a token the client still thought good (revoked, or a
// clock ahead): the client fetches a new one and the push goes on.
TEST_F(TokenAuthTest, RenewsTokensTheRegistryRefuses) {
  start(300);
  auto proxy = start_helper({"proxy", "--target", registry->host(), "--revoke-token-after", "4"},
                            dir.path() / "proxy.log");
  login("127.0.0.1:" + std::to_string(proxy.port), kPassword);
  auto r = push("oci:" + layout().string() + ":v1 127.0.0.1:" + std::to_string(proxy.port) + "/team/app:v1");
  EXPECT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.err.find("< 401"), std::string::npos);
  EXPECT_EQ(token_requests().size(), 2u);
}

TEST_F(AuthPeerTest, AuthorizationNeverFollowsARedirectToAnotherHost) {
  auto htpasswd = make_htpasswd(dir.path(), kUser, kPassword);
  Registry registry(dir.path() / "reg", {.tls = true, .htpasswd = htpasswd}, pki);
  login(registry.host(), kPassword);
  ASSERT_EQ(push(ca() + source() + registry.host() + "/team/app:v1").exit_code, 0);
  // The proxy answers blob GETs with a redirect to another port (the capture
  // server, which serves the blobs and records the headers it got).
  auto capture = start_helper({"capture", "--blobs", (layout() / "blobs").string(), "--log",
                               (dir.path() / "capture.log").string()}, dir.path() / "capture.out");
  auto proxy = start_helper({"proxy", "--target", registry.host(), "--target-ca", pki->ca_cert.string(),
                             "--redirect-blobs", "http://127.0.0.1:" + std::to_string(capture.port) + "/blobs"},
                            dir.path() / "proxy.log");
  std::string proxy_host = "127.0.0.1:" + std::to_string(proxy.port);
  login(proxy_host, kPassword);
  auto pulled_layout = oci::Layout::open_or_create(dir.path() / "pulled");
  auto pulled = registry::pull_image(registry::parse_reference(proxy_host + "/team/app:v1"), pulled_layout, {});
  for (const auto& layer : pulled.manifest.layers) EXPECT_TRUE(pulled_layout.has_blob(layer.digest));
  std::istringstream log(read_file(dir.path() / "capture.log"));
  int requests = 0;
  for (std::string line; std::getline(log, line); ++requests)
    EXPECT_TRUE(nlohmann::json::parse(line)["authorization"].is_null()) << line;
  EXPECT_EQ(requests, 3);  // config and two layers, all through the redirect
}

}  // namespace
}  // namespace gkebuild::testing
