#include "images/elf/stage.h"

#include <set>

namespace gkebuild::elf {
namespace fs = std::filesystem;

namespace {

void copy_if_newer(const fs::path& from, const fs::path& to) {
  fs::create_directories(to.parent_path());
  fs::copy_file(fs::canonical(from), to, fs::copy_options::update_existing);
}

}  // namespace

StagedContext stage_context(const std::vector<fs::path>& binaries, const fs::path& context,
                            const ResolveOptions& options) {
  StagedContext staged;
  std::set<std::string> libraries;
  for (const auto& binary : binaries) {
    Dependencies deps = resolve_dependencies(binary, options);
    fs::path target = context / "bin" / binary.filename();
    copy_if_newer(binary, target);
    staged.binaries.push_back(target);
    if (!deps.interpreter.empty()) {
      staged.interpreter = deps.interpreter.string();
      std::string name = deps.interpreter.filename().string();
      if (libraries.insert(name).second) {
        copy_if_newer(deps.interpreter, context / "lib" / name);
        staged.libraries.push_back({name, deps.interpreter, binary.string()});
      }
    }
    for (const auto& lib : deps.libraries) {
      if (!libraries.insert(lib.name).second) continue;
      copy_if_newer(lib.path, context / "lib" / lib.name);
      staged.libraries.push_back(lib);
    }
    for (const auto& n : deps.node_provided) staged.node_provided.push_back(n);
  }
  return staged;
}

}  // namespace gkebuild::elf
