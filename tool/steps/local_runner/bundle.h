// A container's runtime bundle: a folder with config.json and the root file system, which
// is an overlay mount over the image's cached tree, so what the container writes goes to
// the bundle's own upper folder and the cache stays as unpacked. Removed (unmounted, then
// deleted) when the Bundle goes out of scope. A RUN step (tool/steps/run_step) mounts one over
// the image's layers and reads what its container changed from the upper folder.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gkebuild::local_runner {

class Bundle {
 public:
  // Creates `dir` (an existing one from an earlier run that was killed is removed first) and
  // mounts the overlay. Throws std::runtime_error when the overlay cannot be mounted.
  Bundle(std::filesystem::path dir, const std::filesystem::path& image_rootfs);
  // The same over several lower folders, the topmost first, with more overlay mount options
  // ("redirect_dir=off,...") after the folders.
  Bundle(std::filesystem::path dir, const std::vector<std::filesystem::path>& lowers, const std::string& options);
  ~Bundle();
  Bundle(const Bundle&) = delete;
  Bundle& operator=(const Bundle&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path rootfs() const { return dir_ / "rootfs"; }
  // What the container wrote, as overlayfs records it (whiteouts are 0:0 character devices).
  std::filesystem::path upper() const { return dir_ / "upper"; }
  // Unmounts the root file system early; upper() stays until the Bundle goes.
  void unmount() const;
  // Writes config.json (temporary name, then rename), 0600 in the bundle's 0700 folder: it
  // holds the container's environment.
  void write_config(const std::string& json) const;

 private:
  std::filesystem::path dir_;
};

// Unmounts and deletes a bundle folder; quiet when parts are already gone.
void remove_bundle(const std::filesystem::path& dir);

}  // namespace gkebuild::local_runner
