// Finds the shared libraries a binary needs, recursively, in the order the
// glibc dynamic loader searches: DT_RPATH (of the needing object and its
// loaders, when it has no DT_RUNPATH), DT_RUNPATH, /etc/ld.so.cache, then the
// default directories. LD_LIBRARY_PATH is ignored on purpose: the image must not
// depend on the build machine's environment. Libraries the GKE node provides
// (libcuda, libnvidia-*) are never resolved or packed; for a program that uses CUDA
// (device code, libcudart, libcuda in DT_NEEDED) the glibc libraries the node's libcuda needs
// are resolved too (needed_by names libcuda), since the image's glibc is the one that loads it.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "images/elf/elf_file.h"

namespace gkebuild::elf {

struct ResolveOptions {
  std::filesystem::path ld_cache = "/etc/ld.so.cache";
  std::vector<std::filesystem::path> default_dirs = {
      "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"};
};

struct Library {
  std::string name;              // as DT_NEEDED names it (the file name in the image)
  std::filesystem::path path;    // where it was found
  std::string needed_by;         // the first object that needs it
};

struct Dependencies {
  std::filesystem::path interpreter;   // PT_INTERP of the binary (empty when static)
  std::vector<Library> libraries;      // in breadth-first order, each once
  std::vector<std::string> node_provided;  // skipped: libcuda.so.1, libnvidia-ml.so.1, …
};

// True for libraries the GKE node mounts at /usr/local/nvidia/lib64.
bool is_node_provided(const std::string& name);

// Throws ElfError naming the library and who needs it when one cannot be found.
Dependencies resolve_dependencies(const std::filesystem::path& binary, const ResolveOptions& options = {});

}  // namespace gkebuild::elf
