#include "render/contexts.h"

namespace gkebuild::render {
namespace {

using json = nlohmann::ordered_json;

json accelerator_json(const catalog::Accelerator& accelerator) {
  return {{"label", accelerator.label},       {"short_name", accelerator.short_name},
          {"gpu", accelerator.gpu},           {"cuda_arch", accelerator.cuda_arch},
          {"compute_capability", accelerator.compute_capability()},
          {"memory_gib", accelerator.memory_gib}};
}

json env_list(const project::EnvList& env) {
  json list = json::array();
  for (const auto& [name, value] : env) list.push_back({{"name", name}, {"value", value}});
  return list;
}

json string_map(const project::EnvList& pairs) {
  json object = json::object();
  for (const auto& [key, value] : pairs) object[key] = value;
  return object;
}

}  // namespace

std::string storage_volume_name(const project::Project& project) {
  return "pvc-nfs-" + project.cluster.namespace_name;
}

json args_context(const RunUnit& unit, const json& point, const json& seed) {
  json context = point;
  // No seed (no seeds:, no sweep.seed): leave it undefined, so a strict render of
  // "{{ seed }}" fails instead of printing None.
  if (!seed.is_null()) context["seed"] = seed;
  context["values"] = *unit.values;
  context["experiment"] = unit.experiment->name;
  context["accelerator"] = unit.accelerator->label;
  context["project"] = unit.project->name;
  context["run_id"] = unit.run_id;
  return context;
}

json workload_context(const RunUnit& unit, const std::string& name, int point_index, const json& point,
                      int seeds, const std::vector<std::string>& command,
                      const std::vector<std::string>& args, const project::EnvList& env) {
  const auto& experiment = *unit.experiment;
  const auto& project = *unit.project;
  json labels = {{"gkebuild.io/project", project.name},
                 {"gkebuild.io/experiment", experiment.name},
                 {"gkebuild.io/run", unit.run_id},
                 {"gkebuild.io/accelerator", unit.accelerator->label},
                 {"gkebuild.io/point", std::to_string(point_index)}};
  json storage = nullptr;
  if (project.nfs && experiment.storage)
    storage = {{"mount_path", project.nfs->mount_path}, {"claim", kStorageClaim}};
  return {
      {"name", name},
      {"namespace", project.cluster.namespace_name},
      {"project", project.name},
      {"experiment", experiment.name},
      {"run_id", unit.run_id},
      {"labels", labels},
      {"point", point},
      {"job",
       {{"backoff_limit", experiment.backoff_limit},
        {"active_deadline_seconds", experiment.timeout_seconds},
        {"ttl_seconds_after_finished", experiment.ttl_seconds_after_finished},
        {"completions", seeds > 0 ? seeds : 1}}},
      {"indexed", seeds > 0},
      {"spot", experiment.spot},
      {"accelerator", accelerator_json(*unit.accelerator)},
      {"image", unit.image},
      {"command", command},
      {"args", args},
      {"env", env_list(env)},
      {"gpus", experiment.gpus},
      {"cpu", experiment.cpu},
      {"memory", experiment.memory},
      {"storage", storage},
      {"values", *unit.values},
  };
}

json namespace_context(const project::Project& project, const json& values) {
  return {{"project", project.name}, {"namespace", project.cluster.namespace_name}, {"values", values}};
}

json driver_context(const project::Project& project, const json& values) {
  const bool cos = project.cluster.driver_installer == project::DriverInstaller::Cos;
  return {{"project", project.name},
          {"driver", {{"variant", cos ? "cos" : "ubuntu"}, {"version", cos ? "default" : ""}}},
          {"values", values}};
}

json storage_context(const project::Project& project, const RenderOptions& options) {
  const auto& nfs = *project.nfs;
  const std::string& ns = project.cluster.namespace_name;
  return {{"project", project.name},
          {"namespace", ns},
          {"storage",
           {{"size", nfs.size},
            {"storage_class", nfs.storage_class},
            {"mount_path", nfs.mount_path},
            {"server", options.nfs_server.empty() ? "nfs-server." + ns + ".svc.cluster.local" : options.nfs_server},
            {"claim", kStorageClaim},
            {"volume", storage_volume_name(project)}}},
          {"values", options.values}};
}

json dockerfile_context(const project::Project& project, const project::Image& image,
                        const std::string& reference, const json& values) {
  std::vector<std::string> entrypoint = image.entrypoint;
  if (entrypoint.empty()) entrypoint.push_back("/opt/gkebuild/bin/" + image.workload);
  return {{"project", project.name},
          {"image",
           {{"name", image.name},
            {"from", image.from},
            {"workload", image.workload},
            {"cuda_libraries", image.cuda_libraries},
            {"entrypoint", entrypoint},
            {"env", string_map(image.env)},
            {"labels", string_map(image.labels)}}},
          {"reference", reference},
          {"values", values}};
}

}  // namespace gkebuild::render
