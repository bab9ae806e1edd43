#include "tool/steps/render/plan.h"

#include <map>

#include "base/parallel.h"
#include "base/printable.h"
#include "base/source_error.h"
#include "tool/core/project/quantities.h"
#include "tool/core/runrecord/run_store.h"
#include "tool/steps/render/compute_class.h"
#include "tool/steps/render/contexts.h"
#include "tool/steps/render/dockerfile_template.h"
#include "tool/steps/render/names.h"
#include "tool/steps/render/parallelism.h"
#include "tool/steps/render/sweep.h"
#include "tool/steps/render/targets.h"

namespace gkebuild::render {
namespace {

// Where the caller's own options (the CLI's flags) are, in messages: the library does not
// know the flags' names.
const SourceLocation kCommandLine{"<command line>"};

using json = nlohmann::ordered_json;

// What the API server stores in one ConfigMap (its data and metadata together).
constexpr std::size_t kConfigMapLimit = 1024 * 1024 - 4096;

// Where experiment strings come from, for messages: "gkebuild.yaml: experiments.train.args[2]".
std::string origin(const project::Experiment& experiment, const std::string& field) {
  return experiment.where.file + ": experiments." + experiment.name + "." + field;
}

// Where each string of an experiment's command, args and env came from, for messages: made
// once per experiment, not once per sweep point.
struct TextOrigins {
  std::vector<std::string> command, args, env;
};

std::vector<std::string> list_origins(const project::Experiment& experiment, const std::string& field, size_t count) {
  std::vector<std::string> out;
  for (size_t i = 0; i < count; ++i) out.push_back(origin(experiment, field + "[" + std::to_string(i) + "]"));
  return out;
}

TextOrigins text_origins(const project::Experiment& experiment) {
  TextOrigins out{list_origins(experiment, "command", experiment.command.size()),
                  list_origins(experiment, "args", experiment.args.size()), {}};
  for (const auto& [name, value] : experiment.env) out.env.push_back(origin(experiment, "env." + name));
  return out;
}

std::vector<std::string> expand_list(const std::vector<std::string>& texts, const std::vector<std::string>& origins,
                                     const json& context, const TextExpander& expand) {
  std::vector<std::string> out;
  out.reserve(texts.size());
  for (size_t i = 0; i < texts.size(); ++i)
    out.push_back(has_template_syntax(texts[i]) ? expand(texts[i], context, origins[i]) : texts[i]);
  return out;
}

project::EnvList expand_env(const project::EnvList& env, const std::vector<std::string>& origins, const json& context,
                            const TextExpander& expand) {
  project::EnvList out;
  out.reserve(env.size());
  for (size_t i = 0; i < env.size(); ++i) {
    const auto& [name, value] = env[i];
    out.emplace_back(name, has_template_syntax(value) ? expand(value, context, origins[i]) : value);
  }
  return out;
}

// One Job (or Pod) to plan: its context is built later, on several threads for a sweep.
struct WorkloadPlan {
  RunUnit unit;
  bool pod;
  int index;
  json point;
  json seed;  // the seed value args see
  std::shared_ptr<const json> shared;  // workload_shared_context(unit, …)
};

struct Planner {
  const project::Project& project;
  const RenderOptions& options;
  const catalog::Catalog& catalog;
  const TextExpander& expand;
  runrecord::TimePoint now;  // of the render: each experiment's run is named as submit names it
  std::vector<RenderItem> items;
  std::vector<WorkloadPlan> workloads;
  std::map<const project::Experiment*, TextOrigins> origins;  // of every experiment planned

  // --run-id, else the name submit would give the experiment's run now (EXPERIMENT-YYYYMMDD-HHMMSS).
  std::string run_id(const project::Experiment& experiment) const {
    return options.run_id.empty() ? run_id_of(runrecord::run_name(experiment.name, now)) : options.run_id;
  }

  // The accelerator short name in the names of `unit`'s objects (options.name_accelerator).
  const std::string& name_short(const RunUnit& unit) const {
    return options.name_accelerator.empty() ? unit.accelerator->short_name
                                            : catalog.get(options.name_accelerator, kCommandLine).short_name;
  }

  std::vector<const catalog::Accelerator*> accelerators(const project::Experiment& experiment) const {
    if (experiment.cpu_only()) {
      // --accelerator names GPU types; a CPU-only experiment's Jobs would ask for none of them.
      if (!options.accelerators.empty())
        throw SourceError(kCommandLine, "--accelerator: experiment " + in_quotes(experiment.name) +
                                            " is CPU-only (gpus: 0); give it accelerators: and gpus: in gkebuild.yaml");
      return {&cpu_only_accelerator()};
    }
    const auto& labels = options.accelerators.empty() ? experiment.accelerators : options.accelerators;
    std::vector<const catalog::Accelerator*> out;
    for (const auto& label : labels) out.push_back(&catalog.get(label, kCommandLine));
    return out;
  }

  void add_workload(const RunUnit& unit, bool pod, int index, const json& point, const json& seed,
                    const std::shared_ptr<const json>& shared) {
    workloads.push_back({unit, pod, index, point, seed, shared});
  }

  // The render of one Job (or Pod) for one sweep point.
  RenderItem workload_item(const WorkloadPlan& plan) const {
    const auto& [unit, pod, index, point, seed, shared] = plan;
    const auto& experiment = *unit.experiment;
    const json variables = args_context(unit, point, seed);
    const TextOrigins& from = origins.at(&experiment);
    const auto command = expand_list(experiment.command, from.command, variables, expand);
    const auto args = expand_list(experiment.args, from.args, variables, expand);
    const auto env = expand_env(experiment.env, from.env, variables, expand);
    std::vector<std::string> name_parts{experiment.name, name_short(unit), std::to_string(index)};
    std::string file = std::string(pod ? "pod-" : "job-") + experiment.name + "-" + unit.accelerator->label + "-" +
                       std::to_string(index);
    if (pod && !seed.is_null() && experiment.seeds > 0) {  // one Pod per seed
      const std::string seed_text = seed.dump();
      name_parts.push_back("s" + seed_text);
      file.append("-seed").append(seed_text);
    }
    name_parts.push_back(unit.run_id);
    // A JobSet's pod host names add "-nodes-0-<rank>" to its name, within 63 characters.
    const bool jobset = !pod && experiment.nodes > 1 && project.cluster.jobset;
    // A JobSet's name prefixes its Jobs' and pods' names, which must start with a letter.
    std::string name = kube_name(name_parts, pod ? 63 : jobset ? 48 : 52);
    if (jobset) name = letter_first(name, "js", 48);
    json context = workload_point_context(unit, name, index, point, command, args, env);
    context["multi_node"] = pod ? json() : multi_node_json(name, experiment, jobset);
    if (jobset) context["replicated_job"] = kJobSetNodes;
    const char* template_name = pod ? "pod.yaml.j2" : jobset ? "jobset.yaml.j2" : "job.yaml.j2";
    if (jobset) file.replace(0, 3, "jobset");
    RenderItem item{template_name, std::move(context), OutputKind::Manifest, file.append(".yaml"), shared};
    item.workload = std::make_shared<const Workload>(Workload{unit.accelerator->label, point});
    return item;
  }

  // Appends the workload items in plan order; a large sweep is built on every core.
  void add_workload_items() {
    const size_t first = items.size();
    items.resize(first + workloads.size());
    run_parallel(workloads.size(), parallel_jobs(workloads.size(), options.jobs),
                     [&](size_t i) { items[first + i] = workload_item(workloads[i]); });
  }

  void add_experiment(const project::Experiment& experiment, bool pod) {
    const auto* image = project.find_image(experiment.image);
    const auto points = experiment_points(experiment);
    if (!origins.contains(&experiment)) origins.emplace(&experiment, text_origins(experiment));
    for (const auto* accelerator : accelerators(experiment)) {
      const auto env = options.image_env.find(image->name);
      const ImagePaths paths = image_paths(env == options.image_env.end() ? nullptr : &env->second);
      RunUnit unit{&project,        &experiment,
                   accelerator,     run_id(experiment),
                   image_reference(project, *image, options),
                   &options.values, options.queue.empty() ? experiment.queue : options.queue,
                   paths.path,      paths.library_path};
      if (experiment.parallelism > 0 && !pod && options.indexed_sweeps) {
        add_indexed_sweep(unit, points);
        continue;
      }
      // A Job of a seeded experiment is Indexed, one completion per seed; a Pod runs one seed.
      const auto shared = std::make_shared<const json>(workload_shared_context(unit, pod ? 0 : experiment.seeds));
      for (size_t i = 0; i < points.size(); ++i) {
        const int index = static_cast<int>(i);
        const json& point = points[i];
        if (experiment.seeds == 0) add_workload(unit, pod, index, point, point.value("seed", json()), shared);
        else if (!pod) add_workload(unit, pod, index, point, "$(GKEBUILD_SEED)", shared);
        else
          for (int seed = 0; seed < experiment.seeds; ++seed) add_workload(unit, pod, index, point, seed, shared);
      }
    }
  }

  // The sweep as one Indexed Job with the points in a ConfigMap: each point's args, one per
  // line, under its index. Only args may differ between points: the command and env of an
  // Indexed Job are the same for every index.
  void add_indexed_sweep(const RunUnit& unit, const std::vector<json>& points) {
    const auto& experiment = *unit.experiment;
    const std::string name = kube_name({experiment.name, name_short(unit), "sweep", unit.run_id}, 52);
    const json first = args_context(unit, points.front(), points.front().value("seed", json()));
    const TextOrigins& from = origins.at(&experiment);
    const auto command = expand_list(experiment.command, from.command, first, expand);
    const auto env = expand_env(experiment.env, from.env, first, expand);
    json data = json::object();
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const json variables = args_context(unit, points[i], points[i].value("seed", json()));
      if (expand_list(experiment.command, from.command, variables, expand) != command ||
          expand_env(experiment.env, from.env, variables, expand) != env)
        throw SourceError({origin(experiment, "parallelism")},
                          "the command or env differs between sweep points; an Indexed sweep gives each point "
                          "its own args only (use the sweep variables in args, or drop parallelism:)");
      std::string lines;
      for (const auto& arg : expand_list(experiment.args, from.args, variables, expand)) {
        if (arg.find('\n') != std::string::npos)
          throw SourceError({origin(experiment, "args")}, "an argument of an Indexed sweep cannot hold a line break");
        lines += arg + "\n";
      }
      bytes += lines.size() + 8;
      data[std::to_string(i)] = std::move(lines);
    }
    if (bytes > kConfigMapLimit)
      throw SourceError({origin(experiment, "parallelism")},
                        "the args of " + std::to_string(points.size()) + " sweep points take " + std::to_string(bytes) +
                            " bytes, more than a ConfigMap holds (1 MiB); split the sweep or drop parallelism:");
    const std::string config_map = name + "-points";
    items.push_back({"points.yaml.j2", points_context(unit, config_map, std::move(data)), OutputKind::Manifest,
                     "configmap-" + config_map + ".yaml"});
    json context = workload_context(unit, name, 0, json::object(), 0, command,
                                    {"--args-from", std::string(kPointsDir) + "/$(GKEBUILD_INDEX)"}, env);
    make_indexed_sweep(context, static_cast<int>(points.size()), experiment.parallelism, config_map);
    context["multi_node"] = nullptr;  // parallelism: excludes nodes > 1
    items.push_back({"job.yaml.j2", std::move(context), OutputKind::Manifest,
                     "job-" + experiment.name + "-" + unit.accelerator->label + "-sweep.yaml"});
    items.back().workload = std::make_shared<const Workload>(Workload{unit.accelerator->label, json::object()});
  }

  void add_support(const Selection& selection) {
    const auto& cluster = project.cluster;
    if (selection.namespace_object && cluster.namespace_name != "default")
      items.push_back({"namespace.yaml.j2", namespace_context(project, options.values), OutputKind::Manifest,
                       "namespace-" + cluster.namespace_name + ".yaml"});
    const auto installer = cluster.driver_installer;
    if (selection.driver_installer &&
        (installer == project::DriverInstaller::Cos || installer == project::DriverInstaller::Ubuntu))
      items.push_back({installer == project::DriverInstaller::Cos ? "driver-installer-cos.yaml.j2"
                                                                  : "driver-installer-ubuntu.yaml.j2",
                       driver_context(project, options.values), OutputKind::Manifest,
                       "daemonset-nvidia-driver-installer.yaml"});
    if (selection.kueue && project.kueue)
      items.push_back({"kueue.yaml.j2", kueue_context(project, options.values), OutputKind::Manifest, ""});
    if (selection.compute_classes)
      items.push_back({"compute-class.yaml.j2", compute_class_context(project, options.values, catalog),
                       OutputKind::Manifest, ""});
    if (selection.storage && project.nfs)
      items.push_back({"nfs.yaml.j2", storage_context(project, options), OutputKind::Manifest, ""});
  }

  void add_dockerfile(const project::Image& image) {
    if (!dockerfile_is_template(image)) {
      items.push_back({image.dockerfile, json::object(), OutputKind::Dockerfile, "Dockerfile." + image.name, nullptr,
                       read_user_dockerfile(project, image)});
      return;
    }
    const std::string reference = image_reference(project, image, options);
    items.push_back({dockerfile_template_name(image),
                     dockerfile_context(project, image, reference, options.values), OutputKind::Dockerfile,
                     "Dockerfile." + image.name});
  }
};

}  // namespace

bool has_template_syntax(const std::string& text) {
  return text.find("{{") != std::string::npos || text.find("{%") != std::string::npos ||
         text.find("{#") != std::string::npos;
}

json RenderItem::full_context() const { return shared ? merged_context(context, *shared) : context; }

std::string default_image_reference(const project::Project& project, const project::Image& image) {
  std::string registry = project.registry;
  while (!registry.empty() && registry.back() == '/') registry.pop_back();
  return registry + "/" + project.name + "-" + image.name + ":latest";
}

std::string image_reference(const project::Project& project, const project::Image& image,
                            const RenderOptions& options) {
  auto found = options.image_references.find(image.name);
  return found != options.image_references.end() ? found->second : default_image_reference(project, image);
}

std::vector<RenderItem> plan_render(const project::Project& project, const RenderOptions& options,
                                    const catalog::Catalog& catalog, const TextExpander& expand) {
  if (!options.run_id.empty() && !is_valid_run_id(options.run_id))
    throw SourceError(kCommandLine, "run id " + in_quotes(options.run_id) + ": a run id must be lower-case letters, "
                                    "digits and '-', at most 40 characters");
  Planner planner{project, options, catalog, expand, runrecord::Clock::now(), {}};
  for (const auto& label : options.accelerators) catalog.get(label, kCommandLine);
  if (!options.queue.empty() && !project::is_dns_label(options.queue))
    throw SourceError(kCommandLine, "queue " + in_quotes(options.queue) + ": a LocalQueue name is lower-case letters, digits "
                                    "and '-', at most 63 characters");
  const Selection selection = select_targets(project, options.targets, options.all_dockerfiles);
  for (const auto* image : selection.dockerfiles) planner.add_dockerfile(*image);
  planner.add_support(selection);
  for (const auto* experiment : selection.jobs) planner.add_experiment(*experiment, false);
  for (const auto* experiment : selection.pods) planner.add_experiment(*experiment, true);
  planner.add_workload_items();
  return std::move(planner.items);
}

}  // namespace gkebuild::render
