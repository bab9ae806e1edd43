// Prepares a build context for a workload image: the binaries in bin/ and every
// library they need in lib/ (named as DT_NEEDED names them, the loader among
// them), matching the shipped Dockerfile template:
//   COPY lib/ /opt/gkebuild/lib/     (one layer, changes only with the libraries)
//   COPY bin/ /opt/gkebuild/bin/     (one small layer per workload edit)
// Files are copied only when the source is newer, so unchanged libraries keep
// their times and the layer cache's stat check hits.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "images/elf/resolver.h"

namespace gkebuild::elf {

struct StagedContext {
  std::vector<std::filesystem::path> binaries;  // under bin/
  std::vector<Library> libraries;               // copied to lib/<name>
  std::string interpreter;                      // PT_INTERP, e.g. /lib64/ld-linux-x86-64.so.2
  std::vector<std::string> node_provided;       // left for the node (libcuda, …)
};

// Throws ElfError for a binary that is not ELF or a library that cannot be found.
StagedContext stage_context(const std::vector<std::filesystem::path>& binaries,
                            const std::filesystem::path& context, const ResolveOptions& options = {});

}  // namespace gkebuild::elf
