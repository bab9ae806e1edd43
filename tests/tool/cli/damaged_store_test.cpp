// A damaged blob in the machine-wide blob store (images/oci/machine_store.h) is a failed
// operation, exit 1, not bad input (issue 45): the user gave nothing wrong, the store is damaged.
// The message names the blob's file and what to do.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {
namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(DamagedStore, ACorruptedBlobInTheStoreIsAFailedOperation) {
  TempDir scratch;
  const fs::path project = scratch / "p";
  const fs::path store = scratch / "store";
  fs::create_directories(project);
  std::ofstream(project / "Dockerfile") << "FROM scratch\nCOPY app.txt /app.txt\n";
  std::ofstream(project / "app.txt") << "hello\n";
  const std::string in_project = "cd " + shell_quoted(project.string()) + " && GKEBUILD_CACHE_DIR=" +
                                 shell_quoted(store.string()) + " " + gkebuild_binary() + " ";
  auto built = run_command(in_project + "image -q --dockerfile Dockerfile --context . --tag app:1");
  ASSERT_EQ(built.exit_code, 0) << built.all();
  std::string manifest = built.out.substr(0, built.out.find_first_of("\r\n"));
  ASSERT_TRUE(manifest.starts_with("sha256:")) << built.out;
  const fs::path blob = store / "oci" / "blobs" / "sha256" / manifest.substr(7);
  ASSERT_TRUE(fs::exists(blob)) << "the project's blobs are in the machine's store";

  fs::permissions(blob, fs::perms::owner_write, fs::perm_options::add);
  std::ofstream(blob, std::ios::app) << "damage";
  // The push reads the image's manifest before it reaches for the (unreachable) registry.
  auto pushed = run_command(in_project + "push oci:.gkebuild/oci:app:1 127.0.0.1:9/team/app:1");
  EXPECT_EQ(pushed.exit_code, 1) << pushed.all();
  EXPECT_TRUE(contains(pushed.err, "blob " + manifest + " at " + blob.string() + " is corrupted")) << pushed.err;
  EXPECT_TRUE(contains(pushed.err, "delete that file")) << pushed.err;
}

}  // namespace
}  // namespace gkebuild::testing
