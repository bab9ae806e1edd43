#include "tool/submit/managed_run.h"

#include <chrono>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>

#include "base/printable.h"
#include "tool/core/kube/api_error.h"
#include "tool/core/runrecord/results_file.h"
#include "tool/core/runrecord/run_store.h"
#include "tool/submit/finish.h"
#include "tool/submit/follow_view.h"
#include "tool/submit/record_writer.h"
#include "tool/steps/plan/run_plan.h"
#include "tool/submit/run_secret.h"

namespace gkebuild::submit {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kFieldManager = "gkebuild-controller";

const kube::ResourceType& config_maps() { return kube::resource_type("v1", "ConfigMap"); }

json create_json(const kube::PreparedCreate& create) {
  return {{"name", create.name}, {"url", create.url}, {"body", create.body}, {"action", create.action}};
}

json placement_json(const JobPlacement& placement) {
  return {{"accelerator", placement.accelerator}, {"gpus", placement.gpus},
          {"machine_type", placement.machine_type}, {"spot", placement.spot},
          {"provisioning", placement.provisioning}, {"nodes", placement.nodes}};
}

json recovery_json(const JobRecovery& recovery) {
  json fallbacks = json::array();
  for (const auto& fallback : recovery.fallbacks)
    fallbacks.push_back({{"create", create_json(fallback.create)}, {"placement", placement_json(fallback.placement)},
                         {"describe", fallback.describe}});
  return {{"create", create_json(recovery.create)}, {"restarts", recovery.restarts},
          {"retriable_exit_codes", recovery.retriable_exit_codes},
          {"pending_timeout_seconds", recovery.pending_timeout_seconds}, {"describe", recovery.describe},
          {"fallbacks", fallbacks}};
}

// Reads plan.json; every field checked, since the ConfigMap is the cluster's, not ours.
class PlanReader {
 public:
  explicit PlanReader(std::string where) : where_(std::move(where)) {}

  const json& field(const json& object, const char* key, json::value_t type, const std::string& path) const {
    auto found = object.is_object() ? object.find(key) : object.end();
    const bool number = type == json::value_t::number_integer;
    if (found == object.end() || (number ? !found->is_number_integer() : found->type() != type))
      fail(path + "." + key + ": missing or of the wrong type");
    return *found;
  }
  std::string text(const json& object, const char* key, const std::string& path) const {
    return field(object, key, json::value_t::string, path).get<std::string>();
  }
  long long integer(const json& object, const char* key, const std::string& path) const {
    return field(object, key, json::value_t::number_integer, path).get<long long>();
  }
  double number(const json& object, const char* key, const std::string& path) const {
    auto found = object.is_object() ? object.find(key) : object.end();
    if (found == object.end() || !found->is_number()) fail(path + "." + key + ": expected a number");
    return found->get<double>();
  }
  project::Objective objective(const json& object, const std::string& path) const {
    return {text(object, "metric", path), field(object, "minimize", json::value_t::boolean, path).get<bool>(), {}};
  }
  kube::PreparedCreate create(const json& object, const std::string& path) const {
    return {text(object, "name", path), text(object, "url", path), text(object, "body", path),
            text(object, "action", path)};
  }
  JobPlacement placement(const json& object, const std::string& path) const {
    return {text(object, "accelerator", path), static_cast<int>(integer(object, "gpus", path)),
            text(object, "machine_type", path), field(object, "spot", json::value_t::boolean, path).get<bool>(),
            text(object, "provisioning", path), static_cast<int>(integer(object, "nodes", path))};
  }
  JobRecovery recovery(const json& object, const std::string& path) const {
    JobRecovery recovery;
    recovery.create = create(field(object, "create", json::value_t::object, path), path + ".create");
    recovery.restarts = static_cast<int>(integer(object, "restarts", path));
    for (const auto& code : field(object, "retriable_exit_codes", json::value_t::array, path)) {
      if (!code.is_number_integer()) fail(path + ".retriable_exit_codes: expected integers");
      recovery.retriable_exit_codes.push_back(code.get<int>());
    }
    recovery.pending_timeout_seconds = integer(object, "pending_timeout_seconds", path);
    recovery.describe = text(object, "describe", path);
    const json& fallbacks = field(object, "fallbacks", json::value_t::array, path);
    for (std::size_t i = 0; i < fallbacks.size(); ++i) {
      const std::string at = path + ".fallbacks[" + std::to_string(i) + "]";
      recovery.fallbacks.push_back({create(field(fallbacks[i], "create", json::value_t::object, at), at + ".create"),
                                    placement(field(fallbacks[i], "placement", json::value_t::object, at), at),
                                    text(fallbacks[i], "describe", at)});
    }
    return recovery;
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw Error(ErrorKind::kBadInput, where_ + ": " + printable(message));
  }

 private:
  std::string where_;
};

json role_rules(bool queued, const std::string& state, const std::string& secret) {
  json rules = json::array({
      {{"apiGroups", {"batch"}}, {"resources", {"jobs"}}, {"verbs", {"get", "list", "watch", "create", "delete"}}},
      {{"apiGroups", {""}}, {"resources", {"pods", "events"}}, {"verbs", {"get", "list", "watch"}}},
      {{"apiGroups", {""}}, {"resources", {"pods/log"}}, {"verbs", {"get"}}},
      {{"apiGroups", {""}}, {"resources", {"configmaps"}}, {"resourceNames", {state}}, {"verbs", {"get", "patch"}}},
  });
  if (queued)
    rules.push_back({{"apiGroups", {"kueue.x-k8s.io"}}, {"resources", {"workloads"}}, {"verbs", {"get", "list", "watch"}}});
  // The run's Secret: read to mask its values in what the record keeps, patched to add owners.
  if (!secret.empty())
    rules.push_back({{"apiGroups", {""}}, {"resources", {"secrets"}}, {"resourceNames", {secret}}, {"verbs", {"get", "patch"}}});
  return rules;
}

json controller_job(const ManagedPlan& plan, const std::string& image, const json& labels) {
  const json env = json::array({{{"name", "POD_NAMESPACE"}, {"valueFrom", {{"fieldRef", {{"fieldPath", "metadata.namespace"}}}}}},
                                {{"name", "HOME"}, {"value", "/tmp"}}});
  const json container = {
      {"name", "controller"},
      {"image", image},
      {"command", {"/opt/gkebuild/bin/gkebuild", "controller", plan.run_id}},
      {"env", env},
      {"resources", {{"requests", {{"cpu", "100m"}, {"memory", "128Mi"}}}, {"limits", {{"memory", "512Mi"}}}}},
      {"volumeMounts", {{{"name", "scratch"}, {"mountPath", "/tmp"}}}}};
  return {{"apiVersion", "batch/v1"},
          {"kind", "Job"},
          {"metadata", {{"name", "gkebuild-controller-" + plan.run_id}, {"namespace", plan.namespace_name}, {"labels", labels}}},
          {"spec",
           {{"backoffLimit", 20},  // a controller whose node went away starts again and goes on
            {"ttlSecondsAfterFinished", 259200},
            {"template",
             {{"metadata", {{"labels", labels}}},
              {"spec", {{"serviceAccountName", kControllerAccount},
                        {"restartPolicy", "OnFailure"},
                        {"containers", {container}},
                        {"volumes", {{{"name", "scratch"}, {"emptyDir", json::object()}}}}}}}}}}};
}

// The record kept in `work_dir` (a RecordWriter's run folder), copied to the state ConfigMap
// at most every 2 s and at the end; and the Jobs created so far, so that a controller started
// again creates none twice.
class ConfigMapSink : public RunSink {
 public:
  ConfigMapSink(RecordWriter& writer, kube::ClusterApi& cluster, std::string namespace_name, std::string name,
                std::set<std::string> created)
      : writer_(writer), cluster_(cluster), namespace_(std::move(namespace_name)), name_(std::move(name)),
        created_(std::move(created)) {}

  void jobs_changed(const std::vector<JobProgress>& jobs) override {
    writer_.jobs_changed(jobs);
    if (Clock::now() - last_write_ >= std::chrono::seconds(2)) flush();
  }
  void log_line(const std::string& job, const std::string& line, int index) override {
    writer_.log_line(job, line, index);
  }
  void result_line(const std::string& job, const std::string& line, int index) override {
    writer_.result_line(job, line, index);
  }
  void created(const std::vector<std::pair<std::string, std::string>>& jobs) {
    for (const auto& [name, uid] : jobs) created_.insert(name);
    flush();
  }

  void flush() {
    last_write_ = Clock::now();
    std::ifstream in(writer_.dir() / "results.jsonl", std::ios::binary);
    std::string results((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string record = runrecord::to_json(writer_.record()).dump();
    if (record.size() + results.size() > kMaxManagedStateBytes)  // the record matters more
      results = "{\"note\":\"gkebuild: the results did not fit in the run's ConfigMap\"}\n";
    const json patch = {{"apiVersion", "v1"},
                        {"kind", "ConfigMap"},
                        {"metadata", {{"name", name_}, {"namespace", namespace_}}},
                        {"data", {{"run.json", record}, {"results.jsonl", results}, {"created", json(created_).dump()}}}};
    kube::ApplyOptions options;
    options.field_manager = kFieldManager;
    options.force = true;
    cluster_.apply(patch, options);
  }

 private:
  RecordWriter& writer_;
  kube::ClusterApi& cluster_;
  std::string namespace_;
  std::string name_;
  std::set<std::string> created_;
  Clock::time_point last_write_{};
};

json state_data(kube::ClusterApi& cluster, const std::string& namespace_name, const std::string& name) {
  const auto found = cluster.get(config_maps(), namespace_name, name);
  if (!found) return nullptr;
  const json data = found->value("data", json::object());
  return data.is_object() ? data : json::object();
}

std::string data_text(const json& data, const char* key) {
  auto found = data.find(key);
  return found != data.end() && found->is_string() ? found->get<std::string>() : "";
}

runrecord::RunRecord record_in(const json& data, const std::string& where) {
  const json document = json::parse(data_text(data, "run.json"), nullptr, false);
  if (document.is_discarded()) throw Error(ErrorKind::kBadInput, where + " run.json: not JSON");
  return runrecord::run_from_json(document, where + " run.json");
}

// The run's Secret, to mask its values in what the record keeps (the controller never prints them).
RunSecret secret_of(kube::ClusterApi& cluster, const runrecord::RunRecord& record) {
  if (record.secret.empty()) return {};
  const auto found = cluster.get(kube::resource_type("v1", "Secret"), record.namespace_name, record.secret);
  return found ? RunSecret::from_cluster(json::array({*found})) : RunSecret{};
}

}  // namespace

json to_json(const ManagedPlan& plan) {
  json jobs = json::array();
  for (const auto& job : plan.jobs) jobs.push_back(create_json(job));
  json recovery = json::object();
  for (const auto& [name, entry] : plan.recovery) recovery[name] = recovery_json(entry);
  json stopping = nullptr;
  if (const auto& rule = plan.early_stopping)
    stopping = {{"metric", rule->objective.metric}, {"minimize", rule->objective.minimize}, {"warmup", rule->warmup},
                {"min_points", rule->min_points}};
  json halving = nullptr;
  if (const auto& rule = plan.halving)
    halving = {{"metric", rule->objective.metric}, {"minimize", rule->objective.minimize},
               {"min_resource", rule->halving.min_resource}, {"reduction_factor", rule->halving.reduction_factor},
               {"min_early_stopping_rate", rule->halving.min_early_stopping_rate},
               {"max_resource", rule->halving.max_resource}};
  return {{"schema", "gkebuild.managed.v1"}, {"namespace", plan.namespace_name}, {"run_id", plan.run_id},
          {"max_in_flight", plan.max_in_flight}, {"jobs", jobs}, {"recovery", recovery},
          {"early_stopping", stopping}, {"halving", halving}};
}

ManagedPlan managed_plan_from_json(const json& document, const std::string& where) {
  const PlanReader read(where);
  if (!document.is_object() || document.value("schema", "") != "gkebuild.managed.v1")
    read.fail("not a gkebuild.managed.v1 plan");
  ManagedPlan plan;
  plan.namespace_name = read.text(document, "namespace", "plan");
  plan.run_id = read.text(document, "run_id", "plan");
  plan.max_in_flight = static_cast<int>(read.integer(document, "max_in_flight", "plan"));
  const json& jobs = read.field(document, "jobs", json::value_t::array, "plan");
  for (std::size_t i = 0; i < jobs.size(); ++i) plan.jobs.push_back(read.create(jobs[i], "plan.jobs[" + std::to_string(i) + "]"));
  for (const auto& [name, entry] : read.field(document, "recovery", json::value_t::object, "plan").items())
    plan.recovery[name] = read.recovery(entry, "plan.recovery." + name);
  if (auto stopping = document.find("early_stopping"); stopping != document.end() && !stopping->is_null()) {
    project::EarlyStopping rule;
    rule.objective = read.objective(*stopping, "plan.early_stopping");
    rule.warmup = read.number(*stopping, "warmup", "plan.early_stopping");
    rule.min_points = static_cast<int>(read.integer(*stopping, "min_points", "plan.early_stopping"));
    plan.early_stopping = rule;
  }
  if (auto halving = document.find("halving"); halving != document.end() && !halving->is_null()) {
    HalvingRule rule;
    rule.objective = read.objective(*halving, "plan.halving");
    rule.halving.min_resource = read.number(*halving, "min_resource", "plan.halving");
    rule.halving.reduction_factor = static_cast<int>(read.integer(*halving, "reduction_factor", "plan.halving"));
    rule.halving.min_early_stopping_rate =
        static_cast<int>(read.integer(*halving, "min_early_stopping_rate", "plan.halving"));
    rule.halving.max_resource = read.number(*halving, "max_resource", "plan.halving");
    if (rule.halving.reduction_factor < 2 || rule.halving.min_resource <= 0)
      read.fail("plan.halving: reduction_factor must be 2 or more and min_resource above 0");
    plan.halving = rule;
  }
  return plan;
}

std::string state_config_map(const std::string& run_id) { return "gkebuild-run-" + run_id; }

std::vector<json> controller_objects(const ManagedPlan& plan, const runrecord::RunRecord& record,
                                     const std::string& image, const json& labels, const std::string& secret) {
  const std::string& ns = plan.namespace_name;
  const std::string state = state_config_map(plan.run_id);
  const bool queued = std::any_of(plan.jobs.begin(), plan.jobs.end(), [](const kube::PreparedCreate& job) {
    return job.body.find("kueue.x-k8s.io/queue-name") != std::string::npos;
  });
  // The Role and its binding are per run: a controller can touch only its own run's state.
  const std::string role = "gkebuild-controller-" + plan.run_id;
  const json account = {{"apiVersion", "v1"}, {"kind", "ServiceAccount"},
                        {"metadata", {{"name", kControllerAccount}, {"namespace", ns}}}};
  const json role_object = {{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "Role"},
                            {"metadata", {{"name", role}, {"namespace", ns}, {"labels", labels}}},
                            {"rules", role_rules(queued, state, secret)}};
  const json binding = {{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "RoleBinding"},
                        {"metadata", {{"name", role}, {"namespace", ns}, {"labels", labels}}},
                        {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "Role"}, {"name", role}}},
                        {"subjects", {{{"kind", "ServiceAccount"}, {"name", kControllerAccount}, {"namespace", ns}}}}};
  const json config_map = {{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                           {"metadata", {{"name", state}, {"namespace", ns}, {"labels", labels}}},
                           {"data", {{"plan.json", to_json(plan).dump()},
                                     {"run.json", runrecord::to_json(record).dump()},
                                     {"results.jsonl", ""}, {"created", "[]"}}}};
  return {account, role_object, binding, config_map, controller_job(plan, image, labels)};
}

Outcome run_controller(kube::ClusterApi& cluster, const ControllerOptions& options, std::ostream& out,
                       std::ostream& err) {
  const std::string name = state_config_map(options.run_id);
  const std::string where = "ConfigMap " + options.namespace_name + "/" + name;
  const json data = state_data(cluster, options.namespace_name, name);
  if (data.is_null())
    throw Error(ErrorKind::kFailed, "no " + where + ": the run's state is gone (deleted with the run?)");
  const json plan_document = json::parse(data_text(data, "plan.json"), nullptr, false);
  ManagedPlan plan = managed_plan_from_json(plan_document, where + " plan.json");
  runrecord::RunRecord record = record_in(data, where);
  const json created_list = json::parse(data_text(data, "created"), nullptr, false);
  std::set<std::string> created;
  if (created_list.is_array())
    for (const auto& item : created_list)
      if (item.is_string()) created.insert(item.get<std::string>());

  fs::create_directories(options.work_dir / "logs");
  runrecord::save_run(options.work_dir, record);
  std::ofstream(options.work_dir / "results.jsonl", std::ios::trunc) << data_text(data, "results.jsonl");
  auto jobs = progress_from_record(options.work_dir, record);
  RecordWriter writer(options.work_dir, record);
  ConfigMapSink sink(writer, cluster, options.namespace_name, name, created);
  const RunSecret secret = secret_of(cluster, record);
  MaskingSink masked(sink, secret);

  FollowOptions follow;
  follow.namespace_name = options.namespace_name;
  follow.run_id = options.run_id;
  follow.max_in_flight = plan.max_in_flight;
  for (auto& job : plan.jobs)
    if (!created.count(job.name)) follow.to_create.push_back(std::move(job));
  follow.recovery = std::move(plan.recovery);
  follow.early_stopping = point_stopper(plan.early_stopping, plan.halving);
  follow.interrupted = options.interrupted;
  std::optional<SecretOwners> owners;
  if (!record.secret.empty()) owners.emplace(cluster, options.namespace_name, record.secret);
  follow.created = [&sink, &owners](const auto& jobs) {
    if (owners) owners->add(jobs);
    sink.created(jobs);
  };
  follow.retiring = [&owners](const std::string&, const std::string& uid) {
    if (owners) owners->remove(uid);
  };
  err << "gkebuild controller: following run " << printable(record.run) << " (" << jobs.size() << " Jobs, "
      << follow.to_create.size() << " to create)\n";
  FollowView view(err, out, false);
  mask_view(view, secret);
  const FollowEnd end = follow_run(cluster, jobs, std::move(follow), masked, view);
  sink.flush();
  return finish_follow(end, writer.record(), err);
}

std::optional<ManagedState> read_managed_state(kube::ClusterApi& cluster, const std::string& namespace_name,
                                               const std::string& run_id) {
  const std::string name = state_config_map(run_id);
  const json data = state_data(cluster, namespace_name, name);
  if (data.is_null()) return std::nullopt;
  return ManagedState{record_in(data, "ConfigMap " + namespace_name + "/" + name), data_text(data, "results.jsonl")};
}

}  // namespace gkebuild::submit
