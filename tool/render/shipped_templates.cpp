#include "render/shipped_templates.h"

#include "base/embedded_file.h"
#include "yamlfile/document.h"

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

void add_project_templates(jinja::Environment& environment, const std::filesystem::path& project_dir) {
  const auto own = project_dir / "templates";
  std::error_code error;
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
  for (const auto& path : {project_dir / "templates" / name, project_dir / name}) {
    std::error_code error;
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
