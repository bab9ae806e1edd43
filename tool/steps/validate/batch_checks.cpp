// Job rules: the restart policy the API server insists on, and for Jobs that hold
// GPUs the settings that stop them from holding expensive nodes after they are done.
#include <set>

#include "tool/steps/validate/gpu_checks.h"

namespace gkebuild::validate {

void check_batch(RuleReporter& r, const nlohmann::json& object, bool uses_gpus) {
  std::string kind = string_field(object, "kind");
  Path job_spec;
  if (kind == "Job") job_spec = {"spec"};
  else if (kind == "CronJob") job_spec = {"spec", "jobTemplate", "spec"};
  else return;
  const auto* spec = find_path(object, job_spec);
  if (!spec || !spec->is_object()) return;

  Path pod_spec = job_spec;
  pod_spec.insert(pod_spec.end(), {"template", "spec"});
  if (const auto* pod = find_path(object, pod_spec); pod && pod->is_object()) {
    auto policy = pod->find("restartPolicy");
    if (policy == pod->end())
      r.report("job-restart-policy", pod_spec, "Job pod template has no restartPolicy (the default Always is not allowed)", true);
    else if (*policy == "Always")
      r.report("job-restart-policy", [&] { Path p = pod_spec; p.push_back("restartPolicy"); return p; }(),
               "restartPolicy Always is not allowed for Job pods");
  }
  if (!uses_gpus) return;
  // CronJob-created Jobs are cleaned up by the CronJob's history limits instead.
  if (kind == "Job" && !spec->contains("ttlSecondsAfterFinished"))
    r.report("job-gpu-no-ttl", job_spec, "GPU Job has no ttlSecondsAfterFinished", true);
  if (!spec->contains("backoffLimit"))
    r.report("job-gpu-no-backoff-limit", job_spec, "GPU Job has no backoffLimit (the default retries 6 times)", true);
  if (!spec->contains("activeDeadlineSeconds"))
    r.report("job-gpu-no-deadline", job_spec, "GPU Job has no activeDeadlineSeconds", true);
}

void check_env(RuleReporter& r, const ContainerRef& container) {
  const auto* env = find_path(*container.container, {"env"});
  if (!env || !env->is_array()) return;
  std::set<std::string> seen;
  for (size_t i = 0; i < env->size(); ++i) {
    const auto& entry = (*env)[i];
    if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string()) continue;
    std::string name = entry["name"].get<std::string>();
    if (!seen.insert(name).second) {
      Path path = container.path;
      path.insert(path.end(), {"env", std::to_string(i), "name"});
      r.report("duplicate-env-var", path, "environment variable " + name + " is set more than once");
    }
  }
}

}  // namespace gkebuild::validate
