// Turns a project and the render options into a list of template renders (what to
// render with which context, and where it goes). Pure: no template engine involved,
// except `expand` for the templated strings of the project file (args, env values).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tool/core/catalog/catalog.h"
#include "tool/core/project/project.h"
#include "tool/steps/render/options.h"

namespace gkebuild::render {

enum class OutputKind { Manifest, Dockerfile };

// What one Job, JobSet or Pod runs, as planned: the data its gkebuild.io/accelerator label and
// gkebuild.io/point annotation print, kept as data so that submit never reads them back.
struct Workload {
  std::string accelerator;  // catalog label; "cpu" for a CPU-only experiment's
  nlohmann::ordered_json point = nlohmann::ordered_json::object();  // the sweep point; {} for an Indexed sweep's Job
};

struct RenderItem {
  std::string template_name;      // as the engine finds it: "job.yaml.j2"
  nlohmann::ordered_json context;  // the template's variables (with `shared`'s, when set)
  OutputKind kind = OutputKind::Manifest;
  // File name under -o DIR for a single-object template ("job-gemm-nvidia-l4-0.yaml");
  // empty for templates that yield several objects (named "<kind>-<name>.yaml").
  std::string file_name;
  // Variables that many items have in common (every Job of an experiment on one accelerator),
  // held once; null when `context` has them all. Their keys are not in `context`.
  std::shared_ptr<const nlohmann::ordered_json> shared;
  // The user's own Dockerfile, used as written: the output, with no template rendered.
  std::optional<std::string> as_written;
  // A workload template's (job, jobset, pod): what its Job runs; null for every other item.
  std::shared_ptr<const Workload> workload;

  // `context` and `shared` in one object.
  nlohmann::ordered_json full_context() const;
};

// Renders one string of the project file (an arg, an env value) with `context`; called only
// for text with template syntax (plain words are taken as they are);
// `name` says where the string came from, for error messages.
using TextExpander = std::function<std::string(const std::string& text, const nlohmann::ordered_json& context,
                                               const std::string& name)>;

// Whether a string of the project file is a template. Most arguments are plain words: only
// text with template syntax goes to the engine (a sweep plans thousands of them).
bool has_template_syntax(const std::string& text);

// The image reference manifests use by default: <registry>/<project>-<image>:latest.
std::string default_image_reference(const project::Project& project, const project::Image& image);
// The reference for `image`: options.image_references when it names the image, else the default.
std::string image_reference(const project::Project& project, const project::Image& image,
                            const RenderOptions& options);

// `expand` may be called from several threads at once (the Jobs of a sweep are planned in
// parallel). Throws SourceError for unknown targets (with a "did you mean") and unknown accelerators.
std::vector<RenderItem> plan_render(const project::Project& project, const RenderOptions& options,
                                    const catalog::Catalog& catalog, const TextExpander& expand);

}  // namespace gkebuild::render
