// The fat binary reader against cuobjdump --list-elf --list-ptx (NVIDIA's own reader): a
// program and a shared library nvcc builds here for two architectures, and the toolkit's
// cuBLAS (thousands of containers, arch-specific sm_90a cubins among them).
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "images/cuda/device_code.h"
#include "tests/common/run.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::testing {
namespace {

namespace fs = std::filesystem;

// cuobjdump on PATH, else the one the nvidia-cuda-cuobjdump wheel installs (scripts/setup.sh).
std::string cuobjdump() {
  const auto r = run_command(
      "command -v cuobjdump || python3 -c 'import sysconfig, os; p = os.path.join(sysconfig.get_paths()[\"purelib\"], "
      "\"nvidia\", \"cu13\", \"bin\", \"cuobjdump\"); print(p if os.access(p, os.X_OK) else \"\")'");
  std::string path = r.out.substr(0, r.out.find('\n'));
  return path;
}

// cuobjdump's listing as DeviceCode: "ELF file 1: x.1.sm_90a.cubin" -> cubin 90 (an
// arch-specific cubin counts as its architecture), "PTX file 1: x.1.sm_89.ptx" -> PTX 89.
cuda::DeviceCode listed(const std::string& tool, const fs::path& file) {
  const auto r = run_command(shell_quoted(tool) + " --list-elf --list-ptx " + shell_quoted(file.string()));
  EXPECT_EQ(r.exit_code, 0) << r.all();
  cuda::DeviceCode code;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    const auto sm = line.rfind(".sm_");
    if (sm == std::string::npos) continue;
    const int arch = std::stoi(line.substr(sm + 4));
    (line.rfind("PTX", 0) == 0 ? code.ptx : code.cubins).insert(arch);
  }
  return code;
}

class CudaPeerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string(GKEBUILD_NVCC).empty()) GTEST_SKIP() << "no nvcc in this build";
    tool = cuobjdump();
    if (tool.empty()) GTEST_SKIP() << "no cuobjdump (pip install nvidia-cuda-cuobjdump)";
  }
  // Compiles a kernel for sm_75 (cubin only) and sm_89 (cubin and PTX) with `flags`.
  fs::path compile(const std::string& name, const std::string& flags) {
    const fs::path source = dir.write("k.cu", "__global__ void k(float* x) { x[threadIdx.x] *= 2; }\n"
                                              "void launch(float* x) { k<<<1, 32>>>(x); }\n"
                                              "#ifndef LIB\nint main() {}\n#endif\n");
    const fs::path out = dir / name;
    const auto r = run_command(std::string(GKEBUILD_NVCC) + " " + flags +
                               " -gencode arch=compute_75,code=sm_75 -gencode arch=compute_89,code=[sm_89,compute_89]"
                               " -o " + shell_quoted(out.string()) + " " + shell_quoted(source.string()));
    EXPECT_EQ(r.exit_code, 0) << r.all();
    return out;
  }
  TempDir dir;
  std::string tool;
};

TEST_F(CudaPeerTest, ProgramAndLibraryAgreeWithCuobjdump) {
  for (const fs::path& file : {compile("program", ""), compile("libk.so", "-DLIB -shared -Xcompiler -fPIC")}) {
    const cuda::DeviceCode ours = cuda::read_device_code(file);
    EXPECT_EQ(ours.cubins, (std::set<int>{75, 89})) << file;
    EXPECT_EQ(ours.ptx, (std::set<int>{89})) << file;
    const cuda::DeviceCode theirs = listed(tool, file);
    EXPECT_EQ(ours.cubins, theirs.cubins) << file;
    EXPECT_EQ(ours.ptx, theirs.ptx) << file;
  }
}

TEST_F(CudaPeerTest, CublasAgreesWithCuobjdump) {
  const fs::path cublas = fs::path(GKEBUILD_NVCC).parent_path().parent_path() / "lib64" / "libcublas.so";
  if (!fs::exists(cublas)) GTEST_SKIP() << "no " << cublas;
  const cuda::DeviceCode ours = cuda::read_device_code(cublas);
  const cuda::DeviceCode theirs = listed(tool, cublas);
  EXPECT_FALSE(ours.empty());
  EXPECT_EQ(ours.cubins, theirs.cubins);
  EXPECT_EQ(ours.ptx, theirs.ptx);
}

}  // namespace
}  // namespace gkebuild::testing
