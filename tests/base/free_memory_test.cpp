// base/free_memory.h on glibc: freed heap pages go back to the system, and threads allocate from
// the main arena once asked. Both once did nothing: free_memory.cpp tested __GLIBC__ before any
// header had defined it.
#include <gtest/gtest.h>

#include <malloc.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <thread>
#include <vector>

#include "base/free_memory.h"

extern char** environ;

namespace gkebuild {
namespace {

#ifdef __GLIBC__

long resident_kib() {
  long pages = 0, resident = 0;
  std::ifstream("/proc/self/statm") >> pages >> resident;
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

TEST(FreeMemory, ReleaseGivesFreedPagesBack) {
  // 24 MB in blocks too small for mmap, then one block above them, so that freeing them leaves
  // the pages inside the heap (free() itself gives back only the top).
  std::vector<char*> blocks;
  for (int i = 0; i < 24 * 1024; ++i) {
    blocks.push_back(static_cast<char*>(std::malloc(1000)));
    blocks.back()[0] = blocks.back()[999] = 1;  // touched: resident
  }
  char* pin = static_cast<char*>(std::malloc(1000));
  pin[0] = 1;
  for (char* block : blocks) std::free(block);
  const long before = resident_kib();
  release_free_memory();
  const long after = resident_kib();
  std::free(pin);
  EXPECT_GT(before - after, 12 * 1024) << "resident " << before << " KiB before, " << after << " KiB after";
}

// glibc marks a block of a thread's own arena in its size word (NON_MAIN_ARENA, 0x4).
bool from_main_arena(const void* block) { return (static_cast<const std::size_t*>(block)[-1] & 0x4) == 0; }

// Run by OneArenaForEveryThread in a process of its own: a process that has had threads keeps
// their arenas and hands them to new threads, whatever the limit says.
TEST(FreeMemory, OneArenaInAFreshProcess) {
  if (!std::getenv("GKEBUILD_FREE_MEMORY_CHILD")) GTEST_SKIP() << "run by FreeMemory.OneArenaForEveryThread";
  use_one_malloc_arena();
  void* block = nullptr;
  std::thread([&block] { block = std::malloc(1000); }).join();
  EXPECT_TRUE(from_main_arena(block));
  std::free(block);
}

TEST(FreeMemory, OneArenaForEveryThread) {
  std::vector<std::string> words{"/proc/self/exe", "--gtest_filter=FreeMemory.OneArenaInAFreshProcess"};
  std::vector<char*> argv{words[0].data(), words[1].data(), nullptr};
  std::string marker = "GKEBUILD_FREE_MEMORY_CHILD=1";
  std::vector<char*> env{marker.data()};
  for (char** variable = environ; *variable; ++variable) env.push_back(*variable);
  env.push_back(nullptr);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), env.data()), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child's test failed (status " << status << ")";
}

// Without the call a new thread gets an arena of its own: what the check above tells apart.
TEST(FreeMemory, ANewThreadHasItsOwnArenaByDefault) {
  if (std::getenv("GKEBUILD_FREE_MEMORY_CHILD")) GTEST_SKIP();
  if (std::getenv("MALLOC_ARENA_MAX") || std::getenv("GLIBC_TUNABLES")) GTEST_SKIP() << "arenas set from outside";
  void* block = nullptr;
  std::thread([&block] { block = std::malloc(1000); }).join();
  EXPECT_FALSE(from_main_arena(block));
  std::free(block);
}

#endif

}  // namespace
}  // namespace gkebuild
