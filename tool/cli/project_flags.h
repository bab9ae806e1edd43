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

// The given file (loading it names a missing one), else the nearest gkebuild.yaml upwards.
// None: an Error (bad input) saying where it looked and that `gkebuild init` writes one or -f FILE
// names one, then `alternative` (what else the command can do without a project) where given.
std::filesystem::path project_file(const ProjectFlags& flags, const std::string& alternative = "");

// The given or found project's folder; the current folder when there is no project.
std::filesystem::path project_dir(const ProjectFlags& flags);

}  // namespace gkebuild::cli
