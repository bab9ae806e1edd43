#include "tool/cli/project_flags.h"

#include "base/error.h"
#include "base/printable.h"
#include "tool/core/project/project_file.h"

namespace gkebuild::cli {
namespace fs = std::filesystem;

void add_project_flags(CLI::App& command, ProjectFlags& flags, ShortFile short_file) {
  command.add_option(short_file == ShortFile::kYes ? "-f,--file" : "--file", flags.file,
                     "the project file (default: the nearest gkebuild.yaml from here upwards)");
}

fs::path project_file(const ProjectFlags& flags, const std::string& alternative) {
  if (!flags.file.empty()) return flags.file;
  fs::path found = project::find_project_file(fs::current_path());
  if (found.empty())
    throw Error(ErrorKind::kBadInput,
                "no " + std::string(project::kProjectFileName) + " in " + printable(fs::current_path().string()) +
                    " or any folder above it; `gkebuild init` writes a new project here, -f FILE names one "
                    "elsewhere" + (alternative.empty() ? "" : "; " + alternative));
  return found;
}

fs::path project_dir(const ProjectFlags& flags) {
  if (!flags.file.empty()) return fs::absolute(flags.file).parent_path();
  fs::path found = project::find_project_file(fs::current_path());
  return found.empty() ? fs::current_path() : found.parent_path();
}

}  // namespace gkebuild::cli
