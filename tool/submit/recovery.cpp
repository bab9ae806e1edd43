#include "tool/submit/recovery.h"

#include <algorithm>

namespace gkebuild::submit {
namespace {

using nlohmann::json;

std::string text(const json& object, const char* key) {
  auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

const json* failed_condition(const json& job) {
  auto status = job.find("status");
  if (status == job.end() || !status->is_object()) return nullptr;
  auto conditions = status->find("conditions");
  if (conditions == status->end() || !conditions->is_array()) return nullptr;
  for (const auto& item : *conditions)
    if (text(item, "type") == "Failed" && text(item, "status") == "True") return &item;
  return nullptr;
}

// The pod NAME of "... pod NS/NAME ..." / "Pod NS/NAME ...", or "".
std::string pod_named(const std::string& message) {
  for (const char* word : {"Pod ", "pod "}) {
    const auto at = message.find(word);
    if (at == std::string::npos) continue;
    const auto start = message.find('/', at);
    const auto end = message.find(' ', start);
    if (start != std::string::npos && end != std::string::npos) return message.substr(start + 1, end - start - 1);
  }
  return "";
}

std::optional<int> exit_code_in(const std::string& message) {
  const std::string marker = "failed with exit code ";
  const auto at = message.find(marker);
  if (at == std::string::npos) return std::nullopt;
  try {
    return std::stoi(message.substr(at + marker.size()));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::map<std::string, JobRecovery> plan_recovery(const project::Experiment& experiment, plan::RunPlan& plan,
                                                 const std::string& default_namespace) {
  std::map<std::string, JobRecovery> recovery;
  for (auto& job : plan.jobs) {
    const bool gang = job.nodes > 1 && experiment.restarts > 0;
    if (!gang && job.alternatives.empty()) continue;
    JobRecovery& entry = recovery[job.name];
    entry.create = kube::prepare_create(default_namespace, job.manifest.object);
    entry.restarts = gang ? experiment.restarts : 0;
    entry.retriable_exit_codes = experiment.retriable_exit_codes;
    entry.pending_timeout_seconds = experiment.pending_timeout_seconds;
    entry.describe = describe_placement(job);
    for (auto& alternative : job.alternatives) {
      const JobPlacement& placement = alternative;
      entry.fallbacks.push_back({kube::prepare_create(default_namespace, alternative.manifest.object), placement,
                                 describe_placement(placement)});
      alternative.manifest.object = nullptr;
    }
  }
  return recovery;
}

std::string describe_placement(const JobPlacement& placement) {
  std::string words = placement.gpus > 0 ? placement.accelerator + " x" + std::to_string(placement.gpus)
                                         : placement.machine_type + " (no GPU)";
  words += " " + placement.provisioning;
  if (placement.nodes > 1) words += ", " + std::to_string(placement.nodes) + " nodes";
  return words;
}

std::optional<std::string> disruption_of(const json& job, const std::vector<int>& retriable) {
  const json* failed = failed_condition(job);
  if (!failed || text(*failed, "reason") != "PodFailurePolicy") return std::nullopt;
  const std::string message = text(*failed, "message");
  const std::string pod = pod_named(message);
  if (message.find("has condition DisruptionTarget") != std::string::npos)
    return "pod " + pod + " was disrupted (DisruptionTarget: preempted, evicted or its node lost)";
  const auto code = exit_code_in(message);
  if (code && std::find(retriable.begin(), retriable.end(), *code) != retriable.end())
    return "pod " + pod + " exited with " + std::to_string(*code) + ", one of retriableExitCodes";
  return std::nullopt;
}

std::optional<std::string> capacity_refused(const JobProgress& job) {
  for (const auto& [name, pod] : job.pods) {
    if (pod.scheduled || pod.phase != "Pending") continue;
    if (pod.scale_up.starts_with("failed: ")) return "scale-up failed (FailedScaleUp): " + pod.scale_up.substr(8);
    if (pod.scale_up.starts_with("not triggered: ") &&
        pod.scale_up.find("backoff after failed scale-up") != std::string::npos)
      return "no scale-up (NotTriggerScaleUp): " + pod.scale_up.substr(15);
  }
  return std::nullopt;
}

}  // namespace gkebuild::submit
