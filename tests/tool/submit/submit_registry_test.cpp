// gkebuild submit from source: the project's image built, pushed to a real docker-registry
// and the Jobs created with the pushed digest, against the Kubernetes test server.
#include "submit_fixture.h"
#include "tests/registry/harness.h"

namespace gkebuild::testing {
namespace {

TEST_F(SubmitFixture, BuildsPushesAndRunsThePinnedImage) {
  TempDir scratch;
  Registry registry(scratch.path() / "reg", {});
  std::filesystem::create_directories(project.path() / "build");
  const auto compiled = run_command("c++ -O1 -o " + (project.path() / "build" / "hello").string() + " " +
                                    GKEBUILD_SOURCE_ROOT + "/examples/hello-image/hello.cpp");
  ASSERT_EQ(compiled.exit_code, 0) << compiled.out;
  std::ofstream(project.path() / "gkebuild.yaml")
      << "apiVersion: gkebuild/v1\nproject: hello\nregistry: " << registry.host() << "/exp\n"
      << "images:\n  hello:\n    from: scratch\n    workload: hello\n"
      << "experiments:\n  greet:\n    image: hello\n    accelerators: [nvidia-l4]\n";
  const auto outcome = gkebuild("submit greet");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::string repository = registry.host() + "/exp/hello-hello@sha256:";
  const auto record = run_json(only_run());  // before the second submit adds a run
  const std::string pinned = record["images"]["hello"];
  EXPECT_TRUE(pinned.starts_with(repository)) << pinned;
  const auto jobs = server_list("/apis/batch/v1/namespaces/hello/jobs");
  ASSERT_EQ(jobs["items"].size(), 1u);
  EXPECT_EQ(jobs["items"][0]["spec"]["template"]["spec"]["containers"][0]["image"], pinned);
  EXPECT_NE(outcome.err.find("image hello: " + pinned), std::string::npos) << outcome.err;
  // The Job keeps the image's own PATH (what the shipped Dockerfile.j2 set, the driver's folder
  // already in it), read from the image built now; and again, from the registry, under --no-build.
  const std::string image_path = "/usr/local/nvidia/bin:/opt/gkebuild/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                                 "/usr/bin:/sbin:/bin";
  auto path_of = [](const nlohmann::json& job) {
    for (const auto& env : job["spec"]["template"]["spec"]["containers"][0]["env"])
      if (env["name"] == "PATH") return env["value"].get<std::string>();
    return std::string("(none)");
  };
  EXPECT_EQ(path_of(jobs["items"][0]), image_path);
  // The pin of that push serves the next submit without a build.
  const auto again = gkebuild("submit greet --no-build --detach");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  const auto both = server_list("/apis/batch/v1/namespaces/hello/jobs");
  ASSERT_EQ(both["items"].size(), 2u);
  for (const auto& job : both["items"]) EXPECT_EQ(path_of(job), image_path);
  const auto dry = gkebuild("submit greet --dry-run");
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("image: \"" + pinned + "\""), std::string::npos) << dry.out;
}

}  // namespace
}  // namespace gkebuild::testing
