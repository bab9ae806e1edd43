// RUN left out of `status`, `logs` and `report`: the project's latest run, named on stderr
// (unless --quiet) so that the user sees which one answered.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>

namespace gkebuild::cli {

// The latest run's name; Error(kBadInput) when the project has none.
std::string latest_run_name(const std::filesystem::path& project_dir, const std::string& command, bool quiet,
                            std::ostream& err);

}  // namespace gkebuild::cli
