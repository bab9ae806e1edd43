#include "tool/steps/render/render.h"

#include <algorithm>
#include <iterator>
#include <map>

#include "base/parallel.h"
#include "base/source_error.h"
#include "tool/core/jinja/environment.h"
#include "tool/core/jinja/values/json_document.h"
#include "tool/steps/render/contexts.h"
#include "tool/steps/render/dockerfile_template.h"
#include "tool/steps/render/parallelism.h"
#include "tool/steps/render/parse_back.h"
#include "tool/steps/render/shipped_templates.h"
#include "tool/steps/render/targets.h"
#include "tool/steps/render/variable_check.h"

namespace gkebuild::render {
namespace {

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string with_newline(std::string text) {
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

// Keeps the template sources read for error messages, one read per template.
class SourceCache {
 public:
  explicit SourceCache(std::filesystem::path dir) : dir_(std::move(dir)) {}
  void load(const std::string& name) {
    if (!sources_.count(name)) sources_.emplace(name, template_source(dir_, name).value_or(""));
  }
  // Only for names load() has seen, so that renders on several threads can share it.
  const std::string& get(const std::string& name) const { return sources_.at(name); }

 private:
  std::filesystem::path dir_;
  std::map<std::string, std::string> sources_;
};

void add_manifests(const RenderItem& item, const std::string& rendered, const SourceCache& sources,
                   std::vector<RenderedFile>& out) {
  auto objects = parse_rendered(rendered, item.template_name, sources.get(item.template_name));
  for (auto& object : objects) {
    std::string file = objects.size() == 1 && !item.file_name.empty()
                           ? item.file_name
                           : lower(object.kind) + "-" + object.name + ".yaml";
    const bool workload = object.kind == "Job" || object.kind == "JobSet" || object.kind == "Pod";
    out.push_back({std::move(file), with_newline(std::move(object.text)), OutputKind::Manifest, object.kind,
                   object.name, workload ? item.workload : nullptr});
  }
}

// The item's variables as the engine reads them, borrowed from the item: its own, then the
// shared ones. Each render has a document of its own: what a template changes in place stays
// in its render.
jinja::Value context_value(const RenderItem& item) {
  if (!item.shared) return jinja::json_document(item.context);
  return jinja::json_document({&item.context, item.shared.get()});
}

void check_unique_names(const std::vector<RenderedFile>& files) {
  std::map<std::string, int> seen;
  for (const auto& file : files)
    if (++seen[file.file_name] == 2)
      throw SourceError({file.file_name}, "two rendered objects would be written to the same file name; "
                                          "give the objects distinct names");
}

// What render_project renders from, kept together so that a caller may keep it (see render.h).
struct RenderInputs {
  explicit RenderInputs(const std::filesystem::path& dir) : sources(dir) {}
  jinja::Environment environment;
  std::vector<RenderItem> items;
  SourceCache sources;
};

// Sweep axes and --set keys nothing reads are refused before anything renders.
void check_variables(const project::Project& project, const RenderOptions& options,
                     jinja::Environment& environment) {
  const Selection selection = select_targets(project, options.targets, options.all_dockerfiles);
  for (const auto& experiments : {selection.jobs, selection.pods})
    for (const auto* experiment : experiments) {
      check_sweep_axes(project, *experiment, environment);
      check_set_keys(project, *experiment, environment, options.checked_sets);
    }
}

}  // namespace

std::vector<RenderedFile> render_project(const project::Project& project, const RenderOptions& options,
                                         const catalog::Catalog& catalog, std::shared_ptr<const void>* made_from) {
  auto inputs = std::make_shared<RenderInputs>(project.dir);
  jinja::Environment& environment = inputs->environment;
  add_project_templates(environment, project.dir);
  for (const auto& image : project.images) add_dockerfile_template(environment, project, image);
  check_variables(project, options, environment);
  const TextExpander expand = [&environment](const std::string& text, const nlohmann::ordered_json& context,
                                             const std::string& name) {
    return environment.render_string(text, context, name);
  };
  inputs->items = plan_render(project, options, catalog, expand);
  const auto& items = inputs->items;
  SourceCache& sources = inputs->sources;
  for (const auto& item : items)
    if (!item.as_written) sources.load(item.template_name);
  // Each item renders and reads back on its own: a sweep of many Jobs uses every core.
  std::vector<std::vector<RenderedFile>> per_item(items.size());
  run_parallel(items.size(), parallel_jobs(items.size(), options.jobs), [&](size_t i) {
    const auto& item = items[i];
    std::string rendered =
        item.as_written ? *item.as_written : environment.render_file(item.template_name, context_value(item));
    if (item.kind == OutputKind::Dockerfile)
      per_item[i].push_back({item.file_name, with_newline(std::move(rendered)), OutputKind::Dockerfile, "", ""});
    else
      add_manifests(item, rendered, sources, per_item[i]);
  });
  std::vector<RenderedFile> out;
  for (auto& files : per_item) std::move(files.begin(), files.end(), std::back_inserter(out));
  check_unique_names(out);
  if (made_from) *made_from = std::move(inputs);
  return out;
}

std::string render_dockerfile(const project::Project& project, const project::Image& image,
                              const std::string& reference, const nlohmann::ordered_json& values) {
  if (!dockerfile_is_template(image)) return read_user_dockerfile(project, image);
  jinja::Environment environment;
  add_project_templates(environment, project.dir);
  add_dockerfile_template(environment, project, image);
  return with_newline(environment.render_file(dockerfile_template_name(image),
                                              dockerfile_context(project, image, reference, values)));
}

void write_manifest_stream(std::ostream& out, const std::vector<RenderedFile>& files) {
  constexpr std::size_t kPiece = std::size_t{64} << 10;
  std::string piece;
  piece.reserve(kPiece);
  bool any = false;  // something written: the next manifest needs its "---"
  for (const auto& file : files) {
    if (file.kind != OutputKind::Manifest) continue;
    if (any) piece += "---\n";
    piece += file.text;
    any = any || !file.text.empty();
    if (piece.size() >= kPiece) {
      out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
      piece.clear();
    }
  }
  out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
}

}  // namespace gkebuild::render
