// `--values` files (YAML or JSON, told apart by the first byte here) through the loader `render`
// uses: anchors, aliases, merges, deep nesting, huge scalars.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_target.h"
#include "tool/steps/render/values.h"

namespace {

std::filesystem::path values_path(bool json) {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "gkebuild-fuzz-values.XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::logic_error("mkdtemp failed");
    return std::filesystem::path(pattern);
  }();
  return dir / (json ? "values.json" : "values.yaml");
}

}  // namespace

GKEBUILD_FUZZ_TARGET({
  if (input.empty()) return 0;
  const auto path = values_path(input[0] & 1);
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(input.data() + 1, static_cast<std::streamsize>(input.size() - 1));
  gkebuild::render::load_values_file(path);
})
