// gkebuild push and the pull library against a real docker-registry, read
// back and written by skopeo: plain HTTP, faults, restarts, and bad answers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "base/atomic_file.h"
#include "images/oci/layout.h"
#include "images/oci/media_types.h"
#include "registry/remote/pull.h"
#include "registry/transport/errors.h"
#include "tests/registry/harness.h"

namespace gkebuild::testing {
namespace {

class PushPeerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir.path() / "docker");
    setenv("DOCKER_CONFIG", (dir.path() / "docker").c_str(), 1);
    unsetenv("REGISTRY_AUTH_FILE");
  }
  fs::path layout() const { return dir.path() / "layout"; }
  CommandResult push(const std::string& args) { return run_gkebuild("push -q " + args); }
  nlohmann::json push_json(const std::string& args) {
    auto r = push("-o json " + args);
    EXPECT_EQ(r.exit_code, 0) << r.all();
    return nlohmann::json::parse(r.out)[0];
  }
  uint64_t proxy_upload_bytes(int port) {
    auto r = run_command("curl -s http://127.0.0.1:" + std::to_string(port) + "/__stats");
    return nlohmann::json::parse(r.out)["upload_bytes"].get<uint64_t>();
  }
  int tag_status(const Registry& registry, const std::string& repo, const std::string& tag) {
    return http_status("http://" + registry.host() + "/v2/" + repo + "/manifests/" + tag,
                       "-H 'Accept: application/vnd.oci.image.manifest.v1+json'");
  }

  TempDir dir;
};

TEST_F(PushPeerTest, SkopeoReadsBackTheSameDigestsAndBytes) {
  Registry registry(dir.path() / "reg", {});
  // One layer over the monolithic limit, so the streamed PATCH path runs too.
  auto manifest = make_test_image(layout(), "v1", {70000, 9 << 20}, 1);
  auto r = push("oci:" + layout().string() + ":v1 " + registry.host() + "/team/app:v1");
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_EQ(r.out, registry.host() + "/team/app@" + manifest.digest.str() + "\n");

  auto inspect = run_command("skopeo inspect --tls-verify=false docker://" + registry.host() + "/team/app:v1");
  ASSERT_EQ(inspect.exit_code, 0) << inspect.err;
  EXPECT_EQ(nlohmann::json::parse(inspect.out)["Digest"], manifest.digest.str());

  auto back = dir.path() / "back";
  auto copy = run_command("skopeo copy --src-tls-verify=false docker://" + registry.host() +
                          "/team/app:v1 oci:" + back.string() + ":v1");
  ASSERT_EQ(copy.exit_code, 0) << copy.err;
  auto ours = oci::Layout::open(layout());
  auto theirs = oci::Layout::open(back);
  EXPECT_EQ(theirs.resolve("v1")->digest, manifest.digest);
  auto parsed = oci::parse_manifest(ours.read_blob(manifest.digest));
  for (const auto& layer : parsed.layers)
    EXPECT_EQ(read_file(theirs.blob_path(layer.digest)), read_file(ours.blob_path(layer.digest)));
}

TEST_F(PushPeerTest, SecondPushUploadsNothingAndOtherRepositoriesMount) {
  Registry registry(dir.path() / "reg", {});
  auto proxy = start_helper({"proxy", "--target", registry.host()}, dir.path() / "proxy.log");
  std::string host = "127.0.0.1:" + std::to_string(proxy.port);
  make_test_image(layout(), "v1", {50000, 300000}, 2);
  auto first = push_json("oci:" + layout().string() + ":v1 " + host + "/team/app:v1");
  uint64_t after_first = proxy_upload_bytes(proxy.port);
  EXPECT_GT(after_first, 350000u);
  EXPECT_EQ(first["bytesSent"].get<uint64_t>(), after_first);

  auto second = push_json("oci:" + layout().string() + ":v1 " + host + "/team/app:v1 -t extra");
  EXPECT_EQ(proxy_upload_bytes(proxy.port), after_first);
  EXPECT_EQ(second["bytesSent"], 0);
  for (const auto& blob : second["blobs"]) EXPECT_EQ(blob["outcome"], "present");
  EXPECT_EQ(second["tags"], nlohmann::json::array({"v1", "extra"}));
  EXPECT_EQ(tag_status(registry, "team/app", "extra"), 200);

  auto mounted = push_json("oci:" + layout().string() + ":v1 " + host + "/other/app:v1");
  EXPECT_EQ(proxy_upload_bytes(proxy.port), after_first);
  for (const auto& blob : mounted["blobs"]) EXPECT_EQ(blob["outcome"], "mounted");
  EXPECT_EQ(mounted["digest"], first["digest"]);
}

TEST_F(PushPeerTest, DockerSchema2OnRequest) {
  Registry registry(dir.path() / "reg", {});
  make_test_image(layout(), "v1", {1000}, 3);
  auto r = push("--format docker oci:" + layout().string() + ":v1 " + registry.host() + "/team/app:d");
  ASSERT_EQ(r.exit_code, 0) << r.all();
  auto raw = run_command("skopeo inspect --raw --tls-verify=false docker://" + registry.host() + "/team/app:d");
  auto manifest = nlohmann::json::parse(raw.out);
  EXPECT_EQ(manifest["mediaType"], "application/vnd.docker.distribution.manifest.v2+json");
  EXPECT_EQ(manifest["layers"][0]["mediaType"], "application/vnd.docker.image.rootfs.diff.tar.gzip");
  EXPECT_NE(r.out.find(registry.host() + "/team/app@sha256:"), std::string::npos);

  auto local = oci::Layout::open_or_create(dir.path() / "pulled");
  auto pulled = registry::pull_image(registry::parse_reference(registry.host() + "/team/app:d"), local, {});
  EXPECT_EQ(pulled.descriptor.media_type, "application/vnd.docker.distribution.manifest.v2+json");
  EXPECT_EQ(pulled.resolved.str(), r.out.substr(0, r.out.size() - 1));
  EXPECT_TRUE(local.has_blob(pulled.manifest.layers[0].digest));
}

TEST_F(PushPeerTest, IndexIsPushedWholeAndPulledForLinuxAmd64) {
  Registry registry(dir.path() / "reg", {});
  auto amd64 = make_test_image(layout(), "amd64", {1500}, 21);
  auto arm64 = make_test_image(layout(), "arm64", {1700}, 22);
  amd64.platform = oci::Platform{"amd64", "linux", ""};
  arm64.platform = oci::Platform{"arm64", "linux", "v8"};
  auto store = oci::Layout::open(layout());
  oci::Index index{std::string(oci::media::kOciIndex), {arm64, amd64}, {}};
  store.tag("multi", store.write_blob(oci::media::kOciIndex, oci::to_json_text(index)));

  auto pushed = push_json("oci:" + layout().string() + ":multi " + registry.host() + "/team/multi:1");
  EXPECT_EQ(pushed["mediaType"], oci::media::kOciIndex);
  auto raw = run_command("skopeo inspect --raw --tls-verify=false docker://" + registry.host() + "/team/multi:1");
  EXPECT_EQ(nlohmann::json::parse(raw.out)["manifests"].size(), 2u);

  auto local = oci::Layout::open_or_create(dir.path() / "pulled");
  auto pulled = registry::pull_image(registry::parse_reference(registry.host() + "/team/multi:1"), local, {});
  EXPECT_EQ(pulled.descriptor.digest, amd64.digest);
  EXPECT_EQ(pulled.index_digest, pushed["digest"]);
}

TEST_F(PushPeerTest, ImagePushedBySkopeoServesAsABase) {
  Registry registry(dir.path() / "reg", {});
  Registry elsewhere(dir.path() / "reg2", {});
  auto source = dir.path() / "source";
  auto manifest = make_test_image(source, "base", {4000, 20000}, 4);
  auto copy = run_command("skopeo copy --dest-tls-verify=false oci:" + source.string() +
                          ":base docker://" + registry.host() + "/lib/base:1");
  ASSERT_EQ(copy.exit_code, 0) << copy.err;

  // Manifest and config only, as a build FROM this base needs.
  auto local = oci::Layout::open_or_create(layout());
  registry::PullOptions options;
  options.fetch_layers = false;
  options.tag = "base";
  auto pulled = registry::pull_image(registry::parse_reference(registry.host() + "/lib/base:1"), local, options);
  EXPECT_EQ(pulled.descriptor.digest, manifest.digest);
  EXPECT_EQ(pulled.resolved.digest, manifest.digest.str());
  EXPECT_EQ(pulled.config.diff_ids.size(), 2u);
  for (const auto& layer : pulled.manifest.layers) EXPECT_FALSE(local.has_blob(layer.digest));

  // Same registry: layers are mounted, never downloaded.
  auto same = push_json("oci:" + layout().string() + ":base " + registry.host() + "/team/app:1");
  EXPECT_EQ(same["blobs"][1]["outcome"], "mounted");
  for (const auto& layer : pulled.manifest.layers) EXPECT_FALSE(local.has_blob(layer.digest));
  // Another registry: the layers it lacks come from the base's registry, verified.
  auto other = push_json("oci:" + layout().string() + ":base " + elsewhere.host() + "/team/app:1");
  EXPECT_EQ(other["blobs"][1]["outcome"], "uploaded");
  EXPECT_EQ(other["digest"], manifest.digest.str());
  for (const auto& layer : pulled.manifest.layers) EXPECT_TRUE(local.has_blob(layer.digest));
}

TEST_F(PushPeerTest, SurvivesDroppedConnectionsAndServerErrors) {
  // 8% of requests fail: seed 7 faults 4 of the first 11 requests, and a blob (up to four
  // requests an attempt) still gets through within its five attempts all but ~0.2% of the time.
  Registry registry(dir.path() / "reg", {});
  auto proxy = start_helper({"proxy", "--target", registry.host(), "--fail-rate", "0.08", "--seed", "7"},
                            dir.path() / "proxy.log");
  std::string host = "127.0.0.1:" + std::to_string(proxy.port);
  auto manifest = make_test_image(layout(), "v1", {3000, 60000, 9 << 20, 200}, 5);
  auto r = push("-v oci:" + layout().string() + ":v1 " + host + "/team/app:v1");
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_NE(r.err.find("retrying"), std::string::npos);  // faults did happen
  auto inspect = run_command("skopeo inspect --tls-verify=false docker://" + registry.host() + "/team/app:v1");
  EXPECT_EQ(nlohmann::json::parse(inspect.out)["Digest"], manifest.digest.str());
}

TEST_F(PushPeerTest, RegistryKilledMidUploadThenRestarted) {
  Registry registry(dir.path() / "reg", {});
  // 2 MB/s through the proxy: the 12 MB layer is still uploading when the registry dies.
  auto proxy = start_helper({"proxy", "--target", registry.host(), "--throttle", "2000000"},
                            dir.path() / "proxy.log");
  auto manifest = make_test_image(layout(), "v1", {1000, 12 << 20}, 6);
  auto push_child = Child::start({GKEBUILD_BINARY, "push", "-q", "oci:" + layout().string() + ":v1",
                                  "127.0.0.1:" + std::to_string(proxy.port) + "/team/app:v1"},
                                 dir.path() / "push.log");
  while (proxy_upload_bytes(proxy.port) < (2u << 20)) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  registry.kill();
  int status = push_child.wait();
  EXPECT_EQ(status, 1) << read_file(dir.path() / "push.log");
  EXPECT_NE(read_file(dir.path() / "push.log").find("127.0.0.1:" + std::to_string(proxy.port)),
            std::string::npos);
  registry.start();
  EXPECT_EQ(tag_status(registry, "team/app", "v1"), 404);
  auto again = push("oci:" + layout().string() + ":v1 " + registry.host() + "/team/app:v1");
  ASSERT_EQ(again.exit_code, 0) << again.all();
  EXPECT_EQ(again.out, registry.host() + "/team/app@" + manifest.digest.str() + "\n");
}

TEST_F(PushPeerTest, GarbageAnswersFailClearlyAndTagNothing) {
  Registry registry(dir.path() / "reg", {});
  auto proxy = start_helper({"proxy", "--target", registry.host(), "--garbage"}, dir.path() / "proxy.log");
  std::string host = "127.0.0.1:" + std::to_string(proxy.port);
  make_test_image(layout(), "v1", {1000}, 7);
  auto r = push("oci:" + layout().string() + ":v1 " + host + "/team/app:v1");
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.err.find(host), std::string::npos) << r.err;
  EXPECT_EQ(tag_status(registry, "team/app", "v1"), 404);
}

TEST_F(PushPeerTest, WrongDigestFromRegistryFailsAndTagsNothing) {
  Registry registry(dir.path() / "reg", {});
  auto proxy = start_helper({"proxy", "--target", registry.host(), "--wrong-digest"}, dir.path() / "proxy.log");
  make_test_image(layout(), "v1", {1000}, 8);
  auto r = push("oci:" + layout().string() + ":v1 127.0.0.1:" + std::to_string(proxy.port) + "/team/app:v1");
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.err.find("stored it as sha256:000000"), std::string::npos) << r.err;
  EXPECT_EQ(tag_status(registry, "team/app", "v1"), 404);
}

TEST_F(PushPeerTest, PullRejectsCorruptBlobs) {
  Registry registry(dir.path() / "reg", {});
  make_test_image(dir.path() / "source", "v1", {5000}, 9);
  ASSERT_EQ(push("oci:" + (dir.path() / "source").string() + ":v1 " + registry.host() + "/team/app:v1").exit_code, 0);
  auto proxy = start_helper({"proxy", "--target", registry.host(), "--corrupt-blobs"}, dir.path() / "proxy.log");
  auto local = oci::Layout::open_or_create(layout());
  registry::PullOptions options;
  options.tag = "pulled";
  options.session.retry.attempts = 2;
  try {
    registry::pull_image(registry::parse_reference("127.0.0.1:" + std::to_string(proxy.port) + "/team/app:v1"),
                         local, options);
    FAIL() << "corrupt blob accepted";
  } catch (const registry::RegistryError& e) {
    EXPECT_NE(std::string(e.what()).find("sent wrong bytes"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(local.resolve("pulled"));
}

TEST_F(PushPeerTest, BadInputIsExplained) {
  make_test_image(layout(), "v1", {100}, 10);
  auto bad_ref = push("oci:" + layout().string() + ":v1 127.0.0.1:5000/Team/App");
  EXPECT_EQ(bad_ref.exit_code, 2);
  EXPECT_NE(bad_ref.err.find("invalid image reference"), std::string::npos) << bad_ref.err;
  auto bad_tag = push("oci:" + layout().string() + ":nosuch 127.0.0.1:5000/team/app");
  EXPECT_EQ(bad_tag.exit_code, 2);
  EXPECT_NE(bad_tag.err.find("no image tagged \"nosuch\""), std::string::npos) << bad_tag.err;
  auto unknown_host = push("oci:" + layout().string() + ":v1 registry.invalid/team/app");
  EXPECT_EQ(unknown_host.exit_code, 1);
  EXPECT_NE(unknown_host.err.find("registry.invalid"), std::string::npos) << unknown_host.err;
}

}  // namespace
}  // namespace gkebuild::testing
