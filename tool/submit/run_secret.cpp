#include "tool/submit/run_secret.h"

#include <algorithm>
#include <cstdlib>
#include <regex>

#include "base/base64.h"
#include "base/error.h"
#include "base/printable.h"
#include "base/source_error.h"
#include "tool/core/kube/objects.h"

namespace gkebuild::submit {
namespace {

using nlohmann::json;

constexpr const char* kFlag = "--secret-env";

std::vector<std::string> split_names(const std::vector<std::string>& values) {
  static const std::regex variable("[A-Za-z_][A-Za-z0-9_]*");
  std::vector<std::string> names;
  for (const auto& value : values) {
    std::size_t start = 0;
    while (start <= value.size()) {
      const std::size_t comma = std::min(value.find(',', start), value.size());
      const std::string name = value.substr(start, comma - start);
      if (!std::regex_match(name, variable))
        throw Error(ErrorKind::kBadInput, std::string(kFlag) + " '" + printable(name) +
                                              "' is not an environment variable name (letters, digits, _)");
      names.push_back(name);
      start = comma + 1;
    }
  }
  return names;
}

}  // namespace

std::vector<std::string> add_secret_env_flags(project::Project& project, const std::string& experiment_name,
                                              const std::vector<std::string>& flag_values) {
  const std::vector<std::string> names = split_names(flag_values);
  auto experiment = std::find_if(project.experiments.begin(), project.experiments.end(),
                                 [&](const project::Experiment& e) { return e.name == experiment_name; });
  if (experiment == project.experiments.end()) return names;
  for (const auto& name : names) {
    for (const auto& [plain, value] : experiment->env)
      if (plain == name)
        throw Error(ErrorKind::kBadInput, std::string(kFlag) + " " + name + ": experiment '" + experiment->name +
                                              "' sets it under env:; a secret variable takes its value from this "
                                              "environment only");
    if (name == "PATH" || name == "LD_LIBRARY_PATH" || name.starts_with("GKEBUILD_"))
      throw Error(ErrorKind::kBadInput, std::string(kFlag) + " " + name + ": set by gkebuild");
    const bool listed = std::any_of(experiment->secret_env.begin(), experiment->secret_env.end(),
                                    [&](const project::NameAt& n) { return n.name == name; });
    if (!listed) experiment->secret_env.push_back(project::NameAt{name, {kFlag, 0, 0}});
  }
  return names;
}

namespace {

// The project file only names the variables it expects: a checkout must not be able to hand
// this environment's GITHUB_TOKEN to its Jobs. Each one needs the user's consent, given on the
// command line, as BuildKit's --secret; one refusal names every variable still missing it.
void check_consent(const project::Experiment& experiment, const std::vector<std::string>& consented) {
  std::vector<const project::NameAt*> missing;
  for (const auto& variable : experiment.secret_env)
    if (std::find(consented.begin(), consented.end(), variable.name) == consented.end()) missing.push_back(&variable);
  if (missing.empty()) return;
  std::string names;
  for (const auto* variable : missing) names += (names.empty() ? "" : ",") + variable->name;
  throw SourceError(missing.front()->where,
                    "experiment '" + experiment.name + "'.secretEnv: " + names +
                        ": gkebuild passes a variable of this environment to the Jobs only when the command line "
                        "names it (the project file may only say what it expects); add " + kFlag + " " + names);
}

}  // namespace

RunSecret RunSecret::read(const project::Experiment& experiment, const std::vector<std::string>& consented) {
  check_consent(experiment, consented);
  RunSecret secret;
  for (const auto& variable : experiment.secret_env) {
    const char* value = std::getenv(variable.name.c_str());
    if (value) {
      secret.values_.emplace_back(variable.name, value);
      continue;
    }
    const std::string why = variable.name + " is not set in this environment; export it before gkebuild submit "
                                            "(its value reaches the Jobs only, never a file)";
    if (variable.where.file == kFlag) throw Error(ErrorKind::kBadInput, std::string(kFlag) + " " + why);
    throw SourceError(variable.where, "experiment '" + experiment.name + "'.secretEnv: " + why);
  }
  std::vector<std::string> values;
  for (const auto& [name, value] : secret.values_) values.push_back(value);
  secret.mask_ = SecretMask(values);
  return secret;
}

std::vector<std::string> RunSecret::names() const {
  std::vector<std::string> out;
  for (const auto& [name, value] : values_) out.push_back(name);
  return out;
}

const std::string* RunSecret::find(std::string_view name) const {
  for (const auto& [key, value] : values_)
    if (key == name) return &value;
  return nullptr;
}

std::string RunSecret::mask(std::string text) const { return mask_.apply(text); }

RunSecret RunSecret::from_cluster(const json& items) {
  RunSecret secret;
  std::vector<std::string> values;
  for (const auto& item : items) {
    const json data = item.value("data", json::object());
    if (!data.is_object()) continue;
    for (const auto& [key, encoded] : data.items()) {
      if (!encoded.is_string()) continue;
      if (auto value = base64_decode(encoded.get<std::string>())) {
        values.push_back(*value);
        secret.values_.emplace_back(key, std::move(*value));
      }
    }
  }
  secret.mask_ = SecretMask(values);
  return secret;
}

void MaskingSink::jobs_changed(const std::vector<JobProgress>& jobs) {
  if (secret_.empty()) return sink_.jobs_changed(jobs);
  std::vector<JobProgress> masked = jobs;
  for (auto& job : masked) {
    job.reason = secret_.mask(std::move(job.reason));
    job.queued = secret_.mask(std::move(job.queued));
    for (auto& [name, pod] : job.pods)
      for (std::string* text : {&pod.unschedulable, &pod.waiting_message, &pod.evicted, &pod.termination_message,
                                &pod.scale_up, &pod.failed_scheduling})
        *text = secret_.mask(std::move(*text));
  }
  sink_.jobs_changed(masked);
}

json RunSecret::object(const std::string& namespace_name, const std::string& name, const std::string& project,
                       const std::string& experiment, const std::string& run_id) const {
  json data = json::object();
  for (const auto& [key, value] : values_) data[key] = base64_encode(value);
  return {{"apiVersion", "v1"},
          {"kind", "Secret"},
          {"metadata",
           {{"name", name},
            {"namespace", namespace_name},
            {"labels",
             {{"gkebuild.io/project", project}, {"gkebuild.io/experiment", experiment}, {"gkebuild.io/run", run_id}}}}},
          {"type", "Opaque"},
          {"data", std::move(data)}};
}

void SecretOwners::add(const std::vector<std::pair<std::string, std::string>>& created_jobs) {
  if (created_jobs.empty()) return;
  for (const auto& [job, uid] : created_jobs)
    owners_.push_back({{"apiVersion", "batch/v1"}, {"kind", "Job"}, {"name", job}, {"uid", uid}});
  apply_owners();
}

void SecretOwners::remove(const std::string& uid) {
  const auto before = owners_.size();
  owners_.erase(std::remove_if(owners_.begin(), owners_.end(),
                               [&uid](const json& owner) { return owner.value("uid", "") == uid; }),
                owners_.end());
  if (owners_.size() != before) apply_owners();  // none left: an ownerless Secret stays until delete RUN
}

void SecretOwners::apply_owners() {
  // Only what this manager owns: the Secret's data stays as the first apply left it.
  const json patch = {{"apiVersion", "v1"},
                      {"kind", "Secret"},
                      {"metadata", {{"name", name_}, {"namespace", namespace_}, {"ownerReferences", owners_}}}};
  kube::ApplyOptions options;
  options.field_manager = std::string(kube::kFieldManager) + "-owners";
  cluster_->apply(patch, options);
}

}  // namespace gkebuild::submit
