// The project flag every command that reads gkebuild.yaml shares: -f/--file FILE
// (only --file for `logs`, where -f is --follow as in kubectl); without it the
// project file is found upwards from the current folder.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>

namespace gkebuild::cli {

struct ProjectFlags {
  std::string file;  // as given; empty: search upwards
};

enum class ShortFile { kYes, kNo };  // kNo where -f means something else

void add_project_flags(CLI::App& command, ProjectFlags& flags, ShortFile short_file = ShortFile::kYes);

// The given file, else the nearest gkebuild.yaml upwards, else ./gkebuild.yaml
// (so that loading it names the file the user is missing).
std::filesystem::path project_file(const ProjectFlags& flags);

// The given or found project's folder; the current folder when there is no project.
std::filesystem::path project_dir(const ProjectFlags& flags);

}  // namespace gkebuild::cli
