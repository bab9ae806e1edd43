#include "tool/steps/local_runner/folder_once.h"

#include <unistd.h>

#include <atomic>
#include <stdexcept>
#include <string>

#include "base/error.h"

namespace gkebuild::local_runner {
namespace fs = std::filesystem;

void make_folder_once(const fs::path& folder, const std::function<void(const fs::path&)>& fill) {
  if (fs::is_directory(folder)) return;
  // Unique per process and per call: several threads may fill the same folder at once.
  static std::atomic<unsigned> calls = 0;
  const fs::path temporary = folder.parent_path() / (".tmp-" + folder.filename().string() + "-" +
                                                     std::to_string(::getpid()) + "-" + std::to_string(++calls));
  fs::create_directories(folder.parent_path());
  fs::remove_all(temporary);
  fs::create_directory(temporary);
  fs::permissions(temporary, fs::perms(0755));
  try {
    fill(temporary);
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(temporary, ignored);
    throw;
  }
  std::error_code ec;
  fs::rename(temporary, folder, ec);
  if (ec) fs::remove_all(temporary);
  if (ec && !fs::is_directory(folder)) {
    throw Error(ErrorKind::kFailed, "cannot move the unpacked folder to " + folder.string() + ": " + ec.message());
  }
}

}  // namespace gkebuild::local_runner
