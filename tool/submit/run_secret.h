// A run's secret variables (an experiment's secretEnv, submit --secret-env): read from the
// submitter's environment before anything is built, held in memory only, and sent to the
// cluster as one Secret per run, which the Jobs read through secretKeyRef. The Secret is
// applied before the first Job is created (no pod ever waits for it), and every Job is added
// to its ownerReferences once created, so that the garbage collector deletes it with the last
// of them (ttlSecondsAfterFinished or a delete); `gkebuild delete RUN` deletes it at once.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/secret_mask.h"
#include "tool/core/kube/cluster_api.h"
#include "tool/core/project/project.h"
#include "tool/submit/follow_view.h"
#include "tool/submit/follower.h"

namespace gkebuild::submit {

// The most Jobs a run with secretEnv may have: each is an owner of the run's Secret, and the
// whole owner list goes with every update (about 150 bytes a Job; objects are held to 1.5 MiB).
inline constexpr std::size_t kMostSecretOwners = 2000;

// --secret-env NAME[,NAME]: adds the names to `experiment`'s secretEnv (a name under its env:
// is bad input; one already in secretEnv is taken once) and returns them: the variables the
// user consented to pass. Nothing is added for an experiment the project does not have (the
// plan says so, with a suggestion).
std::vector<std::string> add_secret_env_flags(project::Project& project, const std::string& experiment,
                                              const std::vector<std::string>& flag_values);

class RunSecret {
 public:
  // Reads every secretEnv variable of `experiment` from this process's environment. One that
  // `consented` (the names --secret-env gave) lacks is refused at its line in the project file,
  // naming the flag to add, before any is read; a missing one is bad input at its line (or
  // naming --secret-env).
  static RunSecret read(const project::Experiment& experiment, const std::vector<std::string>& consented);
  // The values the run's Secrets hold on the cluster (`items` of a List, data in base64): a
  // later follow (`logs -f`) masks what it reads as the submit did, without reading this
  // environment again. A value that is not base64 is left out (gkebuild never wrote it).
  static RunSecret from_cluster(const nlohmann::json& items);

  bool empty() const { return values_.empty(); }
  std::vector<std::string> names() const;
  // The value of `name`, or nullptr.
  const std::string* find(std::string_view name) const;
  // `text` with every value replaced by "***" (the logs and messages gkebuild shows and keeps).
  std::string mask(std::string text) const;

  // The Secret (type Opaque, one key per variable, labelled as the run's other objects).
  nlohmann::json object(const std::string& namespace_name, const std::string& name, const std::string& project,
                        const std::string& experiment, const std::string& run_id) const;

 private:
  std::vector<std::pair<std::string, std::string>> values_;
  SecretMask mask_;  // of every value, made once: each log line passes through it
};

// A RunSink that masks the run's secret values in log and result lines before `sink` keeps
// them (logs/, results.jsonl), should a program print one.
class MaskingSink : public RunSink {
 public:
  MaskingSink(RunSink& sink, const RunSecret& secret) : sink_(sink), secret_(secret) {}
  // A Job's reason (run.json) may quote an error or a pod's message: masked as the logs are.
  void jobs_changed(const std::vector<JobProgress>& jobs) override;
  void log_line(const std::string& job, const std::string& line, int index) override {
    sink_.log_line(job, secret_.mask(line), index);
  }
  void result_line(const std::string& job, const std::string& line, int index) override {
    sink_.result_line(job, secret_.mask(line), index);
  }

 private:
  RunSink& sink_;
  const RunSecret& secret_;
};

// The view masks the same values in what it shows (log lines and each Job's status words).
inline void mask_view(FollowView& view, const RunSecret& secret) {
  if (!secret.empty()) view.mask_with([&secret](std::string line) { return secret.mask(std::move(line)); });
}

// Keeps the run's Secret owned by every Job created so far: each call applies (server-side)
// the whole list, so a restarted submit or a second manager cannot leave a Job out.
class SecretOwners {
 public:
  SecretOwners(kube::ClusterApi& cluster, std::string namespace_name, std::string name)
      : cluster_(&cluster), namespace_(std::move(namespace_name)), name_(std::move(name)) {}
  void add(const std::vector<std::pair<std::string, std::string>>& created_jobs);  // name, uid
  // A Job about to be deleted by gkebuild (recreated, or stopped early) owns it no more: else the
  // garbage collector would take the Secret with its last owner, before the new Job owns it.
  void remove(const std::string& uid);

 private:
  void apply_owners();

  kube::ClusterApi* cluster_;
  std::string namespace_;
  std::string name_;
  nlohmann::json owners_ = nlohmann::json::array();
};

}  // namespace gkebuild::submit
