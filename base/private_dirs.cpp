#include "base/private_dirs.h"

#include <openssl/sha.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/error.h"
#include "base/printable.h"

namespace gkebuild {
namespace fs = std::filesystem;
namespace {

[[noreturn]] void fail(const fs::path& dir, const std::string& why) {
  throw Error(ErrorKind::kFailed, "gkebuild's own folder " + printable(dir.string()) + " " + why);
}

const char* environment(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

fs::path per_user_temp(const char* stem) {
  return fs::temp_directory_path() / (std::string(stem) + std::to_string(::geteuid()));
}

// The folder itself, made when missing, must be a real folder of ours that no one else can write.
void check_own(const fs::path& dir) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) fail(dir, std::string("cannot be inspected: ") + std::strerror(errno));
  if (S_ISLNK(st.st_mode)) fail(dir, "is a symlink; remove it (gkebuild makes this folder itself)");
  if (!S_ISDIR(st.st_mode)) fail(dir, "is not a folder; remove it");
  if (st.st_uid != ::geteuid() || (st.st_mode & 022) != 0)
    fail(dir, "is not owned by this user and writable only by it; remove it, or move it with "
              "GKEBUILD_RUNTIME_DIR or GKEBUILD_CACHE_DIR");
}

void make_one(const fs::path& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    fail(dir, std::string("cannot be made: ") + std::strerror(errno));
}

}  // namespace

fs::path private_folder(const fs::path& dir_in) {
  const fs::path dir = fs::absolute(dir_in).lexically_normal();
  const fs::path parent = dir.parent_path();
  std::error_code error;
  if (!parent.empty() && parent != dir && !fs::exists(parent, error)) {
    fs::create_directories(parent, error);
    if (error) fail(parent, "cannot be made: " + error.message());
  }
  make_one(dir);
  check_own(dir);
  return dir;
}

fs::path private_subfolder(const fs::path& parent, const fs::path& relative) {
  fs::path dir = parent;
  for (const auto& part : relative) {
    const std::string name = part.string();
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos)
      fail(parent / relative, "is not a plain name beneath " + printable(parent.string()));
    dir /= part;
    make_one(dir);
    check_own(dir);
  }
  return dir;
}

fs::path runtime_dir() {
  if (const char* set = environment("GKEBUILD_RUNTIME_DIR")) return private_folder(set);
  if (::geteuid() == 0) return private_folder("/run/gkebuild");
  if (const char* xdg = environment("XDG_RUNTIME_DIR")) return private_folder(fs::path(xdg) / "gkebuild");
  return private_folder(per_user_temp("gkebuild-runtime-"));
}

fs::path machine_cache_dir() {
  if (const char* set = environment("GKEBUILD_CACHE_DIR")) return private_folder(set);
  if (::geteuid() == 0) return private_folder("/var/cache/gkebuild");
  if (const char* xdg = environment("XDG_CACHE_HOME")) return private_folder(fs::path(xdg) / "gkebuild");
  if (const char* home = environment("HOME")) return private_folder(fs::path(home) / ".cache" / "gkebuild");
  return private_folder(per_user_temp("gkebuild-cache-"));
}

std::string folder_key(const fs::path& dir) {
  std::error_code error;
  fs::path real = fs::weakly_canonical(fs::absolute(dir), error);
  if (error) real = fs::absolute(dir).lexically_normal();
  const std::string text = real.string();
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  char hex[17];
  for (int i = 0; i < 8; ++i) std::snprintf(hex + 2 * i, 3, "%02x", digest[i]);
  return hex;
}

}  // namespace gkebuild
