// `gkebuild image --push` against a real docker-registry: a project's image and
// a --dockerfile build land where the printed digest reference says (skopeo
// reads them back), `gkebuild render` names the pinned digest, a second push
// sends nothing, and a refused login names the registry without credentials.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "base/atomic_file.h"
#include "base/base64.h"
#include "images/oci/layout.h"
#include "tests/registry/harness.h"
#include "tool/steps/publish/pins.h"

namespace gkebuild::testing {
namespace {

constexpr const char* kPassword = "pw-3b9d0a61-never-shown";

class PublishPeerTest : public ::testing::Test {
 protected:
  // hello.cpp of examples/hello-image, compiled once for every test.
  static void SetUpTestSuite() {
    bin_dir = new TempDir;
    auto r = run_command("c++ -O1 -o " + (bin_dir->path() / "hello").string() + " " + GKEBUILD_SOURCE_ROOT +
                         "/examples/hello-image/hello.cpp");
    ASSERT_EQ(r.exit_code, 0) << r.all();
  }
  static void TearDownTestSuite() { delete bin_dir; }
  void SetUp() override {
    fs::create_directories(dir.path() / "docker");
    setenv("DOCKER_CONFIG", (dir.path() / "docker").c_str(), 1);
    unsetenv("REGISTRY_AUTH_FILE");
  }
  fs::path project() const { return dir.path() / "project"; }
  // A project with one image, `hello`, pushed to REGISTRY/exp/hello-hello.
  void write_project(const std::string& registry) {
    fs::create_directories(project() / "build");
    fs::copy_file(bin_dir->path() / "hello", project() / "build" / "hello", fs::copy_options::overwrite_existing);
    write_file_atomically(project() / "gkebuild.yaml",
                              "apiVersion: gkebuild/v1\nproject: hello\nregistry: " + registry + "/exp\n"
                              "images:\n  hello:\n    from: scratch\n    workload: hello\n"
                              "experiments:\n  greet:\n    image: hello\n    accelerators: [nvidia-l4]\n");
  }
  CommandResult in_project(const std::string& args) {
    return run_command("cd '" + project().string() + "' && SOURCE_DATE_EPOCH=0 " + gkebuild_binary() + " " + args);
  }
  nlohmann::json push_json() {
    auto r = in_project("image --push -q -o json hello");  // -o takes one value
    EXPECT_EQ(r.exit_code, 0) << r.all();
    return nlohmann::json::parse(r.out).at(0);
  }
  std::string skopeo_digest(const std::string& reference) {
    auto r = run_command("skopeo inspect --tls-verify=false docker://" + reference);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.exit_code == 0 ? nlohmann::json::parse(r.out)["Digest"].get<std::string>() : "";
  }

  static TempDir* bin_dir;
  TempDir dir;
};

TempDir* PublishPeerTest::bin_dir = nullptr;

TEST_F(PublishPeerTest, ProjectPushPrintsTheDigestReferenceAndRenderPinsIt) {
  Registry registry(dir.path() / "reg", {});
  write_project(registry.host());
  auto pushed = in_project("image --push -q");
  ASSERT_EQ(pushed.exit_code, 0) << pushed.all();
  const std::string repository = registry.host() + "/exp/hello-hello";
  ASSERT_TRUE(pushed.out.starts_with(repository + "@sha256:")) << pushed.out;
  const std::string digest = pushed.out.substr(repository.size() + 1, 71);
  EXPECT_EQ(pushed.out, repository + "@" + digest + "\n");
  EXPECT_EQ(skopeo_digest(repository + ":latest"), digest);

  auto pins = publish::read_pins(publish::pins_file(project()));
  EXPECT_EQ(pins.at("hello").reference, repository + "@" + digest);
  EXPECT_EQ(pins.at("hello").tag, repository + ":latest");

  auto rendered = in_project("render --run-id r1");
  ASSERT_EQ(rendered.exit_code, 0) << rendered.all();
  EXPECT_NE(rendered.out.find("image: \"" + repository + "@" + digest + "\""), std::string::npos) << rendered.out;
  EXPECT_EQ(rendered.err, "");
  auto by_tag = in_project("render --run-id r1 --no-pinned");
  EXPECT_NE(by_tag.out.find("image: \"" + repository + ":latest\""), std::string::npos) << by_tag.out;
  EXPECT_EQ(by_tag.out.find("@sha256:"), std::string::npos);
  auto given = in_project("render --run-id r1 --image hello=other.example/x:1");
  EXPECT_NE(given.out.find("image: \"other.example/x:1\""), std::string::npos) << given.out;
}

TEST_F(PublishPeerTest, ASecondPushSendsNothingAndARebuildIsFlagged) {
  Registry registry(dir.path() / "reg", {});
  write_project(registry.host());
  auto first = push_json();
  EXPECT_GT(first["bytesSent"].get<uint64_t>(), 0u);
  EXPECT_EQ(first["image"], "hello");
  auto second = push_json();
  EXPECT_EQ(second["bytesSent"].get<uint64_t>(), 0u);
  EXPECT_EQ(second["digest"], first["digest"]);
  for (const auto& blob : second["blobs"]) EXPECT_EQ(blob["outcome"], "present");

  // A new build that is not pushed: render keeps the pushed digest and says so.
  {
    std::ofstream binary(project() / "build" / "hello", std::ios::app | std::ios::binary);
    binary << "changed";
  }
  ASSERT_EQ(in_project("image -q").exit_code, 0);
  auto rendered = in_project("render --run-id r1");
  ASSERT_EQ(rendered.exit_code, 0) << rendered.all();
  EXPECT_NE(rendered.out.find(first["reference"].get<std::string>()), std::string::npos);
  EXPECT_NE(rendered.err.find("rebuilt since its last push"), std::string::npos) << rendered.err;
}

TEST_F(PublishPeerTest, DockerfilePushGoesToTheTaggedRepository) {
  Registry registry(dir.path() / "reg", {});
  const auto layout = dir.path() / "oci";
  const std::string repository = registry.host() + "/team/hello";
  auto r =
      run_command("SOURCE_DATE_EPOCH=0 " + gkebuild_binary() + " image --push -q --dockerfile " + GKEBUILD_SOURCE_ROOT +
                  "/examples/hello-image/Dockerfile --context " + (dir.path() / "ctx").string() + " --stage " +
                  (bin_dir->path() / "hello").string() + " --tag " + repository + ":1 -o oci:" + layout.string());
  ASSERT_EQ(r.exit_code, 0) << r.all();
  const auto built = oci::Layout::open(layout).resolve(repository + ":1");
  ASSERT_TRUE(built);
  EXPECT_EQ(r.out, repository + "@" + built->digest.str() + "\n");
  EXPECT_EQ(skopeo_digest(repository + ":1"), built->digest.str());
}

TEST_F(PublishPeerTest, BadOutputCombinationsAreUsageErrors) {
  write_project("127.0.0.1:1");
  auto json_without_push = in_project("image -o json");
  EXPECT_EQ(json_without_push.exit_code, 2);
  EXPECT_NE(json_without_push.err.find("add --push"), std::string::npos) << json_without_push.err;
  auto archive = in_project("image --push -o docker-archive:x.tar");
  EXPECT_EQ(archive.exit_code, 2);
  EXPECT_NE(archive.err.find("docker-archive"), std::string::npos) << archive.err;
}

TEST_F(PublishPeerTest, ARefusedLoginNamesTheRegistryAndNoCredentials) {
  TempDir pki_dir;
  const Pki pki = make_pki(pki_dir.path());
  Registry registry(dir.path() / "reg", {.tls = true, .htpasswd = make_htpasswd(dir.path(), "alice", kPassword)},
                    &pki);
  write_project(registry.host());
  write_docker_config(dir.path() / "docker", basic_auths_json(registry.host(), "alice", "wrong-" + std::string(kPassword)));
  auto r = in_project("image --push -v --ca-file " + pki.ca_cert.string());
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.err.find("gkebuild image: error: login to " + registry.host() + " failed"), std::string::npos) << r.err;
  EXPECT_EQ(r.all().find(kPassword), std::string::npos) << r.all();
  EXPECT_EQ(r.all().find(base64_encode("alice:wrong-" + std::string(kPassword))), std::string::npos);
  EXPECT_EQ(r.all().find("Authorization"), std::string::npos) << r.all();
  EXPECT_FALSE(fs::exists(publish::pins_file(project())));
}

}  // namespace
}  // namespace gkebuild::testing
