// Unit tests of the registry transport: references, WWW-Authenticate,
// credentials from config files and helpers, manifest format conversion.
#include <gtest/gtest.h>

#include <cstdlib>

#include "base/atomic_file.h"
#include "base/base64.h"
#include "images/oci/media_types.h"
#include "registry/remote/manifest_format.h"
#include "registry/transport/authenticator.h"
#include "registry/transport/credential_source.h"
#include "registry/transport/credentials.h"
#include "registry/transport/errors.h"
#include "registry/transport/reference.h"
#include "registry/transport/retry.h"
#include "registry/transport/www_authenticate.h"
#include "tests/registry/harness.h"

namespace gkebuild::registry {
namespace {

TEST(Reference, ParsesRegistryRepositoryTagAndDigest) {
  auto r = parse_reference("127.0.0.1:5000/team/app:v1");
  EXPECT_EQ(r.registry, "127.0.0.1:5000");
  EXPECT_EQ(r.repository, "team/app");
  EXPECT_EQ(r.tag, "v1");
  EXPECT_EQ(r.str(), "127.0.0.1:5000/team/app:v1");
  std::string digest = "sha256:" + std::string(64, 'a');
  auto d = parse_reference("us-docker.pkg.dev/p/r/img@" + digest);
  EXPECT_EQ(d.registry, "us-docker.pkg.dev");
  EXPECT_EQ(d.repository, "p/r/img");
  EXPECT_EQ(d.digest, digest);
  EXPECT_EQ(d.tag, "");
}

TEST(Reference, DockerHubDefaults) {
  auto r = parse_reference("ubuntu:22.04");
  EXPECT_EQ(r.registry, "docker.io");
  EXPECT_EQ(r.repository, "library/ubuntu");
  EXPECT_EQ(r.api_host(), "registry-1.docker.io");
  EXPECT_EQ(parse_reference("localhost/app").registry, "localhost");
  EXPECT_EQ(parse_reference("localhost:5000/app").tag, "");
}

TEST(Reference, RejectsBadInputWithReason) {
  for (std::string bad : {"", "Host:5000/UPPER", "reg.io/a//b", "reg.io/app:bad!tag", "reg.io/app@sha256:12",
                          "reg.io/-app", "reg.io/app:"}) {
    try {
      parse_reference(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const RegistryError& e) {
      EXPECT_EQ(e.registry_kind(), ErrorKind::kBadInput);
      EXPECT_NE(std::string(e.what()).find("invalid image reference"), std::string::npos) << e.what();
    }
  }
}

TEST(Reference, LoopbackHosts) {
  EXPECT_TRUE(is_loopback_host("localhost:5000"));
  EXPECT_TRUE(is_loopback_host("127.0.0.1"));
  EXPECT_TRUE(is_loopback_host("[::1]:5000"));
  EXPECT_FALSE(is_loopback_host("10.0.0.1:5000"));
  EXPECT_FALSE(is_loopback_host("localhost.evil.com"));
  EXPECT_TRUE(is_loopback_host("127.1.2.3:5000"));
  // Names that only look like loopback addresses: no TLS skip, no plain-HTTP fallback.
  EXPECT_FALSE(is_loopback_host("127.evil.example"));
  EXPECT_FALSE(is_loopback_host("127.0.0.1.nip.io:5000"));
  EXPECT_FALSE(is_loopback_host("[::1.evil]:5000"));
  EXPECT_FALSE(is_loopback_host("[::1"));
}

TEST(WwwAuthenticate, ParsesBearerWithQuotedParams) {
  auto all = parse_www_authenticate(
      R"(Bearer realm="https://auth.io/token",service="reg.io",scope="repository:a/b:pull,push", Basic realm="x")");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].scheme, "bearer");
  EXPECT_EQ(all[0].param("realm"), "https://auth.io/token");
  EXPECT_EQ(all[0].param("service"), "reg.io");
  EXPECT_EQ(all[0].param("scope"), "repository:a/b:pull,push");
  EXPECT_EQ(all[1].scheme, "basic");
  EXPECT_EQ(all[1].param("realm"), "x");
}

TEST(WwwAuthenticate, ToleratesGarbage) {
  EXPECT_TRUE(parse_www_authenticate("").empty());
  auto odd = parse_www_authenticate(R"(Bearer realm="unterminated)");
  ASSERT_EQ(odd.size(), 1u);
  EXPECT_EQ(odd[0].param("realm"), "unterminated");
  EXPECT_FALSE(find_challenge({"Basic realm=\"r\""}, "bearer"));
}

TEST(Base64, RoundTrips) {
  for (std::string s : {"", "a", "ab", "abc", "user:pa:ss"})
    EXPECT_EQ(base64_decode(base64_encode(s)).value(), s);
  EXPECT_FALSE(base64_decode("abc"));
}

class CredentialsTest : public ::testing::Test {
 protected:
  testing::TempDir dir;
  std::filesystem::path file() const { return dir.path() / "config.json"; }
  void write(const std::string& json) { write_file_atomically(file(), json); }
  // A docker-credential-NAME script on PATH printing `answer`, exiting `status`.
  void helper(const std::string& name, const std::string& answer, int status = 0) {
    auto bin = dir.path() / "bin";
    std::filesystem::create_directories(bin);
    auto path = bin / ("docker-credential-" + name);
    write_file_atomically(path, "#!/bin/sh\nread server\necho \"$server\" > \"" + (dir.path() / "asked").string() +
                                        "\"\necho '" + answer + "'\nexit " + std::to_string(status) + "\n");
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    std::string path_env = bin.string() + ":" + std::getenv("PATH");
    setenv("PATH", path_env.c_str(), 1);
  }
};

TEST_F(CredentialsTest, ReadsAuthsEntry) {
  write(testing::basic_auths_json("reg.io:5000", "alice", "s3cret"));
  auto c = find_credentials("reg.io:5000", {file()});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->username, "alice");
  EXPECT_EQ(c->password, "s3cret");
  EXPECT_FALSE(find_credentials("other.io", {file()}));
}

TEST_F(CredentialsTest, MatchesSchemeAndPathKeysAndDockerHub) {
  write(R"({"auths":{"https://index.docker.io/v1/":{"auth":")" + base64_encode("bob:pw") +
        R"("},"https://reg.io/v2/":{"username":"u","password":"p"}}})");
  EXPECT_EQ(find_credentials("docker.io", {file()})->username, "bob");
  EXPECT_EQ(find_credentials("reg.io", {file()})->password, "p");
}

TEST_F(CredentialsTest, CredHelperWinsAndGetsServerOnStdin) {
  helper("testhelper", R"({"ServerURL":"reg.io","Username":"<token>","Secret":"refresh-xyz"})");
  write(R"({"credHelpers":{"reg.io":"testhelper"},"auths":{"reg.io":{"auth":")" + base64_encode("a:b") + R"("}}})");
  auto c = find_credentials("reg.io", {file()});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->identity_token, "refresh-xyz");
  EXPECT_EQ(read_file(dir.path() / "asked"), "reg.io\n");
}

TEST_F(CredentialsTest, CredsStoreAndNotFound) {
  helper("store", "credentials not found in native keychain", 1);
  write(R"({"credsStore":"store"})");
  EXPECT_FALSE(find_credentials("reg.io", {file()}));
}

TEST_F(CredentialsTest, MissingHelperIsAClearError) {
  write(R"({"credHelpers":{"reg.io":"absent-helper-gkebuild"}})");
  try {
    find_credentials("reg.io", {file()});
    FAIL();
  } catch (const RegistryError& e) {
    EXPECT_EQ(e.registry_kind(), ErrorKind::kBadInput);
    EXPECT_NE(std::string(e.what()).find("docker-credential-absent-helper-gkebuild"), std::string::npos);
  }
}

TEST_F(CredentialsTest, FailingHelperDoesNotEchoItsOutput) {
  helper("leaky", "secret-in-output", 3);
  write(R"({"credHelpers":{"reg.io":"leaky"}})");
  try {
    find_credentials("reg.io", {file()});
    FAIL();
  } catch (const RegistryError& e) {
    EXPECT_EQ(std::string(e.what()).find("secret-in-output"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("exit status 3"), std::string::npos);
  }
}

TEST_F(CredentialsTest, BadAuthFieldNamesTheFile) {
  write(R"({"auths":{"reg.io":{"auth":"!!!"}}})");
  EXPECT_THROW(find_credentials("reg.io", {file()}), RegistryError);
}

// A source held in memory, as a test or an embedding program supplies one; counts its questions.
class MemorySource : public CredentialSource {
 public:
  MemorySource(std::string registry, Credentials credentials)
      : registry_(std::move(registry)), credentials_(std::move(credentials)) {}
  std::optional<Credentials> find(const std::string& registry) const override {
    ++asked;
    return registry == registry_ ? std::optional<Credentials>(credentials_) : std::nullopt;
  }
  mutable int asked = 0;

 private:
  std::string registry_;
  Credentials credentials_;
};

TEST(CredentialSources, TheAuthenticatorAsksItsSourcesInOrderOnce) {
  auto elsewhere = std::make_shared<MemorySource>("other.io", Credentials{"no", "no", ""});
  auto here = std::make_shared<MemorySource>("reg.io", Credentials{"ann", "pw", ""});
  auto later = std::make_shared<MemorySource>("reg.io", Credentials{"late", "late", ""});
  Authenticator auth("reg.io", {elsewhere, here, later}, [](const std::string&) { return false; },
                     [](const HttpRequest&, bool) -> HttpResponse { throw std::logic_error("Basic sends nothing"); },
                     [](const std::string&) {});
  HttpResponse unauthorized;
  unauthorized.status = 401;
  unauthorized.headers.emplace("www-authenticate", "Basic realm=\"reg\"");
  auth.learn(unauthorized);
  EXPECT_EQ(auth.header_for({"repository:a:pull"}), "Authorization: Basic " + base64_encode("ann:pw"));
  EXPECT_EQ(auth.header_for({"repository:a:push"}), "Authorization: Basic " + base64_encode("ann:pw"));
  EXPECT_EQ(elsewhere->asked, 1);
  EXPECT_EQ(here->asked, 1) << "asked once per registry";
  EXPECT_EQ(later->asked, 0);
}

TEST(CredentialSources, EnvironmentNamesOneRegistry) {
  setenv("GKEBUILD_REGISTRY", "reg.io:5000", 1);
  setenv("GKEBUILD_REGISTRY_USERNAME", "ci", 1);
  setenv("GKEBUILD_REGISTRY_PASSWORD", "secret", 1);
  const auto env = environment_source();
  EXPECT_EQ(env->find("reg.io:5000")->username, "ci");
  EXPECT_FALSE(env->find("reg.io"));
  unsetenv("GKEBUILD_REGISTRY_PASSWORD");
  EXPECT_FALSE(env->find("reg.io:5000")) << "all three or nothing";
  unsetenv("GKEBUILD_REGISTRY");
  unsetenv("GKEBUILD_REGISTRY_USERNAME");
}

TEST_F(CredentialsTest, GcloudAnswersForGooglesRegistriesOnly) {
  auto bin = dir.path() / "gbin";
  std::filesystem::create_directories(bin);
  write_file_atomically(bin / "gcloud", "#!/bin/sh\necho ya29.token\n");
  std::filesystem::permissions(bin / "gcloud", std::filesystem::perms::owner_all);
  const std::string saved = std::getenv("PATH");
  setenv("PATH", (bin.string() + ":" + saved).c_str(), 1);
  const auto gcloud = gcloud_source();
  const auto found = gcloud->find("us-central1-docker.pkg.dev");
  setenv("PATH", saved.c_str(), 1);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->username, "oauth2accesstoken");
  EXPECT_EQ(found->password, "ya29.token");
  EXPECT_FALSE(gcloud->find("127.0.0.1:5000"));
}

TEST(ManifestFormat, ConvertsBothWaysKeepingDigests) {
  oci::Manifest m;
  m.media_type = std::string(oci::media::kOciManifest);
  m.config = {std::string(oci::media::kOciConfig), oci::sha256_of("c"), 1, {}, {}};
  m.layers.push_back({std::string(oci::media::kOciLayerGzip), oci::sha256_of("l"), 1, {}, {}});
  m.annotations["a"] = "b";
  auto docker = convert_manifest(m, ManifestFormat::kDocker);
  EXPECT_EQ(docker.media_type, oci::media::kDockerManifest);
  EXPECT_EQ(docker.config.media_type, oci::media::kDockerConfig);
  EXPECT_EQ(docker.layers[0].media_type, oci::media::kDockerLayerGzip);
  EXPECT_EQ(docker.layers[0].digest, m.layers[0].digest);
  EXPECT_TRUE(docker.annotations.empty());
  auto back = convert_manifest(docker, ManifestFormat::kOci);
  EXPECT_EQ(back.layers[0].media_type, oci::media::kOciLayerGzip);
  m.layers[0].media_type = "application/vnd.example.odd";
  EXPECT_THROW(convert_manifest(m, ManifestFormat::kDocker), RegistryError);
}

TEST(Retry, BackoffGrowsAndIsCapped) {
  RetryPolicy policy{5, std::chrono::milliseconds(100), std::chrono::milliseconds(400)};
  auto first = backoff_delay(policy, 1).count();
  EXPECT_GE(first, 50);
  EXPECT_LT(first, 150);
  auto late = backoff_delay(policy, 10).count();
  EXPECT_GE(late, 200);
  EXPECT_LT(late, 600);
}

TEST(Retry, StopsOnNonRetryableAndAfterAttempts) {
  RetryPolicy policy{3, std::chrono::milliseconds(1), std::chrono::milliseconds(1)};
  int calls = 0;
  EXPECT_THROW(with_retries(policy, {}, [&] { ++calls; throw RegistryError(ErrorKind::kRetryable, "x"); }),
               RegistryError);
  EXPECT_EQ(calls, 3);
  calls = 0;
  EXPECT_THROW(with_retries(policy, {}, [&] { ++calls; throw RegistryError(ErrorKind::kRemote, "x"); }),
               RegistryError);
  EXPECT_EQ(calls, 1);
}

// Retries are bounded in time as well as in number: slow failures (stalls that
// each last their limit) must not add up to hours.
TEST(Retry, StartsNoRetryOnceItsTimeIsSpent) {
  // A budget of 0 and a delay of at least 5 ms (10 ms with jitter 0.5-1.5): the first retry would
  // start after the budget, so none does. (A 1 ms delay could round to 0 and fit the budget.)
  RetryPolicy policy{5, std::chrono::milliseconds(10), std::chrono::milliseconds(10), std::chrono::milliseconds(0)};
  int calls = 0;
  EXPECT_THROW(with_retries(policy, {}, [&] { ++calls; throw RegistryError(ErrorKind::kRetryable, "x"); }),
               RegistryError);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace gkebuild::registry
