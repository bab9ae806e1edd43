#include "tool/steps/render/template_file.h"

#include "tool/core/yamlfile/document.h"

namespace gkebuild::render {

namespace {
void add_template_file(jinja::Environment& environment, const std::filesystem::path& file) {
  std::string source = yamlfile::read_bounded(file);
  environment.add_search_path(file.has_parent_path() ? file.parent_path() : std::filesystem::path("."));
  // Registered under the path the user gave, so messages name it that way.
  environment.add_template(file.string(), std::move(source));
}
}  // namespace

std::string render_template_file(const std::filesystem::path& file, const jinja::Value& context,
                                 const jinja::Options& options) {
  jinja::Environment environment(options);
  add_template_file(environment, file);
  return environment.render_file(file.string(), context);
}

void render_template_file(const std::filesystem::path& file, const jinja::Value& context,
                          const jinja::Options& options, const jinja::OutputSink& sink) {
  jinja::Environment environment(options);
  add_template_file(environment, file);
  environment.render_file(file.string(), context, sink);
}

}  // namespace gkebuild::render
