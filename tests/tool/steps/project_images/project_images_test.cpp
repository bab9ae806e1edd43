// build_project_images end to end on FROM scratch images (no root, no runtime): what is built,
// its reference in the layout, and each refusal at its position before anything is built.
#include <gtest/gtest.h>

#include <cstdlib>

#include "base/source_error.h"
#include "images/dockerfile/dockerfile_error.h"
#include "tests/tool/steps/project_images/project_fixture.h"
#include "tool/steps/project_images/project_images.h"

namespace gkebuild::project_images {
namespace {

class ProjectImages : public ::testing::Test {
 protected:
  void SetUp() override {
    folder.write("hello.txt", "hello\n");
    folder.write("Dockerfile", "FROM scratch\nCOPY hello.txt /hello.txt\n");
    store = std::make_shared<oci::Layout>(oci::Layout::open_or_create(folder.path() / ".gkebuild" / "oci"));
  }

  std::vector<ProjectImage> build(const project::Project& project, const ProjectImageOptions& options = {}) {
    return build_project_images(project, options, store);
  }

  // The SourceError building `project` throws, and that nothing was tagged before it.
  SourceError refusal(const project::Project& project, const ProjectImageOptions& options = {}) {
    try {
      build(project, options);
    } catch (const SourceError& e) {
      EXPECT_TRUE(store->index().manifests.empty()) << "built before the refusal";
      return e;
    }
    ADD_FAILURE() << "no error";
    return SourceError({}, "");
  }

  ProjectFolder folder;
  std::shared_ptr<oci::Layout> store;
};

TEST_F(ProjectImages, EachImageIsTaggedAsRegistryProjectDashImageLatest) {
  const auto project = folder.load("  app: {dockerfile: Dockerfile}\n  tool: {dockerfile: Dockerfile}\n");
  const auto built = build(project);
  ASSERT_EQ(built.size(), 2u);
  EXPECT_EQ(built[0].name, "app");
  EXPECT_EQ(built[0].reference, "127.0.0.1:5000/exp/demo-app:latest");
  EXPECT_EQ(built[1].reference, "127.0.0.1:5000/exp/demo-tool:latest");
  for (const auto& image : built) {
    const auto tagged = store->resolve(image.reference);
    ASSERT_TRUE(tagged) << image.reference;
    EXPECT_EQ(tagged->digest, image.manifest.digest);
  }
  EXPECT_EQ(built[0].manifest.digest, built[1].manifest.digest);  // the same Dockerfile and context
}

TEST_F(ProjectImages, OnlyTheAskedImagesAreBuilt) {
  const auto project = folder.load("  app: {dockerfile: Dockerfile}\n  tool: {dockerfile: Dockerfile}\n");
  ProjectImageOptions options;
  options.images = {"tool"};
  const auto built = build(project, options);
  ASSERT_EQ(built.size(), 1u);
  EXPECT_EQ(built[0].name, "tool");
  EXPECT_FALSE(store->resolve("127.0.0.1:5000/exp/demo-app:latest"));
}

TEST_F(ProjectImages, AnUnknownImageStopsBeforeAnyIsBuilt) {
  const auto project = folder.load("  app: {dockerfile: Dockerfile}\n");
  ProjectImageOptions options;
  options.images = {"app", "ap"};
  const SourceError e = refusal(project, options);
  EXPECT_EQ(e.where().file, project.file.string());
  EXPECT_EQ(e.message(), "no image 'ap' in the project (did you mean 'app'?)");
}

TEST_F(ProjectImages, AWorkloadNotBuiltIsRefusedAtTheImageNamingWhereItLooked) {
  const auto project = folder.load("  bench:\n    workload: gemm-bench\n");
  ProjectImageOptions options;
  options.workloads_build = folder.path() / "nothing-built";
  const SourceError e = refusal(project, options);
  EXPECT_EQ(e.where().line, 5);
  EXPECT_EQ(e.where().column, 3);
  EXPECT_NE(e.message().find("the binary of workload 'gemm-bench' is not built (searched " +
                             options.workloads_build.string() + ")"),
            std::string::npos)
      << e.message();
}

TEST_F(ProjectImages, AVariableSecretNeedsTheCommandLinesConsentAndStopsEveryBuild) {
  const auto project = folder.load("  app: {dockerfile: Dockerfile}\n"
                                   "  tool:\n"
                                   "    dockerfile: Dockerfile\n"
                                   "    secrets: [{id: token, env: TOKEN}]\n");
  ::setenv("TOKEN", "from-the-environment", 1);  // there, but not the project's to take
  const SourceError e = refusal(project);          // not even app, which needs no secret, is built
  ::unsetenv("TOKEN");
  EXPECT_EQ(e.where().line, 8);
  EXPECT_EQ(e.where().column, 15);  // the entry {id: token, env: TOKEN}
  EXPECT_NE(e.message().find("add --secret id=token,env=TOKEN"), std::string::npos) << e.message();
  EXPECT_THROW(check_image_secrets(project, {"tool"}), SourceError);
  EXPECT_NO_THROW(check_image_secrets(project, {"app"}));
  ProjectImageOptions options;
  options.build.secrets["token"] = "given";  // what --secret id=token,env=TOKEN reads
  EXPECT_NO_THROW(check_image_secrets(project, {"tool"}, options.build));
  EXPECT_EQ(build(project, options).size(), 2u);
}

TEST_F(ProjectImages, AMissingSecretFileIsRefusedAtItsEntry) {
  const auto project = folder.load("  app:\n    dockerfile: Dockerfile\n    secrets:\n      - {id: netrc, src: netrc}\n");
  try {
    check_image_secrets(project, {"app"});
    FAIL() << "no error";
  } catch (const SourceError& e) {
    EXPECT_EQ(e.where().line, 8);
    EXPECT_EQ(e.where().column, 9);
    EXPECT_NE(e.message().find("image 'app'.secrets: "), std::string::npos) << e.message();
  }
  folder.write("netrc", "machine example.com\n");
  EXPECT_NO_THROW(check_image_secrets(project, {"app"}));
}

// A rendered `dockerfile: *.j2` whose Dockerfile is wrong: the error is on the template's line.
TEST_F(ProjectImages, ADockerfileTemplatesErrorIsOnTheTemplatesLine) {
  folder.write("Dockerfile.j2", "FROM scratch\n{# a comment over\n   two lines #}\nCOPY hello.txt\n");
  const auto project = folder.load("  app: {dockerfile: Dockerfile.j2}\n");
  try {
    build(project);
    FAIL() << "no error";
  } catch (const dockerfile::DockerfileError& e) {
    EXPECT_EQ(e.file(), "Dockerfile.j2");
    EXPECT_EQ(e.line(), 4) << e.what();
    // The comment's two lines render as one empty line: the rendered line 3 is the template's 4.
    EXPECT_NE(e.message().find("rendered (line 3 of"), std::string::npos) << e.message();
  }
}

}  // namespace
}  // namespace gkebuild::project_images
