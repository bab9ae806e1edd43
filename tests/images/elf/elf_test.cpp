#include "images/elf/resolver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "base/atomic_file.h"
#include "images/elf/stage.h"
#include "tests/common/temp_dir.h"

namespace gkebuild::elf {
namespace {

bool has(const Dependencies& d, const std::string& name) {
  return std::any_of(d.libraries.begin(), d.libraries.end(),
                     [&](const Library& l) { return l.name == name; });
}

TEST(ElfResolve, LsNeedsLibcAndTheLoader) {
  Dependencies deps = resolve_dependencies("/bin/ls");
  EXPECT_EQ(deps.interpreter, "/lib64/ld-linux-x86-64.so.2");
  EXPECT_TRUE(has(deps, "libc.so.6"));
  EXPECT_TRUE(has(deps, "libselinux.so.1"));
  EXPECT_TRUE(has(deps, "libpcre2-8.so.0"));  // needed by libselinux: found recursively
  for (const auto& l : deps.libraries) EXPECT_TRUE(std::filesystem::exists(l.path)) << l.name;
}

TEST(ElfResolve, ReadsNeededAndSoname) {
  ElfInfo info = read_elf("/bin/ls");
  EXPECT_FALSE(info.interpreter.empty());
  EXPECT_NE(std::find(info.needed.begin(), info.needed.end(), "libc.so.6"), info.needed.end());
  ElfInfo libc = read_elf(resolve_dependencies("/bin/ls").libraries.back().path);
  EXPECT_FALSE(libc.soname.empty());
}

TEST(ElfResolve, NodeProvidedLibrariesAreNeverPacked) {
  EXPECT_TRUE(is_node_provided("libcuda.so.1"));
  EXPECT_TRUE(is_node_provided("libnvidia-ml.so.1"));
  EXPECT_FALSE(is_node_provided("libcudart.so.13"));
  EXPECT_FALSE(is_node_provided("libcublas.so.13"));
}

// Regression: a scratch image of a CUDA program had libc but not the libdl, libpthread and
// librt that the node's libcuda.so.1 names, so the CUDA runtime found no usable driver on an
// H100 ("CUDA driver version is insufficient for CUDA runtime version") and fell back to the CPU.
TEST(ElfResolve, ACudaProgramAlsoGetsWhatTheNodesLibcudaNeeds) {
  gkebuild::testing::TempDir dir;
  write_file_atomically(dir / "fatbin", std::string(64, '\x7f'));
  const std::string command = "objcopy --add-section .nv_fatbin=" + (dir / "fatbin").string() + " /bin/true " +
                              (dir / "with-device-code").string();
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const Dependencies cuda = resolve_dependencies(dir / "with-device-code");
  for (const char* name : {"libdl.so.2", "libpthread.so.0", "librt.so.1", "libm.so.6"}) {
    EXPECT_TRUE(has(cuda, name)) << name;
  }
  const auto librt = std::find_if(cuda.libraries.begin(), cuda.libraries.end(),
                                  [](const Library& l) { return l.name == "librt.so.1"; });
  ASSERT_NE(librt, cuda.libraries.end());
  EXPECT_EQ(librt->needed_by, "libcuda.so.1 (the node's driver)");

  const Dependencies plain = resolve_dependencies("/bin/true");
  EXPECT_TRUE(has(plain, "libc.so.6"));
  EXPECT_FALSE(has(plain, "librt.so.1"));
  EXPECT_FALSE(has(plain, "libdl.so.2"));
}

TEST(ElfResolve, NotElfAndMissingLibrariesAreErrors) {
  gkebuild::testing::TempDir dir;
  write_file_atomically(dir / "script", "#!/bin/sh\n");
  EXPECT_THROW(resolve_dependencies(dir / "script"), ElfError);
  ResolveOptions nowhere;
  nowhere.ld_cache = dir / "none";
  nowhere.default_dirs = {dir.path()};
  try {
    resolve_dependencies("/bin/ls", nowhere);
    FAIL() << "resolved without any search folder";
  } catch (const ElfError& e) {
    EXPECT_NE(std::string(e.what()).find("needed by /bin/ls"), std::string::npos) << e.what();
  }
}

TEST(ElfStage, StagesBinaryAndLibrariesIntoTheTemplateLayout) {
  gkebuild::testing::TempDir dir;
  StagedContext staged = stage_context({"/bin/ls"}, dir.path());
  EXPECT_TRUE(std::filesystem::exists(dir / "bin/ls"));
  EXPECT_TRUE(std::filesystem::exists(dir / "lib/libc.so.6"));
  EXPECT_TRUE(std::filesystem::exists(dir / "lib/ld-linux-x86-64.so.2"));
  EXPECT_EQ(staged.interpreter, "/lib64/ld-linux-x86-64.so.2");
  auto before = std::filesystem::last_write_time(dir / "lib/libc.so.6");
  stage_context({"/bin/ls"}, dir.path());
  EXPECT_EQ(std::filesystem::last_write_time(dir / "lib/libc.so.6"), before);
}

}  // namespace
}  // namespace gkebuild::elf
