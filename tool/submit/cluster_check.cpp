#include "tool/submit/cluster_check.h"

#include "base/error.h"
#include "tool/core/kube/api_error.h"
#include "tool/submit/cluster.h"

namespace gkebuild::submit {

std::vector<cluster::JobNeeds> job_needs(const project::Project& project, PlanRequest request) {
  std::vector<std::string> experiments{request.experiment};
  if (request.experiment.empty()) experiments = project.experiment_names();
  // What a Job needs of a node does not depend on its image: no build, no pin file.
  for (const auto& image : project.images) request.image_references[image.name] = "check.invalid/" + image.name;
  std::vector<cluster::JobNeeds> needs;
  for (const auto& experiment : experiments) {
    request.experiment = experiment;
    request.run_id = cluster_run_id(experiment + "-00000000-000000");
    request.objects = true;
    for (const auto& job : plan_run(project, request).jobs) {
      needs.push_back(cluster::needs_of(job.manifest.object, experiment));
      // With cluster.failover: follow the follower may create each alternative's Job instead: its
      // pool (derived like the experiment's own) must take it as well.
      for (const auto& alternative : job.alternatives)
        needs.push_back(cluster::needs_of(alternative.manifest.object, experiment + " (fallback)"));
    }
  }
  return needs;
}

cluster::CheckReport check_cluster_for(kube::ClusterApi& cluster, const project::Project& project,
                                       const std::vector<cluster::JobNeeds>& needs) {
  const auto state = cluster::read_cluster_state(cluster);
  const auto* gke = project.cluster.gke ? &*project.cluster.gke : nullptr;
  return cluster::check_cluster(state, needs, gke, project.cluster.driver_installer);
}

void check_before_submit(kube::ClusterApi& cluster, const std::string& context, const project::Project& project,
                         const PlanRequest& request, std::ostream& err) {
  cluster::CheckReport report;
  try {
    report = check_cluster_for(cluster, project, job_needs(project, request));
  } catch (const kube::ApiError& error) {
    err << "cluster check skipped: " << error.what() << "\n";
    return;
  }
  if (!report.has_problems()) return;
  if (!report.has_blocking()) {
    err << "cluster check:\n" << report.text();
    return;
  }
  std::string lines;
  for (const auto& finding : report.findings)
    if (finding.blocking) lines += "\n  " + finding.text;
  throw Error(ErrorKind::kFailed, "a Job of this run could never be scheduled on context " + context + ":" + lines +
                                      "\n(`gkebuild cluster check` shows the whole picture; --no-check skips this check)");
}

}  // namespace gkebuild::submit
