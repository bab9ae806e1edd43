#include "tool/steps/render/contexts.h"

#include <algorithm>

#include "base/error.h"
#include "tool/core/project/reserved_variables.h"
#include "tool/steps/render/compute_class.h"
#include "tool/steps/render/names.h"

namespace gkebuild::render {

const catalog::Accelerator& cpu_only_accelerator() {
  static const catalog::Accelerator cpu = [] {
    catalog::Accelerator out;
    out.label = out.short_name = "cpu";
    out.gpu = "none";
    return out;
  }();
  return cpu;
}

namespace {

using json = nlohmann::ordered_json;

// Appends members in order: the keys of a context are distinct by construction, and
// nlohmann's initializer lists would copy every nested value and search the keys on each
// insert (most of planning a 1,000-point sweep went there).
class Members {
 public:
  // Reserved up front: the pairs have const keys, so growing would copy every value.
  explicit Members(std::size_t count) { object_.reserve(count); }
  Members& add(const char* key, json value) {
    object_.emplace_back(key, std::move(value));
    return *this;
  }
  json done() {
    json out(json::value_t::object);
    out.get_ref<json::object_t&>() = std::move(object_);
    return out;
  }

 private:
  json::object_t object_;
};

json accelerator_json(const catalog::Accelerator& accelerator) {
  return Members(6)
      .add("label", accelerator.label)
      .add("short_name", accelerator.short_name)
      .add("gpu", accelerator.gpu)
      .add("cuda_arch", accelerator.cuda_arch)
      .add("compute_capability", accelerator.compute_capability())
      .add("memory_gib", accelerator.memory_gib)
      .done();
}

json env_list(const project::EnvList& env) {
  json list = json::array();
  for (const auto& [name, value] : env) list.push_back(Members(2).add("name", name).add("value", value).done());
  return list;
}

// Each secretEnv variable as the template writes its secretKeyRef: the run's Secret holds it
// under its own name.
json secret_env_list(const RunUnit& unit) {
  json list = json::array();
  const std::string secret = run_secret_name(unit.project->name, unit.run_id);
  for (const auto& variable : unit.experiment->secret_env)
    list.push_back(Members(3).add("name", variable.name).add("secret", secret).add("key", variable.name).done());
  return list;
}

json secret_ref_list(const project::Experiment& experiment) {
  json list = json::array();
  for (const auto& ref : experiment.secret_refs) list.push_back(ref.name);
  return list;
}

json string_map(const project::EnvList& pairs) {
  json object = json::object();
  for (const auto& [key, value] : pairs) object[key] = value;
  return object;
}

}  // namespace

std::string run_secret_name(const std::string& project, const std::string& run_id) {
  return kube_name({project, run_id, "secret-env"}, 253);
}

std::string storage_volume_name(const project::Project& project) {
  return "pvc-nfs-" + project.cluster.namespace_name;
}

namespace {

// The value of one of the variables gkebuild sets (tool/core/project/reserved_variables.h).
json reserved_value(const RunUnit& unit, const json& seed, std::string_view name) {
  if (name == "seed") return seed;
  if (name == "values") return *unit.values;
  if (name == "experiment") return unit.experiment->name;
  if (name == "accelerator") return unit.accelerator->label;
  if (name == "project") return unit.project->name;
  if (name == "run_id") return unit.run_id;
  throw Error(ErrorKind::kCannotRun, "render sets no value for the reserved variable '" + std::string(name) + "'");
}

}  // namespace

json args_context(const RunUnit& unit, const json& point, const json& seed) {
  json context = point;
  for (const std::string_view name : project::kReservedVariables) {
    // No seed (no seeds:, no sweep.seed): leave it undefined, so a strict render of
    // "{{ seed }}" fails instead of printing None.
    if (json value = reserved_value(unit, seed, name); !value.is_null()) context[std::string(name)] = std::move(value);
  }
  return context;
}

json reservation_json(const std::string& reservation) {
  if (reservation.empty()) return nullptr;
  const auto slash = reservation.rfind('/');
  const std::string owner = slash == std::string::npos ? "" : reservation.substr(9, reservation.find('/', 9) - 9);
  return Members(2).add("name", reservation.substr(slash == std::string::npos ? 0 : slash + 1)).add("project", owner).done();
}

namespace {

// storage.gcs as the GCS FUSE CSI driver's volume attributes want it.
json gcs_json(const project::Project& project, const project::Experiment& experiment) {
  if (!project.gcs || !experiment.storage) return nullptr;
  const auto& gcs = *project.gcs;
  std::string options = "implicit-dirs";  // folders made by other tools show up
  if (!gcs.only_dir.empty()) options += ",only-dir=" + gcs.only_dir;
  return Members(4)
      .add("bucket", gcs.bucket)
      .add("mount_path", gcs.mount_path)
      .add("read_only", gcs.read_only)
      .add("mount_options", options)
      .done();
}

// Where checkpoints go: the run's storage (a writable bucket first, else the NFS share), in a
// folder of the run; without storage an emptyDir, which lasts as long as the pod.
std::string checkpoint_root(const project::Project& project, const project::Experiment& experiment,
                            const std::string& run_id) {
  if (experiment.storage && project.gcs && !project.gcs->read_only)
    return project.gcs->mount_path + "/checkpoints/" + run_id;
  if (experiment.storage && project.nfs) return project.nfs->mount_path + "/checkpoints/" + run_id;
  return "";
}

}  // namespace

json multi_node_json(const std::string& job_name, const project::Experiment& experiment, bool jobset) {
  if (experiment.nodes <= 1) return nullptr;
  // Pod i of an Indexed Job is host <job>-i in the subdomain of the headless Service named as the
  // Job (a Service name starts with a letter: "svc-3d-unet-…" for the Job "3d-unet-…"); a
  // JobSet's pod i of its first Job is <jobset>-<replicated Job>-0-i.<jobset>.
  const std::string service = jobset ? job_name : letter_first(job_name, "svc", 63);
  const std::string master =
      jobset ? job_name + "-" + kJobSetNodes + "-0-0." + job_name : job_name + "-0." + service;
  bool port_given = false;
  for (const auto& [name, value] : experiment.env) port_given = port_given || name == "MASTER_PORT";
  return Members(4)
      .add("service", service)
      .add("master_addr", master)
      .add("master_port", port_given ? std::string() : std::string("29500"))
      .add("nodes", experiment.nodes)
      .done();
}

namespace {

json provisioning_json(const project::Experiment& experiment) {
  return Members(4)
      .add("kind", project::to_string(experiment.provisioning))
      .add("flex_start", project::is_flex(experiment.provisioning))
      .add("queued", experiment.provisioning == project::Provisioning::Queued)
      .add("reservation", reservation_json(experiment.reservation))
      .done();
}

}  // namespace

json workload_shared_context(const RunUnit& unit, int seeds) {
  const auto& experiment = *unit.experiment;
  const auto& project = *unit.project;
  json storage = nullptr;
  if (project.nfs && experiment.storage)
    storage = Members(2).add("mount_path", project.nfs->mount_path).add("claim", kStorageClaim).done();
  const int nodes = experiment.nodes;
  const bool compute_class = project::uses_compute_class(project, experiment);
  return Members(30)
      .add("namespace", project.cluster.namespace_name)
      .add("project", project.name)
      .add("experiment", experiment.name)
      .add("run_id", unit.run_id)
      .add("job", Members(7)
                      .add("backoff_limit", experiment.backoff_limit)
                      .add("restarts", experiment.restarts)
                      .add("retriable_exit_codes", experiment.retriable_exit_codes)
                      .add("active_deadline_seconds", experiment.timeout_seconds)
                      .add("ttl_seconds_after_finished", experiment.ttl_seconds_after_finished)
                      .add("completions", seeds > 0 ? seeds : nodes)
                      .add("parallelism", seeds > 0 ? seeds : nodes)
                      .done())
      .add("indexed", seeds > 0 || nodes > 1)
      .add("seeded", seeds > 0)
      .add("points", nullptr)
      .add("spot", experiment.spot)
      .add("provisioning", provisioning_json(experiment))
      .add("gcs", gcs_json(project, experiment))
      .add("service_account", project.cluster.service_account)
      .add("checkpoint_root", checkpoint_root(project, experiment, unit.run_id))
      .add("compute_class", compute_class ? compute_class_name(project, experiment)
                                          : (project.cluster.gke ? project.cluster.gke->compute_class : std::string()))
      // With cluster.failover: follow the Jobs are rendered as without a fallback (the follower
      // recreates them for each alternative); pendingTimeout is on them in either mode.
      .add("fallback", compute_class ? fallback_json(experiment) : json())
      .add("pending_timeout_seconds", experiment.fallback.empty() ? json() : json(experiment.pending_timeout_seconds))
      .add("autopilot", project.cluster.gke && project.cluster.gke->autopilot)
      .add("shm_size", experiment.shm_size)
      .add("accelerator", accelerator_json(*unit.accelerator))
      .add("image", unit.image)
      .add("gpus", experiment.gpus)
      .add("cpu_only", experiment.cpu_only())
      .add("machine_type", experiment.machine_type)
      .add("cpu", experiment.cpu)
      .add("memory", experiment.memory)
      .add("storage", std::move(storage))
      .add("values", *unit.values)
      .add("queue", unit.queue)
      .add("secret_env", secret_env_list(unit))
      .add("secret_refs", secret_ref_list(experiment))
      .done();
}

ImagePaths image_paths(const std::vector<std::string>* config_env) {
  ImagePaths out{"/opt/gkebuild/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "/opt/gkebuild/lib"};
  if (config_env == nullptr) return out;
  out = {};
  for (const auto& entry : *config_env) {
    if (entry.starts_with("PATH=")) out.path = entry.substr(5);
    if (entry.starts_with("LD_LIBRARY_PATH=")) out.library_path = entry.substr(16);
  }
  return out;
}

std::string with_folder_appended(const std::string& own, const std::string& folder) {
  size_t start = 0;
  while (start <= own.size()) {
    size_t end = own.find(':', start);
    if (end == std::string::npos) end = own.size();
    if (own.compare(start, end - start, folder) == 0) return own;
    start = end + 1;
  }
  return own.empty() ? folder : own + ":" + folder;
}

json workload_point_context(const RunUnit& unit, const std::string& name, int point_index, const json& point,
                            const std::vector<std::string>& command, const std::vector<std::string>& args,
                            const project::EnvList& given_env) {
  std::string path = unit.image_path, library_path = unit.image_library_path;
  project::EnvList env;
  env.reserve(given_env.size());
  for (const auto& entry : given_env) {
    if (entry.first == "PATH") path = entry.second;
    else if (entry.first == "LD_LIBRARY_PATH") library_path = entry.second;
    else env.push_back(entry);
  }
  json labels = Members(5)
                    .add("gkebuild.io/project", unit.project->name)
                    .add("gkebuild.io/experiment", unit.experiment->name)
                    .add("gkebuild.io/run", unit.run_id)
                    .add("gkebuild.io/accelerator", unit.accelerator->label)
                    .add("gkebuild.io/point", std::to_string(point_index))
                    .done();
  return Members(8)
      .add("name", name)
      .add("labels", std::move(labels))
      .add("point", point)
      .add("command", command)
      .add("args", args)
      .add("env", env_list(env))
      // A CPU-only Job's node has no driver folders to add.
      .add("path", unit.experiment->cpu_only() ? path : with_folder_appended(path, "/usr/local/nvidia/bin"))
      .add("library_path",
           unit.experiment->cpu_only() ? library_path : with_folder_appended(library_path, "/usr/local/nvidia/lib64"))
      .done();
}

json merged_context(json own, const json& shared) {
  auto& members = own.get_ref<json::object_t&>();
  members.reserve(members.size() + shared.size());
  for (const auto& member : shared.get_ref<const json::object_t&>()) members.push_back(member);
  return own;
}

json workload_context(const RunUnit& unit, const std::string& name, int point_index, const json& point,
                      int seeds, const std::vector<std::string>& command,
                      const std::vector<std::string>& args, const project::EnvList& env) {
  return merged_context(workload_point_context(unit, name, point_index, point, command, args, env),
                        workload_shared_context(unit, seeds));
}

json namespace_context(const project::Project& project, const json& values) {
  return {{"project", project.name}, {"namespace", project.cluster.namespace_name}, {"values", values}};
}

json points_context(const RunUnit& unit, const std::string& name, json data) {
  return {{"name", name},
          {"namespace", unit.project->cluster.namespace_name},
          {"project", unit.project->name},
          {"labels",
           {{"gkebuild.io/project", unit.project->name},
            {"gkebuild.io/experiment", unit.experiment->name},
            {"gkebuild.io/run", unit.run_id},
            {"gkebuild.io/accelerator", unit.accelerator->label}}},
          {"data", std::move(data)},
          {"values", *unit.values}};
}

void make_indexed_sweep(json& context, int points, int parallelism, const std::string& config_map) {
  context["indexed"] = true;
  context["job"]["completions"] = points;
  context["job"]["parallelism"] = std::min(points, parallelism);
  context["points"] = {{"config_map", config_map}, {"mount_path", kPointsDir}};
}

namespace {

// The queues of queued provisioning, when an experiment asks for it: a flavor per accelerator
// those experiments use (quota from kueue.gpus), the ProvisioningRequestConfig and AdmissionCheck
// (both named as the ClusterQueue) that make Kueue ask GKE for the nodes of each admitted Job.
json queued_kueue(const project::Project& project) {
  const auto& kueue = *project.kueue;
  json flavors = json::array();
  std::vector<std::string> seen;
  for (const auto& experiment : project.experiments) {
    if (experiment.provisioning != project::Provisioning::Queued) continue;
    for (const auto& label : experiment.accelerators) {
      if (std::find(seen.begin(), seen.end(), label) != seen.end()) continue;
      seen.push_back(label);
      flavors.push_back({{"name", label + "-queued"}, {"label", label}, {"gpus", kueue.gpu_quota(label)}});
    }
  }
  if (flavors.empty()) return nullptr;
  return {{"queue", kueue.queued_queue()},
          {"cluster_queue", kueue.queued_cluster_queue()},
          {"check", kueue.queued_cluster_queue()},
          {"flavors", std::move(flavors)}};
}

}  // namespace

json kueue_context(const project::Project& project, const json& values) {
  const auto& kueue = *project.kueue;
  json flavors = json::array();
  for (const auto& [label, gpus] : kueue.gpus) flavors.push_back({{"name", label}, {"label", label}, {"gpus", gpus}});
  return {{"project", project.name},
          {"namespace", project.cluster.namespace_name},
          {"kueue",
           {{"queue", kueue.queue},
            {"cluster_queue", kueue.cluster_queue},
            {"cpu", kueue.cpu},
            {"memory", kueue.memory},
            {"flavors", std::move(flavors)},
            {"queued", queued_kueue(project)}}},
          {"values", values}};
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
