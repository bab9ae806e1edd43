// The user a container's process runs as, from the image config's User ("", "1000",
// "1000:1000", "app", "app:staff", …) and the image's own /etc/passwd and /etc/group,
// as Docker and containerd resolve it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gkebuild::local_runner {

struct ContainerUser {
  uint32_t uid = 0;
  uint32_t gid = 0;
  std::vector<uint32_t> additional_gids;  // groups of /etc/group that list the user by name
  std::string home = "/";                 // the user's /etc/passwd home ("/root" for the default root)
};

// Throws std::runtime_error naming the user or group that the image's files do not define.
ContainerUser resolve_user(const std::string& user, const std::filesystem::path& rootfs);

}  // namespace gkebuild::local_runner
