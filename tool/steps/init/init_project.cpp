#include "tool/steps/init/init_project.h"

#include <algorithm>
#include <set>
#include <utility>

#include "base/confined_path.h"
#include "base/embedded_file.h"
#include "base/error.h"
#include "base/printable.h"
#include "base/suggest.h"
#include "tool/core/project/quantities.h"

namespace gkebuild::init {

extern const EmbeddedFile init_template_files[];
extern const std::size_t init_template_files_count;
extern const EmbeddedFile saxpy_files[];
extern const std::size_t saxpy_files_count;

namespace fs = std::filesystem;

namespace {

// (path in the new project, content) of each file of the template, placeholders filled later.
std::vector<std::pair<std::string, std::string>> template_files(const std::string& template_name) {
  std::vector<std::pair<std::string, std::string>> files;
  const std::string prefix = template_name + "/";
  for (std::size_t i = 0; i < init_template_files_count; ++i) {
    const auto& file = init_template_files[i];
    if (file.name.starts_with(prefix))
      files.emplace_back(std::string(file.name.substr(prefix.size())), std::string(file.content));
  }
  if (template_name == "cmake-cuda")
    for (std::size_t i = 0; i < saxpy_files_count; ++i)
      files.emplace_back(std::string(saxpy_files[i].name), std::string(saxpy_files[i].content));
  return files;
}

std::string filled(std::string text, const std::vector<std::pair<std::string, std::string>>& values) {
  for (const auto& [placeholder, value] : values)
    for (size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + value.size()))
      text.replace(at, placeholder.size(), value);
  return text;
}

// One line: a value written into gkebuild.yaml or a Dockerfile must not start another line.
void check_one_line(const std::string& what, const std::string& value) {
  if (value.empty() || value.find_first_of(" \t\r\n\"'#") != std::string::npos)
    throw Error(ErrorKind::kBadInput, what + " '" + printable(value) + "': expected an image reference or path");
}

// What is in the way of the files: one already there, and a symlink (or a file) where a folder
// on their way goes (DIR/src -> elsewhere). Refused, all named, before anything is written.
void check_nothing_in_the_way(const fs::path& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  std::set<std::string> existing, through;
  std::error_code error;
  for (const auto& file : files) {
    const auto parts = path_components(file.first);
    fs::path at = dir;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      at /= parts[i];
      const auto type = fs::symlink_status(at, error).type();
      if (type == fs::file_type::not_found) break;
      if (type != fs::file_type::directory) through.insert(printable(at.string()));
    }
    if (fs::symlink_status(dir / file.first, error).type() != fs::file_type::not_found)
      existing.insert(printable((dir / file.first).string()));
  }
  const auto listed = [](const std::set<std::string>& paths) {
    std::string list;
    for (const auto& path : paths) list += (list.empty() ? "" : ", ") + path;
    return list;
  };
  std::string why;
  if (!existing.empty()) why = "not overwriting " + listed(existing);
  if (!through.empty())
    why += (why.empty() ? "" : "; ") + std::string("not writing through ") + listed(through) +
           " (a symlink, or a file where a folder goes)";
  if (!why.empty())
    throw Error(ErrorKind::kBadInput, why + "; nothing was written (init an empty folder, or move those files away)");
}

}  // namespace

std::vector<std::string> template_names() { return {"python", "cmake-cuda", "dockerfile"}; }

std::string default_base(const std::string& template_name) {
  if (template_name == "python") return "docker.io/library/python:3.12-slim";
  if (template_name == "dockerfile") return "docker.io/library/debian:bookworm-slim";
  return "";
}

std::string experiment_of(const std::string& template_name) {
  if (template_name == "python") return "train";
  if (template_name == "dockerfile") return "run";
  return "saxpy";
}

std::string project_name_of(const std::string& folder_name) {
  std::string name;
  for (char c : folder_name) {
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    const bool keep = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9');
    if (keep) name += lower;
    else if (!name.empty() && name.back() != '-') name += '-';
  }
  while (!name.empty() && name.back() == '-') name.pop_back();
  if (name.size() > 40) name.resize(40);
  while (!name.empty() && name.back() == '-') name.pop_back();
  return name.empty() ? "experiment" : name;
}

std::vector<fs::path> init_project(const InitOptions& options) {
  const auto names = template_names();
  if (std::find(names.begin(), names.end(), options.template_name) == names.end())
    throw Error(ErrorKind::kBadInput, "--template " + printable(options.template_name) +
                                          ": no such template (python, cmake-cuda or dockerfile)" +
                                          did_you_mean(options.template_name, names));
  std::error_code error;
  const std::string folder = fs::absolute(options.dir, error).lexically_normal().filename().string();
  const std::string project = options.project.empty() ? project_name_of(folder) : options.project;
  if (!project::is_dns_label(project))
    throw Error(ErrorKind::kBadInput, "--name " + printable(project) +
                                          ": a project name is lower-case letters, digits and '-', at most 63");
  const std::string from = options.from.empty() ? default_base(options.template_name) : options.from;
  if (options.template_name != "cmake-cuda") check_one_line("--from", from);
  else if (!options.from.empty())
    throw Error(ErrorKind::kBadInput, "--from: the cmake-cuda template's image is FROM scratch around the built "
                                      "program; edit `from:` in gkebuild.yaml to start from another image");
  check_one_line("--registry", options.registry);
  const auto files = template_files(options.template_name);
  check_nothing_in_the_way(options.dir, files);
  const std::vector<std::pair<std::string, std::string>> values = {
      {"@PROJECT@", project}, {"@FROM@", from}, {"@REGISTRY@", options.registry}};
  fs::create_directories(options.dir);
  std::vector<fs::path> written;
  for (const auto& [path, content] : files) {
    // Made new, never through a symlink nor over what is there, should the folder change
    // after the check above (confined_path.h).
    create_new_file(options.dir, path, filled(content, values), path.ends_with(".sh") ? 0777 : 0666);
    written.push_back(options.dir / path);
  }
  return written;
}

}  // namespace gkebuild::init
