// `gkebuild submit --managed`: the run's controller in the cluster, so that gang restarts and
// fallback alternatives (recovery.h) go on with the laptop closed. The submit applies, in the
// run's namespace, a ServiceAccount with a Role limited to what a follow needs (its Jobs, their
// pods, logs and events, the run's own ConfigMap and Secret), the run's state ConfigMap
// (plan.json: the Jobs to create and how to recover them; run.json and results.jsonl: the record
// the controller keeps) and the controller Job, which runs `gkebuild controller RUN_ID` with the
// pod's in-cluster credentials. `gkebuild status` on the laptop reads the record back from the
// ConfigMap; `gkebuild delete RUN` deletes the controller with the run. docs/clusters.md says more.
#pragma once

#include <nlohmann/json.hpp>

#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "base/error.h"
#include "tool/core/kube/cluster_api.h"
#include "tool/core/runrecord/run_record.h"
#include "tool/submit/follower.h"
#include "tool/submit/recovery.h"

namespace gkebuild::submit {

inline constexpr const char* kControllerAccount = "gkebuild-controller";
// A ConfigMap holds at most 1 MiB; the plan must leave room for the record and results.
inline constexpr std::size_t kMaxManagedPlanBytes = 600 * 1024;
inline constexpr std::size_t kMaxManagedStateBytes = 1000 * 1024;

// What the controller needs to follow a run: plan.json in the state ConfigMap.
struct ManagedPlan {
  std::string namespace_name;
  std::string run_id;
  int max_in_flight = 50;
  std::deque<kube::PreparedCreate> jobs;  // in creation order
  std::map<std::string, JobRecovery> recovery;
  std::optional<project::EarlyStopping> early_stopping;
  std::optional<HalvingRule> halving;  // search.algorithm: halving
};

nlohmann::json to_json(const ManagedPlan& plan);
// Throws Error (kInvalidInput) naming `where` and the field for anything else than to_json wrote.
ManagedPlan managed_plan_from_json(const nlohmann::json& document, const std::string& where);

// The state ConfigMap of a run: gkebuild-run-RUN_ID.
std::string state_config_map(const std::string& run_id);

// Everything submit --managed applies or creates, in order: ServiceAccount, Role, RoleBinding, the
// state ConfigMap, the controller Job. `labels`: the run's labels; `secret`: the run's Secret or "".
std::vector<nlohmann::json> controller_objects(const ManagedPlan& plan, const runrecord::RunRecord& record,
                                               const std::string& image, const nlohmann::json& labels,
                                               const std::string& secret);

struct ControllerOptions {
  std::string namespace_name;
  std::string run_id;
  std::filesystem::path work_dir;  // scratch for the record while it is followed (the pod's emptyDir)
  const std::atomic<bool>* interrupted = nullptr;
};

// `gkebuild controller`: follows the run its state ConfigMap describes to its end, creating the
// Jobs not created yet, recovering them as the plan says, and writing the record back to the
// ConfigMap (at most every 2 s, and at the end). A controller started again goes on from there.
Outcome run_controller(kube::ClusterApi& cluster, const ControllerOptions& options, std::ostream& out,
                       std::ostream& err);

// The record and results the controller of a managed run keeps; nullopt when its ConfigMap is gone.
struct ManagedState {
  runrecord::RunRecord record;
  std::string results;  // results.jsonl as the controller wrote it
};
std::optional<ManagedState> read_managed_state(kube::ClusterApi& cluster, const std::string& namespace_name,
                                               const std::string& run_id);

}  // namespace gkebuild::submit
