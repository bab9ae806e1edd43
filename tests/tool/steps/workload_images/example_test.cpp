// examples/saxpy, a user's own CUDA program, taken from a clean copy through the gkebuild
// binary: `gkebuild image` configures and builds it for exactly the experiment's GPUs, an
// edit to one .cu file rebuilds that object alone, a pinned CMAKE_CUDA_ARCHITECTURES that
// misses an accelerator is refused before anything reaches the registry, the image runs
// under runc on its CPU path, and without nvcc only CUDA projects fail, with a clear error.
// CUDA builds here are for as few architectures as each test needs: nvcc is slow.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>

#include "images/cuda/device_code.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"
#include "tests/registry/harness.h"

namespace gkebuild::testing {
namespace {

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

// Replaces the one occurrence of `from` in `file`.
void edit(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = read_text(file);
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from << " in " << file;
  std::ofstream(file) << text.replace(at, from.size(), to);
}

// The outputs ninja built, in its log (.ninja_log: start, end, mtime, output, hash).
std::vector<std::string> ninja_outputs(const fs::path& build) {
  std::vector<std::string> out;
  std::istringstream lines(read_text(build / ".ninja_log"));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string start, end, mtime, output;
    fields >> start >> end >> mtime >> output;
    out.push_back(output);
  }
  return out;
}

class SaxpyExampleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::copy(fs::path(GKEBUILD_SOURCE_ROOT) / "examples" / "saxpy", project(), fs::copy_options::recursive);
  }
  void require_nvcc() {
    if (std::string(GKEBUILD_NVCC).empty()) GTEST_SKIP() << "no nvcc in this build";
  }
  fs::path project() const { return dir.path() / "saxpy"; }
  // The example's experiment on these accelerators instead of T4 + L4.
  void run_on(const std::string& accelerators) {
    edit(project() / "gkebuild.yaml", "accelerators: [nvidia-tesla-t4, nvidia-l4]",
         "accelerators: [" + accelerators + "]");
  }
  CommandResult in_project(const std::string& args, const std::string& environment = "") {
    return run_command("cd " + shell_quoted(project().string()) + " && " + environment + " " + gkebuild_binary() + " " +
                       args);
  }
  cuda::DeviceCode staged_device_code() {
    return cuda::read_device_code(project() / ".gkebuild" / "context" / "saxpy" / "bin" / "saxpy");
  }
  TempDir dir;
};

TEST_F(SaxpyExampleTest, BuildsExactlyTheExperimentsArchitecturesAndRebuildsOnlyWhatChanged) {
  require_nvcc();
  auto built = in_project("image");
  ASSERT_EQ(built.exit_code, 0) << built.all();
  EXPECT_TRUE(built.out.starts_with("sha256:")) << built.out;
  EXPECT_EQ(staged_device_code().cubins, (std::set<int>{75, 89}));  // T4, L4
  EXPECT_EQ(staged_device_code().ptx, (std::set<int>{89}));         // and PTX for newer GPUs

  const fs::path build = project() / ".gkebuild" / "build" / "saxpy";
  const size_t before = ninja_outputs(build).size();
  std::ofstream(project() / "src" / "saxpy_gpu.cu", std::ios::app) << "// edited\n";
  auto rebuilt = in_project("image");
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.all();
  const auto outputs = ninja_outputs(build);
  EXPECT_EQ(std::vector<std::string>(outputs.begin() + static_cast<long>(before), outputs.end()),
            (std::vector<std::string>{"CMakeFiles/saxpy.dir/src/saxpy_gpu.cu.o", "saxpy"}));

  run_on("nvidia-tesla-t4, nvidia-l4, nvidia-a100-80gb");
  auto widened = in_project("image");
  ASSERT_EQ(widened.exit_code, 0) << widened.all();
  EXPECT_EQ(staged_device_code().cubins, (std::set<int>{75, 80, 89}));
  EXPECT_EQ(staged_device_code().ptx, (std::set<int>{89}));
}

TEST_F(SaxpyExampleTest, APinnedArchitectureListThatMissesAnAcceleratorIsRefusedBeforeAnyPush) {
  require_nvcc();
  edit(project() / "CMakeLists.txt", "project(saxpy", "set(CMAKE_CUDA_ARCHITECTURES 89)  # L4 only\nproject(saxpy");
  Registry registry(dir.path() / "registry", {});
  edit(project() / "gkebuild.yaml", "registry: us-central1-docker.pkg.dev/my-gcp-project/experiments",
       "registry: " + registry.host() + "/exp");
  auto pushed = in_project("image --push -q");
  EXPECT_EQ(pushed.exit_code, 2) << pushed.all();
  EXPECT_NE(pushed.err.find("experiment 'saxpy' runs on nvidia-tesla-t4 (compute capability 7.5), but bin/saxpy of "
                            "image 'saxpy' carries sm_89 and compute_89 PTX: it needs an sm_75 cubin"),
            std::string::npos)
      << pushed.err;
  EXPECT_NE(pushed.err.find("CMAKE_CUDA_ARCHITECTURES=75-real;89"), std::string::npos) << pushed.err;
  EXPECT_EQ(pushed.err.find("runs on nvidia-l4"), std::string::npos) << pushed.err;
  EXPECT_EQ(pushed.out, "");
  EXPECT_FALSE(fs::exists(dir.path() / "registry" / "data" / "docker" / "registry" / "v2" / "repositories"))
      << "something was uploaded";

  auto submitted = in_project("submit saxpy --local");  // refused before a run is recorded
  EXPECT_EQ(submitted.exit_code, 2) << submitted.all();
  EXPECT_NE(submitted.err.find("runs on nvidia-tesla-t4"), std::string::npos) << submitted.err;
  EXPECT_FALSE(fs::exists(project() / ".gkebuild" / "runs"));

  auto rendered = in_project("render");  // the same finding, as a warning
  EXPECT_EQ(rendered.exit_code, 0) << rendered.all();
  EXPECT_NE(rendered.err.find("gkebuild.yaml:15:3: warning: experiment 'saxpy' runs on nvidia-tesla-t4"),
            std::string::npos)
      << rendered.err;
  EXPECT_NE(rendered.err.find("[cuda-arch]"), std::string::npos) << rendered.err;
  EXPECT_EQ(in_project("render --accelerator nvidia-l4").err, "");
}

TEST_F(SaxpyExampleTest, SubmitLocalBuildsAndRunsItUnderRuncOnTheCpuPath) {
  require_nvcc();
  if (::geteuid() != 0) GTEST_SKIP() << "runc runs rootful containers: this test needs root";
  run_on("nvidia-l4");
  auto submitted = in_project("submit saxpy --local", "exec 2>&1 &&");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.out;
  EXPECT_NE(submitted.out.find("saxpy: CPU path"), std::string::npos) << submitted.out;
  EXPECT_NE(submitted.out.find("2 of 2 Jobs succeeded"), std::string::npos) << submitted.out;
  fs::path run;
  for (const auto& entry : fs::directory_iterator(project() / ".gkebuild" / "runs")) run = entry.path();
  std::istringstream results(read_text(run / "results.jsonl"));
  int lines = 0;
  for (std::string line; std::getline(results, line); ++lines)
    EXPECT_NE(line.find(R"("device":{"kind":"cpu")"), std::string::npos) << line;
  EXPECT_EQ(lines, 2);
}

// No nvcc: not on PATH, CUDA_PATH empty, CUDACXX unset.
constexpr const char* kNoCuda = "env -u CUDACXX PATH=/usr/bin:/bin CUDA_PATH=/nonexistent-cuda";

TEST_F(SaxpyExampleTest, WithoutNvccACudaProjectFailsSayingSo) {
  auto built = in_project("image", kNoCuda);
  EXPECT_EQ(built.exit_code, 2) << built.all();
  EXPECT_NE(built.err.find("gkebuild.yaml:11:3: error: image 'saxpy': the CMake project"), std::string::npos)
      << built.err;
  EXPECT_NE(built.err.find("needs CUDA, and no nvcc was found"), std::string::npos) << built.err;
}

TEST(CpuWorkload, NeedsNothingCudaAndMayLiveInASourceFolder) {
  TempDir project;
  project.write("native/CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.18)\nproject(hello LANGUAGES CXX)\n"
                "add_executable(hello hello.cpp)\nset_target_properties(hello PROPERTIES OUTPUT_NAME greeter)\n");
  project.write("native/hello.cpp", "#include <cstdio>\nint main() { std::puts(\"hello\"); }\n");
  project.write("gkebuild.yaml",
                "apiVersion: gkebuild/v1\nproject: hello\nregistry: r.test/x\n"
                "images:\n  hello: {workload: hello, source: native}\n"
                "experiments:\n  greet: {image: hello, accelerators: [nvidia-l4]}\n");
  auto built = run_command("cd " + shell_quoted(project.path().string()) + " && " + kNoCuda + " " +
                           gkebuild_binary() + " image");
  ASSERT_EQ(built.exit_code, 0) << built.all();
  const fs::path binary = project / ".gkebuild/context/hello/bin/greeter";  // found through CMake's file API
  ASSERT_TRUE(fs::exists(binary));
  EXPECT_TRUE(cuda::read_device_code(binary).empty());
  EXPECT_EQ(run_command(shell_quoted(binary.string())).out, "hello\n");

  project.write("gkebuild.yaml",
                "apiVersion: gkebuild/v1\nproject: hello\nregistry: r.test/x\n"
                "images:\n  hello: {workload: helo, source: native}\n");
  auto misspelt = run_command("cd " + shell_quoted(project.path().string()) + " && " + gkebuild_binary() + " image");
  EXPECT_EQ(misspelt.exit_code, 2);
  EXPECT_NE(misspelt.err.find("has no target 'helo' (did you mean 'hello'?)"), std::string::npos) << misspelt.err;
}

}  // namespace
}  // namespace gkebuild::testing
