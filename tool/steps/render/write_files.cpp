// Writing a render into a folder all at once (see render.h).
#include <unistd.h>

#include <system_error>

#include "base/atomic_file.h"
#include "base/printable.h"
#include "base/source_error.h"
#include "tool/steps/render/render.h"

namespace gkebuild::render {
namespace {

// A fresh folder beside `dir`; removed (with what is in it) unless released.
class StagingDir {
 public:
  explicit StagingDir(const std::filesystem::path& dir) {
    const auto parent = dir.has_parent_path() ? dir.parent_path() : std::filesystem::path(".");
    std::filesystem::create_directories(parent);
    std::string pattern = (parent / ("." + dir.filename().string() + ".render-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
      throw system_failure(errno, "cannot create a temporary folder in " + parent.string());
    path_ = pattern;
  }
  ~StagingDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace

void write_files(const std::filesystem::path& dir, const std::vector<RenderedFile>& files) {
  std::error_code error;
  if (std::filesystem::exists(dir, error) && !std::filesystem::is_directory(dir, error))
    throw SourceError({dir.string()}, "-o: exists and is not a folder");
  // Everything is written (and flushed) in the staging folder first, so a failure while
  // writing leaves `dir` untouched; the renames at the end do not fail for space.
  // Each name is one file in DIR: render checked the names it was made of (parse_back.h), and
  // a name that is not one component is refused here too, before anything is written.
  for (const auto& file : files)
    if (file.file_name.empty() || file.file_name == "." || file.file_name == ".." ||
        file.file_name.find('/') != std::string::npos)
      throw SourceError({dir.string()}, "-o: " + in_quotes(file.file_name) + " is not a file name in the folder");
  StagingDir staging(dir.empty() ? std::filesystem::path(".") : dir);
  for (const auto& file : files) write_file_atomically(staging.path() / file.file_name, file.text);
  std::filesystem::create_directories(dir);
  for (const auto& file : files) std::filesystem::rename(staging.path() / file.file_name, dir / file.file_name);
}

}  // namespace gkebuild::render
