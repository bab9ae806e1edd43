#include "tool/cli/latest_run.h"

#include <ostream>

#include "base/error.h"
#include "base/printable.h"
#include "tool/core/runrecord/run_store.h"

namespace gkebuild::cli {

std::string latest_run_name(const std::filesystem::path& project_dir, const std::string& command, bool quiet,
                            std::ostream& err) {
  const auto latest = runrecord::latest_run(project_dir);
  if (!latest)
    throw Error(ErrorKind::kBadInput, "no run recorded in " + runrecord::runs_dir(project_dir).string() +
                                          " to take as the latest; `gkebuild submit` records runs, or name one");
  const std::string name = latest->filename().string();
  if (!quiet) err << "gkebuild " << command << ": the latest run, " << printable(name) << "\n";
  return name;
}

}  // namespace gkebuild::cli
