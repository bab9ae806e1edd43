#include "render/template_file.h"

#include "yamlfile/document.h"

namespace gkebuild::render {

std::string render_template_file(const std::filesystem::path& file, const jinja::Value& context,
                                 const jinja::Options& options) {
  std::string source = yamlfile::read_bounded(file);
  jinja::Environment environment(options);
  environment.add_search_path(file.has_parent_path() ? file.parent_path() : std::filesystem::path("."));
  // Registered under the path the user gave, so messages name it that way.
  environment.add_template(file.string(), std::move(source));
  return environment.render_file(file.string(), context);
}

}  // namespace gkebuild::render
