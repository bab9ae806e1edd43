// A small dynamically linked C++ program: its image carries it and the shared
// libraries it needs (libstdc++, libm, libgcc_s, libc and the loader), which
// `gkebuild image --stage` finds by reading its ELF dependencies.
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::vector<std::string> names(argv + 1, argv + argc);
  if (names.empty()) names.push_back("world");
  for (const auto& name : names) std::cout << "hello, " << name << " from a gkebuild image\n";
  return 0;
}
