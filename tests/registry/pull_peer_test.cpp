// `gkebuild pull` against a real docker-registry, its results read by skopeo: into an OCI
// layout and a docker archive, digest-verified, and resumed without fetching a blob twice.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "images/oci/layout.h"
#include "tests/registry/harness.h"

namespace gkebuild::testing {
namespace {

class PullPeerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir.path() / "docker");
    setenv("DOCKER_CONFIG", (dir.path() / "docker").c_str(), 1);
    unsetenv("REGISTRY_AUTH_FILE");
  }
  // An image of a config and two layers pushed to `registry` as team/app:v1; its manifest.
  oci::Descriptor push_image(const Registry& registry) {
    auto manifest = make_test_image(dir.path() / "source", "v1", {3000, 200000}, 31);
    auto r = run_gkebuild("push -q oci:" + (dir.path() / "source").string() + ":v1 " + registry.host() + "/team/app:v1");
    EXPECT_EQ(r.exit_code, 0) << r.all();
    return manifest;
  }
  CommandResult pull(const std::string& args) { return run_gkebuild("pull " + args); }
  nlohmann::json proxy_stats(int port) {
    return nlohmann::json::parse(run_command("curl -s http://127.0.0.1:" + std::to_string(port) + "/__stats").out);
  }

  TempDir dir;
};

TEST_F(PullPeerTest, IntoAnOciLayoutThatSkopeoReads) {
  Registry registry(dir.path() / "reg", {});
  const auto manifest = push_image(registry);
  const auto out = dir.path() / "pulled";
  auto r = pull(registry.host() + "/team/app:v1 -o oci:" + out.string() + ":mine");
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_EQ(r.out, registry.host() + "/team/app@" + manifest.digest.str() + "\n");
  EXPECT_NE(r.err.find("pulled 3 blobs"), std::string::npos) << r.err;

  auto inspect = run_command("skopeo inspect oci:" + out.string() + ":mine");
  ASSERT_EQ(inspect.exit_code, 0) << inspect.all();
  EXPECT_EQ(nlohmann::json::parse(inspect.out)["Digest"], manifest.digest.str());
  auto source = oci::Layout::open(dir.path() / "source");
  auto pulled = oci::Layout::open(out);
  for (const auto& layer : oci::parse_manifest(source.read_blob(manifest.digest)).layers)
    EXPECT_EQ(read_file(pulled.blob_path(layer.digest)), read_file(source.blob_path(layer.digest)));
  // skopeo copies it on as its own image: the layout is whole.
  auto copy = run_command("skopeo copy -q oci:" + out.string() + ":mine oci:" + (dir.path() / "again").string() + ":x");
  EXPECT_EQ(copy.exit_code, 0) << copy.all();
}

TEST_F(PullPeerTest, IntoADockerArchiveThatSkopeoReads) {
  Registry registry(dir.path() / "reg", {});
  const auto manifest = push_image(registry);
  const auto archive = dir.path() / "app.tar";
  auto r = pull("-q " + registry.host() + "/team/app:v1 -o docker-archive:" + archive.string());
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_EQ(r.err, "");
  EXPECT_FALSE(fs::exists(dir.path() / "app.tar.layout")) << "the staging layout is left behind";
  auto theirs = run_command("skopeo inspect --config docker-archive:" + archive.string());
  ASSERT_EQ(theirs.exit_code, 0) << theirs.all();
  auto source = oci::Layout::open(dir.path() / "source");
  const auto config = oci::parse_manifest(source.read_blob(manifest.digest)).config;
  EXPECT_EQ(nlohmann::json::parse(theirs.out), nlohmann::json::parse(source.read_blob(config.digest)));
  auto tags = run_command("tar -xOf " + archive.string() + " manifest.json");
  EXPECT_EQ(nlohmann::json::parse(tags.out)[0]["RepoTags"][0], registry.host() + "/team/app:v1");
}

// A pull cut short resumes: blobs the layout holds are not fetched again; a missing one is.
TEST_F(PullPeerTest, ResumesWithoutFetchingWhatIsThere) {
  Registry registry(dir.path() / "reg", {});
  const auto manifest = push_image(registry);
  auto proxy = start_helper({"proxy", "--target", registry.host()}, dir.path() / "proxy.log");
  const std::string host = "127.0.0.1:" + std::to_string(proxy.port);
  const auto out = dir.path() / "pulled";
  ASSERT_EQ(pull("-q " + host + "/team/app:v1 -o oci:" + out.string()).exit_code, 0);
  ASSERT_EQ(proxy_stats(proxy.port)["blob_gets"].size(), 3u);

  auto layers = oci::parse_manifest(oci::Layout::open(out).read_blob(manifest.digest)).layers;
  fs::remove(oci::Layout::open(out).blob_path(layers[1].digest));  // as if cut short there
  auto r = pull(host + "/team/app:v1 -o oci:" + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.err.find("pulled 1 blob ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("2 were there already"), std::string::npos) << r.err;
  const auto gets = proxy_stats(proxy.port)["blob_gets"];
  ASSERT_EQ(gets.size(), 4u);
  EXPECT_EQ(gets[3], layers[1].digest.str());
  EXPECT_EQ(run_command("skopeo inspect oci:" + out.string() + ":v1").exit_code, 0);
}

TEST_F(PullPeerTest, CorruptBlobsAreRefusedAndTagNothing) {
  Registry registry(dir.path() / "reg", {});
  push_image(registry);
  auto proxy = start_helper({"proxy", "--target", registry.host(), "--corrupt-blobs"}, dir.path() / "proxy.log");
  const auto out = dir.path() / "pulled";
  auto r = pull("127.0.0.1:" + std::to_string(proxy.port) + "/team/app:v1 -o oci:" + out.string());
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.err.find("sent wrong bytes"), std::string::npos) << r.err;
  EXPECT_FALSE(oci::Layout::open(out).resolve("v1"));
}

TEST_F(PullPeerTest, BadInputIsExplained) {
  auto bad_output = pull("127.0.0.1:5000/team/app:v1 -o tar:x");
  EXPECT_EQ(bad_output.exit_code, 2);
  EXPECT_NE(bad_output.err.find("oci:DIR[:TAG] or docker-archive:FILE"), std::string::npos) << bad_output.err;
  auto bad_ref = pull("127.0.0.1:5000/Team/App");
  EXPECT_EQ(bad_ref.exit_code, 2);
  EXPECT_NE(bad_ref.err.find("invalid image reference"), std::string::npos) << bad_ref.err;
  auto unknown_host = pull("registry.invalid/team/app -o oci:" + (dir.path() / "x").string());
  EXPECT_EQ(unknown_host.exit_code, 1);
  EXPECT_NE(unknown_host.err.find("registry.invalid"), std::string::npos) << unknown_host.err;
}

}  // namespace
}  // namespace gkebuild::testing
