#include "tool/steps/render/targets.h"

#include <algorithm>

#include "base/printable.h"
#include "base/source_error.h"
#include "base/suggest.h"

namespace gkebuild::render {
namespace {

template <typename T>
void add_once(std::vector<const T*>& list, const T* item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

// Whether an experiment's fallback: is carried out by a ComputeClass (not by the follower).
bool has_compute_class(const project::Project& project) {
  return std::any_of(project.experiments.begin(), project.experiments.end(),
                     [&](const auto& experiment) { return project::uses_compute_class(project, experiment); });
}

[[noreturn]] void unknown(const project::Project& project, const std::string& target, const std::string& why) {
  // A target known but not there (kueue without a kueue: section) is no misspelling of itself.
  std::vector<std::string> names = target_names(project);
  std::erase(names, target);
  throw SourceError({"target " + in_quotes(target)}, why + did_you_mean(target, names));
}

void select_one(const project::Project& project, const std::string& target, Selection& selection) {
  const auto slash = target.find('/');
  const std::string kind = slash == std::string::npos ? "" : target.substr(0, slash);
  const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
  const auto* experiment = project.find_experiment(name);
  const auto* image = project.find_image(name);
  if (kind.empty() && target == "namespace") selection.namespace_object = true;
  else if (kind.empty() && target == "driver-installer") selection.driver_installer = true;
  else if (kind.empty() && target == "storage") selection.storage = true;
  else if (kind.empty() && target == "kueue") {
    if (!project.kueue) unknown(project, target, "the project file has no kueue: section to render");
    selection.kueue = true;
  }
  else if (kind.empty() && target == "compute-classes") {
    if (!has_compute_class(project))
      unknown(project, target, project.cluster.failover == project::Failover::Follow
                                   ? "cluster.failover is follow: the follower moves points to their fallback "
                                     "alternatives, so there is no ComputeClass to render"
                                   : "no experiment has a fallback: list, so there is no ComputeClass to render");
    selection.compute_classes = true;
  }
  else if (kind.empty() && experiment && image)
    unknown(project, target, "both an experiment and an image are named '" + name +
                                 "'; say experiment/" + name + " or image/" + name);
  else if ((kind.empty() || kind == "experiment" || kind == "job") && experiment) add_once(selection.jobs, experiment);
  else if (kind == "pod" && experiment) add_once(selection.pods, experiment);
  else if ((kind.empty() || kind == "image" || kind == "dockerfile") && image) add_once(selection.dockerfiles, image);
  else unknown(project, target, "no such experiment, image or object kind in " + project.file.string());
}

}  // namespace

std::vector<std::string> target_names(const project::Project& project) {
  std::vector<std::string> names{"namespace", "driver-installer", "storage", "kueue", "compute-classes"};
  for (const auto& name : project.experiment_names()) {
    names.push_back(name);
    names.push_back("experiment/" + name);
    names.push_back("pod/" + name);
  }
  for (const auto& name : project.image_names()) {
    names.push_back(name);
    names.push_back("image/" + name);
  }
  return names;
}

Selection select_targets(const project::Project& project, const std::vector<std::string>& targets,
                         bool all_dockerfiles) {
  Selection selection;
  if (targets.empty()) {
    for (const auto& experiment : project.experiments) selection.jobs.push_back(&experiment);
    selection.kueue = project.kueue.has_value();
    selection.compute_classes = has_compute_class(project);
  }
  for (const auto& target : targets) select_one(project, target, selection);
  if (all_dockerfiles)
    for (const auto& image : project.images) add_once(selection.dockerfiles, &image);
  // Jobs and pods need the objects they run in.
  if (targets.empty() || !selection.jobs.empty() || !selection.pods.empty()) {
    selection.namespace_object = selection.driver_installer = selection.storage = true;
  }
  return selection;
}

}  // namespace gkebuild::render
