// One blob store per machine (issue 42): two projects built on the same base from a real
// docker-registry (through a counting proxy) share one copy of its blobs; the second pulls no
// blob, its `.gkebuild/` holds its index and not the base; skopeo reads a project's layout with
// the store as its shared blob directory (containers/image's --src-shared-blob-dir), and
// `gkebuild push` of the project's layout sends the base's blobs from the store.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/registry/harness.h"

namespace gkebuild::testing {
namespace {

std::uintmax_t disk_used(const fs::path& dir) {
  std::uintmax_t bytes = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) bytes += entry.file_size();
  return bytes;
}

class MachineStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir.path() / "docker");
    setenv("DOCKER_CONFIG", (dir.path() / "docker").c_str(), 1);
    unsetenv("REGISTRY_AUTH_FILE");
  }
  // `gkebuild ARGUMENTS` in `folder`, with the store in this test's folder.
  CommandResult gkebuild_in(const fs::path& folder, const std::string& arguments) {
    return run_command("cd " + shell_quoted(folder.string()) + " && GKEBUILD_CACHE_DIR=" + shell_quoted(store.string()) +
                       " " + gkebuild_binary() + " " + arguments);
  }
  // A project folder whose Dockerfile adds one file to `base`.
  fs::path project(const std::string& name, const std::string& base) {
    const fs::path folder = dir.path() / name;
    fs::create_directories(folder);
    std::ofstream(folder / "Dockerfile") << "FROM " << base << "\nCOPY app.txt /app.txt\n";
    std::ofstream(folder / "app.txt") << name << "\n";
    return folder;
  }
  nlohmann::json blob_gets(int port) {
    return nlohmann::json::parse(run_command("curl -s http://127.0.0.1:" + std::to_string(port) + "/__stats").out)["blob_gets"];
  }

  TempDir dir;
  fs::path store = dir.path() / "store";
};

TEST_F(MachineStoreTest, ASecondProjectOnTheSameBasePullsNothing) {
  Registry registry(dir.path() / "reg", {});
  make_test_image(dir.path() / "source", "v1", {3000, 8000000}, 31);  // a base of about 8 MB
  ASSERT_EQ(run_gkebuild("push -q oci:" + (dir.path() / "source").string() + ":v1 " + registry.host() + "/team/base:v1")
                .exit_code, 0);
  auto proxy = start_helper({"proxy", "--target", registry.host()}, dir.path() / "proxy.log");
  const std::string host = "127.0.0.1:" + std::to_string(proxy.port);
  const std::string build = "image --dockerfile Dockerfile --context . --tag app:1 --insecure-registry " + host;

  const fs::path first = project("first", host + "/team/base:v1");
  auto r = gkebuild_in(first, build);
  ASSERT_EQ(r.exit_code, 0) << r.all();
  const auto pulled = blob_gets(proxy.port).size();
  EXPECT_EQ(pulled, 3u);  // the base's config and its two layers

  const fs::path second = project("second", host + "/team/base:v1");
  r = gkebuild_in(second, build);
  ASSERT_EQ(r.exit_code, 0) << r.all();
  EXPECT_EQ(blob_gets(proxy.port).size(), pulled) << "the second project fetched blobs the store holds";
  EXPECT_LT(disk_used(second / ".gkebuild"), 100000u);
  EXPECT_LT(disk_used(first / ".gkebuild"), 100000u);
  EXPECT_GT(disk_used(store / "oci" / "blobs"), 8000000u);
  EXPECT_LT(disk_used(store / "oci" / "blobs"), 8300000u) << "the base is kept once";

  // A peer reads the project's layout with the store as its shared blob folder.
  auto copied = run_command("skopeo copy --src-shared-blob-dir " + shell_quoted((store / "oci" / "blobs").string()) +
                            " oci:" + shell_quoted((second / ".gkebuild" / "oci").string()) + ":app:1 oci:" +
                            shell_quoted((dir.path() / "exported").string()) + ":app");
  ASSERT_EQ(copied.exit_code, 0) << copied.all();
  EXPECT_EQ(run_command("umoci unpack --rootless --image " + shell_quoted((dir.path() / "exported").string()) + ":app " +
                        shell_quoted((dir.path() / "bundle").string()))
                .exit_code, 0);
  EXPECT_TRUE(fs::exists(dir.path() / "bundle" / "rootfs" / "app.txt"));

  // push of the project's layout finds the base's blobs in the store.
  r = gkebuild_in(second, "push -q oci:.gkebuild/oci:app:1 " + registry.host() + "/team/second:1");
  EXPECT_EQ(r.exit_code, 0) << r.all();
}

// A layout named with -o oci:DIR stays whole: any OCI tool reads it alone.
TEST_F(MachineStoreTest, ALayoutNamedOnTheCommandLineIsComplete) {
  make_test_image(dir.path() / "source", "v1", {3000, 20000}, 32);
  const fs::path folder = project("named", "oci:" + (dir.path() / "source").string() + ":v1");
  auto r = gkebuild_in(folder, "image --dockerfile Dockerfile --context . --tag app:1 -o oci:" +
                                   shell_quoted((dir.path() / "out").string()));
  ASSERT_EQ(r.exit_code, 0) << r.all();
  auto inspect = run_command("skopeo inspect oci:" + shell_quoted((dir.path() / "out").string()) + ":app:1");
  EXPECT_EQ(inspect.exit_code, 0) << inspect.all();
  EXPECT_EQ(run_command("umoci unpack --rootless --image " + shell_quoted((dir.path() / "out").string()) + ":app:1 " +
                        shell_quoted((dir.path() / "bundle").string()))
                .exit_code, 0);
}

}  // namespace
}  // namespace gkebuild::testing
