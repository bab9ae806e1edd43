#include "tool/steps/render/shipped_templates.h"

#include "base/confined_path.h"
#include "base/embedded_file.h"
#include "base/source_error.h"
#include "tool/core/yamlfile/document.h"

namespace gkebuild::render {

extern const EmbeddedFile shipped_template_files[];
extern const std::size_t shipped_template_files_count;

std::vector<std::string> shipped_template_names() {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < shipped_template_files_count; ++i)
    names.emplace_back(shipped_template_files[i].name);
  return names;
}

std::optional<std::string_view> shipped_template(std::string_view name) {
  for (std::size_t i = 0; i < shipped_template_files_count; ++i)
    if (shipped_template_files[i].name == name) return shipped_template_files[i].content;
  return std::nullopt;
}

namespace {

// The template loader follows symlinks, as Jinja's does; a project's templates/ (or anything
// in it) that leads out of the project folder would let a project render - and so publish -
// host files such as /etc/passwd, so it is refused. Only the project's own names are shown.
void check_templates_stay_inside(const std::filesystem::path& project_dir) {
  namespace fs = std::filesystem;
  auto refuse = [&](const fs::path& relative) {
    throw SourceError({(project_dir / relative).string()},
                      "a symlink that leads outside the project folder; project templates must stay inside it");
  };
  if (!confined_path(project_dir, "templates")) refuse("templates");
  std::error_code error;
  for (fs::recursive_directory_iterator it(project_dir / "templates", error), end; !error && it != end;
       it.increment(error)) {
    if (!it->is_symlink(error)) continue;
    const fs::path relative = it->path().lexically_relative(project_dir);
    if (!confined_path(project_dir, relative)) refuse(relative);
  }
}

}  // namespace

void add_project_templates(jinja::Environment& environment, const std::filesystem::path& project_dir) {
  const auto own = project_dir / "templates";
  std::error_code error;
  if (std::filesystem::exists(std::filesystem::symlink_status(own, error))) check_templates_stay_inside(project_dir);
  if (std::filesystem::is_directory(own, error)) environment.add_search_path(own);
  // In-memory templates are found before the search path, so add only those the
  // project does not override.
  for (std::size_t i = 0; i < shipped_template_files_count; ++i) {
    const auto& file = shipped_template_files[i];
    if (!std::filesystem::exists(own / file.name, error))
      environment.add_template(std::string(file.name), std::string(file.content));
  }
}

std::optional<std::string> template_source(const std::filesystem::path& project_dir, const std::string& name) {
  for (const auto& relative : {"templates" / std::filesystem::path(name), std::filesystem::path(name)}) {
    const auto path = project_dir / relative;
    std::error_code error;
    if (!confined_path(project_dir, relative)) continue;  // see check_templates_stay_inside
    if (std::filesystem::is_regular_file(path, error)) {
      try {
        return yamlfile::read_bounded(path);
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
  }
  if (auto shipped = shipped_template(name)) return std::string(*shipped);
  return std::nullopt;
}

}  // namespace gkebuild::render
