// The local runner's layer reader: a tar (plain, gzip or zstd) applied to a root file system with
// its whiteouts, links and owners. Every run applies to a fresh folder under one temporary folder;
// scripts/fuzz.sh runs this target as an unprivileged user, so that an entry escaping the root
// file system (the bug class this target hunts) cannot touch anything that user may not write.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_target.h"
#include "images/oci/digest.h"
#include "tool/steps/local_runner/layer_apply.h"

namespace {

const std::filesystem::path& work_dir() {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "gkebuild-fuzz-layer.XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::logic_error("mkdtemp failed");
    return std::filesystem::path(pattern);
  }();
  return dir;
}

}  // namespace

GKEBUILD_FUZZ_TARGET({
  const auto blob = work_dir() / "layer";
  const auto rootfs = work_dir() / "rootfs";
  std::filesystem::remove_all(rootfs);
  std::filesystem::create_directory(rootfs);
  std::ofstream(blob, std::ios::binary | std::ios::trunc).write(input.data(), static_cast<std::streamsize>(input.size()));
  gkebuild::oci::Sha256 hasher;
  hasher.update(input);
  gkebuild::local_runner::apply_layer(blob, hasher.finish(), rootfs);
})
