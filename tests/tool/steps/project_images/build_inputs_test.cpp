// What an image is built from, decided before anything is built (build_inputs.h).
#include <gtest/gtest.h>

#include "base/source_error.h"
#include "tests/tool/steps/project_images/project_fixture.h"
#include "tool/steps/project_images/build_inputs.h"

namespace gkebuild::project_images {
namespace {
namespace fs = std::filesystem;

const std::string kThreeImages =
    "  app: {dockerfile: Dockerfile}\n"        // 5
    "  tool: {dockerfile: Dockerfile.j2}\n"    // 6
    "  bench: {workload: gemm-bench}\n";       // 7

class ProjectImagesInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    folder.write("Dockerfile", "FROM scratch\n");
    folder.write("Dockerfile.j2", "FROM scratch\n");
  }
  std::vector<std::string> names(const std::vector<const project::Image*>& images) {
    std::vector<std::string> out;
    for (const auto* image : images) out.push_back(image->name);
    return out;
  }
  ProjectFolder folder;
};

TEST_F(ProjectImagesInputs, EveryImageInFileOrderOrTheAskedOnesInTheirOrder) {
  const auto project = folder.load(kThreeImages);
  EXPECT_EQ(names(chosen_images(project, {})), (std::vector<std::string>{"app", "tool", "bench"}));
  EXPECT_EQ(names(chosen_images(project, {"bench", "app"})), (std::vector<std::string>{"bench", "app"}));
}

TEST_F(ProjectImagesInputs, AnUnknownImageIsRefusedNamingTheProjectFileWithADidYouMean) {
  const auto project = folder.load(kThreeImages);
  try {
    chosen_images(project, {"app", "tols"});
    FAIL() << "no error";
  } catch (const SourceError& e) {
    EXPECT_EQ(e.where().file, project.file.string());
    EXPECT_EQ(e.message(), "no image 'tols' in the project (did you mean 'tool'?)");
  }
}

TEST_F(ProjectImagesInputs, APrebuiltWorkloadIsLookedForInTheGivenFolderElseTheBuildFolders) {
  const auto project = folder.load(kThreeImages);
  EXPECT_EQ(workload_places(project, "/w/build", "/elsewhere"), (std::vector<fs::path>{"/w/build"}));
  EXPECT_EQ(workload_places(project, "", "/elsewhere"),
            (std::vector<fs::path>{project.dir / "build", fs::path("/elsewhere/build")}));
  EXPECT_EQ(workload_places(project, "", folder.path()), (std::vector<fs::path>{project.dir / "build"}));
}

TEST_F(ProjectImagesInputs, TheWorkloadIsBuiltFromSourceOrTheProjectsCMakeListsElsePrebuilt) {
  EXPECT_EQ(workload_source(folder.load(kThreeImages), *folder.load(kThreeImages).find_image("bench")), std::nullopt);
  folder.write("CMakeLists.txt", "project(demo)\n");
  auto project = folder.load(kThreeImages);
  EXPECT_EQ(workload_source(project, *project.find_image("bench")), project.dir);
  folder.write("cuda/CMakeLists.txt", "project(cuda)\n");
  project = folder.load("  bench: {workload: gemm-bench, source: cuda}\n");
  EXPECT_EQ(workload_source(project, *project.find_image("bench")), project.dir / "cuda");
}

TEST_F(ProjectImagesInputs, TheShippedTemplateReadsOnlyTheStagedFolder) {
  const auto project = folder.load(kThreeImages);
  build::BuildOptions build;
  set_build_context(project, *project.find_image("bench"), "/staged", build);
  EXPECT_EQ(build.context, "/staged");
  EXPECT_EQ(build.dockerfile, "/staged/Dockerfile");
  EXPECT_EQ(build.ignore_always, "");
  EXPECT_TRUE(build.named_contexts.empty());
}

TEST_F(ProjectImagesInputs, TheUsersDockerfileReadsTheProjectWithoutGkebuildsFolder) {
  const auto project = folder.load(kThreeImages);
  build::BuildOptions build;
  set_build_context(project, *project.find_image("app"), "/staged", build);
  EXPECT_EQ(build.context, project.dir);
  EXPECT_EQ(build.dockerfile, project.dir / "Dockerfile");
  EXPECT_EQ(build.ignore_always, ".gkebuild\n");
  EXPECT_TRUE(build.named_contexts.empty());
  build = {};
  set_build_context(project, *project.find_image("tool"), "/staged", build);  // rendered into the staged folder
  EXPECT_EQ(build.context, project.dir);
  EXPECT_EQ(build.dockerfile, "/staged/Dockerfile");
}

TEST_F(ProjectImagesInputs, AContextSubfolderAndAWorkloadAsTheNamedContext) {
  folder.write("src/keep.txt", "x\n");
  const auto project = folder.load("  app: {dockerfile: Dockerfile, context: src, workload: gemm-bench}\n");
  build::BuildOptions build;
  set_build_context(project, *project.find_image("app"), "/staged", build);
  EXPECT_EQ(build.context, project.dir / "src");
  EXPECT_EQ(build.ignore_always, "");  // .gkebuild/ is outside src/
  EXPECT_EQ(build.named_contexts, (std::map<std::string, fs::path>{{"workload", "/staged"}}));
}

TEST_F(ProjectImagesInputs, AContextThatIsNoFolderIsRefusedAtTheImage) {
  folder.write("notes.txt", "x\n");
  const auto project = folder.load("  app: {dockerfile: Dockerfile, context: notes.txt}\n");
  build::BuildOptions build;
  try {
    set_build_context(project, *project.find_image("app"), "/staged", build);
    FAIL() << "no error";
  } catch (const SourceError& e) {
    EXPECT_EQ(e.where().line, 5);
    EXPECT_EQ(e.where().column, 3);
    EXPECT_NE(e.message().find("image 'app': build context " + (project.dir / "notes.txt").string() + " is not a folder"),
              std::string::npos)
        << e.message();
  }
}

}  // namespace
}  // namespace gkebuild::project_images
