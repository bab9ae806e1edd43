#include "tool/submit/dry_run.h"

#include "tool/core/kube/api_error.h"
#include "tool/core/kube/objects.h"
#include "tool/core/runrecord/run_store.h"
#include "tool/steps/render/contexts.h"
#include "tool/submit/budget.h"
#include "tool/steps/cluster/access.h"
#include "tool/steps/plan/run_id.h"
#include "tool/submit/cost_summary.h"
#include "tool/submit/image_step.h"

namespace gkebuild::submit {
namespace {

// Sends the plan with dryRun=All; namespaced objects (the Jobs, a ConfigMap of sweep points,
// storage) only when their namespace exists already, since the dry-run of the Namespace does
// not create it.
// A refusal's words come from the server, which may quote what it was sent: masked.
Outcome check_on_server(kube::ClusterApi& cluster, const plan::RunPlan& plan, const nlohmann::json& secret,
                        const RunSecret& values, std::ostream& err) {
  try {
    kube::ApplyOptions apply;
    apply.dry_run = true;
    const bool namespace_exists =
        cluster.get(kube::resource_type("v1", "Namespace"), "", plan.namespace_name).has_value();
    std::size_t held = 0;
    for (const auto& object : plan.support) {
      if (!namespace_exists && kube::resource_type_of(object.object).namespaced) {
        ++held;
        continue;
      }
      cluster.apply(object.object, apply);
    }
    if (!secret.is_null() && namespace_exists) cluster.apply(secret, apply);
    if (!namespace_exists) {
      err << "dry run: the API server accepted the " << plan.support.size() - held << " other objects; namespace "
          << plan.namespace_name << " does not exist yet, so the " << plan.jobs.size() << " Jobs"
          << (held ? " and " + std::to_string(held) + " other namespaced objects" : std::string())
          << " were checked here only (a real submit creates the namespace first)\n";
      return Outcome::kSucceeded;
    }
    // A fallback alternative's Job (cluster.failover: follow) is checked too: the follower may create it.
    std::size_t alternatives = 0;
    for (const auto& job : plan.jobs) {
      cluster.create(job.manifest.object, true);
      for (const auto& alternative : job.alternatives) {
        cluster.create(alternative.manifest.object, true);
        ++alternatives;
      }
    }
    err << "dry run: the API server accepted all " << plan.support.size() + plan.jobs.size() << " objects"
        << (alternatives ? " and the " + std::to_string(alternatives) + " fallback Jobs that may replace Jobs" : "")
        << "\n";
  } catch (const kube::ApiError& error) {
    err << "dry run: the API server refused: " << values.mask(error.what()) << "\n";
    return Outcome::kFailed;
  }
  return Outcome::kSucceeded;
}

// "fallback: ..." naming the alternatives the follower may move a waiting Job to (every Job has
// the same ones), or "" without them.
std::string alternatives_line(const plan::RunPlan& plan) {
  if (plan.jobs.empty() || plan.jobs.front().alternatives.empty()) return "";
  std::string list;
  for (const auto& alternative : plan.jobs.front().alternatives)
    list += (list.empty() ? "" : ", then ") + alternative.describe;
  return "fallback (cluster.failover: follow): a Job whose pods wait for nodes past pendingTimeout is recreated on " +
         list + "; each such Job is printed as comments after its own\n";
}

}  // namespace

Outcome dry_run(const SubmitOptions& options, const project::Project& project, plan::PlanRequest request,
                const RunSecret& secret, const kube::ConnectCluster& connect) {
  std::ostream& err = *options.console.err;
  std::ostream& out = *options.console.out;
  ImageStepOptions images = image_step(options);
  images.dry_run = true;
  plan::check_plan(project, request);
  // The name the next submit would give its run (a run folder of this second already taken: -2).
  request.render.run_id = plan::cluster_run_id(runrecord::next_run_name(project.dir, request.experiment, runrecord::Clock::now()));
  request.render.image_references = image_references(project, plan::images_of(project, request.experiment), images);
  const plan::RunPlan plan = plan::plan_run(project, request);
  std::optional<kube::ClusterAccess> access;
  if (cluster::has_kubeconfig(options.kubeconfig)) access = cluster::cluster_access(options.kubeconfig, project.cluster.context);
  if (!options.quiet) err << cost_summary(plan, catalog::Catalog::builtin());
  err.flush();
  // The worst case against budget:, after the summary that shows it; a run past it prints no YAML.
  const std::string budget = check_budget(*project.find_experiment(plan.experiment), plan, catalog::Catalog::builtin());
  if (!options.quiet) err << budget << alternatives_line(plan);
  err.flush();
  out << plan::manifest_stream(plan);
  out.flush();
  nlohmann::json secret_object;
  if (!secret.empty()) {
    const std::string name = render::run_secret_name(project.name, plan.run_id);
    secret_object = secret.object(plan.namespace_name, name, project.name, plan.experiment, plan.run_id);
    err << "dry run: the run's Secret " << name << " (keys";
    for (const auto& key : secret.names()) err << " " << key;
    err << ", from this environment) would be applied before the Jobs; its values are not shown\n";
  }
  if (!access) {
    if (!options.quiet) err << "dry run: no kubeconfig, so nothing was sent to a cluster\n";
    return Outcome::kSucceeded;
  }
  const auto cluster = connect(*access);
  try {
    return check_on_server(*cluster, plan, secret_object, secret, err);
  } catch (const std::runtime_error& error) {  // not reachable: the printed YAML is the answer
    err << "dry run: " << secret.mask(error.what()) << "; nothing was sent\n";
    return Outcome::kSucceeded;
  }
}

}  // namespace gkebuild::submit
