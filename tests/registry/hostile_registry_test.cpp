// The registry client against hostile servers (registry_servers.py hostile):
// endless and short blob bodies, stalls, redirects to other protocols or down
// from https, and a registry that thinks long before answering an upload.
// Each ends in seconds with a clear error, within bounded disk use.
#include <gtest/gtest.h>

#include <mutex>

#include "base/atomic_file.h"
#include "images/oci/digest.h"
#include "images/oci/layout.h"
#include "images/oci/media_types.h"
#include "registry/remote/blob_fetch.h"
#include "registry/remote/blob_upload.h"
#include "registry/remote/pull.h"
#include "registry/transport/errors.h"
#include "tests/registry/harness.h"

namespace gkebuild::testing {
namespace {

using registry::SessionOptions;

class HostileRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string bytes(kBlobSize, '\0');
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>('a' + i % 26);
    write_file_atomically(blob_file(), bytes);
    blob = {std::string(oci::media::kOciLayer), oci::sha256_of(bytes), static_cast<int64_t>(bytes.size()), {}, {}};
  }

  fs::path blob_file() const { return dir.path() / "blob"; }
  fs::path layout_dir() const { return dir.path() / "layout"; }

  HelperServer hostile(const std::string& behaviour, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"hostile", "--behaviour", behaviour, "--blob", blob_file().string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return start_helper(args, dir.path() / ("server-" + std::to_string(++servers) + ".log"));
  }

  // Short retries, no credentials, and every log line kept.
  SessionOptions options() {
    SessionOptions o;
    o.credential_files = {dir.path() / "no-config.json"};
    o.retry = {.attempts = 2, .first_delay = std::chrono::milliseconds(1), .max_delay = std::chrono::milliseconds(1)};
    o.log = [this](const std::string& line) {
      std::lock_guard lock(log_mutex);
      log += line + "\n";
    };
    return o;
  }

  // Fetches the blob from `registry`; the error's message, empty on success.
  std::string fetch(const std::string& registry, SessionOptions o) {
    auto layout = oci::Layout::open_or_create(layout_dir());
    registry::Session session(registry, std::move(o));
    try {
      registry::fetch_blob(session, "repo", blob, layout);
      return "";
    } catch (const registry::RegistryError& e) {
      return e.what();
    }
  }

  std::string fetch(int port) { return fetch("127.0.0.1:" + std::to_string(port), options()); }

  // Bytes in regular files under `root`.
  static uintmax_t bytes_under(const fs::path& root) {
    uintmax_t total = 0;
    for (const auto& entry : fs::recursive_directory_iterator(root))
      if (entry.is_regular_file()) total += entry.file_size();
    return total;
  }

  // Files in the layout's blob folder: what a failed fetch must not leave.
  size_t blob_files() const {
    size_t n = 0;
    for (const auto& entry : fs::recursive_directory_iterator(layout_dir() / "blobs"))
      n += entry.is_regular_file();
    return n;
  }

  bool retried() {
    std::lock_guard lock(log_mutex);
    return log.find("retrying") != std::string::npos;
  }

  static constexpr size_t kBlobSize = 4096;
  TempDir dir;
  oci::Descriptor blob;
  int servers = 0;
  std::mutex log_mutex;
  std::string log;
};

TEST_F(HostileRegistryTest, FetchesTheBlobFromAWellBehavedServer) {
  auto server = hostile("serve");
  EXPECT_EQ(fetch(server.port), "");
  EXPECT_TRUE(oci::Layout::open(layout_dir()).has_blob(blob.digest));
}

TEST_F(HostileRegistryTest, EndlessBodyStopsAtTheDescriptorSize) {
  auto server = hostile("endless");
  auto error = fetch(server.port);
  EXPECT_NE(error.find("127.0.0.1:" + std::to_string(server.port) + "/repo sent more than the 4096 bytes its "
                       "descriptor gives for " + blob.digest.str()),
            std::string::npos)
      << error;
  EXPECT_FALSE(retried()) << log;  // wrong bytes are not worth another try
  EXPECT_EQ(blob_files(), 0u);      // no half-written temporary file stays behind
  // oci-layout and index.json, and nothing near the size of what was sent.
  EXPECT_LE(bytes_under(layout_dir()), kBlobSize + 4096);
}

TEST_F(HostileRegistryTest, ShortBodyIsAnError) {
  auto server = hostile("short");
  auto error = fetch(server.port);
  EXPECT_NE(error.find("/repo sent 2048 of the 4096 bytes its descriptor gives for " + blob.digest.str()),
            std::string::npos)
      << error;
  EXPECT_EQ(blob_files(), 0u);
}

TEST_F(HostileRegistryTest, StalledBlobStreamFailsAsRetryableWithinItsLimit) {
  auto server = hostile("stall");
  auto o = options();
  o.timeouts.blob_stream = {.seconds = 1, .bytes_per_second = 1024};
  auto error = fetch("127.0.0.1:" + std::to_string(server.port), o);
  EXPECT_NE(error.find("fewer than 1024 bytes/s moved for 1 s"), std::string::npos) << error;
  EXPECT_TRUE(retried()) << log;
  EXPECT_EQ(blob_files(), 0u);
}

TEST_F(HostileRegistryTest, NegativeDescriptorSizeIsRefusedBeforeAnyTransfer) {
  auto server = hostile("endless");
  blob.size = -1;
  auto error = fetch(server.port);
  EXPECT_NE(error.find("/repo: the descriptor of " + blob.digest.str() + " gives a negative size (-1)"),
            std::string::npos)
      << error;
  EXPECT_EQ(blob_files(), 0u);
}

// A manifest that an index describes is held to its descriptor's size too.
TEST_F(HostileRegistryTest, EndlessManifestFromAnIndexStopsAtTheDescriptorSize) {
  auto server = hostile("endless-manifest");
  registry::PullOptions pull;
  pull.session = options();
  auto layout = oci::Layout::open_or_create(layout_dir());
  std::string error;
  try {
    registry::pull_image(registry::parse_reference("127.0.0.1:" + std::to_string(server.port) + "/repo:tag"),
                         layout, pull);
  } catch (const registry::RegistryError& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("/repo sent more than the 4096 bytes its descriptor gives for " + blob.digest.str()),
            std::string::npos)
      << error;
  EXPECT_FALSE(retried()) << log;
}

// A small request (here the first GET /v2/) that stops moving fails within the
// session's request stall limit, as a retryable error.
TEST_F(HostileRegistryTest, StalledPingFailsAsRetryableWithinItsLimit) {
  auto server = hostile("stall-ping");
  auto o = options();
  o.timeouts.request_stall_seconds = 1;
  auto error = fetch("127.0.0.1:" + std::to_string(server.port), o);
  EXPECT_NE(error.find("no byte moved for 1 s"), std::string::npos) << error;
  EXPECT_TRUE(retried()) << log;
}

TEST_F(HostileRegistryTest, RedirectToGopherIsRefused) {
  auto gopher = hostile("serve");  // a TCP service a hostile registry would like reached
  auto server = hostile("redirect", {"--location", "gopher://127.0.0.1:" + std::to_string(gopher.port) + "/_x"});
  auto error = fetch(server.port);
  EXPECT_NE(error.find("redirected to gopher://127.0.0.1:" + std::to_string(gopher.port) + ", which gkebuild refuses"),
            std::string::npos)
      << error;
  EXPECT_FALSE(retried()) << log;
}

TEST_F(HostileRegistryTest, RedirectToFileIsRefused) {
  auto server = hostile("redirect", {"--location", "file:///etc/passwd"});
  auto error = fetch(server.port);
  EXPECT_NE(error.find("redirected to file://, which gkebuild refuses: only http and https are followed"),
            std::string::npos)
      << error;
  EXPECT_FALSE(retried()) << log;
  EXPECT_EQ(blob_files(), 0u);
}

TEST_F(HostileRegistryTest, RedirectFromHttpsToHttpIsRefused) {
  auto pki = make_pki(dir.path());
  auto plain = hostile("serve");
  const std::string target =
      "http://127.0.0.1:" + std::to_string(plain.port) + "/v2/repo/blobs/" + blob.digest.str();
  auto server = hostile("redirect", {"--location", target, "--cert", pki.server_cert.string(), "--key",
                                     pki.server_key.string()});
  auto o = options();
  o.ca_file = pki.ca_cert.string();  // verified TLS to the registry itself
  auto error = fetch("127.0.0.1:" + std::to_string(server.port), o);
  EXPECT_NE(error.find("redirected to http://127.0.0.1:" + std::to_string(plain.port) +
                       ", which gkebuild refuses: only http and https are followed, never from https to http"),
            std::string::npos)
      << error;
  EXPECT_EQ(blob_files(), 0u);
}

// The registry's credentials go only to its own origin: a redirect to another
// host name (here localhost, the same server) gets no Authorization header.
TEST_F(HostileRegistryTest, AuthorizationDoesNotFollowARedirectToAnotherHost) {
  auto server = hostile("auth-redirect", {"--location", "http://localhost:{port}/elsewhere/blob"});
  const std::string registry = "127.0.0.1:" + std::to_string(server.port);
  write_docker_config(dir.path(), basic_auths_json(registry, "user", "secret"));
  auto o = options();
  o.credential_files = {dir.path() / "config.json"};
  EXPECT_EQ(fetch(registry, o), "");  // the server answers 403 where a header arrives
  EXPECT_TRUE(oci::Layout::open(layout_dir()).has_blob(blob.digest));
}

// Registries verify a blob after its last byte before they answer the PUT that
// closes the upload: that wait is allowed its own (long) limit, and bounded too.
TEST_F(HostileRegistryTest, SlowAnswerToTheClosingPutIsAwaitedWithinItsOwnLimit) {
  auto server = hostile("slow-put", {"--think", "3"});
  auto upload = [&](long answer_seconds) -> std::string {
    auto o = options();
    o.retry.attempts = 1;
    o.timeouts.request_stall_seconds = 1;
    o.timeouts.blob_stream = {.seconds = 1, .bytes_per_second = 1};
    o.timeouts.upload_answer_seconds = answer_seconds;
    registry::Session session("127.0.0.1:" + std::to_string(server.port), std::move(o));
    registry::BlobUploader uploader(session, "repo", {registry::repository_scope("repo", "push,pull")}, 1 << 20);
    try {
      EXPECT_EQ(uploader.upload(blob, blob_file(), {}), kBlobSize);
      return "";
    } catch (const registry::RegistryError& e) {
      return e.what();
    }
  };
  EXPECT_EQ(upload(60), "");
  auto error = upload(1);
  EXPECT_NE(error.find("no answer 1 s after the request was sent"), std::string::npos) << error;
}

}  // namespace
}  // namespace gkebuild::testing
