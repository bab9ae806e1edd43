#include "tool/steps/plan/job_needs.h"

namespace gkebuild::plan {

std::vector<cluster::JobNeeds> job_needs(const project::Project& project, PlanRequest request) {
  std::vector<std::string> experiments{request.experiment};
  if (request.experiment.empty()) experiments = project.experiment_names();
  // What a Job needs of a node does not depend on its image: no build, no pin file.
  for (const auto& image : project.images) request.render.image_references[image.name] = "check.invalid/" + image.name;
  std::vector<cluster::JobNeeds> needs;
  for (const auto& experiment : experiments) {
    request.experiment = experiment;
    request.render.run_id = stand_in_run_id(experiment);
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

}  // namespace gkebuild::plan
