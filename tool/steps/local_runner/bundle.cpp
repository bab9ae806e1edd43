#include "tool/steps/local_runner/bundle.h"

#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "base/atomic_file.h"
#include "base/error.h"

namespace gkebuild::local_runner {
namespace fs = std::filesystem;
namespace {

// The overlay mount options separate paths with ':' and ','.
void check_mountable(const fs::path& path) {
  if (path.string().find_first_of(":,\\") != std::string::npos) {
    throw Error(ErrorKind::kCannotRun, "cannot run a container from " + path.string() +
                ": an overlay mount cannot take a path with ':', ',' or '\\'");
  }
}

}  // namespace

void remove_bundle(const fs::path& dir) {
  ::umount2((dir / "rootfs").c_str(), MNT_DETACH);
  std::error_code ignored;
  fs::remove_all(dir, ignored);
}

Bundle::Bundle(fs::path dir, const fs::path& image_rootfs) : Bundle(std::move(dir), std::vector{image_rootfs}, "") {}

Bundle::Bundle(fs::path dir, const std::vector<fs::path>& lowers, const std::string& more_options)
    : dir_(std::move(dir)) {
  check_mountable(dir_);
  std::string lowerdir;
  for (const auto& lower : lowers) {
    check_mountable(lower);
    lowerdir += (lowerdir.empty() ? "" : ":") + lower.string();
  }
  remove_bundle(dir_);
  // Owner only: config.json holds the container's environment, a run's secret values included.
  fs::create_directories(dir_);
  fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::replace);
  for (const char* sub : {"rootfs", "upper", "work"}) fs::create_directories(dir_ / sub);
  std::string options = "lowerdir=" + lowerdir + ",upperdir=" + upper().string() + ",workdir=" + (dir_ / "work").string();
  if (!more_options.empty()) options += "," + more_options;
  if (::mount("overlay", rootfs().c_str(), "overlay", 0, options.c_str()) != 0) {
    const int error = errno;
    remove_bundle(dir_);
    throw Error(ErrorKind::kFailed, "cannot mount the container's root file system (overlay on " + rootfs().string() +
                "): " + std::strerror(error));
  }
}

Bundle::~Bundle() { remove_bundle(dir_); }

void Bundle::unmount() const { ::umount2(rootfs().c_str(), MNT_DETACH); }

void Bundle::write_config(const std::string& json) const {
  write_file_atomically(dir_ / "config.json", json, FileAccess::kOwnerOnly);
}

}  // namespace gkebuild::local_runner
