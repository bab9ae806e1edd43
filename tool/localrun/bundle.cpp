#include "localrun/bundle.h"

#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "base/atomic_file.h"

namespace gkebuild::localrun {
namespace fs = std::filesystem;
namespace {

// The overlay mount options separate paths with ':' and ','.
void check_mountable(const fs::path& path) {
  if (path.string().find_first_of(":,\\") != std::string::npos) {
    throw std::runtime_error("cannot run a container from " + path.string() +
                             ": an overlay mount cannot take a path with ':', ',' or '\\'");
  }
}

}  // namespace

void remove_bundle(const fs::path& dir) {
  ::umount2((dir / "rootfs").c_str(), MNT_DETACH);
  std::error_code ignored;
  fs::remove_all(dir, ignored);
}

Bundle::Bundle(fs::path dir, const fs::path& image_rootfs) : dir_(std::move(dir)) {
  check_mountable(dir_);
  check_mountable(image_rootfs);
  remove_bundle(dir_);
  for (const char* sub : {"rootfs", "upper", "work"}) fs::create_directories(dir_ / sub);
  const std::string options = "lowerdir=" + image_rootfs.string() + ",upperdir=" + (dir_ / "upper").string() +
                              ",workdir=" + (dir_ / "work").string();
  if (::mount("overlay", rootfs().c_str(), "overlay", 0, options.c_str()) != 0) {
    const int error = errno;
    remove_bundle(dir_);
    throw std::runtime_error("cannot mount the container's root file system (overlay on " + rootfs().string() +
                             "): " + std::strerror(error));
  }
}

Bundle::~Bundle() { remove_bundle(dir_); }

void Bundle::write_config(const std::string& json) const { write_file_atomically(dir_ / "config.json", json); }

}  // namespace gkebuild::localrun
